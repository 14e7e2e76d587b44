import type { ToolRecord } from './types.ts';

export const OPENCODE_PLUGIN = '.opencode/plugins/loop-guard.js';

export const opencode: ToolRecord = {
  name: 'opencode',
  label: 'OpenCode',
  evidence: ['opencode.json', 'opencode.jsonc', '.opencode/'],
  // The plugin carries the guard and the shell environment in-process (OpenCode has no env setting for its shell).
  intents: [{ kind: 'owned', path: OPENCODE_PLUGIN, asset: 'opencode-plugin', mode: 0o644 }],
  nextSteps: ['OpenCode loads .opencode/plugins/loop-guard.js at its next start.'],
};
