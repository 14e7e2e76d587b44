import { GUARD_INTENT, HOOK_MARKER, HOOK_TIMEOUT_SECONDS, type ToolRecord } from './types.ts';

export const CURSOR_ENV_SNIPPET = '.cursor/loop-guard-env.sh';

export const cursor: ToolRecord = {
  name: 'cursor',
  label: 'Cursor',
  evidence: ['.cursor/', '.cursorrules'],
  intents: [
    GUARD_INTENT,
    {
      kind: 'json',
      path: '.cursor/hooks.json',
      ensureTop: { version: 1 },
      hooks: {
        style: 'flat',
        events: [
          { event: 'preToolUse', matcher: 'Shell' },
          { event: 'postToolUse', matcher: 'Shell' },
          { event: 'postToolUseFailure', matcher: 'Shell' },
          { event: 'beforeSubmitPrompt' },
          // Fired after the agent's edit tools write a file: an edit between two identical results is progress.
          { event: 'afterFileEdit' },
        ],
        // Cursor runs project hooks from the project root.
        command: 'node .agents/hooks/loop-guard.cjs cursor',
        timeout: HOOK_TIMEOUT_SECONDS,
        marker: HOOK_MARKER,
      },
    },
    { kind: 'owned', path: CURSOR_ENV_SNIPPET, asset: 'cursor-env', mode: 0o644 },
  ],
  needsShellProfile: true,
  doctor: {
    traces: { mentions: ['.cursor/hooks.json'] },
    shellLabel: "Cursor's agent shell",
    envFix: () => `load the Cursor agent environment from your shell profile: npx create-loop-guard --shell-profile`,
  },
  nextSteps: ['Cursor reloads .cursor/hooks.json by itself; if hooks do not show up, reload the window.'],
};
