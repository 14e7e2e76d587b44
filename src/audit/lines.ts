// Streams a file as lines with constant memory: a 1 MB read buffer and the current line. A line longer than the cap
// (a single tool result of hundreds of megabytes) is skipped and counted, never held whole.
import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

export const MAX_LINE_CHARS = 32 * 1024 * 1024;
/** Reads start small, because a session out of scope stops after its first line, and grow to 1 MB. */
const FIRST_CHUNK = 1 << 16;
const CHUNK = 1 << 20;

export interface LineStats {
  bytes: number;
  /** Lines skipped because they were longer than the cap. */
  oversize: number;
  /** True when the callback stopped the read early. */
  stopped: boolean;
}

/** Calls onLine for each line (without its newline); returning false stops reading. Throws only if the file cannot be opened or read. */
export function forEachLine(
  path: string,
  // biome-ignore lint/suspicious/noConfusingVoidType: a callback that returns nothing reads every line
  onLine: (line: string) => boolean | void,
  maxLine = MAX_LINE_CHARS,
): LineStats {
  const fd = openSync(path, 'r');
  const stats: LineStats = { bytes: 0, oversize: 0, stopped: false };
  const buf = Buffer.allocUnsafe(CHUNK);
  const decoder = new StringDecoder('utf8');
  let carry = '';
  let skipping = false;
  try {
    for (let size = FIRST_CHUNK; ; size = Math.min(CHUNK, size * 4)) {
      const n = readSync(fd, buf, 0, size, null);
      if (n === 0) break;
      stats.bytes += n;
      const text = decoder.write(buf.subarray(0, n));
      let start = 0;
      for (;;) {
        const nl = text.indexOf('\n', start);
        if (nl === -1) break;
        if (skipping) skipping = false;
        else {
          const line = carry ? carry + text.slice(start, nl) : text.slice(start, nl);
          carry = '';
          if (line.length > maxLine) stats.oversize++;
          else if (onLine(line) === false) {
            stats.stopped = true;
            return stats;
          }
        }
        start = nl + 1;
      }
      if (!skipping) {
        carry = carry ? carry + text.slice(start) : text.slice(start);
        if (carry.length > maxLine) {
          carry = '';
          skipping = true;
          stats.oversize++;
        }
      }
    }
    const last = carry + decoder.end();
    if (!skipping && last.length > 0) {
      if (last.length > maxLine) stats.oversize++;
      else onLine(last);
    }
    return stats;
  } finally {
    closeSync(fd);
  }
}
