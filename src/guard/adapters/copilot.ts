// GitHub Copilot CLI 1.0: the PascalCase hook events (PreToolUse / PostToolUse / UserPromptSubmit), which give
// Claude-shaped payloads (shapes: test/fixtures/payloads/copilot/pascal). A non-zero exit is still PostToolUse.
import type { Decision, GuardToolFacts } from '../core/types.ts';
import { obj, promptOf, str, type ParsedHook, type Payload } from './types.ts';

/** Results that say the command never ran (denied by a hook or the user). */
const NOT_RUN = new Set(['rejected', 'denied']);

/**
 * text_result_for_llm ends in `<shellId: N completed with exit code X>`: the exit code lives only there, and N counts
 * shells within the session, so that line is taken out or no two results would ever be identical.
 */
export function copilotOutput(result: unknown): { output: string; exitCode?: number } {
  const r = obj(result);
  const text = r ? (str(r.text_result_for_llm) ?? JSON.stringify(r)) : (str(result) ?? '');
  const m = /\r?\n?<shellId: [^>]*? completed with exit code (-?\d+)>\s*$/.exec(text);
  if (!m) return { output: text };
  return { output: text.slice(0, m.index), exitCode: Number(m[1]) };
}

/**
 * Copilot CLI 1.0.102 hands control back from a foreground command: its bash tool (mode sync or async) returns after
 * `initial_wait` with partial output and the command "continues running" for read_bash (docs/judging.md).
 */
export const copilotFacts: GuardToolFacts = { longRunsReturn: true, blockSaysThisCommand: false };

export function parseCopilot(p: Payload): ParsedHook {
  const eventName = str(p.hook_event_name) ?? '';
  const base = { family: 'copilot', session: str(p.session_id) ?? '', eventName, format: 'copilot' } as const;
  // UserPromptSubmit carries the user's own prompt: it fires once per user message.
  if (eventName === 'UserPromptSubmit') return { ...base, event: { kind: 'userTurn', ...promptOf(p.prompt) } };
  // PermissionRequest comes in the native camelCase shape even under its PascalCase name, right after PreToolUse
  // for the same call (no call id: paired by order); only its answer can stop the run.
  if (p.hookName === 'permissionRequest' || eventName === 'PermissionRequest') {
    const command = str(obj(p.toolInput)?.command) ?? str(obj(p.tool_input)?.command);
    const session = str(p.sessionId) ?? str(p.session_id) ?? '';
    const shell = (str(p.toolName) ?? str(p.tool_name) ?? '').toLowerCase() === 'bash';
    return {
      ...base,
      session,
      eventName: 'PermissionRequest',
      event: shell && command !== undefined ? { kind: 'proceed', command } : null,
    };
  }
  const command = str(obj(p.tool_input)?.command);
  if (str(p.tool_name) !== 'Bash' || command === undefined) return { ...base, event: null };
  // No Copilot payload carries a tool-call id: pre and post pair by order.
  if (eventName === 'PreToolUse') return { ...base, event: { kind: 'pre', command, background: false } };
  if (eventName === 'PostToolUse') {
    const result = obj(p.tool_result);
    if (NOT_RUN.has(str(result?.result_type) ?? '')) return { ...base, event: null };
    return { ...base, event: { kind: 'post', command, ...copilotOutput(p.tool_result) } };
  }
  return { ...base, event: null };
}

/** Allow is silence (non-JSON and empty output allow). On PascalCase PostToolUse only a top-level additionalContext
 * reaches the model. */
export function renderCopilot(eventName: string, decision: Decision): string {
  // The hand-off stops the run from PermissionRequest, which fires only for a call PreToolUse let through (a deny or
  // "ask" there skips it), so PreToolUse stays silent and PermissionRequest refuses the call and interrupts the turn.
  // A later one (`again`: the stop did not happen, e.g. a config without that hook) is refused on PreToolUse.
  if (decision.action === 'handoff' && eventName === 'PermissionRequest') return renderCopilotStop(decision.stopReason);
  if (decision.action === 'handoff' && !decision.again) return '';
  if ((decision.action === 'deny' || decision.action === 'handoff') && eventName === 'PreToolUse') {
    return JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: decision.message,
      },
    });
  }
  if (decision.action === 'warn' && (eventName === 'PostToolUse' || eventName === 'UserPromptSubmit'))
    return JSON.stringify({ additionalContext: decision.message });
  return '';
}

/** The answer that really ends a Copilot run, on PermissionRequest (native shape even for the PascalCase event):
 * continue:false is ignored. */
export function renderCopilotStop(reason: string): string {
  return JSON.stringify({ behavior: 'deny', message: reason, interrupt: true });
}
