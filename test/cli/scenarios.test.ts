// Fixture repos × {apply, rerun, --check clean, tamper, --dry-run, --remove} through the BUILT CLI, into snapshots/.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TOOLS, type ToolName } from '../../src/tools/index.ts';
import { dumpTree, fixtureRepo, modeOf, readTree, requireCli, runCli, scrub } from '../helpers/cli.ts';
import { repoRoot } from '../helpers/guard.ts';

beforeAll(requireCli);

const snap = (fixture: string, name: string) => join(repoRoot, 'snapshots', fixture, `${name}.txt`);

const FIXTURES: Array<{ name: string; tools?: string; expectTools: string[] }> = [
  { name: 'claude', expectTools: ['claude'] },
  { name: 'codex', expectTools: ['codex'] },
  { name: 'cursor', expectTools: ['cursor'] },
  { name: 'opencode', expectTools: ['opencode'] },
  { name: 'cline', expectTools: ['cline'] },
  { name: 'all', expectTools: ['claude', 'codex', 'cursor', 'opencode'] },
  { name: 'empty', tools: 'claude,codex,cursor,opencode', expectTools: ['claude', 'codex', 'cursor', 'opencode'] },
];

describe.each(FIXTURES)('fixture $name', ({ name, tools, expectTools }) => {
  const toolArgs = tools ? ['--tools', tools] : [];

  it('apply → files as snapshotted; rerun is byte-identical; --check clean', async () => {
    const dir = fixtureRepo(name);
    const before = readTree(dir);
    const apply = runCli(['--yes', ...toolArgs], { cwd: dir });
    expect(apply.stderr).toBe('');
    expect(apply.status).toBe(0);
    for (const t of expectTools) expect(apply.stdout).toMatch(new RegExp(`^  ${TOOLS[t as ToolName].label} `, 'm'));
    const after = readTree(dir);
    await expect(dumpTree(after)).toMatchFileSnapshot(snap(name, 'apply-tree'));
    await expect(scrub(apply.stdout, dir)).toMatchFileSnapshot(snap(name, 'apply-output'));
    // The user's files keep every byte they had; ours are only added.
    for (const [path, content] of before) expect(after.get(path)?.length ?? 0).toBeGreaterThanOrEqual(content.length);
    if (after.has('.agents/hooks/loop-guard.cjs'))
      // 0644: every hook runs `node <file>`; an exec bit without a shebang fails pre-commit's shebang check.
      expect(modeOf(dir, '.agents/hooks/loop-guard.cjs') & 0o111).toBe(0);
    const manifest = JSON.parse(after.get('.agents/loop-guard.json') as string);
    expect(manifest.tools).toEqual([...expectTools].sort());

    const rerun = runCli(['--yes'], { cwd: dir });
    expect(rerun.status).toBe(0);
    expect(rerun.stdout).toContain('Everything is up to date.');
    expect(readTree(dir)).toEqual(after);

    const check = runCli(['--check'], { cwd: dir, env: { GITHUB_ACTIONS: 'true' } });
    expect(check.status).toBe(0);
    expect(check.stdout).not.toContain('::error');
  });

  it('tamper → --check exits 1 with an annotation, writes nothing', () => {
    const dir = fixtureRepo(name);
    expect(runCli(['--yes', ...toolArgs], { cwd: dir }).status).toBe(0);
    const agents = join(dir, 'AGENTS.md');
    writeFileSync(agents, readFileSync(agents, 'utf8').replace('stop and work out why', 'keep trying'));
    const tampered = readTree(dir);
    const check = runCli(['--check'], { cwd: dir, env: { GITHUB_ACTIONS: 'true' } });
    expect(check.status).toBe(1);
    expect(check.stdout).toMatch(/^::error file=AGENTS\.md,title=loop-guard drift::/m);
    expect(readTree(dir)).toEqual(tampered);
  });

  it('--dry-run writes nothing', () => {
    const dir = fixtureRepo(name);
    const before = readTree(dir);
    const r = runCli(['--dry-run', ...toolArgs], { cwd: dir });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Dry run: nothing written');
    expect(r.stdout).toMatch(/^ {2}(create|update) {5}AGENTS\.md /m);
    expect(readTree(dir)).toEqual(before);
  });

  it('--remove restores the original files byte for byte', () => {
    const dir = fixtureRepo(name);
    const before = readTree(dir);
    expect(runCli(['--yes', ...toolArgs], { cwd: dir }).status).toBe(0);
    const r = runCli(['--remove', '--yes'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(readTree(dir)).toEqual(before);
  });
});

describe('never hangs, never half-writes', () => {
  it('no TTY and no --yes: prints the plan, writes nothing, names --yes, exit 1', () => {
    const dir = fixtureRepo('claude');
    const before = readTree(dir);
    const r = runCli([], { cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('Pass --yes');
    expect(r.stdout).toMatch(/^ {2}update {5}\.claude\/settings\.json /m);
    expect(r.stdout).toMatch(/^ {2}\.claude\/settings\.json {2}\d+ lines added/m);
    expect(readTree(dir)).toEqual(before);
  });

  it('a malformed user config → exit 2, file byte-identical, message names the file and the fix', () => {
    const dir = fixtureRepo('malformed');
    const before = readTree(dir);
    const r = runCli(['--yes'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('.claude/settings.json');
    expect(r.stderr).toMatch(/fix: /);
    expect(r.stderr).toContain('Nothing was written');
    expect(readTree(dir)).toEqual(before);
  });

  it('nothing detected without a terminal: exit 2 naming --tools', () => {
    const dir = fixtureRepo('empty');
    const r = runCli(['--yes'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--tools claude,codex,cursor,opencode');
  });

  it('a user value for one of our env keys is kept and reported; --force replaces it', () => {
    const dir = fixtureRepo('claude');
    const r = runCli(['--yes'], { cwd: dir });
    expect(r.stdout).toMatch(/Will keep your env.GIT_PAGER="delta"/);
    expect(r.stdout).toContain('Agents may hang on GIT_PAGER="delta"');
    expect(readFileSync(join(dir, '.claude/settings.json'), 'utf8')).toContain('"GIT_PAGER": "delta"');
    const forced = runCli(['--yes', '--force'], { cwd: dir });
    expect(forced.status).toBe(0);
    expect(readFileSync(join(dir, '.claude/settings.json'), 'utf8')).toContain('"GIT_PAGER": "cat"');
  });

  it('works from a subdirectory on the repository root, and says so', () => {
    const dir = fixtureRepo('codex');
    const sub = join(dir, 'src');
    mkdirSync(sub);
    const r = runCli(['--yes'], { cwd: sub });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Working in the repository root');
    expect(readTree(dir).has('.codex/hooks.json')).toBe(true);
  });

  it('a foreign file where the guard goes is a conflict: exit 1, nothing written', () => {
    const dir = fixtureRepo('claude');
    mkdirSync(join(dir, '.agents/hooks'), { recursive: true });
    writeFileSync(join(dir, '.agents/hooks/loop-guard.cjs'), 'console.log("mine")\n');
    const before = readTree(dir);
    const r = runCli(['--yes'], { cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('conflict');
    expect(readTree(dir)).toEqual(before);
  });

  it('a config that is a symlink leaving the repository is refused, and nothing is written', () => {
    const dir = fixtureRepo('claude');
    const outside = mkdtempSync(join(tmpdir(), 'lg-outside-'));
    const target = join(outside, 'settings.json');
    writeFileSync(target, readFileSync(join(dir, '.claude/settings.json')));
    rmSync(join(dir, '.claude/settings.json'));
    symlinkSync(target, join(dir, '.claude/settings.json'));
    const before = readTree(dir);
    const outsideBefore = readFileSync(target, 'utf8');
    const r = runCli(['--yes'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('.claude/settings.json');
    expect(r.stderr).toContain('outside the repository');
    expect(readFileSync(target, 'utf8')).toBe(outsideBefore);
    expect(readTree(dir)).toEqual(before);
  });

  it('--json prints the plan as data and never prompts', () => {
    const dir = fixtureRepo('codex');
    const r = runCli(['--json', '--dry-run'], { cwd: dir });
    expect(r.status).toBe(0);
    const data = JSON.parse(r.stdout);
    expect(data.result).toBe('dry-run');
    expect(data.tools.map((t: { name: string }) => t.name)).toEqual(['codex']);
    expect(data.changes.find((c: { path: string }) => c.path === '.codex/config.toml').action).toBe('update');
  });

  it('--help and --version; unknown flags are usage errors', () => {
    const dir = fixtureRepo(null);
    expect(runCli(['--help'], { cwd: dir }).stdout).toContain('Usage: npx create-loop-guard');
    expect(runCli(['--version'], { cwd: dir }).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(runCli(['--bogus'], { cwd: dir }).status).toBe(2);
    expect(runCli(['--tools', 'vim'], { cwd: dir }).status).toBe(2);
  });
});
