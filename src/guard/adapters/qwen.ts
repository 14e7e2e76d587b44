// Qwen Code 0.24: Claude's hook format with its own shell tool (run_shell_command); failures go to PostToolUseFailure;
// UserPromptSubmit fires before EVERY model request (shapes: test/fixtures/payloads/qwen).
import type { Decision, GuardToolFacts } from '../core/types.ts';
import { obj, promptOf, str, type ParsedHook, type Payload } from './types.ts';

const SHELL_TOOL = 'run_shell_command';

/**
 * The tool text is `Command: …\nDirectory: …\nOutput: …\nError: …\nExit Code: N\nSignal: …\nProcess Group PGID: …`:
 * the exit code lives only there, and the process group id changes between identical runs, so it is dropped.
 */
export function qwenOutput(text: string): { output: string; exitCode?: number } {
  const m =
    /^Command: [\s\S]*?\nDirectory: [^\n]*\nOutput: ([\s\S]*)\nError: ([^\n]*)\nExit Code: ([^\n]*)\nSignal: ([^\n]*)(?:\n[\s\S]*)?$/.exec(
      text,
    );
  if (!m)
    return {
      output: text
        .split('\n')
        .filter((l) => !/^(Process Group PGID|Background PIDs): /.test(l))
        .join('\n'),
    };
  const [, out = '', error = '', code = '', signal = ''] = m;
  const extra = [error !== '(none)' ? `Error: ${error}` : '', signal !== '(none)' ? `Signal: ${signal}` : ''].filter(
    Boolean,
  );
  const output = [out, ...extra].join('\n');
  return /^-?\d+$/.test(code.trim()) ? { output, exitCode: Number(code.trim()) } : { output };
}

/** Qwen waits for every foreground command, and has its own background option. */
export const qwenFacts: GuardToolFacts = {
  longRunsReturn: false,
  backgroundOption: "run_shell_command's is_background",
  blockSaysThisCommand: false,
};

export function parseQwen(p: Payload): ParsedHook {
  const eventName = str(p.hook_event_name) ?? '';
  const base = { family: 'qwen', session: str(p.session_id) ?? '', eventName, format: 'qwen' } as const;
  // prompt_id is per user prompt (the same across tool-result continuations, new after --continue): the user turn.
  const turnId = str(p.prompt_id);
  const turn = turnId ? { turnId } : {};
  if (eventName === 'UserPromptSubmit') {
    // Only a real prompt carries submitted_prompt; a continuation (prompt "", before every model request after a tool
    // result) or a Stop-hook retry is the run going on, where a hand-off earlier in the turn stops it.
    return {
      ...base,
      event:
        typeof p.submitted_prompt === 'string'
          ? { kind: 'userTurn', ...turn, ...promptOf(p.submitted_prompt) }
          : { kind: 'proceed', ...turn },
    };
  }
  const input = obj(p.tool_input);
  const command = str(input?.command);
  if (str(p.tool_name) !== SHELL_TOOL || command === undefined) return { ...base, event: null };
  const background = input?.is_background === true;
  const callId = str(p.tool_use_id);
  const call = callId ? { callId } : {};
  if (eventName === 'PreToolUse') return { ...base, event: { kind: 'pre', command, background, ...call, ...turn } };
  if (background) return { ...base, event: null };
  if (eventName === 'PostToolUse') {
    const response = obj(p.tool_response);
    return {
      ...base,
      event: {
        kind: 'post',
        command,
        ...qwenOutput(str(response?.llmContent) ?? str(response?.returnDisplay) ?? ''),
        ...call,
        ...turn,
      },
    };
  }
  if (eventName === 'PostToolUseFailure') {
    if (p.is_interrupt === true) return { ...base, event: null };
    return { ...base, event: { kind: 'post', command, ...qwenOutput(str(p.error) ?? ''), ...call, ...turn } };
  }
  return { ...base, event: null };
}

/** Claude's answer shapes, which Qwen takes as they are; silence on UserPromptSubmit (plain text would reach the
 * model). */
export function renderQwen(eventName: string, decision: Decision): string {
  // continue:false on tool events does not stop Qwen, so the hand-off is the refusal here, and the stop is the answer
  // to the next UserPromptSubmit continuation (the 'proceed' event).
  if (decision.action === 'handoff' && eventName === 'UserPromptSubmit') return renderQwenStop(decision.stopReason);
  if ((decision.action === 'deny' || decision.action === 'handoff') && eventName === 'PreToolUse') {
    return JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: decision.message,
      },
    });
  }
  // UserPromptSubmit's context is added to the prompt (the hand-off note, at a session's first prompt).
  if (
    decision.action === 'warn' &&
    (eventName === 'PostToolUse' || eventName === 'PostToolUseFailure' || eventName === 'UserPromptSubmit')
  ) {
    return JSON.stringify({ hookSpecificOutput: { hookEventName: eventName, additionalContext: decision.message } });
  }
  return '';
}

/**
 * The answer that really ends a Qwen run: continue:false on tool events does not; on the UserPromptSubmit continuation
 * (prompt "") that follows a tool result it does (no further model request, exit 0). For the hand-off.
 */
export function renderQwenStop(reason: string): string {
  return JSON.stringify({ continue: false, stopReason: reason });
}
