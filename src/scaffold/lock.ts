// One run at a time per repository: an exclusive lock file holding the owner's pid; a lock whose owner is gone is
// stale and taken over, so a killed run never blocks the next one. Not the guard's session lock (guard/lock.ts): a run
// holds this one while a person reads the prompt, so only the owner's pid, never the lock's age, can tell it is dead.
// It lives in the git directory, out of the working tree (git status, an editor's file list), and is removed when
// the run is ended by a signal (a closed terminal is SIGHUP) or crashes while the question is open.
import { closeSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { sleep } from '../guard/sleep.ts';

/** The lock's name in the git directory (`.git/loop-guard.lock`, a worktree's or submodule's own git directory). */
export const LOCK_FILE = 'loop-guard.lock';
/** Its name in the working tree: a directory not under git (--no-git), and where versions before put it. */
export const WORK_TREE_LOCK_FILE = '.loop-guard.lock';
/** How long a run waits for another run on the same repository before giving up (exit 2). */
export const LOCK_WAIT_MS = 60_000;

/** Signals that end a run whose lock must not outlive it: Ctrl-C outside a prompt, kill, a closed terminal. */
const ENDING_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Where the lock of the repository at `root` lives: its git directory (`.git`, or the one a `.git` file names, as
 * in a worktree or submodule), else the root itself. Read from `.git` rather than asked of git: no process to start. */
export function lockPath(root: string): string {
  const dotGit = join(root, '.git');
  try {
    const st = statSync(dotGit);
    if (st.isDirectory()) return join(dotGit, LOCK_FILE);
    const m = /^gitdir:[ \t]*(.+?)[ \t]*$/m.exec(readFileSync(dotGit, 'utf8'));
    if (m?.[1]) {
      const dir = resolve(root, m[1]);
      if (statSync(dir).isDirectory()) return join(dir, LOCK_FILE);
    }
  } catch {
    // no git directory: the root
  }
  return join(root, WORK_TREE_LOCK_FILE);
}

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

/** A lock file's state: nobody's, held by a live owner (its pid, or NaN while being written), or stale. */
function holder(
  path: string,
): { state: 'free' } | { state: 'live'; owner: number } | { state: 'stale'; owner: number } {
  const owner = ownerOf(path);
  if (owner === null) return { state: 'free' };
  // An empty lock file is an owner between open and write, stale only once it has stayed empty for a while.
  const stale = Number.isNaN(owner) ? ageMs(path) > 2000 : !alive(owner);
  return stale ? { state: 'stale', owner } : { state: 'live', owner };
}

/** Take a stale lock away: moved aside atomically, so two runs that both see it stale cannot both delete a fresh
 *  one. */
function takeOver(path: string, owner: number): void {
  const aside = `${path}.stale-${process.pid}`;
  try {
    renameSync(path, aside);
    const again = ownerOf(aside);
    if (again === owner || (Number.isNaN(again) && Number.isNaN(owner))) unlinkSync(aside);
    else renameSync(aside, path);
  } catch {
    // someone else took it over first
  }
}

/** Take the repository's lock, waiting for a live owner; returns null when the directory cannot hold a lock
 *  (read-only). */
export function lockRepository(root: string, waitMs = LOCK_WAIT_MS): Lock | null {
  const path = lockPath(root);
  const shown = relative(root, path) || path;
  // A run of a version that kept the lock in the working tree: waited for while it lives, taken away once it is dead.
  const older = join(root, WORK_TREE_LOCK_FILE);
  const deadline = Date.now() + waitMs;
  for (;;) {
    const old = older === path ? ({ state: 'free' } as const) : holder(older);
    if (old.state === 'stale') takeOver(older, old.owner);
    let fd: number | undefined;
    let owner: number | null = old.state === 'live' ? old.owner : null;
    if (owner === null) {
      try {
        fd = openSync(path, 'wx', 0o644);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'EEXIST') {
          if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') return null;
          throw new LockError(`cannot create ${shown}: ${(err as Error).message}`);
        }
        const h = holder(path);
        if (h.state === 'stale') {
          takeOver(path, h.owner);
          continue;
        }
        owner = h.state === 'live' ? h.owner : Number.NaN;
      }
    }
    if (fd === undefined) {
      if (Date.now() > deadline)
        throw new LockError(
          `another create-loop-guard run (pid ${owner !== null && !Number.isNaN(owner) ? owner : 'unknown'}) is working ` +
            `on this repository; waited ${Math.round(waitMs / 1000)} s. If no such run exists, delete ` +
            `${old.state === 'live' ? WORK_TREE_LOCK_FILE : shown}.`,
        );
      sleep(50);
      continue;
    }
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    return held(path);
  }
}

/** The lock just taken: released once, by the run's end or by a signal that ends it first. */
function held(path: string): Lock {
  let holding = true;
  const release = () => {
    if (!holding) return;
    holding = false;
    for (const sig of ENDING_SIGNALS) process.off(sig, onSignal);
    process.off('exit', release);
    try {
      if (ownerOf(path) === process.pid) unlinkSync(path);
    } catch {
      // already gone
    }
  };
  // The lock goes, then the signal does what it would have done (ends the process with its status), unless
  // someone else listens for it too.
  function onSignal(sig: NodeJS.Signals): void {
    release();
    if (process.listenerCount(sig) === 0) process.kill(process.pid, sig);
  }
  for (const sig of ENDING_SIGNALS) process.on(sig, onSignal);
  // Any other way out, a crash included: a closed terminal often ends the prompt's input (EIO) before SIGHUP comes.
  process.on('exit', release);
  return { release };
}
