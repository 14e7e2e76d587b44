import { guardCommand } from './hook-command.ts';
import { GUARD_INTENT, HOOK_MARKER, HOOK_TIMEOUT_SECONDS, type ToolRecord } from './types.ts';

export const claude: ToolRecord = {
  name: 'claude',
  label: 'Claude Code',
  aliases: ['claude-code', 'claudecode'],
  userLevel: ['.claude/settings.json'],
  evidence: ['.claude/', 'CLAUDE.md'],
  intents: [
    GUARD_INTENT,
    {
      kind: 'json',
      path: '.claude/settings.json',
      env: { path: ['env'] },
      hooks: {
        style: 'nested',
        // A failing command reaches only PostToolUseFailure, so both post events are needed. PostToolUse also takes
        // the edit tools and the sub-agent tool: a change between two identical results is progress, not a loop.
        events: [
          // PowerShell: Claude Code's shell tool on Windows (Bash's input and output shapes, another tool name).
          { event: 'PreToolUse', matcher: 'Bash|PowerShell' },
          { event: 'PostToolUse', matcher: 'Bash|PowerShell|Edit|Write|MultiEdit|NotebookEdit|Agent|Task' },
          { event: 'PostToolUseFailure', matcher: 'Bash|PowerShell' },
          { event: 'UserPromptSubmit' },
          // A loop's next session hears the last hand-off note before its first prompt.
          { event: 'SessionStart' },
          // A sub-agent that ends (a background one long after its Agent call returned) may have changed the tree.
          { event: 'SubagentStop' },
        ],
        command: guardCommand('claude', { rootEnv: 'CLAUDE_PROJECT_DIR' }),
        timeout: HOOK_TIMEOUT_SECONDS,
        marker: HOOK_MARKER,
      },
    },
    // Claude Code reads CLAUDE.md and .claude/CLAUDE.md, not AGENTS.md: the stop rule goes in CLAUDE.md as its own
    // block (in .claude/CLAUDE.md when only that one exists), unless one of them imports AGENTS.md already
    // (CLAUDE.local.md is personal, never committed: not used).
    {
      kind: 'import',
      path: 'CLAUDE.md',
      line: '@AGENTS.md',
      reader: 'Claude Code',
      alsoRead: [{ path: '.claude/CLAUDE.md', line: '@../AGENTS.md', instead: true }],
    },
  ],
  doctor: {
    traces: { mentions: ['.claude/settings.json'] },
    shellLabel: "Claude Code's shell",
    envFix: (vars) =>
      `set ${vars.map(([key, value]) => `"${key}": "${value}"`).join(' and ')} under "env" in ` +
      `.claude/settings.json (npx create-loop-guard --yes --force replaces your own value)`,
    files: { local: { path: '.claude/settings.local.json' }, user: { path: '~/.claude/settings.json' } },
    hookEnv: { CLAUDE_PROJECT_DIR: '{root}' },
    // Claude Code gives its hooks and its shell the settings' env too; later layers win, as in Claude Code.
    settingsEnv: { files: ['user', 'hooks', 'local'] },
    hookRules: [
      {
        in: ['hooks', 'local', 'user'],
        key: ['disableAllHooks'],
        is: true,
        message: '{file} sets "disableAllHooks": true, so Claude Code runs no hooks at all',
        fix: 'remove "disableAllHooks" from {file}',
      },
    ],
    checks: [{ kind: 'import', also: ['.claude/CLAUDE.md'] }],
    replay: {
      windowsShell: { label: 'PowerShell tool', payload: 'PreToolUse-PowerShell.json' },
      pre: { event: 'PreToolUse', payload: 'PreToolUse-failure.json' },
      post: { event: 'PostToolUseFailure', payload: 'PostToolUseFailure-failure.json' },
      turn: { event: 'UserPromptSubmit', payload: 'UserPromptSubmit-prompt.json' },
      command: 'tool_input.command',
      root: ['cwd'],
      turnId: 'prompt_id',
      callId: 'tool_use_id',
      prompt: ['prompt'],
      result: ({ output, exitCode }) => ({ error: `Exit code ${exitCode}\n${output}` }),
      answers: 'hook-specific-output',
      handoff: 'stops',
    },
  },
  nextSteps: [
    'picks up .claude/settings.json on its own; in an interactive session accept the ' +
      'workspace-trust prompt so project hooks run.',
  ],
};
