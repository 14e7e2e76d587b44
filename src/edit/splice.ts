// Shapes shared by the pure editors: text in, text out, or a conflict that says what to do by hand; the one splice
// type every editor uses; and the file's own BOM and line ending, which edits keep.

/** The outcome of one pure edit of one file's text. */
export type EditOutcome =
  | {
      status: 'changed' | 'unchanged';
      /** The whole new text (equal to the input when unchanged). */
      text: string;
      /** Things the user should know (e.g. a kept value of theirs), one sentence each. */
      notes: string[];
    }
  | {
      status: 'conflict';
      /** What is in the way, one sentence. */
      reason: string;
      /** Exactly what to do or paste by hand. */
      fix: string;
    };

/**
 * The user's file cannot be parsed: the CLI exits 2 and writes nothing.
 * Editors throw this; the plan layer adds the file path.
 */
export class FileFormatError extends Error {
  constructor(
    message: string,
    /** How to repair the file, one sentence. */
    public readonly fix: string,
  ) {
    super(message);
    this.name = 'FileFormatError';
  }
}

const BOM = '\uFEFF';

/** Split off a UTF-8 BOM so edits see plain text and can put it back. */
export function splitBom(text: string): { bom: string; rest: string } {
  return text.startsWith(BOM) ? { bom: BOM, rest: text.slice(1) } : { bom: '', rest: text };
}

/** The line ending a file already uses, so edits keep it. */
export function detectEol(text: string): '\n' | '\r\n' {
  const crlf = text.indexOf('\r\n');
  if (crlf === -1) return '\n';
  const lf = text.indexOf('\n');
  return lf === crlf + 1 ? '\r\n' : '\n';
}

/** Replace text[start, end) with `text`: the one edit shape of every editor (nuxt/cli style). */
export interface Splice {
  start: number;
  end: number;
  text: string;
}

/** Apply non-overlapping splices given as offsets into the original text. */
export function applySplices(text: string, splices: readonly Splice[]): string {
  // A stable ascending sort keeps same-offset insertions in the order they were pushed (comma first).
  const sorted = [...splices].sort((a, b) => a.start - b.start);
  let out = '';
  let pos = 0;
  for (const s of sorted) {
    out += text.slice(pos, s.start) + s.text;
    pos = Math.max(pos, s.end);
  }
  return out + text.slice(pos);
}
