import { guardCommand } from './hook-command.ts';
import { GUARD_INTENT, HOOK_MARKER, HOOK_TIMEOUT_SECONDS, type ToolRecord } from './types.ts';

export const CURSOR_ENV_SNIPPET = '.cursor/loop-guard-env.sh';

export const cursor: ToolRecord = {
  name: 'cursor',
  label: 'Cursor',
  userLevel: ['.cursor/hooks.json'],
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
        command: guardCommand('cursor'),
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
    hookEnv: { CURSOR_PROJECT_DIR: '{root}', CLAUDE_PROJECT_DIR: '{root}' },
    // The guard reads a Claude-shaped payload as Cursor's when these are set (Cursor also runs .claude/settings.json
    // hooks).
    identityEnv: ['CURSOR_VERSION', 'CURSOR_PROJECT_DIR'],
    hookRules: [
      {
        in: ['hooks'],
        key: ['version'],
        isNot: 1,
        message: '{file} has no "version": 1, which Cursor requires',
        fix: 'add "version": 1 at the top level of {file}',
      },
    ],
    checks: [
      { kind: 'profile-env', snippet: CURSOR_ENV_SNIPPET },
      {
        kind: 'also-runs',
        file: '.claude/settings.json',
        setting: 'its "Include Third-Party Plugins, Skills, and Other Configs" setting, on by default',
      },
      {
        kind: 'known-events',
        // Cursor's hooks reference (cursor.com/docs/hooks): agent, Tab and app events.
        known: [
          'sessionStart',
          'sessionEnd',
          'preToolUse',
          'postToolUse',
          'postToolUseFailure',
          'subagentStart',
          'subagentStop',
          'beforeShellExecution',
          'afterShellExecution',
          'beforeMCPExecution',
          'afterMCPExecution',
          'beforeReadFile',
          'afterFileEdit',
          'beforeSubmitPrompt',
          'preCompact',
          'stop',
          'afterAgentResponse',
          'afterAgentThought',
          'beforeTabFileRead',
          'afterTabFileEdit',
          'workspaceOpen',
        ],
        source: "Cursor's hooks reference (cursor.com/docs/hooks, Cursor 2.x)",
      },
    ],
    replay: {
      pre: { event: 'preToolUse', payload: 'preToolUse.json' },
      post: { event: 'postToolUse', payload: 'postToolUse.json' },
      turn: { event: 'beforeSubmitPrompt', payload: 'beforeSubmitPrompt.json' },
      command: 'tool_input.command',
      root: ['cwd', 'workspace_roots', 'tool_input.working_directory'],
      turnId: 'generation_id',
      callId: 'tool_use_id',
      prompt: ['prompt'],
      result: ({ output, exitCode }) => ({ tool_output: JSON.stringify({ exitCode, stdout: output }) }),
      answers: 'permission-fields',
      // preToolUse has no field that ends the turn: the hand-off is a refusal whose user_message says the agent
      // stopped.
      handoff: 'stops',
    },
  },
  nextSteps: ['reloads .cursor/hooks.json by itself; if hooks do not show up, reload the window.'],
};
