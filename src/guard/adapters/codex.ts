// Codex: PreToolUse / PostToolUse / UserPromptSubmit (shapes: shared/payloads/codex). Codex rejects unknown output
// fields.
import type { Decision, GuardToolFacts } from '../core/types.ts';
import { sessionStartContext } from './claude.ts';
import { fieldsText, obj, promptOf, sessionOf, str, type ParsedHook, type Payload } from './types.ts';

/** tool_response is the output text (shared/payloads/codex); the protocol notes allow any JSON, read without guessing
 * at its fields. */
export function codexOutput(response: unknown): { output: string } {
  if (typeof response === 'string') return { output: response };
  const o = obj(response);
  if (o) return { output: fieldsText(o) };
  return { output: response === undefined || response === null ? '' : JSON.stringify(response) };
}

/** Codex's edit tool (captured: it fires Pre/PostToolUse with this tool_name); the tool record's PostToolUse matcher
 * names it too. */
export const CODEX_CHANGE_TOOLS = ['apply_patch'] as const;
const CHANGE_TOOLS: ReadonlySet<string> = new Set(CODEX_CHANGE_TOOLS);

/** Codex hands control back from long commands, and shows the command beside a refusal. */
export const codexFacts: GuardToolFacts = { longRunsReturn: true, blockSaysThisCommand: true };

export function parseCodex(p: Payload): ParsedHook {
  const eventName = str(p.hook_event_name) ?? '';
  const base = { family: 'codex', session: sessionOf(p), eventName, format: 'codex' } as const;
  const turnId = str(p.turn_id);
  const turn = turnId ? { turnId } : {};
  const command = str(obj(p.tool_input)?.command);
  const callId = str(p.tool_use_id);
  const call = callId ? { callId } : {};

  if (eventName === 'SessionStart') return { ...base, event: str(p.source) === 'compact' ? null : { kind: 'start' } };
  if (eventName === 'UserPromptSubmit') return { ...base, event: { kind: 'userTurn', ...turn, ...promptOf(p.prompt) } };
  if (eventName === 'PostToolUse' && CHANGE_TOOLS.has(str(p.tool_name) ?? ''))
    return { ...base, event: { kind: 'change', by: 'edit', ...call, ...turn } };
  if (str(p.tool_name) !== 'Bash' || command === undefined) return { ...base, event: null };
  // Codex exec sessions hand control back from long-running commands, so those never hang the agent.
  if (eventName === 'PreToolUse')
    return { ...base, event: { kind: 'pre', command, background: true, ...call, ...turn } };
  if (eventName === 'PostToolUse') {
    return { ...base, event: { kind: 'post', command, ...codexOutput(p.tool_response), ...call, ...turn } };
  }
  return { ...base, event: null };
}

/** Only additionalContext is additive in Codex: decision:block and exit code 2 on a post event replace the output. */
export function renderCodex(eventName: string, decision: Decision): string {
  // Codex 0.171 honours no stop field (continue:false beside a deny drops the whole answer and the command runs), so
  // a hand-off answers as a refusal here and the turn is ended by stopCodexExec (guard/stop-codex.ts).
  if ((decision.action === 'deny' || decision.action === 'handoff') && eventName === 'PreToolUse') {
    // Codex appends ". Command: <cmd>" itself, so the reason does not end in its own full stop.
    const reason = decision.message.replace(/\.\s*$/, '');
    return JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
    });
  }
  if (decision.action === 'warn' && eventName === 'PostToolUse') {
    return JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: decision.message },
    });
  }
  return sessionStartContext(eventName, decision);
}
