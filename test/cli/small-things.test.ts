// The first five minutes' small things, each seen by a new user, each with its test (built CLI unless noted).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureRepo, homeFor, readTree, requireCli, runCli } from '../helpers/cli.ts';
import { nodeBin } from '../helpers/paths.ts';

beforeAll(requireCli);
const root = fileURLToPath(new URL('../../', import.meta.url));

describe('small things', () => {
  it('--remove in a repository never set up says so in one line, with no list of "up to date" files', () => {
    const dir = fixtureRepo('all');
    const r = runCli(['--remove', '--yes'], { cwd: dir });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('Nothing of create-loop-guard is here; nothing to remove.\n');
  });

  it('--remove --shell-profile deletes a ~/.bashrc it created itself instead of leaving 0 bytes; a file of yours keeps its bytes', () => {
    const dir = fixtureRepo('cursor');
    const home = homeFor(dir);
    const env = { HOME: home, SHELL: '/bin/bash' };
    expect(runCli(['--yes', '--shell-profile'], { cwd: dir, env }).status).toBe(0);
    expect(readFileSync(join(home, '.bashrc'), 'utf8')).toContain('loop-guard:begin');
    const r = runCli(['--remove', '--yes', '--shell-profile'], { cwd: dir, env });
    expect(r.status).toBe(0);
    expect(existsSync(join(home, '.bashrc'))).toBe(false);

    const mine = fixtureRepo('cursor');
    const home2 = homeFor(mine);
    writeFileSync(join(home2, '.bashrc'), '# mine\n');
    const env2 = { HOME: home2, SHELL: '/bin/bash' };
    expect(runCli(['--yes', '--shell-profile'], { cwd: mine, env: env2 }).status).toBe(0);
    expect(runCli(['--remove', '--yes', '--shell-profile'], { cwd: mine, env: env2 }).status).toBe(0);
    expect(readFileSync(join(home2, '.bashrc'), 'utf8')).toBe('# mine\n');
  });

  it('a conflict during --remove names --remove --force, not "--force to replace them"', () => {
    const dir = fixtureRepo('claude');
    expect(runCli(['--yes'], { cwd: dir }).status).toBe(0);
    const agents = join(dir, 'AGENTS.md');
    writeFileSync(agents, readFileSync(agents, 'utf8').replace('stop and work out why', 'keep trying'));
    const before = readTree(dir);
    const r = runCli(['--remove', '--yes'], { cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('or rerun with --remove --force to take them out anyway.');
    expect(r.stdout).not.toContain('to replace them');
    expect(readTree(dir)).toEqual(before);
  });

  it('--check --tools codex: the fix it suggests repeats --tools codex (and --cwd), in the verdict and the annotation', () => {
    const dir = fixtureRepo('all');
    expect(runCli(['--yes'], { cwd: dir }).status).toBe(0);
    const hooks = join(dir, '.codex/hooks.json');
    writeFileSync(hooks, readFileSync(hooks, 'utf8').replace('"Bash"', '"Shell"'));
    const r = runCli(['--check', '--tools', 'codex'], { cwd: dir, env: { GITHUB_ACTIONS: 'true' } });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('Run npx create-loop-guard --tools codex --yes and commit the result.');
    expect(r.stdout).toMatch(/^::error file=\.codex\/hooks\.json,.*Run npx create-loop-guard --tools codex --yes/m);
    expect(r.stdout).not.toMatch(/create-loop-guard --yes/);
    const other = runCli(['--check', '--cwd', dir, '--tools', 'codex'], { cwd: join(dir, '..') });
    expect(other.stdout).toContain(`Run npx create-loop-guard --tools codex --cwd ${dir} --yes and commit`);
  });

  it('--check names the file the user edited, not the record that follows it (a value of ours changed)', () => {
    const dir = fixtureRepo('codex');
    expect(runCli(['--yes'], { cwd: dir }).status).toBe(0);
    const settings = join(dir, '.codex/config.toml');
    writeFileSync(settings, readFileSync(settings, 'utf8').replace('GIT_PAGER = "cat"', 'GIT_PAGER = "delta"'));
    const r = runCli(['--check'], { cwd: dir, env: { GITHUB_ACTIONS: 'true' } });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^ {2}drift {6}\.codex\/config\.toml {2}\(our part was edited since it was written/m);
    expect(r.stdout).not.toMatch(/^ {2}drift {6}\.agents\/loop-guard\.json/m);
    expect(r.stdout).toMatch(/^::error file=\.codex\/config\.toml,/m);
    // The record itself edited by hand is still the record's drift.
    const again = fixtureRepo('codex');
    expect(runCli(['--yes'], { cwd: again }).status).toBe(0);
    const record = join(again, '.agents/loop-guard.json');
    const m = JSON.parse(readFileSync(record, 'utf8'));
    m.files['.codex/config.toml'].env = ['PAGER'];
    writeFileSync(record, `${JSON.stringify(m, null, 2)}\n`);
    expect(runCli(['--check'], { cwd: again }).stdout).toMatch(
      /^ {2}drift {6}\.agents\/loop-guard\.json {2}\(edited by hand\)/m,
    );
  });

  it('inside a git submodule: one line says so and names the outer repository; a plain repository says nothing', () => {
    const git = (cwd: string, ...args: string[]) => {
      const r = spawnSync(
        'git',
        ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'protocol.file.allow=always', ...args],
        {
          cwd,
          encoding: 'utf8',
        },
      );
      if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
    };
    const inner = fixtureRepo(null);
    git(inner, 'commit', '-q', '--allow-empty', '-m', 'inner');
    const outer = fixtureRepo(null);
    git(outer, 'submodule', 'add', '-q', inner, 'sub');
    mkdirSync(join(outer, 'sub', '.claude', 'x'), { recursive: true });
    const r = runCli(['--dry-run'], { cwd: join(outer, 'sub', '.claude', 'x') });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(
      'This is a submodule of ../../..; installing into the submodule (run in ../../.. to set up the outer repository instead).\n',
    );
    expect(runCli(['--dry-run'], { cwd: inner }).stdout).not.toContain('submodule');
  });

  it('--yse: "Did you mean --yes?" (two letters swapped count as one slip)', () => {
    const r = runCli(['--yse'], { cwd: fixtureRepo(null) });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('create-loop-guard: unknown option --yse. Did you mean --yes? Run with --help for usage.\n');
    expect(runCli(['--chekc'], { cwd: fixtureRepo(null) }).stderr).toContain('Did you mean --check?');
  });

  it('next steps never say "which we could not test here"', () => {
    const r = runCli(['--yes', '--tools', 'all'], { cwd: fixtureRepo(null) });
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain('could not test');
  });

  it('`npm run demo | cat`: no escape codes when stdout is not a terminal', () => {
    const { FORCE_COLOR: _f, NO_COLOR: _n, ...env } = process.env;
    const r = spawnSync(nodeBin, [join(root, 'scripts/demo.mjs')], {
      cwd: root,
      encoding: 'utf8',
      env,
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('━━ npx create-loop-guard --yes');
    expect(r.stdout).not.toContain('\u001b[');
  }, 150_000);

  it('audit with no sessions prints no empty "Projects" heading', () => {
    const dir = fixtureRepo(null);
    const home = homeFor(dir);
    mkdirSync(join(home, '.claude', 'projects'), { recursive: true });
    const r = runCli(['audit', '--all'], { cwd: dir, env: { HOME: home } });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('No loops found.');
    expect(r.stdout).not.toMatch(/^Projects$/m);
  });
});
