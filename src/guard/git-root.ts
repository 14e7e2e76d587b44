// The walk up to the repository root, shared by the guard (where to write the hand-off note), the installer, doctor
// and audit.
import { lstatSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The nearest directory at or above `start` that holds `.git` (a directory, or a file in worktrees); undefined outside
 * any repository. Bounded, like every walk in the guard, so an odd file system cannot make it spin.
 */
export function gitRootOf(start: string): string | undefined {
  let dir = resolve(start);
  for (let i = 0; i < 256; i++) {
    try {
      lstatSync(join(dir, '.git'));
      return dir;
    } catch {
      // not here
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
  return undefined;
}
