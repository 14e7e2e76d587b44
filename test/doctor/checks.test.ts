// The whole checklist on repos installed by the built CLI: every check passes on a fresh install, and two broken
// copies (one broken in its config, one at run time) fail exactly the checks they should, naming the cause.
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../src/assets.ts';
import { configuredTools, type DoctorResult, runChecks } from '../../src/doctor/checks.ts';
import type { Check } from '../../src/doctor/types.ts';
import { withOwnedHeader } from '../../src/edit/owned-file.ts';
import { cloneSandbox, install, requireBuilt, type Sandbox, sandbox } from '../helpers/sandbox.ts';

const IDS = [
  'repo.manifest',
  'repo.guard',
  'repo.agents-md',
  'repo.switch',
  'repo.ignored',
  'claude.hooks',
  'claude.node',
  'claude.replay',
  'claude.env',
  'claude.git',
  'claude.import',
  'codex.hooks',
  'codex.node',
  'codex.replay',
  'codex.env',
  'codex.git',
  'codex.trust',
  'codex.hook-approval',
  'codex.instructions',
  'cursor.hooks',
  'cursor.node',
  'cursor.replay',
  'cursor.env',
  'cursor.git',
  'cursor.twice',
  'cursor.events',
  'opencode.plugin',
  'opencode.load',
  'opencode.git',
];

let installed: Sandbox;
beforeAll(() => {
  requireBuilt();
  installed = sandbox();
  install(installed);
}, 60_000);

const doctorOn = (sb: Sandbox, extraEnv: Record<string, string> = {}) =>
  runChecks({ root: sb.root, env: { ...sb.env, ...extraEnv }, home: sb.home, version: VERSION });
const all = (r: DoctorResult): Check[] => r.groups.flatMap((g) => g.checks);
const byId = (r: DoctorResult, id: string): Check => {
  const c = all(r).find((x) => x.id === id);
  if (!c)
    throw new Error(
      `no check ${id}; have ${all(r)
        .map((x) => x.id)
        .join(', ')}`,
    );
  return c;
};
const editJson = (file: string, fn: (j: Record<string, any>) => void) => {
  const j = JSON.parse(readFileSync(file, 'utf8'));
  fn(j);
  writeFileSync(file, `${JSON.stringify(j, null, 2)}\n`);
};

describe('a fresh install', () => {
  it('passes every check, grouped by tool', async () => {
    const r = await doctorOn(cloneSandbox(installed));
    expect(r.setUp).toBe(true);
    expect(r.groups.map((g) => g.name)).toEqual(['repo', 'claude', 'codex', 'cursor', 'opencode']);
    expect(all(r).map((c) => c.id)).toEqual(IDS);
    expect(all(r).filter((c) => !c.ok)).toEqual([]);
  }, 60_000);
});

describe('broken in its configuration', () => {
  let r: DoctorResult;
  beforeAll(async () => {
    const sb = cloneSandbox(installed);
    const at = (p: string) => join(sb.root, p);
    rmSync(at('.agents/loop-guard.json'));
    writeFileSync(
      at('AGENTS.md'),
      readFileSync(at('AGENTS.md'), 'utf8').replace(
        '- Never run a command a third time',
        '- Feel free to run a command a third time',
      ),
    );
    writeFileSync(at('.claude/settings.local.json'), '{ "disableAllHooks": true }\n');
    editJson(at('.claude/settings.json'), (j) => (j.env.GIT_PAGER = 'less'));
    writeFileSync(at('CLAUDE.md'), '# Mine\n');
    writeFileSync(
      at('.codex/config.toml'),
      readFileSync(at('.codex/config.toml'), 'utf8').replace('GIT_EDITOR = "true"', 'GIT_EDITOR = "vim"') +
        '\n[features]\nhooks = false\n',
    );
    writeFileSync(join(sb.codexHome, 'config.toml'), '[projects."/somewhere/else"]\ntrust_level = "trusted"\n');
    writeFileSync(at('AGENTS.override.md'), 'Be brief.\n');
    editJson(at('.cursor/hooks.json'), (j) => delete j.version);
    rmSync(join(sb.home, '.bashrc'));
    appendFileSync(join(sb.home, '.gitconfig'), '[core]\n\tpager = less\n');
    appendFileSync(at('.opencode/plugins/loop-guard.js'), '// my tweak\n');
    r = await doctorOn(sb, { LOOP_GUARD: 'off' });
  }, 60_000);

  it.each([
    ['repo.manifest', '.agents/loop-guard.json is missing'],
    ['repo.agents-md', 'edited by hand'],
    ['repo.switch', 'LOOP_GUARD=off in this environment'],
    ['claude.hooks', '.claude/settings.local.json sets "disableAllHooks": true'],
    ['claude.env', 'GIT_PAGER="less", which waits for a person'],
    ['claude.git', 'git would page through `less` (GIT_PAGER from .claude/settings.json "env")'],
    ['claude.import', 'CLAUDE.md does not import AGENTS.md'],
    ['codex.hooks', '.codex/config.toml sets [features] hooks = false'],
    ['codex.env', 'GIT_EDITOR="vim"'],
    ['codex.git', 'git would open the editor `vim`'],
    ['codex.trust', 'trust_level = "trusted"'],
    ['codex.instructions', 'AGENTS.override.md'],
    ['cursor.hooks', 'no "version": 1'],
    ['cursor.env', '~/.bashrc does not set it'],
    ['cursor.git', 'core.pager from your git config'],
    ['opencode.plugin', 'differs from the plugin'],
  ])('%s fails: %s', (id, text) => {
    const c = byId(r, id);
    expect(c.ok).toBe(false);
    expect(c.message).toContain(text);
    expect(c.fix).toBeTruthy();
  });

  it('the rest still passes: the guard itself works', () => {
    for (const id of [
      'repo.guard',
      'claude.node',
      'claude.replay',
      'codex.node',
      'codex.replay',
      'codex.hook-approval',
      'cursor.node',
      'cursor.replay',
      'opencode.load',
      'opencode.git',
    ]) {
      expect(byId(r, id), id).toMatchObject({ ok: true });
    }
  });
});

describe('broken at run time', () => {
  let r: DoctorResult;
  beforeAll(async () => {
    const sb = cloneSandbox(installed);
    const at = (p: string) => join(sb.root, p);
    writeFileSync(at('.agents/hooks/loop-guard.cjs'), withOwnedHeader('process.exitCode = 0;\n', '//', VERSION));
    writeFileSync(
      at('.claude/settings.json'),
      readFileSync(at('.claude/settings.json'), 'utf8').replaceAll('loop-guard.cjs`', 'loop-guard-moved.mjs`'),
    );
    writeFileSync(
      at('.cursor/hooks.json'),
      readFileSync(at('.cursor/hooks.json'), 'utf8').replaceAll('"node -e', '"env PATH=/nonexistent node -e'),
    );
    const noop = `export const LoopGuard = async () => ({ 'tool.execute.before': async () => {}, 'tool.execute.after': async () => {}, 'chat.message': async () => {}, 'shell.env': async () => {} });\n`;
    writeFileSync(at('.opencode/plugins/loop-guard.js'), withOwnedHeader(noop, '//', VERSION));
    appendFileSync(join(sb.home, '.gitconfig'), '[core]\n\tpager = less\n');
    r = await doctorOn(sb);
  }, 60_000);

  it.each([
    ['repo.guard', 'differs from the guard'],
    // A hook that runs another file (here one that is not there) is not our hook: path-equal, not a substring.
    ['claude.hooks', 'loop-guard-moved.mjs`'],
    ['claude.hooks', "claude`, which is not this repository's guard file"],
    ['claude.replay', 'no PreToolUse hook'],
    ['codex.replay', 'no warning on the 3rd identical result; the 5th attempt was not denied'],
    ['cursor.node', '`node` is not on the PATH the hook runs with'],
    ['cursor.replay', 'exited 127'],
    ['opencode.plugin', 'differs from the plugin'],
    ['opencode.load', 'no warning on the 3rd identical result'],
    ['opencode.git', 'git would page through `less`'],
  ])('%s fails: %s', (id, text) => {
    const c = byId(r, id);
    expect(c.ok).toBe(false);
    expect(c.message).toContain(text);
  });

  it('the wiring checks still pass', () => {
    for (const id of ['codex.hooks', 'cursor.hooks', 'codex.node', 'repo.agents-md'])
      expect(byId(r, id), id).toMatchObject({ ok: true });
  });
});

describe('what counts as set up', () => {
  it('an empty repo is not set up', async () => {
    const r = await doctorOn(sandbox());
    expect(r).toEqual({ setUp: false, groups: [] });
  });

  it('tools are found from the manifest and from our traces in place', () => {
    const files: Record<string, string> = {
      '.codex/hooks.json':
        '{"hooks":{"PreToolUse":[{"hooks":[{"command":"node .agents/hooks/loop-guard.cjs codex"}]}]}}',
      '.opencode/plugins/loop-guard.js': '',
    };
    const read = (p: string) => files[p] ?? null;
    expect(configuredTools(read, ['claude'])).toEqual(['claude', 'codex', 'opencode']);
    expect(configuredTools(() => null, [])).toEqual([]);
  });

  it('a single tool gets only its own group', async () => {
    const sb = sandbox();
    install(sb, 'codex');
    const r = await doctorOn(sb);
    expect(r.groups.map((g) => g.name)).toEqual(['repo', 'codex']);
    expect(all(r).filter((c) => !c.ok)).toEqual([]);
  }, 60_000);
});
