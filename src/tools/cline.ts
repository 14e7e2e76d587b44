import { exportArgs } from './env-fix.ts';
import type { ToolRecord } from './types.ts';

/** What Cline loads: a small loader (Cline imports plugins with jiti, which would put a large file through Babel). */
export const CLINE_PLUGIN = '.cline/plugins/loop-guard.js';
/** The guard itself, built from src/guard/adapters/cline.ts; the loader requires it with Node's own require. */
export const CLINE_GUARD = '.agents/hooks/loop-guard-cline.cjs';

export const cline: ToolRecord = {
  name: 'cline',
  label: 'Cline',
  userLevel: ['.cline/data/settings/providers.json'],
  // .clinerules is a file or a folder of rules; .cline/ holds its project hooks, plugins and rules.
  evidence: ['.cline/', '.clinerules', '.clinerules/'],
  // Cline 3.0.65's file hooks cannot refuse one command, so the guard is a project plugin, run in Cline's plugin
  // process. Cline reads the workspace AGENTS.md itself (the stop rule), and has no setting for its shell's environment.
  intents: [
    { kind: 'owned', path: CLINE_PLUGIN, asset: 'cline-loader', mode: 0o644 },
    { kind: 'owned', path: CLINE_GUARD, asset: 'cline-plugin', mode: 0o644 },
  ],
  doctor: {
    traces: { exists: [CLINE_PLUGIN] },
    shellLabel: "Cline's shell",
    envFix: (vars) =>
      `Cline has no project setting for its shell's environment: export ${exportArgs(vars)} before starting cline`,
  },
  nextSteps: [
    'Cline loads .cline/plugins/loop-guard.js when it starts a session (no trust step); it reads AGENTS.md itself.',
  ],
};
