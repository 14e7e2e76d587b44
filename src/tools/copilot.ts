import { exportArgs } from './env-fix.ts';
import { guardCommand, powershellGuardCommand } from './hook-command.ts';
import { GUARD_INTENT, HOOK_MARKER, HOOK_TIMEOUT_SECONDS, type ToolRecord } from './types.ts';

export const copilot: ToolRecord = {
  name: 'copilot',
  label: 'GitHub Copilot CLI',
  userLevel: ['.copilot/config.json'],
  evidence: ['.github/hooks/'],
  // IDE Copilot reads copilot-instructions.md too, so alone it does not mean anyone runs Copilot CLI here.
  weakEvidence: ['.github/copilot-instructions.md'],
  intents: [
    GUARD_INTENT,
    {
      kind: 'json',
      // A file of its own in .github/hooks: Copilot merges every *.json there. Its cloud coding agent reads the same
      // folder.
      path: '.github/hooks/loop-guard.json',
      ensureTop: { version: 1 },
      hooks: {
        style: 'nested',
        // PascalCase events give Claude-shaped payloads; a failing command still arrives on PostToolUse. No matcher:
        // the adapter keeps only the Bash tool. PermissionRequest is where the hand-off stops the run (its
        // `interrupt: true` answer; Claude's continue:false is ignored).
        events: [
          { event: 'PreToolUse' },
          { event: 'PermissionRequest' },
          { event: 'PostToolUse' },
          { event: 'UserPromptSubmit' },
        ],
        // A preToolUse hook that exits non-zero DENIES the command in Copilot, so both lines fail open: a missing
        // guard file is silence (allow), a missing node `|| true` (bash) or the Get-Command check (PowerShell, which
        // Copilot runs on Windows instead of `command`; Windows PowerShell 5.1 has no `||`).
        command: guardCommand('copilot', { posix: true }),
        shells: { powershell: powershellGuardCommand('copilot') },
        timeout: HOOK_TIMEOUT_SECONDS,
        marker: HOOK_MARKER,
      },
    },
  ],
  doctor: {
    traces: { mentions: ['.github/hooks/loop-guard.json'] },
    shellLabel: "Copilot CLI's shell",
    envFix: (vars) =>
      `Copilot CLI has no project setting for its shell's environment: export ${exportArgs(vars)} before starting copilot`,
    files: { user: { path: '~/.copilot/config.json', movedBy: [{ env: 'COPILOT_HOME', dir: '~/.copilot' }] } },
    hookRules: [
      {
        in: ['user'],
        key: ['disableAllHooks'],
        is: true,
        message: '{file} sets "disableAllHooks": true, so Copilot CLI runs no hooks at all',
        fix: 'remove it from {file}',
      },
    ],
    shellEnv: { env: {}, source: 'no setting of ours (Copilot CLI has none for its shell)' },
    // Copilot CLI 1.0 loads .github/hooks only in a trusted folder, and says nothing when it does not.
    trust: {
      kind: 'folder-list',
      file: 'user',
      key: 'trustedFolders',
      allEnv: 'COPILOT_ALLOW_ALL',
      texts: {
        all: 'COPILOT_ALLOW_ALL=true trusts every folder, so .github/hooks load',
        trusted: '{file} trusts {hit}, so Copilot CLI loads .github/hooks',
        untrusted:
          'Copilot CLI does not trust this folder, so it loads no .github/hooks and runs no loop-guard hook ' +
          '(it says nothing about it)',
        fix: 'start copilot here and trust the folder, or add "{root}" to "trustedFolders" in {file}',
      },
    },
    replay: {
      pre: { event: 'PreToolUse', payload: 'PreToolUse-failure.json' },
      post: { event: 'PostToolUse', payload: 'PostToolUse-failure.json' },
      turn: { event: 'UserPromptSubmit', payload: 'UserPromptSubmit.json' },
      command: 'tool_input.command',
      root: ['cwd'],
      prompt: ['prompt'],
      // The exit code lives only in the closing `<shellId: N …>` line.
      result: ({ output, exitCode, attempt }) => ({
        tool_result: {
          result_type: 'success',
          text_result_for_llm: `${output}\n<shellId: ${attempt} completed with exit code ${exitCode}>`,
        },
      }),
      answers: 'decision-or-context',
      // PreToolUse lets the handed-off call through to PermissionRequest, whose answer refuses it and ends the turn
      // (Claude's continue:false is ignored). Copilot sends PermissionRequest in its camelCase shape.
      handoff: 'stops',
      stop: {
        event: 'PermissionRequest',
        payload: 'PermissionRequest-failure.json',
        command: 'toolInput.command',
        answer: { behavior: 'deny', interrupt: true },
      },
    },
  },
  nextSteps: ['its cloud coding agent reads the same .github/hooks from the default branch once this is merged.'],
};
