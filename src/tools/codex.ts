import { guardCommand } from './hook-command.ts';
import { GUARD_INTENT, HOOK_MARKER, HOOK_TIMEOUT_SECONDS, type ToolRecord } from './types.ts';

/** Codex reads the AGENTS.md chain up to this many bytes (`project_doc_max_bytes`'s default) and drops the rest. */
export const CODEX_INSTRUCTION_BYTES = 32 * 1024;
export const codex: ToolRecord = {
  name: 'codex',
  label: 'Codex',
  aliases: ['openai-codex'],
  // AGENTS.override.md, then AGENTS.md, then these names; one file a folder (developers.openai.com/codex, AGENTS.md).
  docFallback: {
    key: 'project_doc_fallback_filenames',
    configs: [
      { path: '.codex/config.toml' },
      { path: '~/.codex/config.toml', movedBy: { env: 'CODEX_HOME', dir: '~/.codex' } },
    ],
  },
  userLevel: ['.codex/config.toml'],
  evidence: ['.codex/'],
  intents: [
    GUARD_INTENT,
    { kind: 'toml-env', path: '.codex/config.toml' },
    {
      kind: 'json',
      path: '.codex/hooks.json',
      hooks: {
        style: 'nested',
        // PostToolUse also takes apply_patch, Codex's edit tool: an edit between two identical results is progress.
        events: [
          { event: 'PreToolUse', matcher: 'Bash' },
          { event: 'PostToolUse', matcher: 'Bash|apply_patch' },
          { event: 'UserPromptSubmit' },
          // A loop's next session hears the last hand-off note before its first prompt.
          { event: 'SessionStart' },
        ],
        // Codex runs hooks in the session's cwd, which may be a subdirectory, so the path is rooted at the repo.
        command: guardCommand('codex'),
        timeout: HOOK_TIMEOUT_SECONDS,
        marker: HOOK_MARKER,
      },
    },
  ],
  doctor: {
    traces: { mentions: ['.codex/hooks.json', '.codex/config.toml'] },
    shellLabel: "Codex's shell",
    envFix: (vars) =>
      `set ${vars.map(([key, value]) => `${key} = "${value}"`).join(' and ')} in ` +
      `[shell_environment_policy] set of .codex/config.toml (npx create-loop-guard --yes --force replaces ` +
      `your own value)`,
    files: { user: { path: '~/.codex/config.toml', movedBy: [{ env: 'CODEX_HOME', dir: '~/.codex' }] } },
    // Hooks may also live in [hooks] of config.toml.
    hooksAlsoIn: ['env'],
    hookRules: [
      {
        in: ['env', 'user'],
        key: ['features', 'hooks'],
        is: false,
        message: '{file} sets [features] hooks = false, so Codex runs no hooks at all',
        fix: 'remove that line from {file}',
      },
      {
        in: ['env', 'user'],
        key: ['features', 'codex_hooks'],
        is: false,
        message: '{file} sets [features] hooks = false, so Codex runs no hooks at all',
        fix: 'remove that line from {file}',
      },
    ],
    // Codex sets these for every command it runs, after the config, so they always win.
    shellEnv: { env: { PAGER: 'cat', GIT_PAGER: 'cat', GH_PAGER: 'cat' }, source: 'Codex itself', forced: true },
    trust: {
      kind: 'projects-table',
      file: 'user',
      texts: {
        missing:
          "{file} does not exist, so Codex trusts no folder yet and silently skips this repo's " +
          '.codex/hooks.json and .codex/config.toml',
        unreadable: 'cannot read {file}: {error}; Codex cannot either, so the trust of this folder is unknown',
        trusted: '{file} trusts {root}, so Codex loads its .codex/ hooks and config',
        untrusted: "{file} {why}, so Codex silently skips this repo's .codex/hooks.json and .codex/config.toml",
        fix: '`codex` → trust this folder, or `codex exec --trust` once',
      },
    },
    checks: [
      {
        kind: 'hook-approval',
        file: 'user',
        how:
          'Codex runs a project hook only after you approve it: open `codex`, type /hooks and trust the ' +
          'loop-guard entries (it asks again after every change to them)',
      },
      // Codex concatenates the instruction files from the repo root down and stops at project_doc_max_bytes.
      { kind: 'instructions-budget', file: 'user', key: 'project_doc_max_bytes', bytes: CODEX_INSTRUCTION_BYTES },
    ],
    replay: {
      pre: { event: 'PreToolUse', payload: 'PreToolUse-failure.json' },
      post: { event: 'PostToolUse', payload: 'PostToolUse-failure.json' },
      turn: { event: 'UserPromptSubmit', payload: 'UserPromptSubmit-prompt.json' },
      command: 'tool_input.command',
      root: ['cwd'],
      turnId: 'turn_id',
      callId: 'tool_use_id',
      prompt: ['prompt'],
      // Codex gives post hooks the output text without an exit code.
      result: ({ output }) => ({ tool_response: `${output}\n` }),
      answers: 'hook-specific-output-only',
      // 0.171 honours no stop field: the guard ends a `codex exec` run by interrupting it, which a replay cannot see.
      handoff: 'refusal',
    },
  },
  nextSteps: [
    'approve the hooks once in codex under /hooks; approval is per hook version, so it asks again after an upgrade.',
  ],
};
