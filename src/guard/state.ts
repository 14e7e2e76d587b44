// Per-session state for the guard: one small JSON file per (tool, session), read-modify-written under a lock.
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
  constants,
  fstatSync,
  futimesSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmdirSync,
  type Stats,
  unlinkSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join } from 'node:path';
import { hash64 } from './core/hash.ts';

// Hooks may take 10 s, so a heavily loaded machine gets time to serialize parallel calls before a count is given up.
const DEFAULT_LOCK_TIMEOUT_MS = 5000;
const DEFAULT_STALE_LOCK_MS = 4000;
const DEFAULT_MAX_BYTES = 256 * 1024;
const DEFAULT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
const PRUNE_INTERVAL_MS = 60 * 60 * 1000;
const PRUNE_STAMP = '.last-prune';

/** A session file or one of its by-products (lock, breaker, staged breaker, temp file): all that prune may delete. */
const SESSION_ARTIFACT =
  /^([a-z][a-z0-9]{0,15}-[0-9a-f]{32}\.json)(\.lock|\.lock\.break|\.lock\.break\.[a-z0-9-]+|\.[a-z0-9-]+\.tmp)?$/;
/** File names updateState/readState accept: one plain path component, so nothing can escape `dir`. */
const SAFE_FILE = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,200}$/;

const IS_WINDOWS = process.platform === 'win32';
// Errors that mean "the lock is taken", not "this cannot work" (Windows also reports a file pending deletion or in
// use this way). Anything else fails at once, so an unusable state dir costs no waiting.
const WINDOWS_BUSY = IS_WINDOWS ? ['EPERM', 'EACCES', 'EBUSY'] : [];
/** From creating the lock file with O_EXCL. */
const FILE_LOCK_BUSY = new Set(['EEXIST', ...WINDOWS_BUSY]);
/** From renaming a staged dir onto a directory lock (ENOTDIR: a stray file sits in its place). */
const DIR_LOCK_BUSY = new Set(['EEXIST', 'ENOTEMPTY', 'ENOTDIR', ...WINDOWS_BUSY]);

// O_NONBLOCK keeps a FIFO planted in the state file's place from hanging the hook; O_NOFOLLOW refuses symlinks.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);
const STAMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0);

/** LOOP_GUARD_STATE_DIR, else $XDG_STATE_HOME/loop-guard, else ~/.local/state/loop-guard (os.homedir()). Pure: takes env. */
export function resolveStateDir(env: NodeJS.ProcessEnv): string {
  // Relative values are ignored (as the XDG spec asks) because a hook's cwd changes with the agent's.
  const explicit = env.LOOP_GUARD_STATE_DIR;
  if (explicit && isAbsolute(explicit)) return explicit;
  const xdg = env.XDG_STATE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'loop-guard');
  return join(homeDir(), '.local', 'state', 'loop-guard');
}

/**
 * os.homedir() without loading node:os on the hot path (~0.2 ms of a hook's start-up): on POSIX, homedir() is
 * $HOME whenever that is set and not empty, so only the rare process without HOME (and Windows) loads the module.
 */
function homeDir(): string {
  const home = IS_WINDOWS ? undefined : process.env.HOME;
  if (home) return home;
  return (createRequire(process.execPath)('node:os') as typeof import('node:os')).homedir();
}

/** File-system-safe name for a (tool, session) key: a hash, never the raw id. */
export function sessionFileName(tool: string, sessionKey: string): string {
  // The tool name is kept as a readable prefix only when it is already a short safe slug.
  const slug = /^[a-z][a-z0-9]{0,15}$/.test(tool) ? tool : 'x';
  // Length-prefixing the tool makes the (tool, key) → string encoding injective.
  const key = `${tool.length}:${tool}${sessionKey}`;
  // Two differently prefixed 64-bit hashes give 128 bits, so distinct sessions never share a file in practice.
  return `${slug}-${hash64(key)}${hash64(`\u0001${key}`)}.json`;
}

/** Read the state without locking (writers replace the file atomically). undefined if missing, unreadable, corrupt or too big. */
export function readState<S>(dir: string, file: string): S | undefined {
  if (!SAFE_FILE.test(file)) return undefined;
  return readJson<S>(join(dir, file), DEFAULT_MAX_BYTES);
}

/**
 * Read-modify-write under an exclusive lock: calls update(current) and persists the returned value atomically
 * (write temp file in the same dir + rename). Returns update's result, or undefined if the lock could not be taken
 * in time or any I/O failed (the guard then fails open). Creates `dir` with mode 0700 if missing.
 * An exception thrown by `update` (or a next state JSON cannot encode) is a caller bug: it propagates, after the
 * lock is released. lockTimeoutMs (default 5000): give up waiting. staleLockMs (default 4000): a lock older than
 * this is presumed dead and taken over. maxBytes (default 256 KB): a bigger file reads as corrupt, and a bigger
 * next state is not written but resets the session.
 */
export function updateState<S, R>(
  dir: string,
  file: string,
  update: (current: S | undefined) => { next: S; result: R },
  opts: { lockTimeoutMs?: number; staleLockMs?: number; maxBytes?: number } = {},
): R | undefined {
  if (!SAFE_FILE.test(file)) return undefined;
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const target = join(dir, file);
  const lock = acquireLock(dir, target, opts.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS, opts.staleLockMs ?? DEFAULT_STALE_LOCK_MS);
  if (lock === undefined) return undefined;
  try {
    const { next, result } = update(readJson<S>(target, maxBytes));
    const json = JSON.stringify(next);
    if (typeof json !== 'string') throw new TypeError('loop-guard: state must be a JSON value');
    return persist(target, json, lock, maxBytes) ? result : undefined;
  } finally {
    releaseLock(lock);
  }
}

/** Delete session files not modified for maxAgeMs (default 7 days); cheap to call, never throws. */
export function pruneOldSessions(dir: string, maxAgeMs: number = DEFAULT_MAX_AGE_MS): void {
  try {
    const now = Date.now();
    const stamp = join(dir, PRUNE_STAMP);
    // A stamp file makes calling this on every event cost one stat; the scan runs at most hourly.
    const interval = Math.min(PRUNE_INTERVAL_MS, maxAgeMs / 10);
    if (interval > 0 && now - (lstatOrUndefined(stamp)?.mtimeMs ?? -Infinity) < interval) return;
    try {
      const fd = openSync(stamp, STAMP_FLAGS, 0o600);
      try {
        futimesSync(fd, now / 1000, now / 1000);
      } finally {
        closeSync(fd);
      }
    } catch {
      return; // Cannot write here, so there is nothing we could delete either.
    }
    const cutoff = now - maxAgeMs;
    for (const name of readdirSync(dir)) {
      const match = SESSION_ARTIFACT.exec(name);
      if (!match) continue;
      try {
        pruneArtifact(dir, name, match[1]!, match[2], cutoff, maxAgeMs);
      } catch {
        // Raced with another process or not ours to delete: leave it.
      }
    }
  } catch {
    // Pruning is housekeeping; it must never cost the guard its answer.
  }
}

// ---------------------------------------------------------------------------------------------------------------

let tokenCounter = 0;

/** A name unique to one attempt: pid separates live processes, the counter separates calls within one. */
/**
 * mkdir -p with a bounded walk: Node's own recursive mkdir spins forever on some paths (e.g. under /proc),
 * and a hook that hangs is the very failure the guard exists to prevent.
 */
function makeDirs(path: string, mode: number): void {
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

function newToken(): string {
  const random = Math.floor(Math.random() * 0x7fffffff).toString(36);
  return `${process.pid.toString(36)}-${(tokenCounter++).toString(36)}-${random}`;
}

function errCode(error: unknown): string {
  return (error as NodeJS.ErrnoException | null)?.code ?? '';
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** abs(): a lock from far in the future (clock stepped back) must not block until the clock catches up. */
function isStale(st: Stats | undefined, staleMs: number): boolean {
  return st !== undefined && Math.abs(Date.now() - st.mtimeMs) > staleMs;
}

let sleepCell: Int32Array | undefined;

/** Synchronous sleep that leaves the CPU to the lock holder. */
function sleep(ms: number): void {
  sleepCell ??= new Int32Array(new SharedArrayBuffer(4));
  Atomics.wait(sleepCell, 0, 0, ms);
}

/** Jittered, growing wait (≈0.25–16 ms) so contending processes spread out instead of retrying in lockstep. */
function backoff(waits: number, deadline: number): void {
  sleep(Math.max(0, Math.min(deadline - Date.now(), 0.25 + Math.random() * Math.min(16, 2 ** waits))));
}

/** The lock file we created, identified by inode and mtime so we can tell if it was replaced. */
interface Held {
  path: string;
  dev: number;
  ino: number;
  mtimeMs: number;
}

function acquireLock(dir: string, target: string, timeoutMs: number, staleMs: number): Held | undefined {
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
function heldFromFd(path: string, fd: number): Held | undefined {
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
function breakStaleLock(path: string, staleMs: number, deadline: number): boolean {
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

function stillHeld(lock: Held): boolean {
  const st = lstatOrUndefined(lock.path);
  // A replacement lock is created at least staleLockMs after ours, so the mtime tells it apart even if the inode
  // number was reused.
  return st !== undefined && st.ino === lock.ino && st.dev === lock.dev && st.mtimeMs === lock.mtimeMs;
}

function releaseLock(lock: Held): void {
  if (stillHeld(lock)) tryUnlink(lock.path);
}

/**
 * Directory lock for the breaker: `<name>` held while it holds one marker dir named by the holder's token. Returns
 * the marker's path, or undefined on timeout or I/O failure.
 */
function acquireDirLock(lockDir: string, timeoutMs: number, staleMs: number): string | undefined {
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
function clearDirLockIfFreeOrStale(lockDir: string, staleMs: number): boolean {
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

function releaseDirLock(lockDir: string, marker: string): void {
  tryRmdir(marker);
  // rmdir only removes an empty dir, so this cannot remove a lock someone else has since taken.
  tryRmdir(lockDir);
}

/** Reads and parses a state file; undefined on any problem, including a size over maxBytes. */
function readJson<S>(path: string, maxBytes: number): S | undefined {
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size === 0 || st.size > maxBytes) return undefined;
    const buf = Buffer.allocUnsafe(st.size);
    let off = 0;
    while (off < buf.length) {
      const n = readSync(fd, buf, off, buf.length - off, off);
      if (n === 0) return undefined;
      off += n;
    }
    return JSON.parse(buf.toString('utf8')) as S;
  } catch {
    return undefined;
  } finally {
    try {
      closeSync(fd);
    } catch {
      // Nothing useful to do about a failed close of a read-only fd.
    }
  }
}

/** Writes json to a temp file and renames it over target if we still hold the lock. False on any failure. */
function persist(target: string, json: string, lock: Held, maxBytes: number): boolean {
  const data = Buffer.from(json, 'utf8');
  if (data.length > maxBytes) {
    // Refusing to write would freeze the session on its last state forever; starting fresh lets it recover.
    tryUnlink(target);
    return false;
  }
  const tmp = `${target}.${newToken()}.tmp`;
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'wx', 0o600);
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off);
    closeSync(fd);
    fd = undefined;
    // No fsync: a torn file after a power cut reads as corrupt and the session starts fresh, which is fine.
    if (!stillHeld(lock)) throw new Error('lock taken over');
    renameSync(tmp, target);
    return true;
  } catch {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // The temp file is removed below either way.
      }
    }
    tryUnlink(tmp);
    return false;
  }
}

function tryRmdir(path: string): boolean {
  try {
    rmdirSync(path);
    return true;
  } catch {
    return false;
  }
}

function tryUnlink(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Deletes one old session file or by-product, each in the way that cannot disturb a live update. */
function pruneArtifact(dir: string, name: string, session: string, suffix: string | undefined, cutoff: number, maxAgeMs: number): void {
  const path = join(dir, name);
  const st = lstatSync(path);
  if (st.mtimeMs >= cutoff) return;
  if (suffix === undefined) {
    // Delete under the session's lock (no waiting), so an update cannot land between our check and the unlink.
    const lock = acquireLock(dir, join(dir, session), 0, DEFAULT_STALE_LOCK_MS);
    if (lock === undefined) return;
    try {
      if ((lstatOrUndefined(path)?.mtimeMs ?? Infinity) < cutoff) unlinkSync(path);
    } finally {
      releaseLock(lock);
    }
  } else if (suffix === '.lock') {
    // Same rule as any waiter: only through the breaker, re-checked there.
    breakStaleLock(path, maxAgeMs, Date.now());
  } else if (st.isDirectory()) {
    // Breaker or staged breaker: remove old markers by name, then the dir only if that emptied it.
    for (const entry of readdirSync(path)) {
      const p = join(path, entry);
      if ((lstatOrUndefined(p)?.mtimeMs ?? Infinity) < cutoff && !tryRmdir(p)) tryUnlink(p);
    }
    tryRmdir(path);
  } else {
    unlinkSync(path);
  }
}
