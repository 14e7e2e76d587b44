// Benchmark: what "has anything changed?" costs on a repeat (issue 9: goal ≤ 20 ms more than a non-repeat in a
// 10k-file repository). Printed, never asserted. Builds a git repo of BENCH_FILES files (default 10,000), then
//  1. the tree fingerprint in process (src/guard/tree.ts): clean tree, 50 modified files, outside git;
//  2. the hook process (dist/loop-guard.cjs) on a post event whose result repeats vs one whose result is new.
//   node bench/change.mjs            (after npm run build)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const FILES = Number(process.env.BENCH_FILES ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const work = mkdtempSync(join(tmpdir(), 'lg-change-'));
const repo = join(work, 'repo');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const git = (...args) =>
  spawnSync('git', args, {
    cwd: repo,
    stdio: 'ignore',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'b',
      GIT_AUTHOR_EMAIL: 'b@b',
      GIT_COMMITTER_NAME: 'b',
      GIT_COMMITTER_EMAIL: 'b@b',
    },
  });

try {
  for (let d = 0; d < FILES / 100; d++) {
    mkdirSync(join(repo, `d${d}`), { recursive: true });
    for (let f = 0; f < 100; f++) writeFileSync(join(repo, `d${d}`, `f${f}.ts`), `export const x${f} = ${d};\n`);
  }
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'init');
  git('status'); // refresh the index once, as any real repo has

  const treeFile = join(work, 'tree.mjs');
  await build({
    entryPoints: [join(root, 'src/guard/tree.ts')],
    outfile: treeFile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'error',
  });
  const { treeFingerprint } = await import(pathToFileURL(treeFile).href);
  const time = (fn) => {
    const xs = [];
    for (let i = 0; i < RUNS; i++) {
      const t = process.hrtime.bigint();
      fn();
      xs.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    return median(xs);
  };
  treeFingerprint(repo);
  console.log(
    `tree fingerprint in process, ${FILES} files, median of ${RUNS} (wall; load average ${(await import('node:os')).loadavg()[0].toFixed(1)}):`,
  );
  console.log(`  clean git tree:            ${time(() => treeFingerprint(repo)).toFixed(1)} ms`);
  for (let f = 0; f < 50; f++) writeFileSync(join(repo, 'd0', `f${f}.ts`), `export const changed = ${f};\n`);
  console.log(`  50 modified files:         ${time(() => treeFingerprint(repo)).toFixed(1)} ms`);
  const plain = join(work, 'plain');
  mkdirSync(plain);
  for (let f = 0; f < 200; f++) writeFileSync(join(plain, `f${f}`), 'x');
  console.log(`  outside git (200 entries): ${time(() => treeFingerprint(plain)).toFixed(1)} ms`);

  // The hook process: a post whose result repeats (looks at the tree) vs one whose result is new (does not).
  const hook = join(root, 'dist', 'loop-guard.cjs');
  const state = join(work, 'state');
  const env = { PATH: process.env.PATH ?? '', HOME: work, LOOP_GUARD_STATE_DIR: state };
  const post = (session, output, id) =>
    JSON.stringify({
      session_id: session,
      cwd: repo,
      hook_event_name: 'PostToolUseFailure',
      tool_name: 'Bash',
      tool_input: { command: 'npm test' },
      tool_use_id: id,
      error: `Exit code 1\n${output}`,
      is_interrupt: false,
    });
  // CPU time (user+sys of the hook and the git it runs, from /usr/bin/time) where available: wall time on a loaded machine says little.
  const cpu = spawnSync('/usr/bin/time', ['-f', '%U %S', 'true'], { encoding: 'utf8' }).status === 0;
  const run = (stdin) => {
    if (cpu) {
      const r = spawnSync('/usr/bin/time', ['-f', 'CPU %U %S', process.execPath, hook, 'claude'], {
        input: stdin,
        env,
        cwd: repo,
        encoding: 'utf8',
      });
      const m = /CPU ([\d.]+) ([\d.]+)/.exec(r.stderr);
      return m ? (Number(m[1]) + Number(m[2])) * 1000 : NaN;
    }
    const t = process.hrtime.bigint();
    spawnSync(process.execPath, [hook, 'claude'], { input: stdin, env, cwd: repo });
    return Number(process.hrtime.bigint() - t) / 1e6;
  };
  run(post('warm', 'x', 'w0'));
  const fresh = [];
  const repeat = [];
  for (let i = 0; i < RUNS; i++) {
    // Each round: a new result (no look), then the same result again in a fresh session (the look happens).
    fresh.push(run(post(`s${i}`, `FAIL ${i}`, `a${i}`)));
    run(post(`r${i}`, 'FAIL same', `b${i}`));
    repeat.push(run(post(`r${i}`, 'FAIL same', `c${i}`)));
  }
  console.log(
    `hook process, post event, median of ${RUNS} (${cpu ? 'CPU user+sys incl. git, 10 ms resolution' : 'wall'}):`,
  );
  console.log(`  new result (no look):      ${median(fresh).toFixed(1)} ms`);
  console.log(
    `  repeated result (look):    ${median(repeat).toFixed(1)} ms   (+${(median(repeat) - median(fresh)).toFixed(1)} ms; goal ≤ 20 ms)`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
