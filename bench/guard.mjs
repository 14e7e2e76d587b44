// Benchmark: hook start-up as ratios to `node -e 0`, measured in one run (printed, never asserted).
// One table: each event (pre, post, user-turn) × Node 20/22/24 × NODE_EXTRA_CA_CERTS set/unset, the hook's median
// wall time ÷ the median of `node -e 0` run by the same node binary in the same interleaved rounds; the spread is
// the 25th–75th percentile of the per-round ratios. A `load only` row (the file loaded, no event) shows the floor. Then 10,000 prior events ÷ a short session, and the OpenCode
// plugin figures (bench/plugin.mjs). Goals (issue 13): every ratio ≤ 1.10, 10,000 prior ≤ 1.02, plugin after p99
// ≤ 1 ms with 30 KB output, before+after pair mean ≤ 0.2 ms.
//
//   node bench/guard.mjs                     everything (installs node@22/24 into .cache/ on first use)
//   BENCH_RUNS=20 BENCH_NODES=20 ...         fewer rounds, fewer Nodes (20 = the node running this script)
//   BENCH_HOOK=path/to/loop-guard.mjs ...    time another build of the hook (e.g. an older release)
//   BENCH_PREFIX='NODE_EXTRA_CA_CERTS= ...'  extra variants: hook commands with an env/flag prefix (see below)
//   BENCH_BASE=path/to/other/loop-guard.cjs  A/B: the same events on another build too, interleaved in the same rounds
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { rootCertificates } from 'node:tls';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { ensureNode } from '../scripts/install-node.mjs';
import { testOutput } from './test-output.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const PRIOR = Number(process.env.BENCH_PRIOR ?? 10_000);
const defaultHook = existsSync(join(root, 'dist', 'loop-guard.cjs'))
  ? join(root, 'dist', 'loop-guard.cjs')
  : join(root, 'dist', 'loop-guard.mjs');
const hook = process.env.BENCH_HOOK ? resolve(process.env.BENCH_HOOK) : defaultHook;
const baseHook = process.env.BENCH_BASE ? resolve(process.env.BENCH_BASE) : undefined;
const load = (rel) => JSON.parse(readFileSync(join(root, 'assets', 'payloads', rel), 'utf8'));

// Node binaries: the running one, and 22/24 from .cache/ (installed there by scripts/install-node.mjs).
const wanted = (process.env.BENCH_NODES ?? '20,22,24').split(',').map((s) => s.trim());
const nodes = [];
for (const major of wanted) {
  const bin = process.versions.node.split('.')[0] === major ? process.execPath : ensureNode(major);
  if (!bin) continue;
  const version = spawnSync(bin, ['-p', 'process.version'], { encoding: 'utf8' }).stdout.trim();
  nodes.push({ major, bin, version });
}

const work = mkdtempSync(join(tmpdir(), 'lg-bench-'));
// A real CA bundle where the variable is set on this machine, else Node's own ~140 roots: what a corporate bundle costs.
const caFile =
  process.env.NODE_EXTRA_CA_CERTS && existsSync(process.env.NODE_EXTRA_CA_CERTS)
    ? process.env.NODE_EXTRA_CA_CERTS
    : join(work, 'extra-ca.pem');
if (caFile === join(work, 'extra-ca.pem')) writeFileSync(caFile, rootCertificates.join('\n'));

// The same hook code, bundled for in-process use, seeds a long session without 10,000 process starts.
const runHookFile = join(work, 'run-hook.mjs');
await build({
  entryPoints: [join(root, 'src/guard/main.ts')],
  outfile: runHookFile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  logLevel: 'error',
});
const { runHook } = await import(pathToFileURL(runHookFile).href);

const prePayload = load('claude/PreToolUse-failure.json');
const postPayload = load('claude/PostToolUseFailure-failure.json');
const userPayload = load('claude/UserPromptSubmit-prompt.json');
// A failing test run: 4 KB of coloured output with durations, the post event the guard exists for.
const outputs = Array.from({ length: 16 }, (_, v) => `Exit code 1\n${testOutput(4 * 1024, v)}`);
const stateDir = join(work, 'state');
const baseEnv = { PATH: process.env.PATH ?? '', HOME: work, LOOP_GUARD_STATE_DIR: stateDir };
for (const session of ['short', 'busy']) {
  runHook(
    JSON.stringify({ ...postPayload, session_id: session, tool_use_id: 'seed', error: outputs[0] }),
    'claude',
    baseEnv,
  );
}
for (let i = 0; i < PRIOR; i++) {
  runHook(
    JSON.stringify({
      ...postPayload,
      session_id: 'busy',
      tool_use_id: `p${i}`,
      tool_input: { command: `cmd ${i % 500}` },
      error: outputs[i % 16],
    }),
    'claude',
    baseEnv,
  );
}

const LOAD_ONLY = 'load only (floor)';
let n = 0;
// Distinct commands per call: the steady state of a session that is not looping (64 commands kept, none warned).
const payloads = {
  pre: () =>
    JSON.stringify({
      ...prePayload,
      session_id: 'short',
      tool_use_id: `b${n}`,
      tool_input: { command: `npm test -- fresh-${n++}` },
    }),
  post: () =>
    JSON.stringify({
      ...postPayload,
      session_id: 'short',
      tool_use_id: `a${n}`,
      tool_input: { command: `npm test -- ${n}` },
      error: outputs[n++ % 16],
    }),
  'user-turn': () => JSON.stringify({ ...userPayload, session_id: `u${n++ % 4}` }),
  // The floor of this design: the whole file loaded and compiled (code cache and all), a payload with no event, no work.
  [LOAD_ONLY]: () => '{}',
  [`post, ${PRIOR.toLocaleString('en')} prior`]: () =>
    JSON.stringify({
      ...postPayload,
      session_id: 'busy',
      tool_use_id: `q${n}`,
      tool_input: { command: `npm test -- ${n}` },
      error: outputs[n++ % 16],
    }),
};

// Optional prefixes, each an extra row set: "NAME=value" sets a variable ("NAME=" unsets it), "--flag" is a node flag.
const prefixes = (process.env.BENCH_PREFIX ?? '')
  .split(';')
  .map((s) => s.trim())
  .filter(Boolean);
function applyPrefix(prefix, env) {
  const flags = [];
  const e = { ...env };
  for (const word of prefix.split(/\s+/)) {
    const eq = word.indexOf('=');
    if (word.startsWith('-')) flags.push(word);
    else if (eq > 0 && word.slice(eq + 1) === '') delete e[word.slice(0, eq)];
    else if (eq > 0) e[word.slice(0, eq)] = word.slice(eq + 1);
  }
  return { flags, env: e };
}

// BENCH_METRIC=cpu: each process's own CPU time (user+system, all threads) instead of wall time, read by a preload
// in every process alike (baseline included). Far less moved by other load on a shared machine than wall time.
const CPU = process.env.BENCH_METRIC === 'cpu';
const preload = join(work, 'cpu-preload.cjs');
writeFileSync(
  preload,
  "process.on('exit', () => { const c = process.cpuUsage(); require('fs').writeSync(2, `\\n@cpu ${c.user + c.system}\\n`); });\n",
);

function time(bin, args, input, env) {
  const argv = CPU
    ? [...args.filter((a) => a.startsWith('--')), '-r', preload, ...args.filter((a) => !a.startsWith('--'))]
    : args;
  const t0 = process.hrtime.bigint();
  const r = spawnSync(bin, argv, { input, env });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')}: exit ${r.status} ${r.stderr}`);
  if (!CPU) return ms;
  const m = /@cpu (\d+)/.exec(r.stderr.toString());
  if (!m) throw new Error(`${bin} ${args.join(' ')}: no CPU figure`);
  return Number(m[1]) / 1000;
}

// Cells: node × CA × (baseline + events [+ prefixed events]); all interleaved round by round.
const cells = [];
for (const node of nodes) {
  for (const ca of [false, true]) {
    const env = ca ? { ...baseEnv, NODE_EXTRA_CA_CERTS: caFile } : baseEnv;
    const row = { node, ca, baseline: [], events: {} };
    cells.push(row);
    const variants = [
      ['', env, [], hook],
      ...prefixes.map((p) => {
        const a = applyPrefix(p, env);
        return [p, a.env, a.flags, hook];
      }),
    ];
    if (baseHook) variants.push(['base', env, [], baseHook]);
    for (const [prefix, e, flags, file] of variants) {
      for (const [event, payload] of Object.entries(payloads)) {
        // Prefixes are compared on the events that matter most; the table stays readable.
        if (
          prefix &&
          (event.includes('prior') || (prefix !== 'base' && (event === 'user-turn' || event === LOAD_ONLY)))
        )
          continue;
        const name = prefix ? `${event} [${prefix}]` : event;
        row.events[name] = { samples: [], run: () => time(node.bin, [...flags, file, 'claude'], payload(), e) };
      }
    }
    row.runBaseline = () => time(node.bin, ['-e', '0'], '', env);
  }
}
// Warm-up: the file cache, the hook's compile cache, each Node's own start-up files.
for (let i = 0; i < 3; i++)
  for (const c of cells) {
    c.runBaseline();
    for (const ev of Object.values(c.events)) ev.run();
  }
for (let i = 0; i < RUNS; i++) {
  for (const c of cells) {
    c.baseline.push(c.runBaseline());
    for (const ev of Object.values(c.events)) ev.samples.push(ev.run());
    c.baseline.push(c.runBaseline());
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

const hookName = hook.startsWith(root) ? hook.slice(root.length) : hook;
console.log(
  `loop-guard hook start-up: ${hookName}, ${RUNS} interleaved rounds, ${process.platform}/${process.arch}${baseHook ? `; [base] = ${baseHook}` : ''}`,
);
console.log(
  `ratio = median hook ${CPU ? 'CPU time (user+sys, preload-measured)' : 'wall time'} ÷ median \`node -e 0\` (same node, same rounds); spread = p25–p75 of per-round ratios\n`,
);
const head = `${'event'.padEnd(36)} ${'node'.padEnd(9)} ${'CA'.padEnd(5)} ${'node -e 0'.padStart(9)} ${'hook'.padStart(8)} ${'ratio'.padStart(6)}  spread`;
console.log(head);
console.log('-'.repeat(head.length + 6));
const events = Object.keys(cells[0]?.events ?? {});
let worst = 0;
for (const event of events) {
  if (event.includes('prior')) continue;
  for (const c of cells) {
    const base = median(c.baseline);
    const ev = c.events[event];
    const ms = median(ev.samples);
    // Each hook sample against the mean of the two baseline runs around it.
    const perRound = ev.samples.map((s, i) => s / ((c.baseline[2 * i] + c.baseline[2 * i + 1]) / 2));
    const ratio = ms / base;
    if (!event.includes('[') && !event.startsWith(LOAD_ONLY)) worst = Math.max(worst, ratio);
    console.log(
      `${event.padEnd(36)} ${c.node.version.padEnd(9)} ${(c.ca ? 'set' : 'unset').padEnd(5)} ${base.toFixed(1).padStart(9)} ${ms.toFixed(1).padStart(8)} ${ratio.toFixed(3).padStart(6)}  ${pct(perRound, 25).toFixed(2)}–${pct(perRound, 75).toFixed(2)}`,
    );
  }
}
console.log('');
console.log(`worst event ratio:                     ${worst.toFixed(3)}   (goal ≤ 1.10)`);
const priorName = `post, ${PRIOR.toLocaleString('en')} prior`;
const priorRatios = cells.map((c) => median(c.events[priorName].samples) / median(c.events.post.samples));
console.log(
  `${PRIOR.toLocaleString('en')} prior events ÷ short session:  ${median(priorRatios).toFixed(3)}   (median over the ${cells.length} node/CA cells, range ${Math.min(...priorRatios).toFixed(3)}–${Math.max(...priorRatios).toFixed(3)}; goal ≤ 1.02)`,
);

// The plugin figures, from bench/plugin.mjs in its summary mode.
if (process.env.BENCH_PLUGIN !== '0') {
  const r = spawnSync(process.execPath, [join(root, 'bench', 'plugin.mjs')], {
    env: { ...process.env, BENCH_JSON: '1' },
    encoding: 'utf8',
  });
  const line = r.stdout.trim().split('\n').pop() ?? '';
  try {
    const p = JSON.parse(line);
    console.log(
      `OpenCode plugin, after with 30 KB output:  p99 ${(p.after30kP99 / 1000).toFixed(3)} ms, mean ${(p.after30kMean / 1000).toFixed(3)} ms   (goal p99 ≤ 1 ms)`,
    );
    console.log(
      `OpenCode plugin, before+after pair (4 KB): mean ${(p.pairMean / 1000).toFixed(3)} ms, p99 ${(p.pairP99 / 1000).toFixed(3)} ms   (goal mean ≤ 0.2 ms; node ${process.version})`,
    );
  } catch {
    console.log(
      `OpenCode plugin: bench/plugin.mjs failed (exit ${r.status}): ${r.stderr.trim().split('\n').pop() ?? ''}`,
    );
  }
}
rmSync(work, { recursive: true, force: true });
