// The walk up to the repository root, shared by the guard (where to write the hand-off note), the installer, doctor
// and audit.
import { lstatSync } from 'node:fs';
import * as nodePath from 'node:path';

/** The path functions the walk needs: node:path's own, or path.win32 to walk a Windows path anywhere (tests). */
type PathOps = Pick<typeof nodePath, 'dirname' | 'join' | 'resolve'>;

const hasEntry = (path: string): boolean => {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
};

/**
 * The nearest directory at or above `start` that holds `.git` (a directory, or a file in worktrees); undefined outside
 * any repository. Bounded, like every walk in the guard, so an odd file system cannot make it spin.
 */
export function gitRootOf(start: string, path: PathOps = nodePath, exists = hasEntry): string | undefined {
  let dir = path.resolve(start);
  for (let i = 0; i < 256; i++) {
    if (exists(path.join(dir, '.git'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
  return undefined;
}
