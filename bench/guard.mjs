// Benchmark: wall time of one guard hook event, as ratios measured in one run (printed, never asserted).
//   hook ÷ `node -e 0`            the goal (≤ 1.15×)
//   hook ÷ `node empty.mjs`       what the guard adds on top of Node's own cost of starting an ES module
//   10,000 prior events ÷ none    state work must not grow with the session (goal ≤ 1.05×)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const guard = join(root, 'dist', 'loop-guard.mjs');
const RUNS = Number(process.env.BENCH_RUNS ?? 80);
const PRIOR = 10_000;
const load = (rel) => JSON.parse(readFileSync(join(root, 'assets', 'payloads', rel), 'utf8'));

const work = mkdtempSync(join(tmpdir(), 'lg-bench-'));
const emptyMjs = join(work, 'empty.mjs');
writeFileSync(emptyMjs, '');
// The same hook code, bundled for in-process use, seeds a long session without 10,000 process starts.
const runHookFile = join(work, 'run-hook.mjs');
await build({ entryPoints: [join(root, 'src/guard/main.ts')], outfile: runHookFile, bundle: true, platform: 'node', format: 'esm', logLevel: 'error' });
const { runHook } = await import(pathToFileURL(runHookFile).href);

const pre = load('claude/PreToolUse-failure.json');
const post = load('claude/PostToolUseFailure-failure.json');
const env = (dir) => ({ PATH: process.env.PATH, LOOP_GUARD_STATE_DIR: dir });
const freshDir = join(work, 'fresh');
const busyDir = join(work, 'busy');
runHook(JSON.stringify({ ...post, session_id: 'short', tool_use_id: 'p0' }), 'claude', env(busyDir));
for (let i = 0; i < PRIOR; i++) {
  runHook(JSON.stringify({ ...post, session_id: 'busy', tool_use_id: `p${i}`, tool_input: { command: `cmd ${i % 500}` } }), 'claude', env(busyDir));
}

function time(args, input, e) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { input, env: e });
  if (r.status !== 0) throw new Error(`${args.join(' ')}: exit ${r.status} ${r.stderr}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

let n = 0;
const contenders = {
  'node -e 0': () => time(['-e', '0'], '', env(freshDir)),
  'node empty.mjs': () => time([emptyMjs], '', env(freshDir)),
  'guard PreToolUse (read-only)': () => time([guard, 'claude'], JSON.stringify({ ...pre, session_id: 'fresh-pre' }), env(freshDir)),
  'guard PostToolUseFailure, new session': () => time([guard, 'claude'], JSON.stringify({ ...post, session_id: `s${n++}` }), env(freshDir)),
  'guard PostToolUseFailure, 1 prior event': () =>
    time([guard, 'claude'], JSON.stringify({ ...post, session_id: 'short', tool_use_id: `r${n++}` }), env(busyDir)),
  [`guard PostToolUseFailure, ${PRIOR.toLocaleString('en')} prior events`]: () =>
    time([guard, 'claude'], JSON.stringify({ ...post, session_id: 'busy', tool_use_id: `q${n++}` }), env(busyDir)),
};
const samples = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
// Interleaved, so machine load falls on every contender alike.
for (let i = 0; i < RUNS; i++) for (const [k, run] of Object.entries(contenders)) samples[k].push(run());
const med = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));

const nodeMs = med['node -e 0'];
const esmMs = med['node empty.mjs'];
console.log(`loop-guard hook: median of ${RUNS} interleaved runs each (node ${process.version}, ${process.platform}/${process.arch})\n`);
console.log(`${'contender'.padEnd(48)} ${'ms'.padStart(7)}  ÷ node -e 0  ÷ empty.mjs`);
for (const [k, ms] of Object.entries(med)) {
  console.log(`${k.padEnd(48)} ${ms.toFixed(1).padStart(7)}  ${(ms / nodeMs).toFixed(3).padStart(10)}  ${(ms / esmMs).toFixed(3).padStart(10)}`);
}
const postFresh = med['guard PostToolUseFailure, new session'];
const postShort = med['guard PostToolUseFailure, 1 prior event'];
const postBusy = med[`guard PostToolUseFailure, ${PRIOR.toLocaleString('en')} prior events`];
console.log('');
console.log(`ratio hook (post) ÷ node -e 0:        ${(postFresh / nodeMs).toFixed(3)}   (goal ≤ 1.15)`);
console.log(`ratio hook (post) ÷ node empty.mjs:   ${(postFresh / esmMs).toFixed(3)}   (the part the guard controls)`);
console.log(`ratio empty.mjs ÷ node -e 0:          ${(esmMs / nodeMs).toFixed(3)}   (Node's own cost of an ES module entry)`);
console.log(`ratio ${PRIOR.toLocaleString('en')} prior events ÷ 1:      ${(postBusy / postShort).toFixed(3)}   (goal ≤ 1.05: per-event work does not grow with the session)`);
console.log(`ratio ${PRIOR.toLocaleString('en')} prior events ÷ none:   ${(postBusy / postFresh).toFixed(3)}   ("none" creates the file instead of replacing it)`);
rmSync(work, { recursive: true, force: true });
