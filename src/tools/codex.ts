import { GUARD_INTENT, HOOK_MARKER, HOOK_TIMEOUT_SECONDS, type ToolRecord } from './types.ts';

export const codex: ToolRecord = {
  name: 'codex',
  label: 'Codex',
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
        events: [{ event: 'PreToolUse', matcher: 'Bash' }, { event: 'PostToolUse', matcher: 'Bash|apply_patch' }, { event: 'UserPromptSubmit' }],
        // Codex runs hooks in the session's cwd, which may be a subdirectory, so the path is rooted at the repo.
        command: 'node "$(git rev-parse --show-toplevel 2>/dev/null || pwd)/.agents/hooks/loop-guard.cjs" codex',
        timeout: HOOK_TIMEOUT_SECONDS,
        marker: HOOK_MARKER,
      },
    },
  ],
  doctor: {
    traces: { mentions: ['.codex/hooks.json', '.codex/config.toml'] },
    shellLabel: "Codex's shell",
    envFix: (key, value) => `set ${key} = "${value}" in [shell_environment_policy] set of .codex/config.toml (npx create-loop-guard --yes --force replaces your own value)`,
  },
  nextSteps: [
    'Codex runs project hooks and .codex/config.toml only in a trusted project: trust this folder when codex asks (or `codex exec --trust`).',
    'Then approve the hooks once in codex under /hooks; approval is per hook version, so it asks again after an upgrade.',
  ],
};
