// The BUILT dist/loop-guard.cjs: same answers as the ES-module build, and a code cache that is only ever an
// optimisation (written to a private state dir only, never read when planted, stale, corrupt or someone else's).
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CACHE_MAX_AGE_MS,
  cacheFileName,
  cacheKey,
  pruneCaches,
  readCache,
  trustedDir,
  writeCache,
} from '../../src/guard/code-cache.ts';
import {
  esmGuardFile as guardFile,
  freshStateDir,
  guardEnv,
  loadPayload,
  payloadsDir,
  repoRoot,
  requireBuilt,
  type Json,
} from '../helpers/guard.ts';

const cjsFile = join(repoRoot, 'dist', 'loop-guard.cjs');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function stateDir(mode = 0o700): string {
  const d = freshStateDir();
  chmodSync(d, mode);
  dirs.push(d);
  return d;
}

function run(
  file: string,
  tool: string,
  payload: Json,
  dir: string,
): { stdout: string; status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [file, tool], {
    input: JSON.stringify(payload),
    env: guardEnv(dir),
    encoding: 'utf8',
  });
  return { stdout: r.stdout, status: r.status, stderr: r.stderr };
}

const cacheFiles = (dir: string) => readdirSync(dir).filter((n) => n.startsWith('code-cache-'));
const post = (n: number): Json => ({ ...loadPayload('claude/PostToolUseFailure-failure.json'), tool_use_id: `t${n}` });
const pre = (): Json => loadPayload('claude/PreToolUse-failure.json');

describe('dist/loop-guard.cjs', () => {
  requireBuilt();

  it('requires nothing but node: builtins (the body takes a few functions from the loader part) and is LF-only', () => {
    const text = readFileSync(cjsFile, 'utf8');
    const required = [...text.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
    expect(required.length).toBeGreaterThan(0);
    expect(required.filter((r) => !r?.startsWith('node:'))).toEqual(['loop-guard:loader']);
    // The loader serves that id itself; nothing else in the file could.
    expect(text.slice(0, text.indexOf('\n/*@loop-guard-body\n'))).toContain('SHARED_ID = "loop-guard:loader";');
    expect(text.includes('\r')).toBe(false);
    expect(text.split('\n')[0]).toMatch(/^\/\/ create-loop-guard v\d+\.\d+\.\d+/);
  });

  it('holds each source module once: the loader part and the body share none (the body imports the shared ones)', () => {
    const text = readFileSync(cjsFile, 'latin1');
    const at = text.indexOf('\n/*@loop-guard-body\n');
    const modules = (part: string) => new Set([...part.matchAll(/^\t*\/\/ (src\/\S+\.ts)$/gm)].map((m) => m[1]));
    const loader = modules(text.slice(0, at));
    const body = modules(text.slice(at));
    expect([...loader]).toEqual(expect.arrayContaining(['src/guard/loader.ts', 'src/guard/core/hash.ts']));
    expect(body.size).toBeGreaterThan(40);
    expect([...loader].filter((m) => body.has(m))).toEqual([]);
    // The body's code names them as the source does, not through esbuild's CommonJS interop.
    expect(text).not.toMatch(/\(0, import_/);
  });

  it('is ASCII, and stores its body already wrapped as a CommonJS module (the loader compiles the slice as is)', () => {
    // One non-ASCII character makes Node read the whole file as a two-byte string; a wrapper joined on at run time
    // copies the body once more. Together they filled the young generation, and posts paid a ~0.6 ms collection.
    const text = readFileSync(cjsFile, 'latin1');
    expect(/[^\x00-\x7f]/.exec(text)).toBeNull();
    const body = text.slice(text.lastIndexOf('\n/*@loop-guard-body\n') + '\n/*@loop-guard-body\n'.length);
    expect(body.startsWith('(function (exports, require, module, __filename, __dirname) {')).toBe(true);
    expect(body.endsWith('\n})\n*/\n')).toBe(true);
  });

  it('answers every recorded payload exactly as loop-guard.mjs does', () => {
    for (const tool of ['claude', 'codex', 'cursor'].filter((t) => existsSync(join(payloadsDir, t)))) {
      for (const name of readdirSync(join(payloadsDir, tool)).filter((n) => n.endsWith('.json'))) {
        const payload = loadPayload(`${tool}/${name}`);
        const a = run(guardFile, tool, payload, stateDir());
        const b = run(cjsFile, tool, payload, stateDir());
        expect({ name, out: b.stdout, status: b.status }).toEqual({ name, out: a.stdout, status: a.status });
      }
    }
  });

  it('counts, warns and refuses across runs, with the cache in use', () => {
    const dir = stateDir();
    const outs = [1, 2, 3, 4].map((n) => run(cjsFile, 'claude', post(n), dir).stdout);
    expect(outs[0]).toBe('');
    expect(outs[2]).toMatch(/returned the same result/);
    expect(cacheFiles(dir)).toHaveLength(1);
    const denied = JSON.parse(run(cjsFile, 'claude', pre(), dir).stdout) as {
      hookSpecificOutput: { permissionDecision: string };
    };
    expect(denied.hookSpecificOutput.permissionDecision).toBe('deny');
  });

  // A clone interrupted mid-checkout, a merge that left a half file, a hand edit: whatever the damage, the guard
  // allows. A body that does not compile or run (or lacks what the loader hands it) is the loader's to catch, so node
  // itself exits 0 in silence. A file cut short leaves the body's comment open, which Node cannot parse at all: that
  // error, like a broken loader part, is what the installed hook command's `|| true` turns into "no opinion".
  it('a guard file cut short or damaged anywhere allows the command, even where the intact file refuses it', () => {
    const dir = stateDir();
    for (const n of [1, 2, 3, 4]) run(cjsFile, 'claude', post(n), dir);
    const intact = readFileSync(cjsFile, 'latin1');
    const at = intact.indexOf('\n/*@loop-guard-body\n');
    const damaged: Array<[string, string, boolean]> = [
      // [what, text, whether the loader itself is intact and answers with exit 0]
      ['cut in the loader part', intact.slice(0, Math.floor(at / 2)), false],
      ['cut just after the body starts', intact.slice(0, at + 200), false],
      ['cut halfway through the body', intact.slice(0, at + Math.floor((intact.length - at) / 2)), false],
      ['cut before the body closes', intact.slice(0, intact.length - 4), false],
      ['a syntax error in the body', intact.replace('function decide(', 'function decide(@@ '), true],
      [
        'the loader hands the body no hash64',
        intact.replace(/var SHARED = \{ ([^}]*)hash64, /, 'var SHARED = { $1'),
        true,
      ],
      ['empty', '', true],
    ];
    const hookDir = stateDir();
    const file = join(hookDir, 'loop-guard.cjs');
    writeFileSync(file, intact);
    expect(run(file, 'claude', pre(), dir).stdout, 'the intact file refuses').toMatch(/"permissionDecision":"deny"/);
    for (const [what, text, loaderAnswers] of damaged) {
      expect(text, what).not.toBe(intact);
      writeFileSync(file, text);
      const hook = spawnSync('sh', ['-c', `test -f "$1" && node "$1" claude || true`, 'sh', file], {
        input: JSON.stringify(pre()),
        env: guardEnv(dir),
        encoding: 'utf8',
      });
      expect({ what, status: hook.status, stdout: hook.stdout }).toEqual({ what, status: 0, stdout: '' });
      if (!loaderAnswers) continue;
      const direct = run(file, 'claude', pre(), dir);
      expect({ what, ...direct }).toEqual({ what, status: 0, stdout: '', stderr: '' });
    }
  });

  it('writes a private cache once per kind of event, then only reads it', () => {
    const dir = stateDir();
    run(cjsFile, 'claude', post(1), dir);
    const [name] = cacheFiles(dir);
    const file = join(dir, name as string);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const first = statSync(file).mtimeMs;
    utimesSync(file, 1000, 1000);
    run(cjsFile, 'claude', post(2), dir);
    expect(statSync(file).mtimeMs).toBe(1000 * 1000); // same kind: read, not rewritten
    run(cjsFile, 'claude', pre(), dir);
    expect(statSync(file).mtimeMs).not.toBe(1000 * 1000); // a new kind adds its functions
    expect(first).toBeGreaterThan(0);
  });

  it('writes no cache into a state dir others can read, and still answers', () => {
    const dir = stateDir(0o755);
    const outs = [1, 2, 3].map((n) => run(cjsFile, 'claude', post(n), dir).stdout);
    expect(outs[2]).toMatch(/returned the same result/);
    expect(cacheFiles(dir)).toEqual([]);
  });

  it('replaces a corrupt, truncated or foreign-keyed cache and answers as without it', () => {
    for (const garbage of ['', 'x', 'LGCC1:wrong-key\n7\nnot v8 data', `${'\u0000'.repeat(64)}`]) {
      const dir = stateDir();
      run(cjsFile, 'claude', post(1), dir);
      const [name] = cacheFiles(dir);
      writeFileSync(join(dir, name as string), garbage, { mode: 0o600 });
      const r = run(cjsFile, 'claude', post(2), dir);
      expect(r.status).toBe(0);
      expect(r.stderr).toBe('');
      expect(run(cjsFile, 'claude', post(3), dir).stdout).toMatch(/returned the same result 3 times/);
      expect(readFileSync(join(dir, name as string), 'latin1').startsWith('LGCC1:')).toBe(true);
    }
  });

  it('rejects a cache whose key matches but whose V8 bytes are wrong (V8 refuses them), and rewrites it', () => {
    const dir = stateDir();
    run(cjsFile, 'claude', post(1), dir);
    const file = join(dir, cacheFiles(dir)[0] as string);
    const buf = readFileSync(file);
    const head = buf.indexOf(10, buf.indexOf(10) + 1) + 1;
    writeFileSync(file, Buffer.concat([buf.subarray(0, head), Buffer.alloc(buf.length - head, 7)]), { mode: 0o600 });
    expect(run(cjsFile, 'claude', post(2), dir).status).toBe(0);
    expect(readFileSync(file).subarray(head)).not.toEqual(Buffer.alloc(buf.length - head, 7));
  });

  it('ignores a symlinked cache file (never follows it)', () => {
    const dir = stateDir();
    run(cjsFile, 'claude', post(1), dir);
    const file = join(dir, cacheFiles(dir)[0] as string);
    const elsewhere = join(stateDir(), 'planted.bin');
    writeFileSync(elsewhere, readFileSync(file));
    rmSync(file);
    symlinkSync(elsewhere, file);
    expect(run(cjsFile, 'claude', post(2), dir).status).toBe(0);
    // The planted target is untouched; the symlink was replaced by a real file of our own.
    expect(statSync(file, { throwIfNoEntry: false })?.isFile()).toBe(true);
    expect(existsSync(elsewhere)).toBe(true);
  });

  it('two hook files used in turn keep a cache each instead of replacing one another', () => {
    const dir = stateDir();
    const other = join(stateDir(), 'loop-guard.cjs');
    writeFileSync(other, readFileSync(cjsFile));
    run(cjsFile, 'claude', post(1), dir);
    run(other, 'claude', post(2), dir);
    const names = cacheFiles(dir);
    expect(names).toHaveLength(2);
    const stamps = names.map((n) => {
      utimesSync(join(dir, n), 1000, 1000);
      return join(dir, n);
    });
    run(cjsFile, 'claude', post(3), dir);
    run(other, 'claude', post(4), dir);
    // Both were read, neither rewritten (a shared file would have been replaced on every switch).
    expect(stamps.map((f) => statSync(f).mtimeMs)).toEqual([1000 * 1000, 1000 * 1000]);
  });

  it.runIf(process.getuid?.() === 0)('never reads a cache owned by another user', () => {
    const dir = stateDir();
    writeCache(dir, 'k', 2, Buffer.from('v8 bytes'));
    const file = join(dir, cacheFileName('k'));
    chownSync(file, 4242, 4242);
    expect(readCache(dir, 'k').data).toBeUndefined();
    chownSync(file, 0, 0);
    expect(readCache(dir, 'k').data).toEqual(Buffer.from('v8 bytes'));
    chownSync(dir, 4242, 4242);
    expect(readCache(dir, 'k').data).toBeUndefined();
  });
});

describe('code-cache (in-process)', () => {
  it('keys on Node version and on the hook file identity', () => {
    const st = statSync(cjsFile);
    expect(cacheFileName('k')).toContain(process.version);
    expect(cacheFileName('k')).not.toBe(cacheFileName('k2'));
    // The key's fields name the file: nothing in a key can make the name leave the state directory.
    expect(cacheFileName('../a/b:c\u0000d')).toMatch(/^code-cache-[A-Za-z0-9._-]+\.bin$/);
    expect(cacheFileName('../a/b:c\u0000d')).not.toContain('/');
    expect(cacheKey(st, 'h1')).not.toBe(cacheKey(st, 'h2'));
    expect(cacheKey(st, 'h1')).not.toBe(cacheKey({ ...st, mtimeMs: st.mtimeMs + 1 } as typeof st, 'h1'));
  });

  it('trusts only a private directory owned by this user', () => {
    expect(trustedDir(stateDir())).toBe(true);
    expect(trustedDir(stateDir(0o750))).toBe(false);
    expect(trustedDir(join(stateDir(), 'missing'))).toBe(false);
  });

  it('a cache write prunes old caches and dead temps, keeping fresh ones and files not ours', () => {
    const dir = stateDir();
    const now = Date.now();
    const files = {
      old: 'code-cache-v20.1.0-x64-410c949f.bin',
      oldTemp: 'code-cache-v20.1.0-x64-410c949f.bin.1a-2b.tmp',
      freshTemp: 'code-cache-v22.1.0-x64-0123456789abcdef.bin.3c-4d.tmp',
      fresh: 'code-cache-v22.1.0-x64-0123456789abcdef.bin',
      session: 'claude-0123456789abcdef0123456789abcdef.json',
      foreign: 'notes.txt',
    };
    for (const name of Object.values(files)) writeFileSync(join(dir, name), 'x', { mode: 0o600 });
    const age = (name: string, ms: number) => utimesSync(join(dir, name), (now - ms) / 1000, (now - ms) / 1000);
    age(files.old, CACHE_MAX_AGE_MS + 60_000);
    age(files.oldTemp, 11 * 60_000);
    age(files.session, CACHE_MAX_AGE_MS * 30);
    age(files.foreign, CACHE_MAX_AGE_MS * 30);
    writeCache(dir, 'k', 1, Buffer.from('abc'));
    const left = readdirSync(dir).sort();
    expect(left).toEqual([files.foreign, files.session, cacheFileName('k'), files.fresh, files.freshTemp].sort());
    // Pruning without a write happens nowhere: a read leaves an old file alone.
    age(files.fresh, CACHE_MAX_AGE_MS * 2);
    readCache(dir, 'k');
    expect(existsSync(join(dir, files.fresh))).toBe(true);
    pruneCaches(dir, join(dir, cacheFileName('k')));
    expect(existsSync(join(dir, files.fresh))).toBe(false);
    expect(readCache(dir, 'k').data).toEqual(Buffer.from('abc'));
  });

  it('round-trips, and a write into an untrusted dir is a no-op', () => {
    const dir = stateDir();
    writeCache(dir, 'k', 3, Buffer.from('abc'));
    expect(readCache(dir, 'k')).toEqual({ data: Buffer.from('abc'), kinds: 3 });
    expect(readCache(dir, 'other').data).toBeUndefined();
    const open = stateDir(0o755);
    writeCache(open, 'k', 3, Buffer.from('abc'));
    expect(readdirSync(open)).toEqual([]);
  });
});
