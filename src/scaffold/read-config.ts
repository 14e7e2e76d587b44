// Reading a user's config file without hanging or blowing up: only regular files (a FIFO would block a read forever),
// checked with lstat/stat before any open, and only up to a size no real config reaches.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';

/** Config files above this are refused (exit 2): a real settings.json is a few KB; this keeps runs linear and small. */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

export class ConfigReadError extends Error {
  constructor(
    public readonly path: string,
    message: string,
    public readonly fix: string,
  ) {
    super(`${path}: ${message}`);
    this.name = 'ConfigReadError';
  }
}

function kindOf(st: Stats): string {
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isDirectory()) return 'a directory';
  return 'not a regular file';
}

/** The file's text; null when missing. `shown` is the name used in messages. */
export function readConfig(abs: string, shown: string): string | null {
  let st: Stats;
  try {
    st = statSync(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw new ConfigReadError(shown, (err as Error).message, 'make it readable, or remove it, and rerun');
  }
  if (!st.isFile())
    throw new ConfigReadError(
      shown,
      `is ${kindOf(st)}, not a file; create-loop-guard reads and writes only regular files`,
      `replace ${shown} with a regular file (or remove it) and rerun`,
    );
  if (st.size > MAX_CONFIG_BYTES)
    throw new ConfigReadError(
      shown,
      `is ${st.size} bytes, over the ${MAX_CONFIG_BYTES / 1024 / 1024} MB limit for a config file`,
      `shrink ${shown} or remove it, then rerun`,
    );
  // O_NONBLOCK: if the path was swapped for a FIFO after the stat, the open does not wait for a writer.
  const fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const fst = fstatSync(fd);
    if (!fst.isFile())
      throw new ConfigReadError(
        shown,
        `is ${kindOf(fst)}, not a file`,
        `replace ${shown} with a regular file and rerun`,
      );
    const buf = Buffer.alloc(Math.min(fst.size, MAX_CONFIG_BYTES) + 1);
    let total = 0;
    for (;;) {
      const n = readSync(fd, buf, total, buf.length - total, null);
      if (n === 0) break;
      total += n;
      if (total >= buf.length)
        throw new ConfigReadError(
          shown,
          `grew past the ${MAX_CONFIG_BYTES / 1024 / 1024} MB limit while being read`,
          'rerun when nothing is writing to it',
        );
    }
    return buf.subarray(0, total).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
