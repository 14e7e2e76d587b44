import { guardCommand } from './hook-command.ts';
import { exportArgs } from './env-fix.ts';
import { GUARD_INTENT, HOOK_MARKER, HOOK_TIMEOUT_SECONDS, type ToolRecord } from './types.ts';

export const gemini: ToolRecord = {
  name: 'gemini',
  label: 'Gemini CLI',
  userLevel: ['.gemini/settings.json'],
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
        // Gemini runs hooks with cwd = the project dir (and GEMINI_PROJECT_DIR set): the loader starts there.
        command: guardCommand('gemini', { rootEnv: 'GEMINI_PROJECT_DIR' }),
        // Gemini's hook timeout is in milliseconds.
        timeout: HOOK_TIMEOUT_SECONDS * 1000,
        marker: HOOK_MARKER,
      },
    },
    // Gemini reads GEMINI.md unless its settings name other context files ("contextFileName", or "context.fileName"
    // in the newer layout): when they name AGENTS.md, the AGENTS.md block reaches it and no GEMINI.md is written; when
    // they name other files only, the block goes in one of those (placeStopRule).
    {
      kind: 'import',
      path: 'GEMINI.md',
      line: '@AGENTS.md',
      reader: 'Gemini CLI',
      contextSetting: { path: '.gemini/settings.json', keys: [['contextFileName'], ['context', 'fileName']] },
    },
  ],
  doctor: {
    traces: { mentions: ['.gemini/settings.json'] },
    shellLabel: "Gemini CLI's shell",
    // Gemini's shell sets PAGER=cat, GIT_PAGER=cat and GIT_TERMINAL_PROMPT=0 itself; it has no project setting for
    // other variables.
    envFix: (vars) =>
      `Gemini CLI has no project setting for its shell's environment: export ${exportArgs(vars)} before starting gemini`,
    files: {
      user: { path: '~/.gemini/settings.json', movedBy: [{ env: 'GEMINI_CLI_HOME', dir: '~' }] },
      trustedFolders: {
        path: '~/.gemini/trustedFolders.json',
        movedBy: [
          { env: 'GEMINI_CLI_TRUSTED_FOLDERS_PATH', dir: '~/.gemini/trustedFolders.json' },
          { env: 'GEMINI_CLI_HOME', dir: '~' },
        ],
      },
    },
    hookRules: [
      {
        in: ['hooks', 'user'],
        key: ['hooksConfig', 'enabled'],
        is: false,
        message: '{file} sets "hooksConfig": { "enabled": false }, so Gemini CLI runs no hooks at all',
        fix: 'remove it from {file}',
      },
    ],
    shellEnv: {
      env: { PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' },
      source: "Gemini CLI's own shell settings",
    },
    // Gemini CLI 0.61 skips project hooks silently in a folder it does not trust.
    trust: {
      kind: 'folder-rules',
      file: 'trustedFolders',
      allEnv: 'GEMINI_CLI_TRUST_WORKSPACE',
      off: { file: 'user', key: ['security', 'folderTrust', 'enabled'], is: false },
      texts: {
        all: 'GEMINI_CLI_TRUST_WORKSPACE=true trusts every folder, so project hooks load',
        off: 'folder trust is off in {file}, so project hooks load',
        trusted: '{file} trusts this folder ({hit}), so Gemini CLI loads .gemini/settings.json and its hooks',
        untrusted:
          'Gemini CLI does not trust this folder{denied}, so it skips .gemini/settings.json and runs no ' +
          'loop-guard hook (and --skip-trust drops them silently)',
        denied: ' ({file} says DO_NOT_TRUST)',
        fix: 'start gemini here and choose "Trust folder", or add "{root}": "TRUST_FOLDER" to {file}',
      },
    },
    // The stop rule where Gemini reads it: GEMINI.md, or the file its contextFileName names (or AGENTS.md itself).
    checks: [{ kind: 'import' }],
    replay: {
      pre: { event: 'BeforeTool', payload: 'BeforeTool-failure.json' },
      post: { event: 'AfterTool', payload: 'AfterTool-failure.json' },
      turn: { event: 'BeforeAgent', payload: 'BeforeAgent-prompt.json' },
      command: 'tool_input.command',
      root: ['cwd'],
      prompt: ['prompt'],
      // The exit code lives only in llmContent; the process group id changes on every run.
      result: ({ output, exitCode, attempt }) => ({
        tool_response: {
          llmContent:
            `<untrusted_context>\nOutput: ${output}\nExit Code: ${exitCode}\nProcess Group PGID: ` +
            `${4000 + attempt}\n</untrusted_context>`,
          returnDisplay: output,
        },
      }),
      answers: 'decision-or-context',
      // The hand-off is the deny with continue:false beside it, which ends Gemini's run.
      handoff: 'stops',
    },
  },
  nextSteps: ['start gemini at the repository root: it reads .gemini/settings.json from the current directory only.'],
};
