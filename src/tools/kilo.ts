import { exportArgs } from './env-fix.ts';
import { GUARD_INTENT, type ToolRecord } from './types.ts';

/** Kilo loads `{plugin,plugins}/*.{ts,js}` from `.kilo/` and the legacy `.kilocode/`, not from `.opencode/`; its docs
 * say new files go in `.kilo/`. */
export const KILO_PLUGIN = '.kilo/plugins/loop-guard.js';

export const kilo: ToolRecord = {
  name: 'kilo',
  label: 'Kilo CLI',
  userLevel: ['.config/kilo/kilo.json', '.config/kilo/kilo.jsonc'],
  // Kilo's project config: .kilo/ (and the legacy .kilocode/), kilo.json or kilo.jsonc. It also reads opencode.json,
  // which is OpenCode's evidence, so that file alone does not mean Kilo.
  evidence: ['.kilo/', 'kilo.json', 'kilo.jsonc', '.kilocode/plugins/', '.kilocode/plugin/'],
  // .kilocode/ alone is most often the VS Code extension's folder (rules, workflows), not the CLI's.
  weakEvidence: ['.kilocode/'],
  // Kilo is an OpenCode fork with the same plugin API: the OpenCode plugin's loader, with Kilo's name for notes and
  // logs, runs the guard file's plugin and the shell environment (its shell.env hook) in-process. Kilo reads AGENTS.md
  // itself.
  intents: [GUARD_INTENT, { kind: 'owned', path: KILO_PLUGIN, asset: 'kilo-plugin', mode: 0o644 }],
  doctor: {
    traces: { exists: [KILO_PLUGIN] },
    shellLabel: "Kilo's shell",
    envFix: (vars) =>
      `npx create-loop-guard --yes --force to reinstall the plugin, which sets ${exportArgs(vars)} for every shell command`,
    // Kilo's own captured payloads (assets/payloads/kilo/): the same shapes as OpenCode's.
    plugin: {
      path: KILO_PLUGIN,
      dist: 'kilo-loader.js',
      payloads: {
        init: 'plugin-init.json',
        before: 'tool.execute.before-failure.json',
        after: 'tool.execute.after-failure.json',
        turn: 'chat.message.json',
      },
      hooks: ['tool.execute.before', 'tool.execute.after', 'chat.message', 'shell.env'],
    },
  },
  nextSteps: ['loads .kilo/plugins/loop-guard.js at its next start.'],
};
