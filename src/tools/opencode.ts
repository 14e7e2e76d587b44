import { exportArgs } from './env-fix.ts';
import { GUARD_INTENT, type ToolRecord } from './types.ts';

export const OPENCODE_PLUGIN = '.opencode/plugins/loop-guard.js';

export const opencode: ToolRecord = {
  name: 'opencode',
  label: 'OpenCode',
  aliases: ['open-code'],
  userLevel: ['.config/opencode/opencode.json'],
  evidence: ['opencode.json', 'opencode.jsonc', '.opencode/'],
  // The plugin, a small loader of the guard file, runs the guard and sets the shell environment in-process (OpenCode
  // has no env setting for its shell).
  intents: [GUARD_INTENT, { kind: 'owned', path: OPENCODE_PLUGIN, asset: 'opencode-plugin', mode: 0o644 }],
  doctor: {
    traces: { exists: [OPENCODE_PLUGIN] },
    shellLabel: "OpenCode's shell",
    envFix: (vars) =>
      `npx create-loop-guard --yes --force to reinstall the plugin, which sets ${exportArgs(vars)} for every shell command`,
    plugin: {
      path: OPENCODE_PLUGIN,
      dist: 'opencode-loader.js',
      payloads: {
        init: 'plugin-init-context.json',
        before: 'tool.execute.before-failure.json',
        after: 'tool.execute.after-failure.json',
        turn: 'chat.message-prompt.json',
      },
      hooks: ['tool.execute.before', 'tool.execute.after', 'chat.message', 'shell.env'],
    },
  },
  nextSteps: ['loads .opencode/plugins/loop-guard.js at its next start.'],
};
