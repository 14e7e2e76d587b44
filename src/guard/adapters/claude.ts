// Claude Code: PreToolUse / PostToolUse / PostToolUseFailure / UserPromptSubmit (shapes: shared/payloads/claude).
import type { Decision, GuardToolFacts } from '../core/types.ts';
import { obj, promptOf, sessionOf, str, type ParsedHook, type Payload } from './types.ts';

// Turns the harness injects by itself are not the user speaking, so they must not reset the counts.
const MACHINE_PROMPT_SOURCES = new Set(['system', 'loop_wakeup', 'schedule_wakeup', 'poll_event']);
// A background task's news reaches hooks as a UserPromptSubmit whose prompt is the <task-notification> itself, with no
// `source` (captured in 2.1.332: test/fixtures/payloads/claude/captured/background/); the model is told it is "NOT a
// message from the user". An ended task (a run_in_background command, a background sub-agent) changed the world.
const TASK_NOTIFICATION = '<task-notification>';
const TASK_ENDED = /<status>(?:completed|failed|killed|stopped|cancelled)<\/status>/;

/** A task notification: 'ended' when it reports a task's end, 'news' for any other (a Monitor event), else null. */
export function taskNotification(prompt: string | undefined): 'ended' | 'news' | null {
  if (!prompt?.trimStart().startsWith(TASK_NOTIFICATION)) return null;
  return TASK_ENDED.test(prompt) ? 'ended' : 'news';
}

/**
 * Tools whose completion changes the workspace: the edit tools and the sub-agent tool. Claude Code 2.1.332 sends Edit,
 * Write and Agent (captured); MultiEdit, NotebookEdit and Task are the names other releases use. The tool record's
 * PostToolUse matcher lists the same names (a test keeps them equal).
 */
export const CLAUDE_CHANGE_TOOLS = ['Edit', 'Write', 'MultiEdit', 'NotebookEdit', 'Agent', 'Task'] as const;
const CHANGE_TOOLS: ReadonlySet<string> = new Set(CLAUDE_CHANGE_TOOLS);

/** Split Claude's failure text "Exit code N\n<output>" into the code and the output. */
export function splitExitCode(error: string): { exitCode?: number; output: string } {
  const m = /^Exit code (\d+)\r?\n?/.exec(error);
  if (!m) return { output: error };
  return { exitCode: Number(m[1]), output: error.slice(m[0].length) };
}

/** Claude Code waits for every foreground command, and has its own background option. */
export const claudeFacts: GuardToolFacts = {
  longRunsReturn: false,
  backgroundOption: "the Bash tool's run_in_background",
  blockSaysThisCommand: false,
  // Its commands run with GIT_EDITOR=true (test/agents/git-editor.test.ts), so git's editor never waits there.
  shellEnv: { GIT_EDITOR: 'true' },
};

export function parseClaude(p: Payload): ParsedHook {
  const eventName = str(p.hook_event_name) ?? '';
  const base = { family: 'claude', session: sessionOf(p), eventName, format: 'claude' } as const;
  const input = obj(p.tool_input);
  const command = str(input?.command);
  const callId = str(p.tool_use_id);
  // PowerShell (Windows) takes Bash's input and gives Bash's output (Claude Code 2.1.332's tool schemas).
  const isBash = str(p.tool_name) === 'Bash' || str(p.tool_name) === 'PowerShell';

  // A new or resumed session hears the hand-off note first (not after a compaction: the note is already in context).
  if (eventName === 'SessionStart') return { ...base, event: str(p.source) === 'compact' ? null : { kind: 'start' } };
  if (eventName === 'UserPromptSubmit') {
    const source = str(p.source);
    if (source && MACHINE_PROMPT_SOURCES.has(source)) return { ...base, event: null };
    const task = taskNotification(str(p.prompt));
    if (task === 'ended') return { ...base, event: { kind: 'change', by: 'agent' } };
    if (task === 'news') return { ...base, event: null };
    return { ...base, event: { kind: 'userTurn', ...promptOf(p.prompt) } };
  }
  // A sub-agent's end is progress, a background one's too: its Agent PostToolUse came at its start. It is the parent
  // session's change: SubagentStop carries the sub-agent's agent_id, which keys the sub-agent's own counts.
  if (eventName === 'SubagentStop')
    return { ...base, session: str(p.session_id) ?? '', event: { kind: 'change', by: 'agent' } };
  // An edit or a finished sub-agent is progress; a refused edit fires no post event, so every post is a change.
  if (eventName === 'PostToolUse' && CHANGE_TOOLS.has(str(p.tool_name) ?? '')) {
    const by = str(p.tool_name) === 'Agent' || str(p.tool_name) === 'Task' ? 'agent' : 'edit';
    return { ...base, event: { kind: 'change', by, ...(callId ? { callId } : {}) } };
  }
  if (!isBash || command === undefined) return { ...base, event: null };
  const background = input?.run_in_background === true;

  if (eventName === 'PreToolUse') {
    return { ...base, event: { kind: 'pre', command, background, ...(callId ? { callId } : {}) } };
  }
  if (eventName === 'PostToolUse') {
    const response = obj(p.tool_response);
    // A background start returns only a task id, which says nothing about the command's result.
    if (background || response?.backgroundTaskId !== undefined || response?.interrupted === true)
      return { ...base, event: null };
    const stdout = str(response?.stdout) ?? '';
    const stderr = str(response?.stderr) ?? '';
    const saved = str(response?.persistedOutputPath);
    // An over-long output reaches the model as a preview and a saved file; the hook gets the head and the path.
    const shown = saved ? `Output too large. Full output saved to: ${saved}\n\n${stdout}` : stdout;
    const output = stderr ? `${shown}\n${stderr}` : shown;
    // PostToolUse fires only for exit code 0; every non-zero exit goes to PostToolUseFailure.
    return { ...base, event: { kind: 'post', command, output, exitCode: 0, ...(callId ? { callId } : {}) } };
  }
  if (eventName === 'PostToolUseFailure') {
    if (p.is_interrupt === true || background) return { ...base, event: null };
    const { exitCode, output } = splitExitCode(str(p.error) ?? '');
    return {
      ...base,
      event: {
        kind: 'post',
        command,
        output,
        ...(exitCode !== undefined ? { exitCode } : {}),
        ...(callId ? { callId } : {}),
      },
    };
  }
  return { ...base, event: null };
}

/** Allow is silence: printing "allow" would skip the user's permission prompt, and plain text on UserPromptSubmit would
 * reach the model. */
export function renderClaude(eventName: string, decision: Decision): string {
  // continue:false ends the turn only from PreToolUse (measured in 2.1.332; from PostToolUseFailure it does not), and
  // the deny beside it keeps the command from running once more.
  if (decision.action === 'handoff' && eventName === 'PreToolUse') {
    return JSON.stringify({
      continue: false,
      stopReason: decision.stopReason,
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: decision.message,
      },
    });
  }
  if (decision.action === 'deny' && eventName === 'PreToolUse') {
    return JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: decision.message,
      },
    });
  }
  // A note on a command that runs (one the user asked for): context beside the call, no permission decision, so the
  // user's own permission prompt still applies.
  if (decision.action === 'warn' && eventName === 'PreToolUse') {
    return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: decision.message } });
  }
  if (decision.action === 'warn' && (eventName === 'PostToolUse' || eventName === 'PostToolUseFailure')) {
    return JSON.stringify({ hookSpecificOutput: { hookEventName: eventName, additionalContext: decision.message } });
  }
  return sessionStartContext(eventName, decision);
}

/** SessionStart's answer in Claude's and Codex's shape: the hand-off note as context before the first prompt. */
export function sessionStartContext(eventName: string, decision: Decision): string {
  if (decision.action !== 'warn' || eventName !== 'SessionStart') return '';
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: decision.message } });
}
