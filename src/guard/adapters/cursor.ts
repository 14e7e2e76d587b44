// Cursor: preToolUse / postToolUse / postToolUseFailure / beforeSubmitPrompt (shapes: shared/protocols/hooks.md §3).
import type { Decision, GuardToolFacts } from '../core/types.ts';
import { fieldsText, obj, promptOf, str, type ParsedHook, type Payload } from './types.ts';

/** tool_output is a JSON string such as {"exitCode":1,"stdout":"…"} (Cursor's docs); any other field is kept as text,
 * and anything unparsable is plain text. */
export function cursorOutput(raw: unknown): { output: string; exitCode?: number } {
  const text = typeof raw === 'string' ? raw : raw === undefined ? '' : JSON.stringify(raw);
  let parsed: Payload | undefined;
  try {
    parsed = typeof raw === 'string' ? obj(JSON.parse(raw)) : obj(raw);
  } catch {
    parsed = undefined;
  }
  if (!parsed) return { output: text };
  const rest = fieldsText(parsed, ['exitCode', 'stdout']);
  const output = [str(parsed.stdout) ?? '', rest].filter(Boolean).join('\n');
  return typeof parsed.exitCode === 'number' ? { output, exitCode: parsed.exitCode } : { output };
}

/** The event Cursor sends after an edit by the agent (the tool record subscribes to it). */
export const CURSOR_CHANGE_EVENT = 'afterFileEdit';

/** Cursor waits for every foreground command. */
export const cursorFacts: GuardToolFacts = { longRunsReturn: false, blockSaysThisCommand: false };

export function parseCursor(p: Payload): ParsedHook {
  const eventName = str(p.hook_event_name) ?? '';
  const session = str(p.conversation_id) ?? str(p.session_id) ?? '';
  const base = { family: 'cursor', session, eventName, format: 'cursor' } as const;
  // generation_id changes with every user message, so it marks the user turn.
  const turnId = str(p.generation_id);
  const turn = turnId ? { turnId } : {};
  const callId = str(p.tool_use_id);
  const call = callId ? { callId } : {};
  const input = obj(p.tool_input);
  const isShell = str(p.tool_name) === 'Shell';
  const command = str(input?.command);

  if (eventName === 'beforeSubmitPrompt')
    return { ...base, event: { kind: 'userTurn', ...turn, ...promptOf(p.prompt) } };
  // Cursor's file-edit event fires after its edit tools wrote a file.
  if (eventName === CURSOR_CHANGE_EVENT) return { ...base, event: { kind: 'change', by: 'edit', ...turn } };
  if (eventName === 'preToolUse' && isShell && command !== undefined) {
    return { ...base, event: { kind: 'pre', command, background: false, ...call, ...turn } };
  }
  if (eventName === 'postToolUse' && isShell && command !== undefined) {
    return { ...base, event: { kind: 'post', command, ...cursorOutput(p.tool_output), ...call, ...turn } };
  }
  if (eventName === 'postToolUseFailure' && isShell && command !== undefined) {
    // A denied or interrupted call never ran, so it says nothing about the command's result.
    if (p.is_interrupt === true || str(p.failure_type) === 'permission_denied') return { ...base, event: null };
    const output = `${str(p.failure_type) ?? 'error'}: ${str(p.error_message) ?? ''}`;
    return { ...base, event: { kind: 'post', command, output, ...call, ...turn } };
  }
  return { ...base, event: null };
}

/** Every answer is JSON; an allow is an empty object, which approves nothing on the user's behalf. */
export function renderCursor(eventName: string, decision: Decision): string {
  if (eventName === 'beforeSubmitPrompt') return JSON.stringify({ continue: true });
  // preToolUse has no documented field that ends the turn: the refusal tells the person why the agent was stopped
  // (user_message) and the model that the turn is over (agent_message); the note is written either way.
  if (decision.action === 'handoff' && eventName === 'preToolUse') {
    return JSON.stringify({ permission: 'deny', user_message: decision.stopReason, agent_message: decision.message });
  }
  if (decision.action === 'deny' && eventName === 'preToolUse') {
    return JSON.stringify({
      permission: 'deny',
      user_message: `loop-guard refused a command (${decision.rule}).`,
      agent_message: decision.message,
    });
  }
  // A failing command reaches only postToolUseFailure, which takes additional context too (Cursor's own list of the
  // events it reads it from, vshulcz/deja-vu#3052): the 3rd and 4th identical failures warn as a result does.
  if (decision.action === 'warn' && (eventName === 'postToolUse' || eventName === 'postToolUseFailure'))
    return JSON.stringify({ additional_context: decision.message });
  return '{}';
}

/**
 * The project folder when this run is the Claude entry started by Cursor, which runs .claude/settings.json hooks too
 * with its own payload (`cursor_version`; DobermanCore/Doberman-Core#576) and sets CURSOR_VERSION; else undefined.
 */
export function claudeEntryInCursor(
  toolArg: string | undefined,
  p: Payload,
  env: Record<string, string | undefined>,
): string | undefined {
  if (toolArg !== 'claude' || (p.cursor_version === undefined && env.CURSOR_VERSION === undefined)) return undefined;
  const roots = p.workspace_roots;
  return env.CLAUDE_PROJECT_DIR || env.CURSOR_PROJECT_DIR || (Array.isArray(roots) ? str(roots[0]) : undefined);
}
