// Benchmark: in-process cost of one OpenCode plugin hook call (printed, never asserted).
//   every hook, per call, mean / p50 / p99 in µs        the goal (≤ 1 ms per call)
//   a before+after pair, as OpenCode runs it per bash command
// Payloads have the shapes recorded from a real OpenCode run (assets/payloads/opencode/); one LoopGuard() instance
// serves every row, as in one OpenCode server, with rows interleaved in batches so machine load falls on all alike.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { testOutput } from './test-output.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const CALLS = Number(process.env.BENCH_CALLS ?? 5_000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 500);
const BATCH = 250;
const GOAL_US = 1000;
const load = (rel) => JSON.parse(readFileSync(join(root, 'assets', 'payloads', 'opencode', rel), 'utf8'));

const initCtx = load('plugin-init-context.json');
const beforeReal = load('tool.execute.before-failure.json');
const afterReal = load('tool.execute.after-failure.json');
const chatReal = load('chat.message-prompt.json');

// Several runs of the same failing suite: the text differs in durations only, as between real reruns.
const VARIANTS = 16;
const out4k = Array.from({ length: VARIANTS }, (_, v) => testOutput(4 * 1024, v));
// OpenCode's bash tool keeps at most ~30,000 characters of output, so this is the largest a real call carries.
const out30k = Array.from({ length: VARIANTS }, (_, v) => testOutput(30 * 1024, v));
const smallOut = afterReal.output.output;

const SESSION = beforeReal.input.sessionID;
let call = 0;
const beforePayload = (session, command) => [
  { ...beforeReal.input, sessionID: session, callID: `call_${++call}` },
  { args: { ...beforeReal.output.args, command } },
];
const afterPayload = (session, command, text, exit) => [
  { ...afterReal.input, sessionID: session, callID: `call_${++call}`, args: { ...afterReal.input.args, command } },
  { title: command, metadata: { output: text, exit, truncated: false }, output: text },
];

// The plugin the OpenCode loader runs: the guard file's opencodePlugin export. BENCH_PLUGIN_FILE times another build:
// a guard file (.cjs, this layout) or an older release's bundled plugin (.js, exporting LoopGuard).
const pluginFile = process.env.BENCH_PLUGIN_FILE
  ? resolve(process.env.BENCH_PLUGIN_FILE)
  : join(root, 'dist', 'loop-guard.cjs');
const LoopGuard = pluginFile.endsWith('.cjs')
  ? createRequire(import.meta.url)(pluginFile).opencodePlugin('opencode')
  : (await import(pathToFileURL(pluginFile).href)).LoopGuard;
let t0 = process.hrtime.bigint();
const hooks = await LoopGuard({ ...initCtx, client: {}, $: () => {}, serverUrl: new URL('http://127.0.0.1:4096') });
const initUs = Number(process.hrtime.bigint() - t0) / 1e3;
const before = hooks['tool.execute.before'];
const after = hooks['tool.execute.after'];

// First calls, before anything is warm: what the first command of a fresh OpenCode server pays.
t0 = process.hrtime.bigint();
await before(...beforePayload(`${SESSION}-cold`, 'npm test'));
const coldBeforeUs = Number(process.hrtime.bigint() - t0) / 1e3;
t0 = process.hrtime.bigint();
await after(...afterPayload(`${SESSION}-cold`, 'npm test', out4k[0], 1));
const coldAfterUs = Number(process.hrtime.bigint() - t0) / 1e3;

const REALISTIC_CMD = 'cd packages/api && npx vitest run test/unit3/lexer.test.ts --reporter=default 2>&1 | tail -n 80';

// A session 64 distinct commands deep (the detector's bound), each failed twice, for reads against a full state.
for (let i = 0; i < 64; i++)
  for (let r = 0; r < 2; r++) await after(...afterPayload('busy', `npm run test:shard -- ${i}`, out4k[r], 1));
// A session where the real failing command has come back the same 4 times: its next `before` refuses it.
for (let r = 0; r < 4; r++) await after(...afterPayload('denied', afterReal.input.args.command, smallOut, 2));

// Each row: one call (or pair) per invocation, timed around the awaited hook(s), payload built outside the timer.
let warned = 0;
let denied = 0;
let seq = 0;
const timed = async (fn) => {
  const s = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - s) / 1e3;
};
const countWarn = (o) => {
  if (o.output.length > o.metadata.output.length) warned++;
};
const rows = {
  'shell.env': () => {
    const out = { env: { PATH: '/usr/bin:/bin' } };
    return timed(() => hooks['shell.env']({ cwd: '/home/dev/proj' }, out));
  },
  'chat.message (resets the session)': () => {
    const [input, output] = [{ ...chatReal.input, sessionID: 'chat' }, { ...chatReal.output }];
    return timed(() => hooks['chat.message'](input, output));
  },
  'before, allowed, new session (real payload)': () => {
    const p = beforePayload('fresh', beforeReal.output.args.command);
    return timed(() => before(...p));
  },
  'before, allowed, 64-command session': () => {
    const p = beforePayload('busy', REALISTIC_CMD);
    return timed(() => before(...p));
  },
  'after, small output, distinct commands': () => {
    const n = seq++;
    const p = afterPayload(
      'a-small-distinct',
      `ls /nonexistent-dir-${n}`,
      `ls: cannot access '/nonexistent-dir-${n}': No such file or directory\n`,
      2,
    );
    return timed(() => after(...p)).finally(() => countWarn(p[1]));
  },
  'after, small output, same command (warns)': () => {
    const p = afterPayload('a-small-repeat', afterReal.input.args.command, smallOut, 2);
    return timed(() => after(...p)).finally(() => countWarn(p[1]));
  },
  'after, 4 KB output, distinct commands': () => {
    const n = seq++;
    const p = afterPayload('a-4k-distinct', `npx vitest run test/unit${n}`, out4k[n % VARIANTS], 1);
    return timed(() => after(...p)).finally(() => countWarn(p[1]));
  },
  'after, 4 KB output, same command (warns)': () => {
    const p = afterPayload('a-4k-repeat', REALISTIC_CMD, out4k[seq++ % VARIANTS], 1);
    return timed(() => after(...p)).finally(() => countWarn(p[1]));
  },
  'after, 30 KB output, same command (warns)': () => {
    const p = afterPayload('a-30k-repeat', REALISTIC_CMD, out30k[seq++ % VARIANTS], 1);
    return timed(() => after(...p)).finally(() => countWarn(p[1]));
  },
  'before+after pair, small output, distinct': () => {
    const n = seq++;
    const cmd = `ls /nonexistent-dir-${n}`;
    const b = beforePayload('pair-small', cmd);
    const a = afterPayload(
      'pair-small',
      cmd,
      `ls: cannot access '/nonexistent-dir-${n}': No such file or directory\n`,
      2,
    );
    return timed(async () => {
      await before(...b);
      await after(...a);
    }).finally(() => countWarn(a[1]));
  },
  'before+after pair, 4 KB output, distinct': () => {
    const n = seq++;
    const cmd = `npx vitest run test/unit${n}`;
    const b = beforePayload('pair-4k', cmd);
    const a = afterPayload('pair-4k', cmd, out4k[n % VARIANTS], 1);
    return timed(async () => {
      await before(...b);
      await after(...a);
    }).finally(() => countWarn(a[1]));
  },
  // The loop the guard exists for: the same failing suite 3 times (the 3rd warns), then the user writes again.
  'before+after pair, 4 KB output, same ×3': async () => {
    const n = seq++;
    if (n % 3 === 0) await hooks['chat.message']({ ...chatReal.input, sessionID: 'pair-loop' }, { ...chatReal.output });
    const b = beforePayload('pair-loop', REALISTIC_CMD);
    const a = afterPayload('pair-loop', REALISTIC_CMD, out4k[n % VARIANTS], 1);
    return timed(async () => {
      await before(...b);
      await after(...a);
    }).finally(() => countWarn(a[1]));
  },
};
// Counted apart: a refusal is an Error thrown to OpenCode, and the cost of building and throwing it is in the number.
const deniedRow = 'before, denied (throws; counted apart)';
rows[deniedRow] = () => {
  const p = beforePayload('denied', afterReal.input.args.command);
  return timed(() => before(...p).catch(() => denied++));
};

const samples = Object.fromEntries(Object.keys(rows).map((k) => [k, []]));
// CPU time of this process per call (batch totals, so payload building is in it too), which a busy machine inflates
// far less than wall time.
const cpuUs = Object.fromEntries(Object.keys(rows).map((k) => [k, 0]));
const warns = Object.fromEntries(Object.keys(rows).map((k) => [k, 0]));
for (const fn of Object.values(rows)) for (let i = 0; i < WARMUP; i++) await fn();
warned = 0;
denied = 0;
for (let done = 0; done < CALLS; done += BATCH) {
  for (const [k, fn] of Object.entries(rows)) {
    const w0 = warned;
    const c0 = process.cpuUsage();
    for (let i = 0; i < Math.min(BATCH, CALLS - done); i++) samples[k].push(await fn());
    const c = process.cpuUsage(c0);
    cpuUs[k] += c.user + c.system;
    warns[k] += warned - w0;
  }
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
const stats = Object.fromEntries(
  Object.entries(samples).map(([k, v]) => {
    const s = [...v].sort((a, b) => a - b);
    return [
      k,
      {
        mean: v.reduce((a, b) => a + b, 0) / v.length,
        p50: pct(s, 50),
        p99: pct(s, 99),
        max: s[s.length - 1],
        cpu: cpuUs[k] / v.length,
      },
    ];
  }),
);

// Summary mode for bench/guard.mjs's single table.
if (process.env.BENCH_JSON) {
  const a = stats['after, 30 KB output, same command (warns)'];
  const pair = stats['before+after pair, 4 KB output, same ×3'];
  console.log(JSON.stringify({ after30kP99: a.p99, after30kMean: a.mean, pairMean: pair.mean, pairP99: pair.p99 }));
  process.exit(0);
}

console.log(
  `OpenCode plugin, in-process: ${CALLS.toLocaleString('en')} calls per row after ${WARMUP} warm-up, rows interleaved in batches of ${BATCH} (node ${process.version}, ${process.platform}/${process.arch})\n`,
);
console.log(
  `LoopGuard() init: ${initUs.toFixed(0)} µs · first before (cold): ${coldBeforeUs.toFixed(0)} µs · first after, 4 KB (cold): ${coldAfterUs.toFixed(0)} µs\n`,
);
console.log(
  `${'hook call (wall µs per call)'.padEnd(44)} ${'mean'.padStart(8)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'max'.padStart(8)} ${'cpu mean'.padStart(8)}  ${'p99÷1ms'.padStart(7)}  warned`,
);
for (const [k, s] of Object.entries(stats)) {
  const w = k === deniedRow ? `${denied} denied` : warns[k] ? String(warns[k]) : '-';
  console.log(
    `${k.padEnd(44)} ${s.mean.toFixed(1).padStart(8)} ${s.p50.toFixed(1).padStart(8)} ${s.p99.toFixed(1).padStart(8)} ${s.max.toFixed(0).padStart(8)} ${s.cpu.toFixed(1).padStart(8)}  ${(s.p99 / GOAL_US).toFixed(3).padStart(7)}  ${w}`,
  );
}
const single = Object.entries(stats).filter(([k]) => !k.startsWith('before+after') && k !== deniedRow);
const [worstK, worst] = single.reduce((a, b) => (b[1].p99 > a[1].p99 ? b : a));
const pairs = Object.entries(stats).filter(([k]) => k.startsWith('before+after'));
const [worstPairK, worstPair] = pairs.reduce((a, b) => (b[1].p99 > a[1].p99 ? b : a));
const realPair = stats['before+after pair, 4 KB output, same ×3'];
console.log('');
console.log(`ratio worst single call p99 ÷ 1 ms:         ${(worst.p99 / GOAL_US).toFixed(3)}   (goal ≤ 1: ${worstK})`);
console.log(
  `ratio worst single call mean ÷ 1 ms:        ${(Math.max(...single.map(([, s]) => s.mean)) / GOAL_US).toFixed(3)}`,
);
console.log(
  `ratio worst single call cpu mean ÷ 1 ms:    ${(Math.max(...single.map(([, s]) => s.cpu)) / GOAL_US).toFixed(3)}   (CPU time: what machine load does not inflate)`,
);
console.log(
  `ratio realistic pair mean ÷ 1 ms:           ${(realPair.mean / GOAL_US).toFixed(3)}   (two calls; 4 KB output, same ×3, 3rd warns)`,
);
console.log(`ratio realistic pair mean per call ÷ 1 ms:  ${(realPair.mean / 2 / GOAL_US).toFixed(3)}   (goal ≤ 1)`);
console.log(
  `ratio worst pair p99 ÷ 1 ms:                ${(worstPair.p99 / GOAL_US).toFixed(3)}   (two calls: ${worstPairK})`,
);
console.log(
  `ratio denied before p99 ÷ 1 ms:             ${(stats[deniedRow].p99 / GOAL_US).toFixed(3)}   (counted apart: builds and throws the refusal)`,
);
