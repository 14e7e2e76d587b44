// One run at a time per repository: an exclusive lock file holding the owner's pid; a lock whose owner is gone is
// stale and taken over, so a killed run never blocks the next one. Not the guard's session lock (guard/lock.ts): a run
// holds this one while a person reads the prompt, so only the owner's pid, never the lock's age, can tell it is dead.
import { closeSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { sleep } from '../guard/sleep.ts';

export const LOCK_FILE = '.loop-guard.lock';
/** How long a run waits for another run on the same repository before giving up (exit 2). */
export const LOCK_WAIT_MS = 60_000;

export class LockError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LockError';
  }
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ownerOf(path: string): number | null {
  try {
    return Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
  } catch {
    return null;
  }
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

export interface Lock {
  release(): void;
}

/** Take the repository's lock, waiting for a live owner; returns null when the directory cannot hold a lock (read-only). */
export function lockRepository(root: string, waitMs = LOCK_WAIT_MS): Lock | null {
  const path = join(root, LOCK_FILE);
  const deadline = Date.now() + waitMs;
  for (;;) {
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o644);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') return null;
        throw new LockError(`cannot create ${LOCK_FILE}: ${(err as Error).message}`);
      }
      const owner = ownerOf(path);
      // An empty lock file is an owner between open and write, stale only once it has stayed empty for a while.
      const stale = owner !== null && (Number.isNaN(owner) ? ageMs(path) > 2000 : !alive(owner));
      if (stale) {
        // Move it aside atomically so two runs that both see it stale cannot both delete a fresh lock.
        const aside = `${path}.stale-${process.pid}`;
        try {
          renameSync(path, aside);
          const again = ownerOf(aside);
          if (again === owner || (Number.isNaN(again) && Number.isNaN(owner))) unlinkSync(aside);
          else renameSync(aside, path);
        } catch {
          // someone else took it over first
        }
        continue;
      }
      if (Date.now() > deadline)
        throw new LockError(
          `another create-loop-guard run (pid ${owner ?? 'unknown'}) is working on this repository; waited ` +
            `${Math.round(waitMs / 1000)} s. If no such run exists, delete ${LOCK_FILE}.`,
        );
      sleep(50);
      continue;
    }
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    let held = true;
    return {
      release() {
        if (!held) return;
        held = false;
        try {
          if (ownerOf(path) === process.pid) unlinkSync(path);
        } catch {
          // already gone
        }
      },
    };
  }
}
