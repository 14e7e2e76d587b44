// Never outside the repository: directory symlinks on the way out, $HOME, non-git directories, a --cwd that is not there.
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readTree } from '../helpers/cli.ts';
import { requireBuilt } from '../helpers/paths.ts';
import { CI_ENV, runCli, sandbox, tempDir } from '../helpers/sandbox.ts';

beforeAll(() => requireBuilt());

describe('directory symlinks that lead outside', () => {
  it.each([
    ['.claude', 'claude', '.claude/settings.json'],
    ['.agents', 'claude', '.agents'],
    ['.codex', 'codex', '.codex'],
  ])('%s -> /outside: exit 2 naming the link, nothing written inside or outside', (link, tool) => {
    const outside = tempDir('lg-outside-');
    writeFileSync(join(outside, 'settings.json'), '{ "theme": "dark" }\n');
    const b = sandbox({ fill: (root) => symlinkSync(outside, join(root, link)), agentHome: false, env: CI_ENV });
    const inside = readTree(b.root);
    const out = readTree(outside);
    for (const args of [
      ['--yes', '--tools', tool],
      ['--dry-run', '--tools', tool],
      ['--check', '--tools', tool],
    ]) {
      const r = runCli(args, b.env, b.root);
      expect(r.status, `${args.join(' ')}: ${r.stdout}`).toBe(2);
      expect(r.stderr).toContain(`${link} is a symlink to`);
      expect(r.stderr).toContain('outside the repository');
    }
    expect(readTree(outside)).toEqual(out);
    expect(readTree(b.root)).toEqual(inside);
  });

  it('a directory symlink that stays inside the repository is followed', () => {
    const b = sandbox({
      fill: (root) => {
        mkdirSync(join(root, 'config/claude'), { recursive: true });
        writeFileSync(join(root, 'config/claude/settings.json'), '{}\n');
        symlinkSync('config/claude', join(root, '.claude'));
      },
      agentHome: false,
      env: CI_ENV,
    });
    const r = runCli(['--yes', '--tools', 'claude'], b.env, b.root);
    expect(r.status, r.stderr).toBe(0);
    expect(readTree(b.root).get('config/claude/settings.json')).toContain('loop-guard');
  });
});

describe('where a run may work', () => {
  function homeWithConfigs(git: boolean) {
    const base = tempDir();
    const home = join(base, 'home');
    mkdirSync(join(home, '.claude'), { recursive: true });
    mkdirSync(join(home, '.codex'), { recursive: true });
    writeFileSync(join(home, '.claude/settings.json'), '{ "model": "opus" }\n');
    writeFileSync(join(home, '.codex/config.toml'), 'model = "gpt-5"\n');
    if (git) mkdirSync(join(home, '.git'));
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CI: 'true', NO_COLOR: '1' };
    return { home, env };
  }

  it('$HOME with the user-level tool configs, not under git: exit 2, nothing written', () => {
    const { home, env } = homeWithConfigs(false);
    const before = readTree(home);
    const r = runCli(['--yes'], env, home);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/no git repository/);
    const forced = runCli(['--yes', '--cwd', home, '--no-git', '--tools', 'claude,codex'], env, home);
    expect(forced.status).toBe(2);
    expect(forced.stderr).toContain('your home directory');
    expect(forced.stderr).toContain('user-level install');
    expect(forced.stderr).toContain('not supported');
    expect(readTree(home)).toEqual(before);
  });

  it('$HOME that is a git repository (dotfiles): exit 2, explained, nothing written', () => {
    const { home, env } = homeWithConfigs(true);
    const before = readTree(home);
    const r = runCli(['--yes', '--tools', 'claude,codex'], env, home);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('user-level install');
    // A project folder under a dotfiles HOME has the same root: also refused.
    mkdirSync(join(home, 'proj'));
    expect(runCli(['--yes', '--tools', 'claude'], env, join(home, 'proj')).status).toBe(2);
    expect(readTree(home)).toEqual(before);
  });

  it('a directory whose .claude/settings.json is the user-level one (a link to ~/.claude) is refused', () => {
    const { home, env } = homeWithConfigs(false);
    const b = sandbox({
      fill: (root) => symlinkSync(join(home, '.claude'), join(root, '.claude')),
      agentHome: false,
      env: CI_ENV,
    });
    const r = runCli(['--yes', '--tools', 'claude'], { ...env, HOME: home }, b.root);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('user-level');
  });

  it('no git: refused unless --cwd names an existing directory and --no-git says so', () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.claude'));
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tempDir(), CI: 'true', NO_COLOR: '1' };
    const plain = runCli(['--yes'], env, dir);
    expect(plain.status).toBe(2);
    expect(plain.stderr).toContain('--no-git');
    expect(runCli(['--yes', '--cwd', dir], env, dir).status).toBe(2);
    expect(runCli(['--yes', '--no-git'], env, dir).status).toBe(2);
    expect(readdirSync(dir)).toEqual(['.claude']);
    const ok = runCli(['--yes', '--cwd', dir, '--no-git'], env, dir);
    expect(ok.status, ok.stderr).toBe(0);
    expect(existsSync(join(dir, '.agents/loop-guard.json'))).toBe(true);
  });

  it('--cwd of a missing directory: exit 2 and nothing created', () => {
    const base = tempDir();
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tempDir(), CI: 'true', NO_COLOR: '1' };
    const r = runCli(['--cwd', join(base, 'typo/dir'), '--tools', 'claude', '--yes', '--no-git'], env, base);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('does not exist');
    expect(readdirSync(base)).toEqual([]);
  });
});
