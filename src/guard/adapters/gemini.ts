// Gemini CLI 0.61: BeforeTool / AfterTool on run_shell_command, BeforeAgent per user turn (shapes:
// test/fixtures/payloads/gemini).
import type { Decision, GuardToolFacts } from '../core/types.ts';
import { obj, promptOf, str, type ParsedHook, type Payload } from './types.ts';

const SHELL_TOOL = 'run_shell_command';

/**
 * AfterTool's llmContent is
 * `<untrusted_context>\nOutput: …\nExit Code: N\nProcess Group PGID: N\n</untrusted_context>`: the exit code lives only
 * in that text (failures come to AfterTool too), and the PGID changes on every run, so it is dropped or no two results
 * would ever be identical.
 */
export function geminiOutput(response: unknown): { output: string; exitCode?: number } {
  const r = obj(response);
  const raw = r
    ? (str(r.llmContent) ?? str(r.returnDisplay) ?? JSON.stringify(r.llmContent ?? r))
    : (str(response) ?? '');
  const text = raw.replace(/^\s*<untrusted_context>\r?\n?/, '').replace(/\r?\n?<\/untrusted_context>\s*$/, '');
  let exitCode: number | undefined;
  let signalled = false;
  const kept: string[] = [];
  for (const line of text.split('\n')) {
    const code = /^Exit Code: (-?\d+)\s*$/.exec(line);
    if (code) {
      exitCode = Number(code[1]);
      continue;
    }
    if (/^Signal: /.test(line) && !/^Signal: \(none\)/.test(line)) signalled = true;
    if (/^(Process Group PGID|Background PIDs): /.test(line)) continue;
    kept.push(line);
  }
  const output = kept.join('\n').replace(/^Output: /, '');
  // No "Exit Code" line means the command exited 0, unless a signal ended it.
  if (exitCode === undefined && !signalled) exitCode = 0;
  return exitCode === undefined ? { output } : { output, exitCode };
}

/** Gemini waits for every foreground command, and has its own background option. */
export const geminiFacts: GuardToolFacts = {
  longRunsReturn: false,
  backgroundOption: "run_shell_command's is_background",
  blockSaysThisCommand: false,
};

export function parseGemini(p: Payload): ParsedHook {
  const eventName = str(p.hook_event_name) ?? '';
  const base = { family: 'gemini', session: str(p.session_id) ?? '', eventName, format: 'gemini' } as const;
  // BeforeAgent fires once per user prompt (not per model request), so it is the user turn.
  if (eventName === 'BeforeAgent') return { ...base, event: { kind: 'userTurn', ...promptOf(p.prompt) } };
  const input = obj(p.tool_input);
  const command = str(input?.command);
  if (str(p.tool_name) !== SHELL_TOOL || command === undefined) return { ...base, event: null };
  const background = input?.is_background === true;
  // No Gemini payload carries a tool-call id: pre and post pair by order.
  if (eventName === 'BeforeTool') return { ...base, event: { kind: 'pre', command, background } };
  if (eventName === 'AfterTool') {
    if (background) return { ...base, event: null };
    return { ...base, event: { kind: 'post', command, ...geminiOutput(p.tool_response) } };
  }
  return { ...base, event: null };
}

/** Allow is silence. A deny reaches the model as "Tool execution blocked: <reason>"; context is appended as
 * <hook_context>. */
export function renderGemini(eventName: string, decision: Decision): string {
  // The hand-off is the refusal plus continue:false, which ends the run at once (the deny keeps the command from
  // running even if the stop were ignored).
  if (decision.action === 'handoff' && eventName === 'BeforeTool')
    return JSON.stringify({
      decision: 'deny',
      reason: decision.message,
      continue: false,
      stopReason: decision.stopReason,
    });
  if (decision.action === 'deny' && eventName === 'BeforeTool')
    return JSON.stringify({ decision: 'deny', reason: decision.message });
  // Never exit 2 or "deny" on AfterTool: either replaces the tool output instead of adding to it.
  // BeforeAgent's context is appended to the prompt (the hand-off note, at a session's first prompt).
  if (decision.action === 'warn' && (eventName === 'AfterTool' || eventName === 'BeforeAgent')) {
    return JSON.stringify({ hookSpecificOutput: { hookEventName: eventName, additionalContext: decision.message } });
  }
  return '';
}

/** The answer that really ends a Gemini run (verified: no further model request, exit 0), for the hand-off. */
export function renderGeminiStop(reason: string): string {
  return JSON.stringify({ continue: false, stopReason: reason });
}
