// Benchmark: the CLI as a user runs it, `create-loop-guard audit --all --json`, one cold process per run, on
// real-shaped histories (bench/history-shape.mjs) of several sizes: MB per CPU second (the process's own user +
// system time, start-up included) and peak RSS, before (BENCH_AUDIT_BASE, default the commit this round of audit
// work started from, built from its own sources) and after (this tree), interleaved. Printed, never asserted.
//
//   node bench/audit-cli.mjs                              70 MB, 250 MB and 1 GB; 3 rounds (BENCH_RUNS)
//   BENCH_AUDIT_SIZES=70,2000 node bench/audit-cli.mjs    other sizes in MB (2000: a heavy user's three months)
//   BENCH_NODES=20,22,24 node bench/audit-cli.mjs         other Node majors (installed by scripts/install-node.mjs)
//   BENCH_AUDIT_BASE='' node bench/audit-cli.mjs          this tree only
//
// Why a cold process: V8 optimizes the per-call code only after a few thousand calls, so a small history is read
// mostly by unoptimized code and a large one mostly by optimized code; the in-process benchmark (audit-real.mjs)
// repeats runs in one process and so measures the warm speed only.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_BASE, root } from './audit-builds.mjs';
import { writeHistory } from './history-shape.mjs';
import { ensureNode } from '../scripts/install-node.mjs';

const SIZES = (process.env.BENCH_AUDIT_SIZES ?? '70,250,1000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const BASE = process.env.BENCH_AUDIT_BASE ?? DEFAULT_BASE;
const NODES = (process.env.BENCH_NODES ?? '').split(',').filter(Boolean);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

mkdirSync(join(root, '.cache'), { recursive: true });
const work = mkdtempSync(join(root, '.cache', 'bench-audit-cli-'));

/** The CLI of a source tree, built by its own build script into dir/dist (a tree of this clone at `commit`). */
function buildCli(dir, commit) {
  if (commit) {
    mkdirSync(dir, { recursive: true });
    const tar = execFileSync('git', ['-C', root, 'archive', commit], { maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar, maxBuffer: 1 << 30 });
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  }
  const dist = join(commit ? dir : work, commit ? 'dist' : 'after-dist');
  execFileSync(process.execPath, [join(commit ? dir : root, 'scripts', 'build.mjs')], {
    env: { ...process.env, LOOP_GUARD_BUILD_DIST: dist },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return join(dist, 'cli.mjs');
}

// Reports the process's CPU time and peak RSS as it exits (getrusage of the whole process, every thread).
const probe = join(work, 'probe.mjs');
writeFileSync(
  probe,
  [
    "import { writeFileSync } from 'node:fs';",
    "process.on('exit', () => {",
    '  const c = process.cpuUsage();',
    '  const rss = process.resourceUsage().maxRSS;',
    '  writeFileSync(process.env.BENCH_PROBE_OUT, JSON.stringify({ cpu: (c.user + c.system) / 1e6, rss }));',
    '});',
    '',
  ].join('\n'),
);

function run(node, cli, home) {
  const out = join(work, 'probe.json');
  const r = spawnSync(node, ['--import', probe, cli, 'audit', '--all', '--json'], {
    env: { PATH: process.env.PATH, HOME: home, XDG_DATA_HOME: join(home, '.local', 'share'), BENCH_PROBE_OUT: out },
    maxBuffer: 1 << 30,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`${cli} exited ${r.status}: ${r.stderr}`);
  const report = JSON.parse(r.stdout);
  return { ...JSON.parse(readFileSync(out, 'utf8')), loops: report.loops.length, usd: report.totals.usd };
}

try {
  const after = buildCli(work, undefined);
  const before = BASE ? buildCli(join(work, 'base'), BASE) : undefined;
  const nodes = NODES.length
    ? NODES.map((m) => [m, m === process.versions.node.split('.')[0] ? process.execPath : ensureNode(m)])
    : [[process.versions.node.split('.')[0], process.execPath]];
  console.log(`audit --all --json, one cold process per run, medians of ${RUNS}; MB per CPU second, peak RSS`);
  for (const mb of SIZES) {
    const home = join(work, `home-${mb}`);
    const g = writeHistory(home, mb);
    const size = g.bytes / 1e6;
    console.log(
      `${size.toFixed(0)} MB: ${g.files.claude} Claude Code + ${g.files.codex} Codex sessions, ` +
        `${g.shellCalls.toLocaleString('en')} shell calls`,
    );
    for (const [major, node] of nodes) {
      if (!node) continue;
      const rs = { before: [], after: [] };
      for (let i = 0; i < RUNS; i++) {
        if (before) rs.before.push(run(node, before, home));
        rs.after.push(run(node, after, home));
      }
      const row = (xs) =>
        `${(size / median(xs.map((x) => x.cpu))).toFixed(0)} MB/s (${median(xs.map((x) => x.cpu)).toFixed(2)} s, ` +
        `${(median(xs.map((x) => x.rss)) / 1024).toFixed(0)} MB RSS, ${xs[0].loops} loops)`;
      const ratio = before ? median(rs.before.map((x) => x.cpu)) / median(rs.after.map((x) => x.cpu)) : undefined;
      const same = !before || (rs.before[0].loops === rs.after[0].loops && rs.before[0].usd === rs.after[0].usd);
      console.log(
        `  node ${major}: ${before ? `before (${BASE}) ${row(rs.before)}, ` : ''}after ${row(rs.after)}` +
          `${ratio ? `, ${ratio.toFixed(2)}×` : ''}${same ? '' : '  LOOPS OR MONEY DIFFER'}`,
      );
    }
    rmSync(home, { recursive: true, force: true });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
