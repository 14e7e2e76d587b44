// What every transcript format parser is: a record at a time in, events out, in order.
import { type AuditEvent, EDIT_TOOL_NAMES, type Obj, type SessionInfo } from '../events.ts';

export interface RecordParser {
  /** What the parser has learnt about the session so far (id, cwd). */
  readonly info: SessionInfo;
  /** One JSON record (a JSONL line, or one element of a whole-file format). False when it is not a record this format
   * knows. */
  push(record: Obj, emit: (event: AuditEvent) => void): boolean;
  /**
   * A line whose meaning is known without parsing it (view[start, end) as one-byte text, see lines.ts): handled here
   * and true, or false to have it parsed. Claude Code: the results of reads and searches, most of a transcript's bytes.
   */
  skipLine?(view: string, start: number, end: number, emit: (event: AuditEvent) => void): boolean;
  /** Called once at the end: calls still waiting for their result are dropped (an interrupted session). */
  end?(emit: (event: AuditEvent) => void): void;
}

/** Calls waiting for their results, bounded so a transcript of unanswered calls cannot grow memory. */
export class Pending<T> {
  private map = new Map<string, T>();
  constructor(private readonly max = 512) {}
  set(id: string, value: T): void {
    this.map.set(id, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string);
  }
  take(id: string): T | undefined {
    const v = this.map.get(id);
    if (v !== undefined) this.map.delete(id);
    return v;
  }
  get(id: string): T | undefined {
    return this.map.get(id);
  }
}

/** Text of a tool result whose content is a string or a list of text blocks. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    let out = '';
    for (const b of content) {
      const t =
        typeof b === 'string'
          ? b
          : b && typeof b === 'object' && typeof (b as Obj).text === 'string'
            ? ((b as Obj).text as string)
            : '';
      if (t) out = out ? `${out}\n${t}` : t;
    }
    return out;
  }
  return '';
}

/**
 * A call's result as its event: a tool event for a call that is not a shell command (an edit tool's is change), else
 * the shell event with the text and exit code `shell` reads (called only then: a tool's result is never decoded).
 */
export function callResult(
  call: { name: string; command?: string | undefined },
  when: { at?: number },
  id: string | undefined,
  shell: () => { output: string; exitCode?: number | undefined },
): AuditEvent {
  const callId = id ? { callId: id } : {};
  if (call.command === undefined)
    return { kind: 'tool', name: call.name, edit: EDIT_TOOL_NAMES.has(call.name), ...when, ...callId };
  const { output, exitCode } = shell();
  return {
    kind: 'shell',
    command: call.command,
    output,
    ...(exitCode !== undefined ? { exitCode } : {}),
    ...when,
    ...callId,
  };
}
