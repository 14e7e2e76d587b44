// The first part of dist/loop-guard.cjs. The guard's body is kept in a comment at the end of the same file, so Node
// does not parse it on its own; this loader compiles it. Run as a hook (`node loop-guard.cjs <tool>`), it compiles the
// body with a V8 code cache from the state directory and runs main(); any problem with the cache means compiling from
// source, and the body fails open as it always does. Required by a plugin loader (OpenCode, Kilo, Cline), it compiles
// the body once and exports what the plugins need (opencodePlugin, clinePlugin); a throw there is the loader's to
// catch.
import { closeSync, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { Script } from 'node:vm';
import { formatFromArg, quietOutput } from './adapters/quiet.ts';
import { bodyRange } from './body-range.ts';
import { builtin } from './builtin.ts';
import { cacheKey, KIND_BITS, readCache, trustedDir, writeCache, type CacheEntry } from './code-cache.ts';
import { hash64 } from './core/hash.ts';
import { resolveStateDir } from './state-dir.ts';

declare const __BODY_HASH__: string;

/** The body's text, decoded as latin1 (it is ASCII: the build checks), which is cheaper than UTF-8 and is V8's one-byte
 * form. */
function readBody(file: string): { body: string; st: Stats } {
  const fd = openSync(file, 'r');
  try {
    const st = fstatSync(fd);
    const buf = Buffer.allocUnsafe(st.size);
    let off = 0;
    while (off < buf.length) {
      const n = readSync(fd, buf, off, buf.length - off, off);
      if (n === 0) break;
      off += n;
    }
    const range = bodyRange(buf.subarray(0, off));
    if (!range) throw new Error('loop-guard: body missing');
    return { body: buf.toString('latin1', range[0], range[1]), st };
  } finally {
    closeSync(fd);
  }
}

/** What the body would print on failure: the tool's "carry on" (Cursor needs a JSON object). */
function failOpen(): void {
  const quiet = quietOutput(process.argv[2]);
  if (quiet) process.stdout.write(`${quiet}\n`);
  process.exitCode = 0;
}

/**
 * The modules this loader needs that the body needs too, kept once in the file: the build points the body's imports
 * of them at SHARED_ID (scripts/build-guard.mjs, which also checks that every name the body imports is here).
 */
const SHARED_ID = 'loop-guard:loader';
const SHARED = { builtin, formatFromArg, hash64, quietOutput, resolveStateDir };

/** The body's require: the shared modules above, or Node's. */
function bodyRequire(id: string): unknown {
  return id === SHARED_ID ? SHARED : require(id);
}

/** What the body exports (entry.ts). */
interface Body {
  main?: () => string;
  [name: string]: unknown;
}

/** Runs the compiled body as a CommonJS module's code and returns its exports. */
function evaluate(script: Script, file: string): Body {
  const mod: { exports: Body } = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void)(mod.exports, bodyRequire, mod, file, dirname(file));
  return mod.exports;
}

/** The hook: the body compiled with the code cache, then main(). */
function runHook(): void {
  const file = __filename;
  let code: string;
  let st: Stats;
  try {
    const self = readBody(file);
    code = self.body;
    st = self.st;
  } catch {
    failOpen();
    return;
  }
  let dir = '';
  let key = '';
  let cached: CacheEntry = { data: undefined, kinds: 0 };
  try {
    dir = resolveStateDir(process.env);
    key = cacheKey(st, __BODY_HASH__);
    cached = readCache(dir, key);
  } catch {
    // No cache: compile from source.
  }
  let script: Script;
  try {
    script = new Script(code, { filename: file, ...(cached.data ? { cachedData: cached.data } : {}) });
  } catch {
    try {
      cached = { data: undefined, kinds: 0 };
      script = new Script(code, { filename: file });
    } catch {
      failOpen();
      return;
    }
  }
  let handled = '';
  try {
    const body = evaluate(script, file);
    handled = typeof body.main === 'function' ? body.main() : '';
  } catch {
    failOpen();
    return;
  }
  // After the answer is out: store the cache when there was none, V8 refused it, or this kind of event was new to it
  // (the cache then also holds the functions this run compiled lazily).
  try {
    if (!key) return;
    const kind = KIND_BITS[handled] ?? 0;
    const fresh = cached.data === undefined || script.cachedDataRejected === true;
    const kinds = fresh ? kind : cached.kinds | kind;
    // Checked before createCachedData, which costs about a millisecond: an untrusted dir gets no cache at all.
    if ((fresh || kinds !== cached.kinds) && trustedDir(dir)) writeCache(dir, key, kinds, script.createCachedData());
  } catch {
    // The cache is an optimisation; the hook's answer is already out.
  }
}

/** For the plugin loaders: the body compiled without a cache (a plugin is loaded once per tool process). */
function loadForPlugins(): Body {
  const file = __filename;
  return evaluate(new Script(readBody(file).body, { filename: file }), file);
}

// A hook runs it as `node loop-guard.cjs <tool>` (older installs) or through the `node -e '<loader>' _ <tool>` line
// that finds it (src/tools/hook-command.ts): required from `[eval]` with `_` before the tool. A plugin loader requires
// it from a file, and any other `node -e` gets the plugins too.
if (require.main === module || (module.parent?.id === '[eval]' && process.argv[1] === '_')) runHook();
else module.exports = loadForPlugins();
