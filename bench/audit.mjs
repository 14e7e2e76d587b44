// Benchmark: `create-loop-guard audit` on the real transcripts and on generated ones (printed, never asserted).
// The fixture copies are far lighter per MB than real histories; bench/audit-real.mjs measures a real-shaped one.
//   real fixtures  a HOME of test/fixtures/transcripts (real Claude Code, Codex, Gemini CLI, Copilot CLI, Qwen Code
//                  sessions), each JSONL copied until BENCH_AUDIT_FIXTURE_MB (default 70 MB): MB per CPU second and
//                  per wall second, before (the audit at BENCH_AUDIT_BASE, default the commit before this audit
//                  work, built from git) and after (this tree), interleaved in one process; then what --html adds
//   throughput   --all over one large Claude Code transcript (BENCH_AUDIT_MB, default 300 MB): MB/s of transcript read.
//                Per step: a file read (~5 KB result), then a Bash call with a ~1.4 KB failing-test output, plus a
//                bookkeeping line; every 50th step starts a loop of 8 identical failures.
//   CPU time     the same audit run in this process: MB per CPU second (the machine may be shared; wall time waits for a core)
//   parse only   the same file through the line streamer and the Claude Code parser, without the judgment: what
//                reading costs, apart from replaying every shell call through the guard core
//   default run  a developer HOME of BENCH_AUDIT_PROJECTS Claude Code projects × 8 sessions plus as many Codex sessions,
//                audited from one project (the default scope): wall time of the whole CLI process, and ÷ `node -e 0`
// Lines are shaped like Claude Code 2.1.332's and Codex 0.171.0's (test/fixtures/transcripts), with real-sized outputs.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist', 'cli.mjs');
const MB = Number(process.env.BENCH_AUDIT_MB ?? 300);
const PROJECTS = Number(process.env.BENCH_AUDIT_PROJECTS ?? 40);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const FIXTURE_MB = Number(process.env.BENCH_AUDIT_FIXTURE_MB ?? 70);
// The audit before this work on it (its parser as the issue measured it); 5fca27f is the same audit with money and
// the HTML page but without the byte-level line filter.
const BASE = process.env.BENCH_AUDIT_BASE ?? 'ca77068';
// Under .cache/, so the bundled code finds the package's own package.json above it (a temp dir has none).
mkdirSync(join(root, '.cache'), { recursive: true });
const work = mkdtempSync(join(root, '.cache', 'bench-audit-all-'));

/** A HOME of the real fixture transcripts, every JSONL file copied (under new names) until the total reaches `mb`. */
function fixtureHome(home, mb) {
  const t = join(root, 'test', 'fixtures', 'transcripts');
  for (const [src, dst] of [
    ['claude', '.claude'],
    ['codex', '.codex'],
    ['gemini', '.gemini'],
    ['copilot', '.copilot'],
    ['qwen', '.'],
    ['cline', '.'],
  ])
    cpSync(join(t, src), join(home, dst), { recursive: true });
  mkdirSync(join(home, '.local', 'share'), { recursive: true });
  cpSync(join(t, 'opencode'), join(home, '.local', 'share', 'opencode'), { recursive: true });
  cpSync(join(t, 'kilo'), join(home, '.local', 'share', 'kilo'), { recursive: true });
  const jsonl = [];
  const walk = (d) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (n.endsWith('.jsonl')) jsonl.push(p);
    }
  };
  walk(home);
  const sizes = jsonl.map((f) => statSync(f).size);
  let total = sizes.reduce((a, b) => a + b, 0);
  for (let k = 1; total < mb * 1e6; k++)
    for (const [i, f] of jsonl.entries()) {
      // Copilot CLI keeps one events.jsonl per session folder.
      const to =
        basename(f) === 'events.jsonl'
          ? join(`${dirname(f)}-c${k}`, 'events.jsonl')
          : join(dirname(f), basename(f).replace(/\.jsonl$/, `-c${k}.jsonl`));
      mkdirSync(dirname(to), { recursive: true });
      copyFileSync(f, to);
      total += sizes[i];
    }
  return total;
}

/** runAudit (and the HTML renderer, when the tree has one) bundled from a source tree. */
async function bundleAudit(dir, out, html) {
  await build({
    stdin: {
      contents: `export { runAudit } from './src/audit/audit.ts';${html ? " export { htmlReport } from './src/audit/report-html.ts';" : ''}`,
      resolveDir: dir,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: out,
    logLevel: 'error',
  });
  return import(pathToFileURL(out).href);
}

/** CPU and wall time of one in-process audit of every project. */
async function timed(runAudit, home) {
  const io = {
    cwd: work,
    env: { HOME: home, XDG_DATA_HOME: join(home, '.local', 'share') },
    home,
    stdoutIsTTY: false,
    out() {},
    err() {},
  };
  const c0 = process.cpuUsage();
  const w0 = process.hrtime.bigint();
  // Newer trees' runAudit is async (it may load the --prices reader); an older one's result is awaited the same.
  const r = await runAudit({ all: true, json: true, redact: false }, io);
  const c = process.cpuUsage(c0);
  return { cpu: (c.user + c.system) / 1e6, wall: Number(process.hrtime.bigint() - w0) / 1e9, report: r.report };
}

async function realFixtures() {
  const home = join(work, 'fixtures-home');
  const bytes = fixtureHome(home, FIXTURE_MB);
  const after = await bundleAudit(root, join(work, 'after.mjs'), true);
  let before;
  try {
    const dir = join(work, 'base');
    mkdirSync(dir);
    const tar = execFileSync('git', ['-C', root, 'archive', BASE, 'src'], { maxBuffer: 256 << 20 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
    before = await bundleAudit(dir, join(dir, 'before.mjs'), false);
  } catch (err) {
    console.log(
      `real fixtures: no baseline (${BASE} is not in this clone: ${String(err.message).split('\n')[0]}); set BENCH_AUDIT_BASE`,
    );
  }
  const runs = { before: [], after: [] };
  for (let i = 0; i < Math.max(3, RUNS); i++) {
    if (before) runs.before.push(await timed(before.runAudit, home));
    runs.after.push(await timed(after.runAudit, home));
  }
  const mb = bytes / 1e6;
  const line = (name, rs) => {
    const cpu = median(rs.map((r) => r.cpu));
    const wall = median(rs.map((r) => r.wall));
    return {
      cpu,
      text: `${name}: ${(mb / cpu).toFixed(0)} MB/s CPU (${cpu.toFixed(2)} s), ${(mb / wall).toFixed(0)} MB/s wall, ${rs[0].report.loops.length} loops`,
    };
  };
  const a = line('after (this tree)', runs.after);
  console.log(
    `real fixtures: ${mb.toFixed(1)} MB of real transcripts (${runs.after[0].report.read.files} files), medians of ${runs.after.length}`,
  );
  if (before) {
    const b = line(`before (${BASE})`, runs.before);
    console.log(`  ${b.text}`);
    console.log(`  ${a.text}: ${(b.cpu / a.cpu).toFixed(2)}× the CPU throughput`);
  } else console.log(`  ${a.text}`);
  // What --html adds: rendering the page from the same report, against the scan that made it.
  const report = runs.after[0].report;
  const h = [];
  let size = 0;
  for (let i = 0; i < Math.max(3, RUNS); i++) {
    const c0 = process.cpuUsage();
    size = after.htmlReport(report, 'bench').length;
    const c = process.cpuUsage(c0);
    h.push((c.user + c.system) / 1e6);
  }
  console.log(
    `  --html: ${(median(h) * 1000).toFixed(1)} ms CPU for a ${(size / 1024).toFixed(0)} KB page = +${((median(h) / a.cpu) * 100).toFixed(1)}% of the scan`,
  );
  rmSync(home, { recursive: true, force: true });
}

/** A Claude Code session of about `bytes`: per step an assistant Bash call with usage, its result, and bookkeeping lines. */
function claudeSession(file, cwd, bytes, loopEvery = 50) {
  const fd = openSync(file, 'w');
  const session = `s-${Math.random().toString(16).slice(2)}`;
  const t0 = Date.parse('2026-11-20T09:00:00Z');
  const output = `${'src/foo.test.ts > adds numbers: AssertionError: expected 3 to be 4\n'.repeat(20)}`;
  const source = Array.from(
    { length: 120 },
    (_, k) => `${String(k + 1).padStart(6)}\texpect(add(${k}, 1)).toBe(${k + 1}); // case ${k}`,
  ).join('\n');
  const bookkeeping = JSON.stringify({
    type: 'attachment',
    attachment: { type: 'total_tokens_reminder', text: 'x'.repeat(1500) },
    sessionId: session,
    cwd,
  });
  let written = 0;
  let buf = '';
  for (let i = 0; written < bytes; i++) {
    const at = new Date(t0 + i * 4000).toISOString();
    // Every loopEvery steps the agent falls into a loop of 8 identical failing runs; otherwise each result differs.
    const inLoop = i % loopEvery >= loopEvery - 8;
    const command = inLoop ? 'npm test' : `npm test -- --grep case${i}`;
    const result = inLoop ? `Exit code 1\n${output}` : `Exit code 1\n${output}run ${i}\n`;
    const id = `toolu_${i}`;
    const readId = `toolu_r${i}`;
    const lines = [
      // Between two shell calls, a file read: most of a real transcript's bytes are tool results like this one.
      JSON.stringify({
        parentUuid: null,
        isSidechain: false,
        message: {
          id: `msg_r${i}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [
            { type: 'text', text: 'Let me look at the test file first.' },
            { type: 'tool_use', id: readId, name: 'Read', input: { file_path: `${cwd}/src/foo${i % 9}.test.ts` } },
          ],
          usage: {
            input_tokens: 12,
            cache_creation_input_tokens: 300,
            cache_read_input_tokens: 44000,
            output_tokens: 60,
          },
        },
        type: 'assistant',
        timestamp: at,
        cwd,
        sessionId: session,
      }),
      JSON.stringify({
        parentUuid: null,
        isSidechain: false,
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', content: source, tool_use_id: readId }] },
        timestamp: at,
        cwd,
        sessionId: session,
      }),
      JSON.stringify({
        parentUuid: null,
        isSidechain: false,
        message: {
          id: `msg_${i}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'tool_use', id, name: 'Bash', input: { command, description: 'run tests' } }],
          usage: {
            input_tokens: 12,
            cache_creation_input_tokens: 300,
            cache_read_input_tokens: 45000,
            output_tokens: 80,
          },
        },
        type: 'assistant',
        timestamp: at,
        cwd,
        sessionId: session,
      }),
      JSON.stringify({
        parentUuid: null,
        isSidechain: false,
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', content: result, is_error: true, tool_use_id: id }] },
        toolUseResult: `Error: ${result}`,
        timestamp: at,
        cwd,
        sessionId: session,
      }),
      bookkeeping,
    ];
    const text = `${lines.join('\n')}\n`;
    buf += text;
    written += Buffer.byteLength(text);
    if (buf.length > 1 << 20) {
      writeSync(fd, buf);
      buf = '';
    }
  }
  writeSync(fd, buf);
  closeSync(fd);
  return written;
}

function codexSession(file, cwd, bytes) {
  const fd = openSync(file, 'w');
  let written = 0;
  const meta = JSON.stringify({
    timestamp: '2026-11-20T09:00:00.000Z',
    type: 'session_meta',
    payload: { id: 'x', cwd, cli_version: '0.171.0' },
  });
  writeSync(fd, `${meta}\n`);
  for (let i = 0; written < bytes; i++) {
    const call = `call_${i}`;
    const text = [
      JSON.stringify({
        timestamp: '2026-11-20T09:00:01.000Z',
        type: 'response_item',
        payload: {
          type: 'function_call',
          name: 'exec_command',
          arguments: JSON.stringify({ cmd: `cargo test t${i}` }),
          call_id: call,
        },
      }),
      JSON.stringify({
        timestamp: '2026-11-20T09:00:02.000Z',
        type: 'response_item',
        payload: {
          type: 'function_call_output',
          call_id: call,
          output: `Process exited with code 101\nOutput:\n${'error[E0308]: mismatched types\n'.repeat(30)}${i}`,
        },
      }),
      JSON.stringify({
        timestamp: '2026-11-20T09:00:02.000Z',
        type: 'event_msg',
        payload: {
          type: 'token_count',
          info: { last_token_usage: { input_tokens: 40000, cached_input_tokens: 39000, output_tokens: 60 } },
        },
      }),
    ].join('\n');
    writeSync(fd, `${text}\n`);
    written += text.length + 1;
  }
  closeSync(fd);
  return written;
}

function audit(home, args, cwd = work) {
  const env = { PATH: process.env.PATH, HOME: home, NO_COLOR: '1' };
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [cli, 'audit', '--json', ...args], {
    cwd,
    env,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`audit ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  return { ms, report: JSON.parse(r.stdout) };
}

try {
  await realFixtures();
  if (!process.env.BENCH_AUDIT_ONLY_FIXTURES) await generated();
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** The generated workloads: one big Claude Code transcript, and a developer HOME audited from one project. */
async function generated() {
  // Throughput: one big transcript.
  const big = join(work, 'big');
  mkdirSync(join(big, '.claude', 'projects', '-home-dev-big'), { recursive: true });
  const bytes = claudeSession(
    join(big, '.claude', 'projects', '-home-dev-big', 'big.jsonl'),
    '/home/dev/big',
    MB * 1e6,
  );
  const runs = [];
  let last;
  for (let i = 0; i < Math.max(1, Math.min(RUNS, 3)); i++) {
    last = audit(big, ['--all']);
    runs.push(last.report.read.ms);
  }
  const scanMs = median(runs);
  console.log(
    `throughput: ${(bytes / 1e6).toFixed(0)} MB Claude Code transcript, ${last.report.loops.length} loops found, ` +
      `read in ${(scanMs / 1000).toFixed(2)} s = ${(bytes / 1e6 / (scanMs / 1000)).toFixed(0)} MB/s (median of ${runs.length}; whole process ${(last.ms / 1000).toFixed(2)} s)`,
  );
  // Reading alone: the same streamer and parser the CLI uses, bundled from src/ for this measurement.
  const probe = join(work, 'probe.mjs');
  await build({
    stdin: {
      contents:
        "export { forEachLine } from './src/audit/lines.ts'; export { createClaudeParser, claudeLineMatters } from './src/audit/formats/claude.ts'; export { runAudit } from './src/audit/audit.ts';",
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: probe,
    logLevel: 'error',
  });
  const { forEachLine, createClaudeParser, claudeLineMatters, runAudit } = await import(pathToFileURL(probe).href);
  // The same audit in this process, for its CPU time: on a shared machine the wall time above includes waiting for a core.
  const cpuRuns = [];
  for (let i = 0; i < Math.max(1, Math.min(RUNS, 3)); i++) {
    const c0 = process.cpuUsage();
    const w0 = process.hrtime.bigint();
    const r = await runAudit(
      { all: true, json: true, redact: false },
      { cwd: work, env: { HOME: big }, home: big, stdoutIsTTY: false, out() {}, err() {} },
    );
    const cpu = process.cpuUsage(c0);
    cpuRuns.push({
      cpu: (cpu.user + cpu.system) / 1e3,
      wall: Number(process.hrtime.bigint() - w0) / 1e6,
      loops: r.report.loops.length,
    });
  }
  const cpuMs = median(cpuRuns.map((r) => r.cpu));
  console.log(
    `throughput by CPU time (in process): ${(bytes / 1e6 / (cpuMs / 1000)).toFixed(0)} MB/s (${(cpuMs / 1000).toFixed(2)} s CPU, ` +
      `${(median(cpuRuns.map((r) => r.wall)) / 1000).toFixed(2)} s wall, ${cpuRuns[0].loops} loops; median of ${cpuRuns.length})`,
  );
  const parseRuns = [];
  const parseCpu = [];
  let shellCalls = 0;
  for (let i = 0; i < Math.max(1, Math.min(RUNS, 3)); i++) {
    const parser = createClaudeParser();
    let calls = 0;
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    forEachLine(join(big, '.claude', 'projects', '-home-dev-big', 'big.jsonl'), (line) => {
      if (!line || (parser.info.cwd !== undefined && !claudeLineMatters(line))) return;
      parser.push(JSON.parse(line), (e) => {
        if (e.kind === 'shell') calls++;
      });
    });
    parseRuns.push(Number(process.hrtime.bigint() - t0) / 1e6);
    const c = process.cpuUsage(c0);
    parseCpu.push((c.user + c.system) / 1e3);
    shellCalls = calls;
  }
  console.log(
    `parse only: ${(bytes / 1e6 / (median(parseRuns) / 1000)).toFixed(0)} MB/s wall, ${(bytes / 1e6 / (median(parseCpu) / 1000)).toFixed(0)} MB/s CPU ` +
      `(${shellCalls.toLocaleString('en')} shell calls, one per ${(bytes / shellCalls / 1000).toFixed(1)} KB; judging them through the guard core costs ` +
      `${(((scanMs - median(parseRuns)) * 1000) / shellCalls).toFixed(0)} µs wall, ${(((cpuMs - median(parseCpu)) * 1000) / shellCalls).toFixed(0)} µs CPU each)`,
  );
  rmSync(big, { recursive: true, force: true });

  // A typical developer HOME, audited from one project.
  const home = join(work, 'home');
  let total = 0;
  for (let p = 0; p < PROJECTS; p++) {
    const cwd = `/home/dev/project-${p}`;
    const dir = join(home, '.claude', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
    mkdirSync(dir, { recursive: true });
    for (let s = 0; s < 8; s++)
      total += claudeSession(join(dir, `session-${s}.jsonl`), cwd, 400_000 + ((p * 8 + s) % 5) * 300_000);
    const cdir = join(home, '.codex', 'sessions', '2026', '11', String(10 + (p % 20)).padStart(2, '0'));
    mkdirSync(cdir, { recursive: true });
    for (let s = 0; s < 8; s++)
      total += codexSession(join(cdir, `rollout-2026-11-20T09-00-00-${p}-${s}.jsonl`), cwd, 300_000);
  }
  const node0 = [];
  const scoped = [];
  const all = [];
  for (let i = 0; i < RUNS; i++) {
    let t0 = process.hrtime.bigint();
    spawnSync(process.execPath, ['-e', '0']);
    node0.push(Number(process.hrtime.bigint() - t0) / 1e6);
    scoped.push(audit(home, ['--cwd', '/home/dev/project-3']).ms);
    t0 = process.hrtime.bigint();
    all.push(audit(home, ['--all']).ms);
  }
  const files = PROJECTS * 16;
  console.log(
    `default run: HOME with ${files} sessions (${(total / 1e6).toFixed(0)} MB) in ${PROJECTS} projects, audited from one project: ` +
      `${median(scoped).toFixed(0)} ms (${(median(scoped) / median(node0)).toFixed(1)}× node -e 0 = ${median(node0).toFixed(0)} ms); ` +
      `--all: ${(median(all) / 1000).toFixed(2)} s = ${(total / 1e6 / (median(all) / 1000)).toFixed(0)} MB/s (medians of ${RUNS})`,
  );
}
