// The project's own files as the hang rules may read them: package.json's scripts and a Makefile's recipes, read
// only when a rule is about to refuse a script or target (never on the common path), bounded, failing to nothing.
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { ProjectFiles } from './core/hang/types.ts';

/** A project file is read this far: scripts and targets sit near the top, and the cost stays bounded. */
const MAX_BYTES = 64 * 1024;

export function readHead(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(MAX_BYTES);
    const n = readSync(fd, buf, 0, MAX_BYTES, 0);
    return buf.toString('utf8', 0, n);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The files of the directory a command runs in; undefined when the tool gives no directory. */
export function projectFiles(dir: string | undefined): ProjectFiles | undefined {
  if (!dir) return undefined;
  return { read: (name) => readHead(join(dir, name)) };
}
