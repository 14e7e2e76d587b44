// The session lock for the guard's state files.
//
// Lock protocol, and why it stays exclusive when a dead holder's lock is taken over:
// - The lock is the empty file `<file>.lock`, created with O_EXCL. It is cheap (an empty file allocates no disk
//   block, unlike a directory) and it is the only thing the common path touches.
// - Only two parties ever unlink it: its holder on release (after checking the file is still the one it created:
//   same inode and mtime), and a waiter that judged it stale (mtime older than staleLockMs).
// - A waiter may only unlink a stale lock while holding the *breaker* `<file>.lock.break`, and must re-check
//   staleness under it. While the lock file exists nobody else can create a new one, and no other waiter can unlink
//   it (they need the breaker), so the file re-checked stale is the file unlinked: two waiters that both saw the
//   same stale lock cannot remove a fresh lock that replaced it.
// - The breaker is a directory lock (rename of `<name>.<token>/<token>` onto an absent or empty `<name>`), which
//   is slower but has a takeover that is safe on its own: a stale breaker is freed by removing its marker *by its
//   unique name*, which can never remove a newer holder's marker. It is used only when a lock is stale.
// - A holder re-checks its lock just before the commit rename, so a holder paused past staleLockMs (and taken
//   over) aborts instead of overwriting the new holder's work.
import {
  closeSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmdirSync,
  type Stats,
  unlinkSync,
  utimesSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { busyCodes } from './replace-file.ts';
import { sleep } from './sleep.ts';

// Errors that mean "the lock is taken", not "this cannot work" (Windows also reports a file pending deletion or in
// use this way). Anything else fails at once, so an unusable state dir costs no waiting.
const WINDOWS_BUSY = busyCodes(process.platform);
/** From creating the lock file with O_EXCL. */
const FILE_LOCK_BUSY = new Set(['EEXIST', ...WINDOWS_BUSY]);
/** From renaming a staged dir onto a directory lock (ENOTDIR: a stray file sits in its place). */
const DIR_LOCK_BUSY = new Set(['EEXIST', 'ENOTEMPTY', 'ENOTDIR', ...WINDOWS_BUSY]);

let tokenCounter = 0;

/**
 * mkdir -p with a bounded walk: Node's own recursive mkdir spins forever on some paths (e.g. under /proc),
 * and a hook that hangs is the very failure the guard exists to prevent.
 */
export function makeDirs(path: string, mode: number): void {
  const missing: string[] = [];
  let dir = path;
  for (let depth = 0; depth < 64; depth++) {
    if (lstatOrUndefined(dir)) break;
    missing.push(dir);
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d, { mode });
    } catch (error) {
      if (errCode(error) !== 'EEXIST') throw error;
    }
  }
}

/** A name unique to one attempt: pid separates live processes, the counter separates calls within one. */
export function newToken(): string {
  const random = Math.floor(Math.random() * 0x7fffffff).toString(36);
  return `${process.pid.toString(36)}-${(tokenCounter++).toString(36)}-${random}`;
}

export function errCode(error: unknown): string {
  return (error as NodeJS.ErrnoException | null)?.code ?? '';
}

export function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** abs(): a lock from far in the future (clock stepped back) must not block until the clock catches up. */
export function isStale(st: Stats | undefined, staleMs: number): boolean {
  return st !== undefined && Math.abs(Date.now() - st.mtimeMs) > staleMs;
}

/** Jittered, growing wait (≈0.25–16 ms) so contending processes spread out instead of retrying in lockstep. */
export function backoff(waits: number, deadline: number): void {
  sleep(Math.max(0, Math.min(deadline - Date.now(), 0.25 + Math.random() * Math.min(16, 2 ** waits))));
}

/** The lock file we created, identified by inode and mtime so we can tell if it was replaced. */
export interface Held {
  path: string;
  dev: number;
  ino: number;
  mtimeMs: number;
}

export function acquireLock(dir: string, target: string, timeoutMs: number, staleMs: number): Held | undefined {
  const path = `${target}.lock`;
  const deadline = Date.now() + timeoutMs;
  let madeDir = false;
  let waits = 0;
  let lastChance = true;
  for (;;) {
    let fd: number | undefined;
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (error) {
      const code = errCode(error);
      if (code === 'ENOENT' && !madeDir) {
        // First use: create the state dir (0700, parents too) and try again.
        madeDir = true;
        try {
          makeDirs(dir, 0o700);
        } catch {
          return undefined;
        }
        continue;
      }
      if (!FILE_LOCK_BUSY.has(code)) return undefined;
    }
    if (fd !== undefined) return heldFromFd(path, fd);
    const st = lstatOrUndefined(path);
    // A lock that just vanished or was just broken is worth retrying at once, even at the deadline.
    const freed = st === undefined || (isStale(st, staleMs) && breakStaleLock(path, staleMs, deadline));
    if (Date.now() >= deadline) {
      if (!freed || !lastChance) return undefined;
      lastChance = false;
    } else if (!freed) backoff(waits++, deadline);
  }
}

/** Records the identity of the lock file we just created; on failure removes it so it cannot block anyone. */
export function heldFromFd(path: string, fd: number): Held | undefined {
  let held: Held | undefined;
  try {
    const st = fstatSync(fd);
    held = { path, dev: st.dev, ino: st.ino, mtimeMs: st.mtimeMs };
  } catch {
    tryUnlink(path);
  }
  try {
    closeSync(fd);
  } catch {
    // The lock is the file's existence; a failed close of an empty file loses nothing.
  }
  return held;
}

/**
 * Removes the lock at `path` if, checked again under the breaker, it is still stale. True when the stale lock is
 * gone (by us or someone else); false when the breaker could not be had or the lock cannot be removed.
 */
export function breakStaleLock(path: string, staleMs: number, deadline: number): boolean {
  const breaker = `${path}.break`;
  const marker = acquireDirLock(breaker, Math.max(0, deadline - Date.now()), staleMs);
  if (marker === undefined) return false;
  try {
    const st = lstatOrUndefined(path);
    if (st === undefined || !isStale(st, staleMs)) return true;
    return st.isDirectory() ? tryRmdir(path) : tryUnlink(path);
  } finally {
    releaseDirLock(breaker, marker);
  }
}

export function stillHeld(lock: Held): boolean {
  const st = lstatOrUndefined(lock.path);
  // A replacement lock is created at least staleLockMs after ours, so the mtime tells it apart even if the inode
  // number was reused.
  return st !== undefined && st.ino === lock.ino && st.dev === lock.dev && st.mtimeMs === lock.mtimeMs;
}

export function releaseLock(lock: Held): void {
  if (stillHeld(lock)) tryUnlink(lock.path);
}

/**
 * Directory lock for the breaker: `<name>` held while it holds one marker dir named by the holder's token. Returns
 * the marker's path, or undefined on timeout or I/O failure.
 */
export function acquireDirLock(lockDir: string, timeoutMs: number, staleMs: number): string | undefined {
  const token = newToken();
  const staging = `${lockDir}.${token}`;
  const stagedMarker = join(staging, token);
  try {
    makeDirs(stagedMarker, 0o700);
  } catch {
    tryRmdir(staging);
    return undefined;
  }
  const deadline = Date.now() + timeoutMs;
  let waits = 0;
  let lastChance = true;
  for (;;) {
    try {
      // Succeeds only if lockDir is absent or empty, atomically.
      renameSync(staging, lockDir);
      return join(lockDir, token);
    } catch (error) {
      if (!DIR_LOCK_BUSY.has(errCode(error))) break;
    }
    const freed = clearDirLockIfFreeOrStale(lockDir, staleMs);
    // A lock we just found free is worth one more try, even at the deadline.
    if (Date.now() >= deadline) {
      if (!freed || !lastChance) break;
      lastChance = false;
    } else if (!freed) backoff(waits++, deadline);
    // Our marker's age must count from when we get the lock, not from when we started waiting.
    try {
      const t = Date.now() / 1000;
      utimesSync(stagedMarker, t, t);
    } catch {
      break;
    }
  }
  tryRmdir(stagedMarker);
  tryRmdir(staging);
  return undefined;
}

/**
 * Looks at a directory lock we failed to take. True when worth retrying at once: it vanished, was empty (free), or
 * we removed a stale marker. Only markers are removed, by name, so a newer holder is never disturbed.
 */
export function clearDirLockIfFreeOrStale(lockDir: string, staleMs: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync(lockDir);
  } catch (error) {
    const code = errCode(error);
    if (code === 'ENOENT') return true;
    // A plain file where the lock goes is not ours; unlink can never remove a real (directory) lock.
    if (code === 'ENOTDIR' && isStale(lstatOrUndefined(lockDir), staleMs)) return tryUnlink(lockDir);
    return false;
  }
  // An empty lock dir is free; platforms that refuse to rename onto it (Windows) need it gone first.
  if (entries.length === 0) return tryRmdir(lockDir) || lstatOrUndefined(lockDir) === undefined;
  let freed = false;
  for (const name of entries) {
    const entry = join(lockDir, name);
    if (isStale(lstatOrUndefined(entry), staleMs) && (tryRmdir(entry) || tryUnlink(entry))) freed = true;
  }
  return freed;
}

export function releaseDirLock(lockDir: string, marker: string): void {
  tryRmdir(marker);
  // rmdir only removes an empty dir, so this cannot remove a lock someone else has since taken.
  tryRmdir(lockDir);
}

export function tryRmdir(path: string): boolean {
  try {
    rmdirSync(path);
    return true;
  } catch {
    return false;
  }
}

export function tryUnlink(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch {
    return false;
  }
}
