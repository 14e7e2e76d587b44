import type { Decision, GuardEvent, ToolName } from '../core/types.ts';

/** Which answer format the calling tool expects on stdout. */
export type OutputFormat = 'claude' | 'codex' | 'cursor';

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

export type Payload = Record<string, unknown>;

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function obj(value: unknown): Payload | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Payload) : undefined;
}

export type Renderer = (eventName: string, decision: Decision) => string;
