// A V8 code cache for the hook file, kept in the guard's per-user state directory.
//
// Why: the hook is start-up dominated and compiling its ~100 KB is most of what it adds to `node -e 0`. The loader
// (loader.ts) compiles the hook's body with vm.Script and hands it the cached data written by an earlier run.
// Trust rules, all checked on every read:
// - the directory is a real directory owned by this user with no group/other access (0700), and the cache file is a
//   regular file owned by this user, not writable by others, opened without following symlinks: a cache planted by
//   someone else is never used;
// - the cache's key names the Node version, arch, flags and the hook file's identity (dev, inode, size, mtime,
//   ctime) and the body's build hash: an upgrade, an edit or another Node rejects it, and V8 rejects it too on a
//   V8 version or flag change;
// - every error means "no cache": the hook then compiles from source, as without this module.
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  type Stats,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { hash64 } from './core/hash.ts';

/** Event kinds a cache file has seen run; a run of a kind not yet covered rewrites it with that kind's functions. */
export const KIND_BITS: Record<string, number> = { pre: 1, post: 2, userTurn: 4 };
const MAX_CACHE_BYTES = 8 * 1024 * 1024;
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);
const MAGIC = 'LGCC1';

export interface CacheEntry {
  /** V8 code cache bytes, or undefined when there is no usable cache. */
  data: Buffer | undefined;
  /** Kinds the stored cache covers (bit mask). */
  kinds: number;
}

/**
 * The user this process runs as, or undefined where ownership cannot be checked: Windows has no uid (process.getuid
 * is missing) and its fs.Stats mode says nothing of the folder's ACL, so there is no cache on Windows
 * (docs/decisions.md).
 */
export function currentUid(proc: { getuid?: () => number } = process): number | undefined {
  return typeof proc.getuid === 'function' ? proc.getuid() : undefined;
}

/** True when `st` is owned by `uid` and grants nothing to group or others (what a 0700 state dir looks like). */
function privateTo(st: Stats, uid: number, mask: number): boolean {
  return st.uid === uid && (st.mode & mask) === 0;
}

/** The state dir is usable for a cache only if it is ours alone. */
export function trustedDir(dir: string, uid: number | null = currentUid() ?? null): boolean {
  if (uid === null) return false;
  try {
    const st = lstatSync(dir);
    return st.isDirectory() && privateTo(st, uid, 0o077);
  } catch {
    return false;
  }
}

/**
 * File name for this key under this Node (version, arch, flags): each hook file (repository, release) and each Node
 * keeps its own cache, so two of them used in turn do not keep replacing each other's. The key is still checked inside.
 */
export function cacheFileName(key: string): string {
  const flags = `${process.execArgv.join(' ')}\u0000${process.env.NODE_OPTIONS ?? ''}`;
  // The key's own fields name the file, and only flags are hashed, when there are any: the loader's code is compiled
  // afresh in every process (it is what loads the cache), and hashing the key there cost each event ~0.2 ms.
  const name = key.replace(/[^A-Za-z0-9._-]/g, '-');
  return `code-cache-${process.version}-${process.arch}-${name}${flags === '\u0000' ? '' : `-${hash64(flags)}`}.bin`;
}

/** What must match for a stored cache to be used: this body, in this file as it is now, under this Node. */
export function cacheKey(hookFile: Stats, bodyHash: string): string {
  return [
    MAGIC,
    process.version,
    process.arch,
    bodyHash,
    hookFile.dev,
    hookFile.ino,
    hookFile.size,
    hookFile.mtimeMs,
    hookFile.ctimeMs,
  ].join(':');
}

/** Reads the cache for `key`; { data: undefined } when missing, untrusted, stale or unreadable. */
export function readCache(dir: string, key: string, uid: number | null = currentUid() ?? null): CacheEntry {
  const none: CacheEntry = { data: undefined, kinds: 0 };
  if (uid === null || !trustedDir(dir, uid)) return none;
  let fd: number;
  try {
    fd = openSync(join(dir, cacheFileName(key)), READ_FLAGS);
  } catch {
    return none;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || !privateTo(st, uid, 0o022) || st.size > MAX_CACHE_BYTES || st.size === 0) return none;
    const buf = Buffer.allocUnsafe(st.size);
    let off = 0;
    while (off < buf.length) {
      const n = readSync(fd, buf, off, buf.length - off, off);
      if (n === 0) return none;
      off += n;
    }
    // Layout: "<key>\n<kinds>\n" then the V8 bytes.
    const nl1 = buf.indexOf(10);
    const nl2 = nl1 < 0 ? -1 : buf.indexOf(10, nl1 + 1);
    if (nl2 < 0 || buf.toString('latin1', 0, nl1) !== key) return none;
    const kinds = Number(buf.toString('latin1', nl1 + 1, nl2));
    if (!Number.isInteger(kinds)) return none;
    return { data: buf.subarray(nl2 + 1), kinds };
  } catch {
    return none;
  } finally {
    try {
      closeSync(fd);
    } catch {
      // A failed close of a read-only fd loses nothing.
    }
  }
}

/** Writes the cache atomically (private temp file + rename). Never throws; a failed write only costs the next run. */
export function writeCache(
  dir: string,
  key: string,
  kinds: number,
  data: Buffer,
  uid: number | null = currentUid() ?? null,
): void {
  if (!trustedDir(dir, uid) || data.length === 0 || data.length > MAX_CACHE_BYTES) return;
  const target = join(dir, cacheFileName(key));
  const tmp = `${target}.${process.pid.toString(36)}-${Math.floor(Math.random() * 0x7fffffff).toString(36)}.tmp`;
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'wx', 0o600);
    const head = Buffer.from(`${key}\n${kinds}\n`, 'latin1');
    for (const part of [head, data]) {
      let off = 0;
      while (off < part.length) off += writeSync(fd, part, off, part.length - off);
    }
    closeSync(fd);
    fd = undefined;
    // No retry on a busy rename (replace-file.ts): a cache that is not written only costs the next run its compile.
    renameSync(tmp, target);
    pruneCaches(dir, target);
  } catch {
    try {
      if (fd !== undefined) closeSync(fd);
    } catch {
      // The temp file is removed below either way.
    }
    try {
      unlinkSync(tmp);
    } catch {
      // Nothing was created, or someone else already cleaned up.
    }
  }
}

/** A cache file (any Node, any hook file, older layouts too) or a temp file left by a killed writer. */
const CACHE_FILE = /^code-cache-[A-Za-z0-9._-]+\.bin(\.[a-z0-9-]+\.tmp)?$/;
/** Caches not rewritten for this long are deleted when another is written; one still in use is rebuilt on its next
 * run. */
export const CACHE_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** A temp file older than this belongs to a writer that died (a live one renames within milliseconds). */
const TEMP_MAX_AGE_MS = 10 * 60 * 1000;

/**
 * Deletes old cache files and dead writers' temps, only when a cache was just written (rare: a new Node, hook file
 * or kind of event), so the per-event path never lists the directory. Safe against other hook processes: a reader
 * that already opened a file keeps reading it after the unlink, and a file renamed into place since the look is new,
 * so its age check fails. Never throws.
 */
export function pruneCaches(dir: string, keep: string, now = Date.now()): void {
  try {
    for (const name of readdirSync(dir)) {
      const m = CACHE_FILE.exec(name);
      const path = join(dir, name);
      if (!m || path === keep) continue;
      try {
        const st = lstatSync(path);
        if (st.isFile() && now - st.mtimeMs > (m[1] ? TEMP_MAX_AGE_MS : CACHE_MAX_AGE_MS)) unlinkSync(path);
      } catch {
        // Gone already, or not ours to delete.
      }
    }
  } catch {
    // Housekeeping only.
  }
}
