// Streams a file as lines with constant memory: a read buffer (64 KB, grown only for a longer line) and nothing else.
// Lines are handed over as byte ranges of that buffer, so a caller can skip a line without decoding it (most of a
// transcript's bytes are lines that cannot hold a tool call). A line longer than the cap (a single tool result of
// hundreds of megabytes) is skipped and counted, never held whole.
import { isAscii } from 'node:buffer';
import { closeSync, openSync, readSync } from 'node:fs';

export const MAX_LINE_CHARS = 32 * 1024 * 1024;
/**
 * Bytes per read. Small, because a session out of scope stops after its first line, and because each read's text is
 * then a young object that dies young: 1 MB texts went to V8's large-object space, whose growth set off full
 * collections (reads of 1 MB: a third more peak memory, 100 MiB against 75, and 2.4% more instructions on 70 MB).
 */
const CHUNK = 1 << 16;

export interface LineStats {
  bytes: number;
  /** Lines skipped because they were longer than the cap. */
  oversize: number;
  /** True when the callback stopped the read early. */
  stopped: boolean;
}

/**
 * Calls onLine for each line as buf[start, end) (without its newline; valid only during the call); `read` counts the
 * reads, so a caller keeping positions in buf knows when they went stale. Returning false stops reading. Throws only
 * if the file cannot be opened or read.
 */
export function forEachLineBytes(
  path: string,
  // biome-ignore lint/suspicious/noConfusingVoidType: a callback that returns nothing reads every line
  onLine: (buf: Buffer, start: number, end: number, view: string) => boolean | void,
  maxLine = MAX_LINE_CHARS,
): LineStats {
  const fd = openSync(path, 'r');
  const stats: LineStats = { bytes: 0, oversize: 0, stopped: false };
  // One buffer for every file in turn (a history is thousands of small files); a nested read gets its own.
  let buf = spare ?? Buffer.allocUnsafe(CHUNK);
  spare = undefined;
  /** Bytes of buf holding data; [0, filled) starts at a line start (or inside an oversize line being skipped). */
  let filled = 0;
  let skipping = false;
  try {
    for (;;) {
      if (buf.length - filled < CHUNK) {
        // The pending part of a line fills the buffer: grow it (the line is under the cap, or we would be skipping).
        const bigger = Buffer.allocUnsafe(Math.max(buf.length * 2, filled + CHUNK));
        buf.copy(bigger, 0, 0, filled);
        buf = bigger;
      }
      const n = readSync(fd, buf, filled, CHUNK, null);
      if (n === 0) break;
      stats.bytes += n;
      const end = filled + n;
      if (buf.subarray(filled, end).indexOf(0x0a) === -1) {
        // No line ends in what was read: read on, before any text is made of it (a long line is copied once).
        if (skipping) filled = 0;
        else if (end > maxLine) {
          stats.oversize++;
          skipping = true;
          filled = 0;
        } else filled = end;
        continue;
      }
      // The chunk as one-byte text: its indices are byte offsets, and ASCII (newlines, JSON keys) matches exactly,
      // since every byte of a multi-byte UTF-8 character is above 0x7f. V8 searches such text fast.
      const view = buf.toString('latin1', 0, end);
      let start = 0;
      for (;;) {
        const nl = view.indexOf('\n', start);
        if (nl === -1) break;
        if (skipping) skipping = false;
        else if (nl - start > maxLine) stats.oversize++;
        else if (onLine(buf, start, nl, view) === false) {
          stats.stopped = true;
          return stats;
        }
        start = nl + 1;
      }
      if (skipping) {
        filled = 0;
        continue;
      }
      if (end - start > maxLine) {
        // Too long to ever hand over: drop what we have and skip to the next newline.
        stats.oversize++;
        skipping = true;
        filled = 0;
        continue;
      }
      buf.copy(buf, 0, start, end);
      filled = end - start;
      // A buffer grown for one long line goes back to its size once that line has passed.
      if (filled < CHUNK && buf.length > 4 * CHUNK) {
        const small = Buffer.allocUnsafe(CHUNK * 2);
        buf.copy(small, 0, 0, filled);
        buf = small;
      }
    }
    if (!skipping && filled > 0) {
      if (filled > maxLine) stats.oversize++;
      else onLine(buf, 0, filled, buf.toString('latin1', 0, filled));
    }
    return stats;
  } finally {
    closeSync(fd);
    if (buf.length <= 2 * CHUNK) spare = buf;
  }
}

let spare: Buffer | undefined;

/**
 * The text of the line buf[start, end) (a forEachLineBytes line and its chunk's `view`). An ASCII line reads the same
 * as one-byte text as it does as UTF-8, and a slice of the chunk's text is made without decoding or copying it.
 */
export function lineText(buf: Buffer, start: number, end: number, view: string): string {
  return isAscii(buf.subarray(start, end)) ? view.slice(start, end) : buf.toString('utf8', start, end);
}

/**
 * Where `key` first occurs among the first `span` characters of the line view[start, end), when no brace or bracket
 * comes before it after the line's own opening brace (so it is one of the line's own keys), else -1. Two bounded
 * searches, not a loop per character: a loop made V8 optimize each caller on a helper thread (3 ms apiece).
 */
export function headKeyAt(view: string, start: number, end: number, key: string, span: number): number {
  const head = view.slice(start, Math.min(end, start + span));
  const at = head.indexOf(key);
  if (at === -1) return -1;
  const brace = head.indexOf('{', 1);
  const bracket = head.indexOf('[', 1);
  if ((brace !== -1 && brace < at) || (bracket !== -1 && bracket < at)) return -1;
  return start + at;
}

/** Calls onLine for each line as text (without its newline); returning false stops reading. */
export function forEachLine(
  path: string,
  // biome-ignore lint/suspicious/noConfusingVoidType: a callback that returns nothing reads every line
  onLine: (line: string) => boolean | void,
  maxLine = MAX_LINE_CHARS,
): LineStats {
  return forEachLineBytes(path, (buf, start, end, view) => onLine(lineText(buf, start, end, view)), maxLine);
}

/**
 * Searches a chunk's text for a few ASCII strings, line after line, in linear time: each needle's last answer is
 * kept, so asking again from a later position re-reads nothing up to it (a bounded `indexOf` V8 does not have).
 */
export class Finder {
  private view: string | undefined;
  private from = new Map<string, number>();
  private at = new Map<string, number>();

  /** The first position of `needle` in view at or after `from`, or -1. */
  find(view: string, needle: string, from: number): number {
    if (view !== this.view) {
      this.view = view;
      this.from.clear();
      this.at.clear();
    }
    const f = this.from.get(needle);
    const a = this.at.get(needle);
    if (f !== undefined && a !== undefined && from >= f && (a === -1 || from <= a)) return a;
    const hit = view.indexOf(needle, from);
    this.from.set(needle, from);
    this.at.set(needle, hit);
    return hit;
  }

  /** True when view[start, end) holds needle. */
  has(view: string, needle: string, start: number, end: number): boolean {
    const i = this.find(view, needle, start);
    return i !== -1 && i < end;
  }
}

/** Which of a few ASCII strings a line holds (see Finder). */
export class Needles {
  /** `finder` may be shared with others who search the same chunks for some of the same strings: each is read once. */
  constructor(
    private readonly words: readonly string[],
    private readonly finder = new Finder(),
  ) {}

  /** True when view[start, end) holds at least one of the needles (view: forEachLineBytes's chunk text). */
  any(view: string, start: number, end: number): boolean {
    for (const w of this.words) if (this.finder.has(view, w, start, end)) return true;
    return false;
  }
}
