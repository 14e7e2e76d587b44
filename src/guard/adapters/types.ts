import type { Decision, GuardEvent, ToolName } from '../core/types.ts';
import { type Obj, obj, str } from '../json-value.ts';

/** Which answer format the calling tool expects on stdout. */
export type OutputFormat = 'claude' | 'codex' | 'cursor' | 'gemini' | 'copilot' | 'qwen';

/** A hook payload understood: what happened, in which session, and how to answer. */
export interface ParsedHook {
  /** The state family: events of one family and session share counts. */
  family: ToolName;
  /** The session key as the tool gives it (hashed before it touches the file system). */
  session: string;
  /** The event name as received, echoed back where the tool requires it. */
  eventName: string;
  /** null when the event is not ours to count (another tool, a background task, an interrupt). */
  event: GuardEvent | null;
  format: OutputFormat;
}

export type Payload = Obj;
export { obj, str };

/**
 * The text of a result object whose fields no captured payload shows: every field, sorted by key, one per line.
 * Nothing is guessed about field names, and two results that differ in any field stay different.
 */
export function fieldsText(o: Payload, skip: readonly string[] = []): string {
  return Object.keys(o)
    .filter((k) => !skip.includes(k))
    .sort()
    .map((k) => `${k}: ${typeof o[k] === 'string' ? o[k] : JSON.stringify(o[k])}`)
    .join('\n');
}

/** Claude and Codex key a session by session_id; a subagent (agent_id) keeps its own counts. */
export function sessionOf(p: Payload): string {
  const agent = str(p.agent_id);
  return `${str(p.session_id) ?? ''}${agent ? `/${agent}` : ''}`;
}

/** The user's prompt text as an event field (`{}` when the payload has none). */
export function promptOf(value: unknown): { prompt?: string } {
  return typeof value === 'string' && value !== '' ? { prompt: value } : {};
}

export type Renderer = (eventName: string, decision: Decision) => string;
