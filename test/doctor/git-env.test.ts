// claude.git / codex.git / cursor.git / opencode.git: what git would really use in the agent's shell.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editorWaits, gitEnvCheck, gitRunner, pagerWaits, winner } from '../../src/doctor/git-env.ts';
import { tempDir } from '../helpers/sandbox.ts';

const OURS = { GIT_PAGER: 'cat', PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', GIT_EDITOR: 'true' };

/** A repo with its own global git config; `config` lines go into it. */
function repo(config = '') {
  const base = tempDir();
  const root = join(base, 'r');
  mkdirSync(root);
  const gitconfig = join(base, 'gitconfig');
  writeFileSync(gitconfig, config);
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: base,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: gitconfig,
    TERM: 'xterm',
  };
  spawnSync('git', ['init', '-q', root], { env });
  return { root, env };
}

describe('pure rules', () => {
  it('pagerWaits', () => {
    for (const v of [
      '',
      'cat',
      ' cat ',
      'true',
      'delta --paging=never',
      'bat --paging never',
      '5',
      'tr a b',
      'head -100',
    ])
      expect(pagerWaits(v)).toBe(false);
    for (const v of [
      'less',
      'less -R',
      'pager',
      'delta',
      'more',
      'diff-so-fancy | less --tabs=4 -RFX',
      '/usr/bin/less',
    ])
      expect(pagerWaits(v)).toBe(true);
  });
  it('editorWaits', () => {
    expect(editorWaits('true')).toBe(false);
    expect(editorWaits(':')).toBe(false);
    expect(editorWaits('vim')).toBe(true);
    expect(editorWaits('code --wait')).toBe(true);
  });
  it('winner follows git precedence', () => {
    const o = { env: {}, source: 'cfg' };
    expect(winner('GIT_PAGER', { ...o, forced: { GIT_PAGER: 'cat' }, forcedBy: 'Codex itself' }, {}, {})).toBe(
      'GIT_PAGER forced by Codex itself',
    );
    expect(winner('GIT_PAGER', { env: { GIT_PAGER: 'cat' }, source: 'cfg' }, { GIT_PAGER: 'less' }, {})).toBe(
      'GIT_PAGER from cfg',
    );
    expect(winner('GIT_PAGER', o, { GIT_PAGER: 'less' }, { pager: 'x' })).toBe('GIT_PAGER from your environment');
    expect(winner('GIT_PAGER', o, { PAGER: 'more' }, { pager: 'less' })).toContain('core.pager from your git config');
    expect(winner('GIT_EDITOR', o, { EDITOR: 'vi' }, {})).toBe('EDITOR, because GIT_EDITOR is not set');
    expect(winner('GIT_EDITOR', o, {}, {})).toContain("git's built-in default");
  });
});

describe('gitEnvCheck', () => {
  it('passes with our overlay, even over a core.pager and core.editor that would wait', async () => {
    const { root, env } = repo('[core]\n\tpager = less\n\teditor = vim\n');
    const c = await gitEnvCheck(
      'claude',
      "Claude Code's shell",
      env,
      { env: OURS, source: '.claude/settings.json "env"' },
      gitRunner(root),
    );
    expect(c).toMatchObject({ id: 'claude.git', ok: true });
    expect(c.message).toContain('pager `cat` and editor `true`');
  });

  it('fails naming core.pager and core.editor when they win', async () => {
    const { root, env } = repo('[core]\n\tpager = less\n\teditor = vim\n');
    const c = await gitEnvCheck(
      'cursor',
      "Cursor's agent shell",
      env,
      { env: {}, source: '~/.bashrc' },
      gitRunner(root),
    );
    expect(c.ok).toBe(false);
    expect(c.message).toContain(
      'git would page through `less` (core.pager from your git config, because GIT_PAGER is not set)',
    );
    expect(c.message).toContain('git would open the editor `vim` (core.editor from your git config');
    expect(c.fix).toContain('--shell-profile');
  });

  it('both waiting: one fix that names each variable once, in the way the tool takes them', async () => {
    const { root, env } = repo('[core]\n\tpager = less\n\teditor = vim\n');
    const cline = await gitEnvCheck('cline', "Cline's shell", env, { env: {}, source: 'nothing' }, gitRunner(root));
    expect(cline.ok).toBe(false);
    expect(cline.fix).toBe(
      "Cline has no project setting for its shell's environment: export GIT_PAGER=cat GIT_EDITOR=true before starting cline",
    );
    const claude = await gitEnvCheck(
      'claude',
      "Claude Code's shell",
      env,
      { env: {}, source: '.claude/settings.json "env"' },
      gitRunner(root),
    );
    expect(claude.fix).toBe(
      'set "GIT_PAGER": "cat" and "GIT_EDITOR": "true" under "env" in .claude/settings.json (npx create-loop-guard --yes --force replaces your own value)',
    );
  });

  it("fails on the tool's own waiting value", async () => {
    const { root, env } = repo();
    const c = await gitEnvCheck(
      'claude',
      "Claude Code's shell",
      env,
      { env: { ...OURS, GIT_PAGER: 'less' }, source: '.claude/settings.json "env"' },
      gitRunner(root),
    );
    expect(c.ok).toBe(false);
    expect(c.message).toContain('`less` (GIT_PAGER from .claude/settings.json "env")');
    expect(c.fix).toContain('.claude/settings.json');
  });

  it("Codex's forced pager wins, but the editor still comes from the config", async () => {
    const { root, env } = repo('[core]\n\tpager = less\n');
    const ok = await gitEnvCheck(
      'codex',
      "Codex's shell",
      env,
      {
        env: { GIT_EDITOR: 'true' },
        source: 'set',
        forced: { GIT_PAGER: 'cat', PAGER: 'cat' },
        forcedBy: 'Codex itself',
      },
      gitRunner(root),
    );
    expect(ok.ok).toBe(true);
    const bad = await gitEnvCheck(
      'codex',
      "Codex's shell",
      { ...env, EDITOR: 'nano' },
      { env: {}, source: 'set', forced: { GIT_PAGER: 'cat' }, forcedBy: 'Codex itself' },
      gitRunner(root),
    );
    expect(bad.ok).toBe(false);
    expect(bad.message).toContain('`nano` (EDITOR, because GIT_EDITOR is not set)');
    expect(bad.fix).toContain('[shell_environment_policy] set');
  });

  it('a dumb terminal with no editor makes git refuse, which is fine', async () => {
    const { root, env } = repo();
    const c = await gitEnvCheck(
      'opencode',
      "OpenCode's shell",
      { ...env, TERM: 'dumb' },
      { env: { GIT_PAGER: 'cat' }, source: 'plugin' },
      gitRunner(root),
    );
    expect(c.ok).toBe(true);
    expect(c.message).toContain('no editor (git refuses to open one)');
  });

  it('no git at all: nothing can wait', async () => {
    const { root } = repo();
    const c = await gitEnvCheck('claude', 'x', { PATH: '/nonexistent' }, { env: {}, source: 's' }, gitRunner(root));
    expect(c.ok).toBe(true);
    expect(c.message).toContain('git is not installed');
  });
});
