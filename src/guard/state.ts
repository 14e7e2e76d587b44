// Per-session state for the guard: one small JSON file per (tool, session), read-modify-written under a lock.
import {
  closeSync,
  constants,
  fstatSync,
  futimesSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { hash64 } from './core/hash.ts';
import {
  acquireLock,
  breakStaleLock,
  type Held,
  lstatOrUndefined,
  newToken,
  releaseLock,
  stillHeld,
  tryRmdir,
  tryUnlink,
} from './lock.ts';
import { openNoFollow, renameReplacing } from './replace-file.ts';

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

// O_NONBLOCK keeps a FIFO planted in the state file's place from hanging the hook; O_NOFOLLOW (on Windows an lstat:
// openNoFollow) refuses symlinks.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);
const STAMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0);

/** File-system-safe name for a (tool, session) key: a hash, never the raw id. */
export function sessionFileName(tool: string, sessionKey: string): string {
  // The tool name is kept as a readable prefix only when it is already a short safe slug.
  const slug = /^[a-z][a-z0-9]{0,15}$/.test(tool) ? tool : 'x';
  // Length-prefixing the tool makes the (tool, key) → string encoding injective.
  const key = `${tool.length}:${tool}${sessionKey}`;
  // Two differently prefixed 64-bit hashes give 128 bits, so distinct sessions never share a file in practice.
  return `${slug}-${hash64(key)}${hash64(`\u0001${key}`)}.json`;
}

/**
 * The state file of a loop (core/loop.ts): one per (tool, repository, loop key), the key a prompt hash or a run id,
 * all three hashed. Named like a session file (prefix `loop`), so prune ages it out the same way.
 */
export function loopFileName(tool: string, root: string, loopKey: string): string {
  return sessionFileName('loop', `${tool.length}:${tool}${root.length}:${root}${loopKey}`);
}

/** True for a file name loopFileName gives: a session file's pointer is followed only to one of these. */
export function isLoopFileName(name: unknown): name is string {
  return typeof name === 'string' && /^loop-[0-9a-f]{32}\.json$/.test(name);
}

/** Read the state without locking (writers replace the file atomically). undefined if missing, unreadable, corrupt or
 * too big. */
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
  const lock = acquireLock(
    dir,
    target,
    opts.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
    opts.staleLockMs ?? DEFAULT_STALE_LOCK_MS,
  );
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
      const fd = openNoFollow(stamp, STAMP_FLAGS, 0o600);
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

/** Reads and parses a state file; undefined on any problem, including a size over maxBytes. */
function readJson<S>(path: string, maxBytes: number): S | undefined {
  let fd: number;
  try {
    fd = openNoFollow(path, READ_FLAGS);
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
    renameReplacing(tmp, target);
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

/** Deletes one old session file or by-product, each in the way that cannot disturb a live update. */
function pruneArtifact(
  dir: string,
  name: string,
  session: string,
  suffix: string | undefined,
  cutoff: number,
  maxAgeMs: number,
): void {
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
