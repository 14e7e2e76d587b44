// Benchmark: wall time of `create-loop-guard --check`, as ratios measured in one run (printed, never asserted).
//   --check on a 100,000-file repo ÷ `node -e 0`     the issue's goal (≤ 3×)
//   --check on a 100,000-file repo ÷ a tiny repo     detection reads fixed paths, so the file count must not matter (≈ 1)
//   --check ÷ --version                              what the check does on top of loading the CLI
// Plus a direct probe: every node:fs call the CLI makes during --check is counted; none may touch node_modules.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist', 'cli.mjs');
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const FILES = Number(process.env.BENCH_FILES ?? 100_000);
const TOOLS = 'claude,codex,cursor,opencode';
const fmt = (n) => n.toLocaleString('en');
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;

const work = mkdtempSync(join(tmpdir(), 'lg-bench-check-'));
const home = join(work, 'home');
mkdirSync(home);
const env = { PATH: process.env.PATH, HOME: home, CI: 'true' };

function run(args, cwd, e = env) {
  const r = spawnSync(process.execPath, args, { cwd, env: e, input: '', encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} in ${cwd}: exit ${r.status}\n${r.stdout}${r.stderr}`);
  return r;
}
function time(args, cwd) {
  const t0 = process.hrtime.bigint();
  run(args, cwd);
  return ms(t0);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// A JS project as it sits on disk after `npm install`: its own sources, and a node_modules holding nearly everything.
// With `total` below ~2,100 it is the tiny repo: the root files and one source file, no node_modules.
function generateRepo(dir, total) {
  let count = 0;
  let inNodeModules = 0;
  const made = new Set();
  const file = (rel, text) => {
    const abs = join(dir, rel);
    const parent = dirname(abs);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    writeFileSync(abs, text);
    count++;
    if (rel.startsWith('node_modules/')) inNodeModules++;
  };
  mkdirSync(dir, { recursive: true });
  spawnSync('git', ['init', '-q'], { cwd: dir, stdio: 'ignore' });
  file('package.json', '{ "name": "big-app", "private": true, "type": "module" }\n');
  file('README.md', '# big-app\n');
  file('.gitignore', 'node_modules/\ndist/\n');
  file('tsconfig.json', '{ "compilerOptions": { "strict": true } }\n');
  if (total < 2100) {
    file('src/index.ts', 'export {};\n');
    return { count, inNodeModules };
  }
  for (let i = 0; i < 1500; i++) file(`src/mod${i % 40}/file${i}.ts`, `export const v${i} = ${i};\n`);
  for (let i = 0; i < 400; i++)
    file(`test/unit${i % 10}/file${i}.test.ts`, `import { v${i} } from '../../src/mod${i % 40}/file${i}.ts';\n`);
  for (let i = 0; i < 100; i++) file(`docs/page${i}.md`, `# page ${i}\n`);
  // Packages of 12 files; every 4th carries its own node_modules with 2 more packages, as npm nests conflicting versions.
  const pkgFiles = (base, name) => {
    file(`${base}/package.json`, `{ "name": "${name}", "version": "1.0.0", "main": "index.js" }\n`);
    file(`${base}/README.md`, `# ${name}\n`);
    file(`${base}/LICENSE`, 'MIT\n');
    file(`${base}/index.js`, "module.exports = require('./lib/main.js');\n");
    for (let j = 0; j < 5; j++) file(`${base}/lib/part${j}.js`, `exports.p${j} = ${j};\n`);
    for (let j = 0; j < 3; j++) file(`${base}/dist/esm/part${j}.mjs`, `export const p${j} = ${j};\n`);
  };
  for (let p = 0; count < total; p++) {
    const name = p % 7 === 0 ? `@scope${p % 50}/pkg${p}` : `pkg${p}`;
    pkgFiles(`node_modules/${name}`, name);
    if (p % 4 === 0)
      for (let d = 0; d < 2 && count < total; d++) pkgFiles(`node_modules/${name}/node_modules/dep${d}`, `dep${d}`);
  }
  return { count, inNodeModules };
}

// Counts every public node:fs call (sync, callback and promise forms) in the process it is preloaded into that names a
// path inside LG_FS_PROBE_REPO; the CLI's own module loading (its dependencies in this checkout's node_modules) is not the repo.
const probeFile = join(work, 'fs-probe.mjs');
writeFileSync(
  probeFile,
  `import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
const write = fs.writeFileSync;
const repo = process.env.LG_FS_PROBE_REPO;
const seen = { calls: 0, inRepo: 0, dirListings: 0, nodeModules: [] };
const pathOf = (a) => (typeof a === 'string' ? a : a instanceof URL ? a.pathname : Buffer.isBuffer(a) ? a.toString() : null);
function wrap(obj, name) {
  const f = obj[name];
  if (typeof f !== 'function' || /^[A-Z]/.test(name)) return;
  const w = function (...args) {
    seen.calls++;
    const paths = args.slice(0, 2).map(pathOf).filter((p) => p !== null && (p === repo || p.startsWith(repo + '/')));
    if (paths.length) {
      seen.inRepo++;
      if (/^(?:readdir|opendir)(?:Sync)?$/.test(name)) seen.dirListings++;
      for (const p of paths) if (p.slice(repo.length).includes('node_modules')) seen.nodeModules.push(name + ' ' + p);
    }
    return f.apply(this, args);
  };
  Object.assign(w, f);
  for (const s of Object.getOwnPropertySymbols(f)) w[s] = f[s];
  obj[name] = w;
}
for (const name of Object.keys(fs)) if (name !== 'promises') wrap(fs, name);
for (const name of Object.keys(fs.promises)) wrap(fs.promises, name);
syncBuiltinESMExports();
process.on('exit', () => write(process.env.LG_FS_PROBE_OUT, JSON.stringify(seen)));
`,
);

try {
  const big = join(work, 'big');
  const tiny = join(work, 'tiny');

  let t0 = process.hrtime.bigint();
  const { count: written, inNodeModules } = generateRepo(big, FILES);
  const genMs = ms(t0);
  const { count: tinyFiles } = generateRepo(tiny, 0);

  t0 = process.hrtime.bigint();
  run([cli, '--yes', '--tools', TOOLS], big);
  const setupBigMs = ms(t0);
  run([cli, '--yes', '--tools', TOOLS], tiny);

  // For scale: what one walk of the big tree costs, so the ratio below could show one if detection did it.
  t0 = process.hrtime.bigint();
  const walked = readdirSync(big, { recursive: true }).length;
  const walkMs = ms(t0);

  const probeOut = join(work, 'fs-probe.json');
  run(['--import', probeFile, cli, '--check'], big, { ...env, LG_FS_PROBE_OUT: probeOut, LG_FS_PROBE_REPO: big });
  const probe = JSON.parse(readFileSync(probeOut, 'utf8'));

  const contenders = {
    'node -e 0': () => time(['-e', '0'], tiny),
    'cli --version': () => time([cli, '--version'], tiny),
    'cli --check, tiny repo': () => time([cli, '--check'], tiny),
    [`cli --check, ${fmt(written)}-file repo`]: () => time([cli, '--check'], big),
  };
  const samples = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  // Interleaved, so machine load falls on every contender alike.
  for (let i = 0; i < RUNS; i++) for (const [k, runOnce] of Object.entries(contenders)) samples[k].push(runOnce());
  const med = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));

  const nodeMs = med['node -e 0'];
  const versionMs = med['cli --version'];
  const tinyMs = med['cli --check, tiny repo'];
  const bigMs = med[`cli --check, ${fmt(written)}-file repo`];
  console.log(
    `create-loop-guard --check: median of ${RUNS} interleaved runs each (node ${process.version}, ${process.platform}/${process.arch})\n`,
  );
  console.log(
    `generated repo: ${fmt(written)} files, ${fmt(inNodeModules)} of them in node_modules (${fmt(walked)} entries with dirs), in ${genMs.toFixed(0)} ms`,
  );
  console.log(`setup on it (--yes --tools ${TOOLS}): ${setupBigMs.toFixed(0)} ms, once`);
  console.log(`for scale, one readdirSync(recursive) walk of it: ${walkMs.toFixed(0)} ms`);
  console.log(`tiny repo: ${tinyFiles} files, set up the same way\n`);
  console.log(`${'contender'.padEnd(40)} ${'ms'.padStart(7)}  ÷ node -e 0`);
  for (const [k, v] of Object.entries(med))
    console.log(`${k.padEnd(40)} ${v.toFixed(1).padStart(7)}  ${(v / nodeMs).toFixed(3).padStart(10)}`);
  console.log('');
  const ratio = (label, value, note = '') =>
    console.log(`ratio ${label.padEnd(44)} ${value.toFixed(3)}${note ? `   (${note})` : ''}`);
  ratio(`--check (${fmt(written)} files) ÷ node -e 0:`, bigMs / nodeMs, 'goal ≤ 3');
  ratio('--check (tiny repo) ÷ node -e 0:', tinyMs / nodeMs);
  ratio(
    `--check (${fmt(written)} files) ÷ tiny repo:`,
    bigMs / tinyMs,
    '≈ 1: the cost does not depend on the file count',
  );
  ratio('--check (tiny repo) ÷ cli --version:', tinyMs / versionMs, "the check's own work on top of loading the CLI");
  console.log('');
  if (probe.inRepo === 0) {
    console.log(
      `fs probe: saw ${probe.calls} node:fs calls, none in the repo, so it proves nothing here (preload not effective)`,
    );
  } else {
    console.log(
      `fs probe (--check, ${fmt(written)}-file repo): ${probe.inRepo} node:fs calls on paths in the repo ` +
        `(of ${probe.calls} in all), ${probe.dirListings} directory listings, ${probe.nodeModules.length} touching its node_modules (must be 0)`,
    );
    for (const p of probe.nodeModules.slice(0, 10)) console.log(`  node_modules access: ${p}`);
  }
} finally {
  const t0 = process.hrtime.bigint();
  // rm -rf removes 100,000 files faster than rmSync; rmSync covers systems without it.
  if (process.platform === 'win32' || spawnSync('rm', ['-rf', work]).status !== 0)
    rmSync(work, { recursive: true, force: true });
  console.log(`(temp repos removed in ${ms(t0).toFixed(0)} ms)`);
}
