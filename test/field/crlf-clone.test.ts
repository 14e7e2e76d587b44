// A Windows developer's clone of an installed repository: Git for Windows clones with core.autocrlf=true. The clone's
// hooks must refuse `vim` and a loop, and --check and doctor must be green, whatever the repository's own
// .gitattributes says (none, `* text=auto`, `* text=auto eol=lf`). And a formatter's pass over the guard file gets
// one verdict from --check and doctor (issue 30): both green when the hook still runs the same code, both red with a
// fix that works otherwise.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireCli, runCliAsync } from '../helpers/cli.ts';
import { loadPayload, nodeBin } from '../helpers/guard.ts';
import { repoRoot } from '../helpers/paths.ts';

beforeAll(requireCli);

const GIT_ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.com',
};

function git(args: string[], cwd: string): void {
  const r = spawnSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

/** A repository with `attributes` as its own .gitattributes (or none), a Claude folder, committed. */
async function installedRepo(attributes: string | null): Promise<string> {
  const top = mkdtempSync(join(tmpdir(), 'lg-crlf-'));
  const repo = join(top, 'repo');
  mkdirSync(join(repo, '.claude'), { recursive: true });
  writeFileSync(join(repo, '.claude', 'keep'), 'x\n');
  writeFileSync(join(repo, 'README.md'), '# A project\n\nSome text.\n');
  if (attributes !== null) writeFileSync(join(repo, '.gitattributes'), attributes);
  git(['init', '-q', '-b', 'main'], repo);
  const r = await runCliAsync(['--yes', '--tools', 'claude,codex,cursor,gemini,copilot,qwen,opencode'], { cwd: repo });
  expect(r.status, r.stdout + r.stderr).toBe(0);
  git(['add', '-A'], repo);
  git(['commit', '-qm', 'loop-guard'], repo);
  return repo;
}

function clone(repo: string): string {
  const dir = join(repo, '..', 'clone');
  git(['clone', '-q', '--config', 'core.autocrlf=true', repo, dir], join(repo, '..'));
  return dir;
}

/** Runs the clone's own Claude hook command (from .claude/settings.json) under sh, as Claude Code does. */
function claudeHook(dir: string, payload: Record<string, unknown>, state: string): string {
  const settings = JSON.parse(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8'));
  const command = settings.hooks.PreToolUse[0].hooks[0].command as string;
  const r = spawnSync('sh', ['-c', command], {
    cwd: dir,
    input: JSON.stringify({ ...payload, cwd: dir }),
    env: { PATH: GIT_ENV.PATH, CLAUDE_PROJECT_DIR: dir, LOOP_GUARD_STATE_DIR: state, LOOP_GUARD_HANDOFF_DIR: state },
    encoding: 'utf8',
  });
  expect(r.status).toBe(0);
  return r.stdout;
}

function postHook(dir: string, payload: Record<string, unknown>, state: string): void {
  const r = spawnSync(nodeBin, [join(dir, '.agents/hooks/loop-guard.cjs'), 'claude'], {
    input: JSON.stringify({ ...payload, cwd: dir }),
    env: { PATH: GIT_ENV.PATH, LOOP_GUARD_STATE_DIR: state, LOOP_GUARD_HANDOFF_DIR: state },
    encoding: 'utf8',
  });
  expect(r.status).toBe(0);
}

/** The hook refuses `vim` and refuses a repeated identical failure by the 5th attempt. */
function expectGuarding(dir: string): void {
  const state = mkdtempSync(join(tmpdir(), 'lg-crlf-state-'));
  const pre = loadPayload('claude/PreToolUse-failure.json') as { tool_input: Record<string, unknown> };
  const vim = { ...pre, tool_input: { ...pre.tool_input, command: 'vim notes.txt' } };
  expect(claudeHook(dir, vim, state)).toContain('"deny"');
  const post = { ...(loadPayload('claude/PostToolUseFailure-failure.json') as object), tool_input: pre.tool_input };
  const answers: string[] = [];
  for (let i = 0; i < 5; i++) {
    answers.push(claudeHook(dir, { ...pre, tool_use_id: `toolu_${i}` }, state));
    postHook(dir, { ...post, tool_use_id: `toolu_${i}` }, state);
  }
  expect(answers[0]).not.toContain('"deny"');
  expect(answers.some((a) => a.includes('"deny"'))).toBe(true);
}

async function doctorGuard(dir: string): Promise<{ status: number | null; guardOk: boolean; message: string }> {
  const r = await runCliAsync(['doctor', '--json'], { cwd: dir });
  const checks = (JSON.parse(r.stdout).tools as Array<{ checks: Array<{ id: string; ok: boolean; message: string }> }>)
    .flatMap((t) => t.checks)
    .filter((c) => c.id === 'repo.guard');
  return { status: r.status, guardOk: checks[0]?.ok === true, message: checks[0]?.message ?? '' };
}

describe('a core.autocrlf=true clone of an installed repository', () => {
  for (const [what, attributes] of [
    ['no .gitattributes of its own', null],
    ['its own `* text=auto`', '* text=auto\n'],
    ['its own `* text=auto eol=lf`', '* text=auto eol=lf\n'],
  ] as const) {
    it(`${what}: the guard arrives LF, its hooks refuse vim and a loop, --check and doctor are green`, async () => {
      const dir = clone(await installedRepo(attributes));
      expect(readFileSync(join(dir, '.agents/hooks/loop-guard.cjs'), 'latin1')).not.toContain('\r');
      expectGuarding(dir);
      const check = await runCliAsync(['--check'], { cwd: dir });
      expect(check.status, check.stdout).toBe(0);
      const doctor = await doctorGuard(dir);
      expect(doctor.guardOk, doctor.message).toBe(true);
      expect(doctor.status).toBe(0);
    }, 120_000);
  }

  it('a checkout made before the attribute landed (the guard CRLF): the hook still guards, --check and doctor green', async () => {
    const dir = clone(await installedRepo('* text=auto\n'));
    const file = join(dir, '.agents/hooks/loop-guard.cjs');
    writeFileSync(file, readFileSync(file, 'latin1').replace(/\n/g, '\r\n'), 'latin1');
    expectGuarding(dir);
    expect((await runCliAsync(['--check'], { cwd: dir })).status).toBe(0);
    const doctor = await doctorGuard(dir);
    expect(doctor.guardOk, doctor.message).toBe(true);
    expect(doctor.status).toBe(0);
  }, 120_000);

  it('a guard the hook cannot run: --check red, doctor names why, --yes rewrites it and both turn green', async () => {
    const dir = clone(await installedRepo(null));
    const file = join(dir, '.agents/hooks/loop-guard.cjs');
    writeFileSync(file, readFileSync(file, 'latin1').replace('\n/*@loop-guard-body\n', '\n/* @loop-guard-body\n'));
    const check = await runCliAsync(['--check'], { cwd: dir });
    expect(check.status).toBe(1);
    expect(check.stdout).toContain('lets every command through');
    const doctor = await doctorGuard(dir);
    expect(doctor.guardOk).toBe(false);
    expect(doctor.message).toContain('lets every command through');
    expect(doctor.status).toBe(1);
    const fix = await runCliAsync(['--yes'], { cwd: dir });
    expect(fix.status, fix.stdout).toBe(0);
    expect(fix.stdout).not.toContain('Everything is up to date');
    expectGuarding(dir);
    expect((await runCliAsync(['--check'], { cwd: dir })).status).toBe(0);
    expect((await doctorGuard(dir)).guardOk).toBe(true);
  }, 120_000);
});

describe('a formatter over the guard file: one verdict from --check and doctor', () => {
  const bin = (name: string) => join(repoRoot, 'node_modules', '.bin', name);
  // Biome honours the file's `biome-ignore-all` lines and leaves it alone; prettier has no such comment and rewrites it.
  for (const [what, args, rewrites] of [
    ['biome check --write --unsafe', [bin('biome'), 'check', '--write', '--unsafe', '--no-errors-on-unmatched'], false],
    [
      'prettier, no semicolons, 4 spaces, CRLF',
      [bin('prettier'), '--write', '--no-semi', '--tab-width', '4', '--end-of-line', 'crlf'],
      true,
    ],
  ] as const) {
    it(`${what}: the hook still guards, so --check, --yes and doctor all say it is ours`, async () => {
      const dir = await installedRepo(null);
      const file = join(dir, '.agents/hooks/loop-guard.cjs');
      const before = readFileSync(file, 'latin1');
      const r = spawnSync(args[0], [...args.slice(1), '.agents/hooks/loop-guard.cjs'], { cwd: dir, encoding: 'utf8' });
      expect(r.status, r.stdout + r.stderr).toBe(0);
      expect(readFileSync(file, 'latin1') !== before, `${what} rewrote the guard file`).toBe(rewrites);
      expectGuarding(dir);
      expect((await runCliAsync(['--check'], { cwd: dir })).status).toBe(0);
      expect((await runCliAsync(['--yes'], { cwd: dir })).stdout).toContain('Everything is up to date');
      const doctor = await doctorGuard(dir);
      expect(doctor.guardOk, doctor.message).toBe(true);
    }, 120_000);
  }
});
