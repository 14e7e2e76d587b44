import { exportArgs } from './env-fix.ts';
import { GUARD_INTENT, type ToolRecord } from './types.ts';

/** What Cline loads: a small loader of the guard file (Cline imports plugins with jiti, which would put a large file
 * through Babel; the loader requires the guard file with Node's own require). */
export const CLINE_PLUGIN = '.cline/plugins/loop-guard.js';

export const cline: ToolRecord = {
  name: 'cline',
  label: 'Cline',
  userLevel: ['.cline/data/settings/providers.json'],
  // .clinerules is a file or a folder of rules; .cline/ holds its project hooks, plugins and rules.
  evidence: ['.cline/', '.clinerules', '.clinerules/'],
  // Cline 3.0.65's file hooks cannot refuse one command, so the guard is a project plugin, run in Cline's plugin
  // process. Cline reads the workspace AGENTS.md itself (the stop rule), and has no setting for its shell's
  // environment.
  intents: [GUARD_INTENT, { kind: 'owned', path: CLINE_PLUGIN, asset: 'cline-loader', mode: 0o644 }],
  doctor: {
    traces: { exists: [CLINE_PLUGIN] },
    shellLabel: "Cline's shell",
    envFix: (vars) =>
      `Cline has no project setting for its shell's environment: export ${exportArgs(vars)} before starting cline`,
  },
  nextSteps: [
    'loads .cline/plugins/loop-guard.js when it starts a session (no trust step); it reads AGENTS.md itself.',
  ],
};
