import { guardCommand } from './hook-command.ts';
import { exportArgs } from './env-fix.ts';
import { GUARD_INTENT, HOOK_MARKER, HOOK_TIMEOUT_SECONDS, type ToolRecord } from './types.ts';

export const qwen: ToolRecord = {
  name: 'qwen',
  label: 'Qwen Code',
  userLevel: ['.qwen/settings.json'],
  evidence: ['.qwen/', 'QWEN.md'],
  intents: [
    GUARD_INTENT,
    {
      kind: 'json',
      // Qwen reads project settings only from <cwd>/.qwen, so the agent must be started at the repo root.
      path: '.qwen/settings.json',
      hooks: {
        style: 'nested',
        // Claude's format: a failing command reaches only PostToolUseFailure, so both post events are needed.
        events: [
          { event: 'PreToolUse', matcher: 'run_shell_command' },
          { event: 'PostToolUse', matcher: 'run_shell_command' },
          { event: 'PostToolUseFailure', matcher: 'run_shell_command' },
          { event: 'UserPromptSubmit' },
        ],
        command: guardCommand('qwen', { rootEnv: 'QWEN_PROJECT_DIR' }),
        timeout: HOOK_TIMEOUT_SECONDS,
        marker: HOOK_MARKER,
      },
    },
  ],
  doctor: {
    traces: { mentions: ['.qwen/settings.json'] },
    shellLabel: "Qwen Code's shell",
    // Qwen's shell sets PAGER=cat itself (not GIT_PAGER); it has no project setting for other variables.
    envFix: (vars) =>
      `Qwen Code has no project setting for its shell's environment: export ${exportArgs(vars)} before starting qwen`,
    hookEnv: { QWEN_PROJECT_DIR: '{root}', CLAUDE_PROJECT_DIR: '{root}' },
    hookRules: [
      {
        in: ['hooks'],
        key: ['disableAllHooks'],
        is: true,
        message: '{file} sets "disableAllHooks": true, so Qwen Code runs no hooks at all',
        fix: 'remove "disableAllHooks" from {file}',
      },
    ],
    shellEnv: { env: { PAGER: 'cat' }, source: "Qwen Code's own shell settings" },
    replay: {
      pre: { event: 'PreToolUse', payload: 'PreToolUse-failure.json' },
      post: { event: 'PostToolUseFailure', payload: 'PostToolUseFailure-failure.json' },
      turn: { event: 'UserPromptSubmit', payload: 'UserPromptSubmit-prompt.json' },
      command: 'tool_input.command',
      root: ['cwd'],
      // prompt_id is per user prompt; only a prompt carrying submitted_prompt counts as a user turn.
      turnId: 'prompt_id',
      callId: 'tool_use_id',
      prompt: ['prompt', 'submitted_prompt'],
      result: ({ command, output, exitCode }) => ({
        error:
          `Command: ${command}\nDirectory: (root)\nOutput: ${output}\nError: (none)\nExit Code: ${exitCode}` +
          `\nSignal: (none)\nProcess Group PGID: (none)`,
      }),
      answers: 'hook-specific-output',
      // continue:false on tool events does not stop Qwen; on the UserPromptSubmit it sends before the next model
      // request it does (the continuation, without submitted_prompt).
      handoff: 'stops',
      stop: { event: 'UserPromptSubmit', payload: 'UserPromptSubmit-continuation.json', answer: { continue: false } },
    },
  },
  nextSteps: ['start qwen at the repository root: it reads .qwen/settings.json from the current directory only.'],
};
