// Benchmark: `audit --all` on a history shaped like real heavy ones (bench/history-shape.mjs: Claude Code and Codex,
// the shape and where its figures come from are stated there), MB per CPU second, before (BENCH_AUDIT_BASE, default
// the commit issue 34's work started from) and after (this tree), interleaved in one process. Printed, never asserted.
//
//   node bench/audit-real.mjs                         70 MB corpus (BENCH_AUDIT_MB), 5 rounds (BENCH_RUNS)
//   BENCH_AUDIT_BASE=<commit> node bench/audit-real.mjs   another baseline; '' = after only
//   BENCH_AUDIT_HOME=<dir> node bench/audit-real.mjs      audit that HOME instead (e.g. a copy of your own history)
//
// Goal (issue 34): ≥ 150 MB per CPU second on this corpus, with the same report as the base (bench/audit-same.mjs).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { auditIO, loadBuilds, root } from './audit-builds.mjs';
import { writeHistory } from './history-shape.mjs';

const MB = Number(process.env.BENCH_AUDIT_MB ?? 70);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// Bundles live under .cache/ so the bundled code finds the package's own package.json above it.
mkdirSync(join(root, '.cache'), { recursive: true });
const work = mkdtempSync(join(root, '.cache', 'bench-audit-'));

async function timed(runAudit, home) {
  const { io } = auditIO(home, work);
  const c0 = process.cpuUsage();
  const w0 = process.hrtime.bigint();
  // Newer trees' runAudit is async (it may load the --prices reader); an older one's result is awaited the same.
  const r = await runAudit({ all: true, json: true, redact: false }, io);
  const c = process.cpuUsage(c0);
  return { cpu: (c.user + c.system) / 1e6, wall: Number(process.hrtime.bigint() - w0) / 1e9, report: r.report };
}

try {
  let home = process.env.BENCH_AUDIT_HOME;
  if (!home) {
    home = join(work, 'home');
    const g = writeHistory(home, MB);
    console.log(
      `corpus: ${(g.bytes / 1e6).toFixed(1)} MB, ${g.files.claude} Claude Code + ${g.files.codex} Codex sessions, ` +
        `${g.shellCalls.toLocaleString('en')} shell calls (${(g.shellCalls / (g.bytes / 1e6)).toFixed(0)} per MB)`,
    );
  }
  const builds = await loadBuilds(work);
  const runs = { before: [], after: [] };
  for (let i = 0; i < RUNS; i++) {
    // Alternating, so a change in the machine's load falls on both builds alike.
    if (builds.before) runs.before.push(await timed(builds.before.runAudit, home));
    runs.after.push(await timed(builds.after.runAudit, home));
  }
  const mb = runs.after[0].report.read.bytes / 1e6;
  const row = (name, rs) => {
    const cpu = median(rs.map((r) => r.cpu));
    const wall = median(rs.map((r) => r.wall));
    const spread = rs.map((r) => (mb / r.cpu).toFixed(0)).join(', ');
    console.log(
      `  ${name}: ${(mb / cpu).toFixed(0)} MB/s CPU (${cpu.toFixed(2)} s; runs ${spread}), ${(mb / wall).toFixed(0)} MB/s wall, ` +
        `${rs[0].report.loops.length} loops, ${rs[0].report.totals.shellCalls} shell calls`,
    );
    return cpu;
  };
  console.log(`audit --all on ${mb.toFixed(1)} MB (${runs.after[0].report.read.files} files), medians of ${RUNS}:`);
  const b = builds.before ? row(`before (${builds.base})`, runs.before) : undefined;
  const a = row('after (this tree)', runs.after);
  if (b !== undefined) console.log(`  after ÷ before: ${(b / a).toFixed(2)}× the MB per CPU second`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
