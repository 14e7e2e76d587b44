import { GUARD_INTENT, GUARD_PATH, HOOK_MARKER, HOOK_TIMEOUT_SECONDS, type ToolRecord } from './types.ts';

export const gemini: ToolRecord = {
  name: 'gemini',
  label: 'Gemini CLI',
  evidence: ['.gemini/', 'GEMINI.md'],
  intents: [
    GUARD_INTENT,
    {
      kind: 'json',
      // Gemini reads project settings only from <cwd>/.gemini, so the agent must be started at the repo root.
      path: '.gemini/settings.json',
      hooks: {
        style: 'nested',
        // Failures reach AfterTool too (exit code only in the text); BeforeAgent fires once per user prompt.
        events: [
          { event: 'BeforeTool', matcher: 'run_shell_command' },
          { event: 'AfterTool', matcher: 'run_shell_command' },
          { event: 'BeforeAgent' },
        ],
        // Gemini runs hooks with cwd = the project dir, so the path is relative (its $GEMINI_PROJECT_DIR is substituted pre-escaped).
        command: `node ${GUARD_PATH} gemini`,
        // Gemini's hook timeout is in milliseconds.
        timeout: HOOK_TIMEOUT_SECONDS * 1000,
        marker: HOOK_MARKER,
      },
    },
    // Gemini reads GEMINI.md, not AGENTS.md; its memory loader follows @file imports.
    { kind: 'import', path: 'GEMINI.md', line: '@AGENTS.md' },
  ],
  doctor: {
    traces: { mentions: ['.gemini/settings.json'] },
    shellLabel: "Gemini CLI's shell",
    // Gemini's shell sets PAGER=cat, GIT_PAGER=cat and GIT_TERMINAL_PROMPT=0 itself; it has no project setting for other variables.
    envFix: (key, value) => `Gemini CLI has no project setting for its shell's environment: export ${key}=${value} before starting gemini`,
  },
  nextSteps: [
    'Gemini CLI loads project hooks only in a trusted folder: answer its trust prompt, or add this folder to ~/.gemini/trustedFolders.json ("--skip-trust" runs without the hooks).',
    'Start gemini at the repository root: it reads .gemini/settings.json from the current directory only.',
  ],
};
