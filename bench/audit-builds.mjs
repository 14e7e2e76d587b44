// The audit of two source trees side by side, for the benchmark and the byte-for-byte check: this tree and another
// commit (git archive of its src/), each bundled by esbuild into one module exporting `audit` and `runAudit`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export const root = fileURLToPath(new URL('..', import.meta.url));
/** The commit this round of audit work (issue 34) started from: the build the issue measured at 25–30 MB/s. */
export const DEFAULT_BASE = 'd2a1241';

async function bundle(dir, out) {
  await build({
    stdin: { contents: "export { audit, runAudit } from './src/audit/audit.ts';", resolveDir: dir, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: out,
    logLevel: 'error',
  });
  return import(pathToFileURL(out).href);
}

/** { after, before } audits: this tree, and `base` (a commit of this clone) unless base is ''. */
export async function loadBuilds(work, base = process.env.BENCH_AUDIT_BASE ?? DEFAULT_BASE) {
  const after = await bundle(root, join(work, 'after.mjs'));
  if (!base) return { after };
  const dir = join(work, 'base');
  mkdirSync(dir, { recursive: true });
  const tar = execFileSync('git', ['-C', root, 'archive', base, 'src'], { maxBuffer: 256 << 20 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  return { after, before: await bundle(dir, join(dir, 'before.mjs')), base };
}

/** An io for audit() over `home`, with a fixed clock when `now` is given (so read.ms is 0 and runs are comparable). */
export function auditIO(home, cwd, now) {
  const out = [];
  const err = [];
  return {
    io: {
      cwd,
      env: { HOME: home, XDG_DATA_HOME: join(home, '.local', 'share') },
      home,
      stdoutIsTTY: false,
      out: (s) => out.push(s),
      err: (s) => err.push(s),
      ...(now !== undefined ? { now: () => now } : {}),
    },
    out,
    err,
  };
}
