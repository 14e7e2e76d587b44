// Measurement: what a Windows developer's clone (core.autocrlf=true, Git for Windows' default) gets from an install,
// on real repository layouts of the field corpus (test/fixtures/field). Counts, not times:
//   hooks that answer   of the six hook tools, how many refuse `vim notes.txt` in the clone (their own hook command)
//   --check             its exit code in the clone (0 green, 1 red)
//   doctor              its exit code, and whether repo.guard is ✗
//   fix                 after `--yes` in the clone: hooks that answer, then doctor's exit code
// Usage: node bench/crlf-clones.mjs [CLI ...]   (default: this checkout's dist/cli.mjs; pass an older build's
// dist/cli.mjs first to print before, after, and the older build's install checked and fixed by the newer). LAYOUTS=ladesa,miometory,pydantic-ai picks the layouts.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const clis = (process.argv.slice(2).length ? process.argv.slice(2) : [join(root, 'dist', 'cli.mjs')]).map((c) =>
  resolve(c),
);
const layouts = (process.env.LAYOUTS ?? 'ladesa,miometory,pydantic-ai').split(',');
const work = mkdtempSync(join(tmpdir(), 'lg-crlf-'));
const home = join(work, 'home');
mkdirSync(home);
const env = { PATH: process.env.PATH, HOME: home, CI: 'true', GIT_CONFIG_NOSYSTEM: '1' };
const payloadDir = join(root, 'assets', 'payloads');
/** Each hook tool: its config file, the event that runs before a shell command, the captured payload for it. */
const HOOKS = [
  ['claude', '.claude/settings.json', 'PreToolUse', 'claude/PreToolUse-failure.json', 'CLAUDE_PROJECT_DIR'],
  ['codex', '.codex/hooks.json', 'PreToolUse', 'codex/PreToolUse-failure.json'],
  ['cursor', '.cursor/hooks.json', 'preToolUse', 'cursor/preToolUse.json'],
  ['gemini', '.gemini/settings.json', 'BeforeTool', 'gemini/BeforeTool-failure.json', 'GEMINI_PROJECT_DIR'],
  ['copilot', '.github/hooks/loop-guard.json', 'PreToolUse', 'copilot/PreToolUse-failure.json'],
  ['qwen', '.qwen/settings.json', 'PreToolUse', 'qwen/PreToolUse-failure.json', 'QWEN_PROJECT_DIR'],
];

function sh(cmd, args, cwd, input = '', extra = {}) {
  return spawnSync(cmd, args, { cwd, env: { ...env, ...extra }, input, encoding: 'utf8', timeout: 120_000 });
}
function git(args, cwd) {
  const r = sh('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args], cwd);
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

function materialise(name, dir) {
  const layout = JSON.parse(readFileSync(join(root, 'test/fixtures/field', name, 'layout.json'), 'utf8'));
  for (const f of layout.files) {
    const p = join(dir, f.path);
    mkdirSync(dirname(p), { recursive: true });
    const bytes = f.base64 !== undefined ? Buffer.from(f.base64, 'base64') : Buffer.from(f.text ?? '', 'utf8');
    if (f.mode === '120000') symlinkSync(bytes.toString('utf8'), p);
    else {
      writeFileSync(p, bytes);
      if (f.mode === '100755') chmodSync(p, 0o755);
    }
  }
  return layout;
}

/** The first hook command of ours under `event` in a tool's config. */
function hookCommand(config, event) {
  const find = (v) => {
    if (Array.isArray(v)) return v.map(find).find(Boolean);
    if (v && typeof v === 'object')
      return typeof v.command === 'string' && v.command.includes('loop-guard') ? v.command : find(v.hooks);
    return undefined;
  };
  return find(config?.hooks?.[event]);
}

/** How many hook tools refuse `vim notes.txt` when their own hook command runs in `dir`. */
function answering(dir) {
  let n = 0;
  for (const [, file, event, payload, rootVar] of HOOKS) {
    let command;
    try {
      command = hookCommand(JSON.parse(readFileSync(join(dir, file), 'utf8')), event);
    } catch {
      continue;
    }
    if (!command) continue;
    const p = JSON.parse(readFileSync(join(payloadDir, payload), 'utf8'));
    p.tool_input.command = 'vim notes.txt';
    p.cwd = dir;
    const r = sh('sh', ['-c', command], dir, JSON.stringify(p), {
      LOOP_GUARD_STATE_DIR: join(work, 'state'),
      ...(rootVar ? { [rootVar]: dir } : {}),
    });
    if (/vim/.test(r.stdout) && /not run|deny|block/i.test(r.stdout)) n++;
  }
  return n;
}

/** Installed and committed by `installer`; the clone checked, doctored and fixed by `cli`. */
function measure(installer, cli, name) {
  const base = mkdtempSync(join(work, `${name}-`));
  const repo = join(base, 'repo');
  mkdirSync(repo, { recursive: true });
  materialise(name, repo);
  git(['init', '-q', '-b', 'main'], repo);
  git(['add', '-A'], repo);
  git(['commit', '-qm', 'layout'], repo);
  const install = sh(process.execPath, [installer, '--yes', '--tools', 'all'], repo);
  if (install.status !== 0)
    throw new Error(`${name}: install exit ${install.status}\n${install.stdout}${install.stderr}`);
  git(['add', '-A'], repo);
  git(['commit', '-qm', 'loop-guard'], repo);
  const clone = join(base, 'clone');
  git(['clone', '-q', '--config', 'core.autocrlf=true', repo, clone], base);
  const guard = readFileSync(join(clone, '.agents/hooks/loop-guard.cjs'), 'latin1');
  const row = {
    layout: name,
    guard: guard.includes('\r\n') ? 'CRLF' : 'LF',
    hooks: answering(clone),
    check: sh(process.execPath, [cli, '--check'], clone).status,
  };
  const doctor = sh(process.execPath, [cli, 'doctor', '--json'], clone);
  row.doctor = doctor.status;
  try {
    const guardCheck = JSON.parse(doctor.stdout).tools[0].checks.find((c) => c.id === 'repo.guard');
    row.guardCheck = guardCheck?.ok ? 'ok' : 'fail';
  } catch {
    row.guardCheck = '?';
  }
  sh(process.execPath, [cli, '--yes'], clone);
  row.hooksAfterFix = answering(clone);
  row.doctorAfterFix = sh(process.execPath, [cli, 'doctor'], clone).status;
  return row;
}

try {
  // Each build on its own install; then, with two builds, the last one on the first one's install (an upgrade).
  const pairs = clis.map((c) => [c, c]);
  if (clis.length > 1) pairs.push([clis[0], clis.at(-1)]);
  for (const [installer, cli] of pairs) {
    console.log(`\ninstalled by ${installer}\nchecked by   ${cli}`);
    console.log('layout          guard  hooks answering  --check  doctor (repo.guard)  after --yes: hooks, doctor');
    for (const name of layouts) {
      const r = measure(installer, cli, name);
      console.log(
        `${r.layout.padEnd(16)}${r.guard.padEnd(7)}${`${r.hooks}/${HOOKS.length}`.padEnd(17)}` +
          `${String(r.check).padEnd(9)}${`${r.doctor} (${r.guardCheck})`.padEnd(21)}${r.hooksAfterFix}/${HOOKS.length}, ${r.doctorAfterFix}`,
      );
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
