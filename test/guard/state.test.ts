// The per-session state store: unit behaviour in-process, and exactness under contention from real OS processes
// running the esbuild bundle of src/guard/state.ts.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  lutimesSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { repoRoot } from '../helpers/paths.ts';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneOldSessions, readState, sessionFileName, updateState } from '../../src/guard/state.ts';
import { resolveStateDir } from '../../src/guard/state-dir.ts';

type Counter = { count: number };

const isWindows = process.platform === 'win32';
const isRoot = process.getuid?.() === 0;
const workerSource = fileURLToPath(new URL('./helpers/state-worker.mjs', import.meta.url));

const root = mkdtempSync(join(tmpdir(), 'lg-state-unit-'));
let dirSeq = 0;
/** A fresh, not yet existing state dir path under the test root. */
function freshDir(): string {
  return join(root, `d${dirSeq++}`);
}
function made(): string {
  const dir = freshDir();
  mkdirSync(dir, { recursive: true });
  return dir;
}

function increment(dir: string, file: string, opts?: Parameters<typeof updateState>[3]): number | undefined {
  return updateState<Counter, number>(
    dir,
    file,
    (cur) => {
      const count = (cur?.count ?? 0) + 1;
      return { next: { count }, result: count };
    },
    opts,
  );
}

/** Set a path's mtime ageMs into the past (the link itself for symlinks). */
function age(path: string, ageMs: number): void {
  const t = (Date.now() - ageMs) / 1000;
  lutimesSync(path, t, t);
}

/** Leave a lock as a process that died inside updateState would: an empty `<file>.lock` of the given age. */
function plantLock(dir: string, file: string, ageMs: number): string {
  const lock = join(dir, `${file}.lock`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(lock, '');
  age(lock, ageMs);
  return lock;
}

function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('resolveStateDir', () => {
  it('prefers LOOP_GUARD_STATE_DIR, then XDG_STATE_HOME/loop-guard, then ~/.local/state/loop-guard', () => {
    expect(resolveStateDir({ LOOP_GUARD_STATE_DIR: '/a/b', XDG_STATE_HOME: '/x' })).toBe('/a/b');
    expect(resolveStateDir({ XDG_STATE_HOME: '/x' })).toBe(join('/x', 'loop-guard'));
    expect(resolveStateDir({})).toBe(join(homedir(), '.local', 'state', 'loop-guard'));
  });

  it('treats empty and relative values as unset', () => {
    expect(resolveStateDir({ LOOP_GUARD_STATE_DIR: '', XDG_STATE_HOME: '/x' })).toBe(join('/x', 'loop-guard'));
    expect(resolveStateDir({ LOOP_GUARD_STATE_DIR: 'rel/dir', XDG_STATE_HOME: 'also-rel' })).toBe(
      join(homedir(), '.local', 'state', 'loop-guard'),
    );
  });

  it('reads only the env it is given, not process.env', () => {
    const saved = process.env.LOOP_GUARD_STATE_DIR;
    process.env.LOOP_GUARD_STATE_DIR = '/from/process/env';
    try {
      expect(resolveStateDir({ XDG_STATE_HOME: '/x' })).toBe(join('/x', 'loop-guard'));
    } finally {
      if (saved === undefined) delete process.env.LOOP_GUARD_STATE_DIR;
      else process.env.LOOP_GUARD_STATE_DIR = saved;
    }
  });
});

describe('sessionFileName', () => {
  const hostile = [
    '../../x',
    '/etc/passwd',
    '..',
    '.',
    '',
    'a/b\\c',
    'C:\\Windows\\system32',
    'x'.repeat(10_000),
    'nul\u0000byte',
    '\u0000',
    'ünïcødé-😀-日本語',
    '\ud800', // lone surrogate
    'line\nbreak\r\t',
    'con',
    '*?<>|"',
  ];

  it('is stable across calls and across versions (pinned values)', () => {
    expect(sessionFileName('claude', 'abc')).toBe(sessionFileName('claude', 'abc'));
    // Changing the hash would orphan every live session's state on upgrade; update these only on purpose.
    expect(sessionFileName('claude', 'abc')).toBe(PINNED.claudeAbc);
    expect(sessionFileName('../evil', '../../x')).toBe(PINNED.evil);
  });

  it('separates tools and sessions, including at the tool/key boundary', () => {
    const names = new Set([
      sessionFileName('claude', 'abc'),
      sessionFileName('codex', 'abc'),
      sessionFileName('claude', 'abd'),
      sessionFileName('a', 'bc'),
      sessionFileName('ab', 'c'),
      sessionFileName('a\u0000b', 'c'),
      sessionFileName('a', 'b\u0000c'),
    ]);
    expect(names.size).toBe(7);
  });

  it('has no collisions over 20,000 similar ids', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20_000; i++) seen.add(sessionFileName('claude', `session-${i}`));
    expect(seen.size).toBe(20_000);
  });

  it('gives a safe name inside the dir for hostile tools and ids', () => {
    const dir = resolve('/state/dir');
    for (const tool of ['claude', ...hostile]) {
      for (const id of hostile) {
        const name = sessionFileName(tool, id);
        expect(name).toMatch(/^[a-z0-9._-]+$/);
        expect(name).toMatch(/^[a-z][a-z0-9]{0,15}-[0-9a-f]{32}\.json$/);
        const full = resolve(dir, name);
        expect(dirname(full)).toBe(dir);
        const rel = relative(dir, full);
        expect(rel.startsWith('..') || isAbsolute(rel)).toBe(false);
      }
    }
    expect(sessionFileName('../../x', 'y').startsWith('x-')).toBe(true);
  });
});

const PINNED = {
  claudeAbc: 'claude-de8e3e54ee60fb1cd3a85c52a244a900.json',
  evil: 'x-6319dbd46166552ec677133aee23c553.json',
};

describe('readState / updateState', () => {
  const file = sessionFileName('claude', 'unit');

  it('round-trips: missing → update sees undefined → read returns the stored value', () => {
    const dir = freshDir();
    expect(readState(dir, file)).toBeUndefined();
    const seen: unknown[] = [];
    const r1 = updateState<{ events: string[] }, string>(dir, file, (cur) => {
      seen.push(cur);
      return { next: { events: ['a'] }, result: 'first' };
    });
    const r2 = updateState<{ events: string[] }, number>(dir, file, (cur) => {
      seen.push(cur);
      return { next: { events: [...(cur?.events ?? []), 'b'] }, result: 2 };
    });
    expect([r1, r2]).toEqual(['first', 2]);
    expect(seen).toEqual([undefined, { events: ['a'] }]);
    expect(readState(dir, file)).toEqual({ events: ['a', 'b'] });
    // No lock, staging dir or temp file is left behind.
    expect(readdirSync(dir)).toEqual([file]);
  });

  it('creates the dir (and parents) with mode 0700 and writes files with mode 0600', () => {
    if (isWindows) return;
    const dir = join(freshDir(), 'nested', 'state');
    expect(increment(dir, file)).toBe(1);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(dirname(dir)).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
  });

  it('treats corrupt JSON as missing and starts fresh', () => {
    for (const junk of ['{"count": 1', '', 'not json', '\u0000\u0001\u0002']) {
      const dir = made();
      writeFileSync(join(dir, file), junk);
      expect(readState(dir, file)).toBeUndefined();
      expect(increment(dir, file)).toBe(1);
      expect(readState(dir, file)).toEqual({ count: 1 });
    }
  });

  it('treats a file over 256 KB as corrupt, and one at the limit as fine', () => {
    const dir = made();
    const limit = 256 * 1024;
    const json = (size: number) => {
      const pad = size - '{"count":5,"pad":""}'.length;
      return `{"count":5,"pad":"${'x'.repeat(pad)}"}`;
    };
    writeFileSync(join(dir, file), json(limit));
    expect(readState<Counter>(dir, file)?.count).toBe(5);
    writeFileSync(join(dir, file), json(limit + 1));
    expect(statSync(join(dir, file)).size).toBe(limit + 1);
    expect(readState(dir, file)).toBeUndefined();
    expect(increment(dir, file)).toBe(1);
  });

  it('honours maxBytes on read, and resets instead of writing a next state over it', () => {
    const dir = made();
    writeFileSync(join(dir, file), JSON.stringify({ count: 7, pad: 'y'.repeat(200) }));
    expect(increment(dir, file, { maxBytes: 100 })).toBe(1);
    expect(readState(dir, file)).toEqual({ count: 1 });

    const big = updateState<{ pad: string }, string>(
      dir,
      file,
      () => ({ next: { pad: 'z'.repeat(500) }, result: 'ok' }),
      {
        maxBytes: 100,
      },
    );
    expect(big).toBeUndefined();
    expect(existsSync(join(dir, file))).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('never follows a symlink, reads a directory, or hangs on a FIFO in the file’s place', () => {
    if (isWindows) return;
    const dir = made();
    const outside = join(made(), 'outside.json');
    writeFileSync(outside, '{"count":41}');
    symlinkSync(outside, join(dir, file));
    expect(readState(dir, file)).toBeUndefined();
    // The update replaces the link itself and leaves its target alone.
    expect(increment(dir, file)).toBe(1);
    expect(readFileSync(outside, 'utf8')).toBe('{"count":41}');

    const dir2 = made();
    mkdirSync(join(dir2, file));
    expect(readState(dir2, file)).toBeUndefined();
    expect(increment(dir2, file)).toBeUndefined();

    const dir3 = made();
    execFileSync('mkfifo', [join(dir3, file)]);
    const t0 = performance.now();
    expect(readState(dir3, file)).toBeUndefined();
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('returns undefined without throwing when the dir cannot exist or be written', () => {
    const base = made();
    const aFile = join(base, 'plain-file');
    writeFileSync(aFile, 'x');
    let called = 0;
    const update = () => {
      called++;
      return { next: { count: 1 }, result: 1 };
    };
    const t0 = performance.now();
    expect(updateState(aFile, file, update)).toBeUndefined();
    expect(updateState(join(aFile, 'sub'), file, update)).toBeUndefined();
    // Failing at once, not after waiting out the lock timeout.
    expect(performance.now() - t0).toBeLessThan(500);
    expect(readState(aFile, file)).toBeUndefined();
    expect(called).toBe(0);
    expect(readFileSync(aFile, 'utf8')).toBe('x');
  });

  it('returns undefined in a read-only dir (run as an unprivileged user when the tests run as root)', async () => {
    if (isWindows) return;
    const dir = made();
    writeFileSync(join(dir, file), '{"count":3}', { mode: 0o600 });
    if (!isRoot) {
      chmodSync(dir, 0o500);
      try {
        expect(readState(dir, file)).toEqual({ count: 3 });
        const t0 = performance.now();
        expect(increment(dir, file)).toBeUndefined();
        expect(performance.now() - t0).toBeLessThan(500);
        expect(readState(dir, file)).toEqual({ count: 3 });
      } finally {
        chmodSync(dir, 0o700);
      }
      return;
    }
    // Root ignores permission bits, so the same check runs in a child process as `nobody`.
    chmodSync(dir, 0o755);
    chmodSync(root, 0o755);
    const child = await startWorker({ uid: 65534, gid: 65534 });
    try {
      const inc = await child.run({ op: 'inc', dir, file, n: 1 });
      expect(inc).toMatchObject({ results: [], failed: 1 });
      expect(inc.ms).toBeLessThan(500);
      // The file is root's and 0600, so it is unreadable too: undefined, not an exception.
      expect(await child.run({ op: 'read', dir, file, n: 1 })).toMatchObject({ missing: 1 });
    } finally {
      await child.close();
      chmodSync(root, 0o700);
    }
    expect(readState(dir, file)).toEqual({ count: 3 });
  });

  it('refuses file names that are not a single plain path component', () => {
    const dir = made();
    for (const bad of ['../escape.json', '/abs.json', '.', '..', '.hidden', 'a/b', '', 'x\u0000y']) {
      expect(updateState(dir, bad, () => ({ next: 1, result: 1 }))).toBeUndefined();
      expect(readState(dir, bad)).toBeUndefined();
    }
    expect(readdirSync(dir)).toEqual([]);
    expect(existsSync(join(dirname(dir), 'escape.json'))).toBe(false);
  });

  it('propagates an exception from update, releases the lock and keeps the old state', () => {
    const dir = freshDir();
    expect(increment(dir, file)).toBe(1);
    expect(() =>
      updateState(dir, file, () => {
        throw new Error('caller bug');
      }),
    ).toThrow('caller bug');
    expect(() => updateState(dir, file, () => ({ next: undefined, result: 1 }))).toThrow(TypeError);
    expect(readdirSync(dir)).toEqual([file]);
    expect(increment(dir, file, { lockTimeoutMs: 0 })).toBe(2);
  });
});

describe('locking', () => {
  const file = sessionFileName('codex', 'locks');

  it('waits for a live lock, then gives up after lockTimeoutMs without calling update or touching the lock', () => {
    const dir = made();
    const lock = plantLock(dir, file, 0);
    let called = false;
    const t0 = performance.now();
    const r = updateState(
      dir,
      file,
      () => {
        called = true;
        return { next: 1, result: 1 };
      },
      { lockTimeoutMs: 150 },
    );
    const elapsed = performance.now() - t0;
    expect(r).toBeUndefined();
    expect(called).toBe(false);
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect(elapsed).toBeLessThan(1500);
    expect(existsSync(lock)).toBe(true);
    expect(readdirSync(dir)).toEqual([`${file}.lock`]);
  });

  it('takes over a lock older than staleLockMs (default 4 s) at once', () => {
    const dir = made();
    plantLock(dir, file, 10_000);
    const t0 = performance.now();
    expect(increment(dir, file)).toBe(1);
    expect(performance.now() - t0).toBeLessThan(200);
    expect(readdirSync(dir)).toEqual([file]);
  });

  it('takes over a lock left by a process killed while holding it', async () => {
    const dir = made();
    const child = await startWorker();
    const died = await child.runUntilExit({ op: 'dieHoldingLock', dir, file });
    expect(died.signal).toBe('SIGKILL');
    // The dead holder's lock is still there, and fresh.
    const lockedAt = statSync(join(dir, `${file}.lock`)).mtimeMs;
    expect(Date.now() - lockedAt).toBeLessThan(2000);
    expect(increment(dir, file, { staleLockMs: 300, lockTimeoutMs: 5000 })).toBe(1);
    // Taken over once it was stale, not before, and not much later.
    const tookOverAfter = Date.now() - lockedAt;
    expect(tookOverAfter).toBeGreaterThan(300);
    expect(tookOverAfter).toBeLessThan(3000);
    expect(readState(dir, file)).toEqual({ count: 1 });
  });

  it('treats a stray empty directory in the lock’s place like a lock: waits while fresh, removes it once old', () => {
    const dir = made();
    mkdirSync(join(dir, `${file}.lock`));
    expect(increment(dir, file, { lockTimeoutMs: 100 })).toBeUndefined();
    age(join(dir, `${file}.lock`), 60_000);
    expect(increment(dir, file, { lockTimeoutMs: 100 })).toBe(1);
    expect(readdirSync(dir)).toEqual([file]);
  });

  it('is not blocked by a breaker left behind by a process that died while breaking a stale lock', () => {
    const dir = made();
    plantLock(dir, file, 60_000);
    const marker = join(dir, `${file}.lock.break`, 'dead-1-z');
    mkdirSync(marker, { recursive: true });
    age(marker, 60_000);
    const t0 = performance.now();
    expect(increment(dir, file)).toBe(1);
    expect(performance.now() - t0).toBeLessThan(500);
    expect(readdirSync(dir)).toEqual([file]);
  });

  it('a holder paused past staleLockMs and taken over does not commit', () => {
    const dir = made();
    expect(increment(dir, file)).toBe(1);
    const r = updateState<Counter, string>(dir, file, (cur) => {
      sleepMs(30);
      // Meanwhile another process finds our lock stale (30 ms > 10 ms), breaks it and does its own update.
      expect(increment(dir, file, { staleLockMs: 10 })).toBe(2);
      return { next: { count: (cur?.count ?? 0) + 100 }, result: 'committed' };
    });
    expect(r).toBeUndefined();
    expect(readState(dir, file)).toEqual({ count: 2 });
    expect(readdirSync(dir)).toEqual([file]);
  });

  it('a holder that lost its lock does not remove the new holder’s lock on release', () => {
    const dir = made();
    const lock = join(dir, `${file}.lock`);
    const r = updateState<Counter, string>(dir, file, () => {
      sleepMs(30);
      // A new holder's lock replaces ours (same path, likely the same inode number, a later mtime).
      rmSync(lock);
      writeFileSync(lock, '');
      return { next: { count: 100 }, result: 'committed' };
    });
    expect(r).toBeUndefined();
    expect(existsSync(lock)).toBe(true);
    expect(readState(dir, file)).toBeUndefined();
    expect(readdirSync(dir)).toEqual([`${file}.lock`]);
  });
});

describe('pruneOldSessions', () => {
  const DAY = 24 * 60 * 60 * 1000;

  it('deletes only old session files and their by-products', () => {
    const dir = made();
    const oldSession = sessionFileName('claude', 'old');
    const newSession = sessionFileName('claude', 'new');
    const oldOther = sessionFileName('cursor', 'old2');
    const outsideTarget = join(made(), 'target.json');
    writeFileSync(outsideTarget, 'keep me');
    const old = [
      oldSession,
      `${oldOther}.lock`, // abandoned lock
      `${oldOther}.lock.break`, // abandoned breaker (dir with a marker)
      `${oldOther}.lock.break.abc-1-xyz`, // abandoned staged breaker
      `${oldOther}.abc-1-xyz.tmp`, // abandoned temp file
      sessionFileName('codex', 'link'), // a symlink named like a session: the link goes, the target stays
    ];
    const keepOld = [
      'notes.txt',
      'counter.json',
      'CLAUDE-0123456789abcdef0123456789ab.json',
      `${oldSession}.bak`,
      `${oldSession}.lock.other`,
      'sub',
    ];
    writeFileSync(join(dir, oldSession), '{}');
    plantLock(dir, oldOther, 10 * DAY);
    for (const marker of [
      join(`${oldOther}.lock.break`, 'abc-0-q'),
      join(`${oldOther}.lock.break.abc-1-xyz`, 'abc-1-xyz'),
    ]) {
      mkdirSync(join(dir, marker), { recursive: true });
      age(join(dir, marker), 10 * DAY);
    }
    writeFileSync(join(dir, `${oldOther}.abc-1-xyz.tmp`), '{}');
    if (!isWindows) symlinkSync(outsideTarget, join(dir, sessionFileName('codex', 'link')));
    else writeFileSync(join(dir, sessionFileName('codex', 'link')), '{}');
    for (const name of keepOld.slice(0, -1)) writeFileSync(join(dir, name), 'x');
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', oldSession), 'x');
    writeFileSync(join(dir, newSession), '{}');
    for (const name of [...old, ...keepOld]) age(join(dir, name), 8 * DAY);
    age(join(dir, 'sub', oldSession), 8 * DAY);

    pruneOldSessions(dir);

    const left = readdirSync(dir).sort();
    expect(left).toEqual([...keepOld, newSession, '.last-prune'].sort());
    expect(readFileSync(outsideTarget, 'utf8')).toBe('keep me');
    expect(existsSync(join(dir, 'sub', oldSession))).toBe(true);
  });

  it('keeps a session file touched within maxAgeMs and honours a custom maxAgeMs', () => {
    const dir = made();
    const a = sessionFileName('claude', 'a');
    const b = sessionFileName('claude', 'b');
    writeFileSync(join(dir, a), '{}');
    writeFileSync(join(dir, b), '{}');
    age(join(dir, a), 2 * DAY);
    age(join(dir, b), 12 * 60 * 60 * 1000);
    pruneOldSessions(dir, DAY);
    expect(existsSync(join(dir, a))).toBe(false);
    expect(existsSync(join(dir, b))).toBe(true);
  });

  it('scans at most hourly (one stat otherwise), so it is cheap to call per event', () => {
    const dir = made();
    pruneOldSessions(dir);
    const s = sessionFileName('claude', 'late');
    writeFileSync(join(dir, s), '{}');
    age(join(dir, s), 8 * DAY);
    pruneOldSessions(dir);
    expect(existsSync(join(dir, s))).toBe(true);
    age(join(dir, '.last-prune'), 2 * 60 * 60 * 1000);
    pruneOldSessions(dir);
    expect(existsSync(join(dir, s))).toBe(false);
  });

  it('never throws: missing dir, dir that is a file, empty dir', () => {
    const base = made();
    writeFileSync(join(base, 'f'), 'x');
    expect(() => pruneOldSessions(join(base, 'missing'))).not.toThrow();
    expect(() => pruneOldSessions(join(base, 'f'))).not.toThrow();
    expect(() => pruneOldSessions(base, 0)).not.toThrow();
    expect(existsSync(join(base, 'missing'))).toBe(false);
    expect(readFileSync(join(base, 'f'), 'utf8')).toBe('x');
  });
});

describe('cost (reported, not asserted on time)', () => {
  it('times 1000 sequential updates and reads', () => {
    const dir = freshDir();
    const file = sessionFileName('claude', 'bench');
    // A realistic small state: a bounded ring of recent (fingerprint, result) entries.
    type S = { ring: { fp: string; out: string; n: number }[] };
    const step = (cur: S | undefined, i: number) => {
      const ring = [...(cur?.ring ?? []), { fp: `cmd-${i % 7}`, out: `h${i % 3}`, n: i }].slice(-50);
      return { next: { ring }, result: ring.length };
    };
    for (let i = 0; i < 50; i++) updateState<S, number>(dir, file, (c) => step(c, i));
    const N = 1000;
    let t0 = performance.now();
    let ok = 0;
    for (let i = 0; i < N; i++) if (updateState<S, number>(dir, file, (c) => step(c, i)) !== undefined) ok++;
    const updateUs = ((performance.now() - t0) * 1000) / N;
    t0 = performance.now();
    for (let i = 0; i < N; i++) readState<S>(dir, file);
    const readUs = ((performance.now() - t0) * 1000) / N;
    const bytes = statSync(join(dir, file)).size;
    console.log(
      `[state cost] updateState ${updateUs.toFixed(1)} µs/update, readState ${readUs.toFixed(1)} µs/read (${bytes}-byte state)`,
    );
    expect(ok).toBe(N);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Real OS processes running the bundled module.

const bundleDir = join(root, 'bundle');
const bundlePath = join(bundleDir, 'state.mjs');
const workerPath = join(bundleDir, 'state-worker.mjs');

beforeAll(async () => {
  mkdirSync(bundleDir, { recursive: true });
  await build({
    entryPoints: [join(repoRoot, 'src', 'guard', 'state.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node18',
    outfile: bundlePath,
    logLevel: 'silent',
  });
  copyFileSync(workerSource, workerPath);
});

type Reply = Record<string, unknown> & { ms: number };

interface Worker {
  proc: ChildProcess;
  run(cmd: Record<string, unknown>): Promise<Reply>;
  runUntilExit(cmd: Record<string, unknown>): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  close(): Promise<void>;
}

async function startWorker(ids: { uid?: number; gid?: number } = {}): Promise<Worker> {
  const proc = spawn(process.execPath, [workerPath, bundlePath], { stdio: ['pipe', 'pipe', 'pipe'], ...ids });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const waiting: ((line: string) => void)[] = [];
  const queued: string[] = [];
  createInterface({ input: proc.stdout! }).on('line', (line) => {
    const w = waiting.shift();
    if (w) w(line);
    else queued.push(line);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) =>
    proc.on('exit', (code, signal) => res({ code, signal })),
  );
  const nextLine = () =>
    new Promise<string>((res, rej) => {
      const q = queued.shift();
      if (q !== undefined) return res(q);
      waiting.push(res);
      void exited.then(({ code, signal }) => rej(new Error(`worker exited (${code ?? signal}): ${stderr}`)));
    });
  const ready = await nextLine();
  if (ready !== 'ready') throw new Error(`worker said ${ready}: ${stderr}`);
  return {
    proc,
    async run(cmd) {
      const line = nextLine();
      proc.stdin!.write(`${JSON.stringify(cmd)}\n`);
      return JSON.parse(await line) as Reply;
    },
    async runUntilExit(cmd) {
      proc.stdin!.write(`${JSON.stringify(cmd)}\n`);
      return exited;
    },
    async close() {
      proc.stdin!.end();
      await exited;
    },
  };
}

const PROCS = 16;
/**
 * For the stress tests (processes doing back-to-back updates, far beyond one update per hook process): a long lock
 * timeout, so that starvation under a loaded CI machine shows up as slowness rather than as a fail-open `undefined`.
 * Exactness is what they measure; the single-update trials use the defaults.
 */
const STRESS = { lockTimeoutMs: 30_000, staleLockMs: 10_000 };

function expectExactlyOnce(replies: Reply[], total: number): void {
  const failed = replies.reduce((n, r) => n + (r.failed as number), 0);
  if (failed)
    console.log(`[state] failed calls took (ms): ${replies.flatMap((r) => r.failedMs as number[]).join(', ')}`);
  const results = replies.flatMap((r) => r.results as number[]).sort((a, b) => a - b);
  // Every update ran (none timed out) and each saw a distinct predecessor: results are exactly 1..total.
  expect(failed).toBe(0);
  expect(results).toEqual(Array.from({ length: total }, (_, i) => i + 1));
}

describe(`${PROCS} concurrent OS processes (bundled module)`, () => {
  let workers: Worker[] = [];
  const timings: string[] = [];

  beforeAll(async () => {
    workers = await Promise.all(Array.from({ length: PROCS }, () => startWorker()));
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.close()));
    console.log(`[state concurrency] ${timings.join('; ')}`);
  });

  it('bundles to a file that imports only node: builtins', () => {
    const code = readFileSync(bundlePath, 'utf8');
    const specifiers = [...code.matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']/g)].map(
      (m) => m[1] ?? m[2],
    );
    expect(specifiers.length).toBeGreaterThan(0);
    for (const s of specifiers) expect(s).toMatch(/^node:/);
  });

  it(`100 trials: ${PROCS} processes increment one counter at the same moment → exactly ${PROCS}`, async () => {
    const dir = made();
    const t0 = performance.now();
    for (let trial = 0; trial < 100; trial++) {
      const file = `trial-${trial}.json`;
      const replies = await Promise.all(workers.map((w) => w.run({ op: 'inc', dir, file, n: 1 })));
      expectExactlyOnce(replies, PROCS);
      expect(readState<Counter>(dir, file)).toEqual({ count: PROCS });
    }
    timings.push(`100×${PROCS} single increments in ${(performance.now() - t0).toFixed(0)} ms`);
    // Nothing but the 100 counters is left: every lock and temp file was cleaned up.
    expect(readdirSync(dir)).toHaveLength(100);
  });

  it(`${PROCS} processes × 50 sequential increments (5 trials) while a reader never sees a torn file`, async () => {
    const dir = made();
    const N = 50;
    for (let trial = 0; trial < 5; trial++) {
      const file = `seq-${trial}.json`;
      writeFileSync(join(dir, file), '{"count":0}');
      const t0 = performance.now();
      const [reader, ...replies] = await Promise.all([
        workers[0]!.run({ op: 'read', dir, file, n: 3000 }),
        ...workers.slice(1).map((w) => w.run({ op: 'inc', dir, file, n: N, opts: STRESS })),
      ]);
      expectExactlyOnce(replies, (PROCS - 1) * N);
      expect(readState<Counter>(dir, file)).toEqual({ count: (PROCS - 1) * N });
      expect(reader).toMatchObject({ missing: 0, backwards: 0 });
      const slowest = Math.max(...replies.map((r) => r.ms));
      timings.push(
        `${PROCS - 1}×${N} increments in ${(performance.now() - t0).toFixed(0)} ms (slowest worker ${slowest.toFixed(0)} ms)`,
      );
    }
  });

  it(`30 trials: ${PROCS} processes race to take over the same stale lock → exactly ${PROCS}`, async () => {
    const dir = made();
    const t0 = performance.now();
    for (let trial = 0; trial < 30; trial++) {
      const file = `stale-${trial}.json`;
      plantLock(dir, file, 60_000);
      const replies = await Promise.all(workers.map((w) => w.run({ op: 'inc', dir, file, n: 3, opts: STRESS })));
      expectExactlyOnce(replies, PROCS * 3);
      expect(readState<Counter>(dir, file)).toEqual({ count: PROCS * 3 });
    }
    timings.push(`30 stale-lock takeover races in ${(performance.now() - t0).toFixed(0)} ms`);
    expect(readdirSync(dir)).toHaveLength(30);
  });

  it(`stale-lock storm: ${PROCS} processes × 40 rounds, each round may leave a dead, stale lock (2 trials)`, async () => {
    const dir = made();
    const N = 40;
    const t0 = performance.now();
    let planted = 0;
    for (let trial = 0; trial < 2; trial++) {
      const file = `storm-${trial}.json`;
      const replies = await Promise.all(workers.map((w) => w.run({ op: 'staleStorm', dir, file, n: N, opts: STRESS })));
      expectExactlyOnce(replies, PROCS * N);
      expect(readState<Counter>(dir, file)).toEqual({ count: PROCS * N });
      planted += replies.reduce((n, r) => n + (r.planted as number), 0);
    }
    // The storm really happened: many dead locks were taken over.
    expect(planted).toBeGreaterThan(50);
    timings.push(`stale-lock storm (${planted} dead locks taken over) in ${(performance.now() - t0).toFixed(0)} ms`);
  });

  it(`3 trials: ${PROCS} freshly started processes each increment once → exactly ${PROCS}`, async () => {
    const dir = made();
    const t0 = performance.now();
    for (let trial = 0; trial < 3; trial++) {
      const file = `cold-${trial}.json`;
      const cold = await Promise.all(Array.from({ length: PROCS }, () => startWorker()));
      try {
        const replies = await Promise.all(cold.map((w) => w.run({ op: 'inc', dir, file, n: 1 })));
        expectExactlyOnce(replies, PROCS);
        expect(readState<Counter>(dir, file)).toEqual({ count: PROCS });
      } finally {
        await Promise.all(cold.map((w) => w.close()));
      }
    }
    timings.push(`3 cold trials in ${(performance.now() - t0).toFixed(0)} ms`);
  }, 180_000);
});
