// The byte-for-byte check: the audit of this tree and of BENCH_AUDIT_BASE (default: the commit issue 34's work
// started from) on the same HOME, with the same fixed clock, must print the same `--json`, the same terminal report
// and write the same `--html` page, byte for byte. Exit 1 and the first difference when they do not.
//
//   node bench/audit-same.mjs                  a generated 70 MB history (bench/history-shape.mjs, BENCH_AUDIT_MB)
//                                              and a HOME of the real transcripts in test/fixtures/transcripts
//   node bench/audit-same.mjs DIR…             those HOMEs (e.g. a copy of your own)
//   LOOP_GUARD_WARN=… LOOP_GUARD_BLOCK=… …      other guard settings: both builds read the same environment
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { auditIO, loadBuilds, root } from './audit-builds.mjs';
import { writeHistory } from './history-shape.mjs';

const NOW = Date.parse('2026-12-01T12:00:00Z');
mkdirSync(join(root, '.cache'), { recursive: true });
const work = mkdtempSync(join(root, '.cache', 'audit-same-'));

/** The real fixture transcripts laid out in one HOME as the CLIs keep them. */
function fixtureHome(home) {
  const t = join(root, 'test', 'fixtures', 'transcripts');
  for (const [src, dst] of [
    ['claude', '.claude'],
    ['codex', '.codex'],
    ['gemini', '.gemini'],
    ['copilot', '.copilot'],
  ])
    cpSync(join(t, src), join(home, dst), { recursive: true });
  mkdirSync(join(home, '.local', 'share'), { recursive: true });
  cpSync(join(t, 'opencode'), join(home, '.local', 'share', 'opencode'), { recursive: true });
  cpSync(join(t, 'kilo'), join(home, '.local', 'share', 'kilo'), { recursive: true });
  return home;
}

async function outputs(build, home, name) {
  // The guard's own events.log is read from its state dir: the HOME's, not this machine's (which hooks running
  // elsewhere append to between the two builds' runs).
  const env = {
    ...process.env,
    HOME: home,
    XDG_DATA_HOME: join(home, '.local', 'share'),
    LOOP_GUARD_STATE_DIR: join(home, '.local', 'state', 'loop-guard'),
  };
  const res = {};
  for (const [label, opts] of [
    ['--json', { all: true, json: true, redact: false }],
    ['terminal', { all: true, json: false, redact: false, limit: '1000' }],
    ['--html', { all: true, json: true, redact: false, html: join(work, `${name}.html`) }],
  ]) {
    const { io, out } = auditIO(home, work, NOW);
    io.env = env;
    const code = await build.audit(opts, io);
    res[label] = label === '--html' ? readFileSync(join(work, `${name}.html`), 'utf8') : `${code}\n${out.join('')}`;
  }
  return res;
}

let failed = false;
try {
  const builds = await loadBuilds(work);
  if (!builds.before) throw new Error('set BENCH_AUDIT_BASE to a commit to compare with');
  let homes = process.argv.slice(2);
  if (!homes.length) {
    const gen = join(work, 'generated');
    const g = writeHistory(gen, Number(process.env.BENCH_AUDIT_MB ?? 70));
    console.log(`generated ${(g.bytes / 1e6).toFixed(1)} MB (${g.shellCalls} shell calls)`);
    homes = [gen, fixtureHome(join(work, 'fixtures'))];
  }
  for (const home of homes) {
    const a = await outputs(builds.after, home, 'after');
    const b = await outputs(builds.before, home, 'before');
    for (const label of Object.keys(a)) {
      const same = a[label] === b[label];
      let where = '';
      if (!same) {
        let i = 0;
        while (a[label][i] === b[label][i]) i++;
        where = ` — first difference at character ${i}: before …${JSON.stringify(b[label].slice(Math.max(0, i - 80), i + 80))}…, after …${JSON.stringify(a[label].slice(Math.max(0, i - 80), i + 80))}…`;
        failed = true;
      }
      const loops =
        label === '--json' ? ` (${JSON.parse(a[label].slice(a[label].indexOf('\n') + 1)).loops.length} loops)` : '';
      console.log(
        `${home.replace(work, '<work>')}: ${label} ${same ? 'identical' : 'DIFFERENT'}, ${a[label].length.toLocaleString('en')} characters${loops}${where}`,
      );
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
