// Never outside the repository: directory symlinks on the way out, $HOME, non-git directories, a --cwd that is not there.
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readTree } from '../helpers/cli.ts';
import { requireBuilt } from '../helpers/paths.ts';
import { box, cli, scratch } from './helpers.ts';

beforeAll(() => requireBuilt());

describe('directory symlinks that lead outside', () => {
  it.each([
    ['.claude', 'claude', '.claude/settings.json'],
    ['.agents', 'claude', '.agents'],
    ['.codex', 'codex', '.codex'],
  ])('%s -> /outside: exit 2 naming the link, nothing written inside or outside', (link, tool) => {
    const outside = scratch('lg-outside-');
    writeFileSync(join(outside, 'settings.json'), '{ "theme": "dark" }\n');
    const b = box((root) => symlinkSync(outside, join(root, link)));
    const inside = readTree(b.root);
    const out = readTree(outside);
    for (const args of [
      ['--yes', '--tools', tool],
      ['--dry-run', '--tools', tool],
      ['--check', '--tools', tool],
    ]) {
      const r = cli(args, b.root, b.env);
      expect(r.status, `${args.join(' ')}: ${r.stdout}`).toBe(2);
      expect(r.stderr).toContain(`${link} is a symlink to`);
      expect(r.stderr).toContain('outside the repository');
    }
    expect(readTree(outside)).toEqual(out);
    expect(readTree(b.root)).toEqual(inside);
  });

  it('a directory symlink that stays inside the repository is followed', () => {
    const b = box((root) => {
      mkdirSync(join(root, 'config/claude'), { recursive: true });
      writeFileSync(join(root, 'config/claude/settings.json'), '{}\n');
      symlinkSync('config/claude', join(root, '.claude'));
    });
    const r = cli(['--yes', '--tools', 'claude'], b.root, b.env);
    expect(r.status, r.stderr).toBe(0);
    expect(readTree(b.root).get('config/claude/settings.json')).toContain('loop-guard');
  });
});

describe('where a run may work', () => {
  function homeWithConfigs(git: boolean) {
    const base = scratch();
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
    const r = cli(['--yes'], home, env);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/no git repository/);
    const forced = cli(['--yes', '--cwd', home, '--no-git', '--tools', 'claude,codex'], home, env);
    expect(forced.status).toBe(2);
    expect(forced.stderr).toContain('your home directory');
    expect(forced.stderr).toContain('user-level install');
    expect(forced.stderr).toContain('not supported');
    expect(readTree(home)).toEqual(before);
  });

  it('$HOME that is a git repository (dotfiles): exit 2, explained, nothing written', () => {
    const { home, env } = homeWithConfigs(true);
    const before = readTree(home);
    const r = cli(['--yes', '--tools', 'claude,codex'], home, env);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('user-level install');
    // A project folder under a dotfiles HOME has the same root: also refused.
    mkdirSync(join(home, 'proj'));
    expect(cli(['--yes', '--tools', 'claude'], join(home, 'proj'), env).status).toBe(2);
    expect(readTree(home)).toEqual(before);
  });

  it('a directory whose .claude/settings.json is the user-level one (a link to ~/.claude) is refused', () => {
    const { home, env } = homeWithConfigs(false);
    const b = box((root) => symlinkSync(join(home, '.claude'), join(root, '.claude')));
    const r = cli(['--yes', '--tools', 'claude'], b.root, { ...env, HOME: home });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('user-level');
  });

  it('no git: refused unless --cwd names an existing directory and --no-git says so', () => {
    const dir = scratch();
    mkdirSync(join(dir, '.claude'));
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scratch(), CI: 'true', NO_COLOR: '1' };
    const plain = cli(['--yes'], dir, env);
    expect(plain.status).toBe(2);
    expect(plain.stderr).toContain('--no-git');
    expect(cli(['--yes', '--cwd', dir], dir, env).status).toBe(2);
    expect(cli(['--yes', '--no-git'], dir, env).status).toBe(2);
    expect(readdirSync(dir)).toEqual(['.claude']);
    const ok = cli(['--yes', '--cwd', dir, '--no-git'], dir, env);
    expect(ok.status, ok.stderr).toBe(0);
    expect(existsSync(join(dir, '.agents/loop-guard.json'))).toBe(true);
  });

  it('--cwd of a missing directory: exit 2 and nothing created', () => {
    const base = scratch();
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scratch(), CI: 'true', NO_COLOR: '1' };
    const r = cli(['--cwd', join(base, 'typo/dir'), '--tools', 'claude', '--yes', '--no-git'], base, env);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('does not exist');
    expect(readdirSync(base)).toEqual([]);
  });
});
