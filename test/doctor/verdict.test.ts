// doctor's verdict: "broken" apart from "one step left on this machine", and one cause shown as one line.
import { describe, expect, it } from 'vitest';
import { doctor } from '../../src/doctor/index.ts';
import type { Group } from '../../src/doctor/types.ts';
import { settle, tally } from '../../src/doctor/verdict.ts';
import { palette } from '../../src/report/colors.ts';
import { exitCodeOf, jsonReport, textReport } from '../../src/report/doctor.ts';
import type { IO } from '../../src/scaffold/run.ts';
import { cloneSandbox, install, requireBuilt, runCli, sandbox } from '../helpers/sandbox.ts';

const ok = (id: string, message = id) => ({ id, ok: true, message });
const bad = (id: string, message: string, fix: string) => ({ id, ok: false, message, fix });

describe('verdict', () => {
  const machineOnly: Group[] = [
    { name: 'repo', label: 'Repository', checks: [ok('repo.guard')] },
    {
      name: 'codex',
      label: 'Codex',
      checks: [ok('codex.hooks'), bad('codex.trust', 'Codex trusts no folder yet', '`codex exec --trust` once')],
    },
    {
      name: 'copilot',
      label: 'GitHub Copilot CLI',
      checks: [bad('copilot.git', 'git would page', 'export GIT_PAGER=cat before starting copilot')],
    },
  ];

  it('trust and machine-only environment are steps: listed with their command, exit 0 unless --strict', () => {
    const groups = settle(machineOnly);
    expect(tally(groups).broken).toEqual([]);
    expect(tally(groups).steps.map((c) => c.id)).toEqual(['codex.trust', 'copilot.git']);
    expect(exitCodeOf(true, groups)).toBe(0);
    expect(exitCodeOf(true, groups, true)).toBe(1);
    const text = textReport('0.1.0', '/r', groups, palette(false));
    expect(text).not.toContain('✗');
    expect(text).toContain(
      'Left to do on this machine (no file in the repository can do these):\n  ○ Codex: `codex exec --trust` once\n  ○ GitHub Copilot CLI: export GIT_PAGER=cat before starting copilot\n',
    );
    expect(text.trimEnd().split('\n').at(-1)).toBe(
      'The loop guard works in this repository (2 checks passed); 2 steps left on this machine.',
    );
    expect(jsonReport('0.1.0', '/r', groups, 0).verdict).toBe('steps');
  });

  it('an environment the repository should set (a fix that reruns us) stays broken', () => {
    const groups = settle([
      {
        name: 'claude',
        label: 'Claude Code',
        checks: [bad('claude.env', '"env" does not set GIT_PAGER', 'npx create-loop-guard --yes adds them')],
      },
    ]);
    expect(tally(groups).broken.map((c) => c.id)).toEqual(['claude.env']);
    expect(exitCodeOf(true, groups)).toBe(1);
  });

  it('one cause is one line: a missing guard file hides the node and replay failures it causes', () => {
    const groups = settle([
      { name: 'repo', label: 'Repository', checks: [bad('repo.guard', 'loop-guard.cjs is missing', 'rerun')] },
      {
        name: 'claude',
        label: 'Claude Code',
        checks: [
          ok('claude.hooks'),
          bad('claude.node', 'points at a file that is not there', 'rerun'),
          bad('claude.replay', 'exited 1: Cannot find module', 'rerun'),
          bad('claude.env', '"env" does not set GIT_PAGER', 'npx create-loop-guard --yes adds them'),
          bad('claude.git', 'git would page', 'set "GIT_PAGER" (npx create-loop-guard --yes --force)'),
        ],
      },
    ]);
    const text = textReport('0.1.0', '/r', groups, palette(false));
    expect(text.match(/✗/g)?.length).toBe(2);
    expect(text).toContain('✗ loop-guard.cjs is missing');
    expect(text).toContain('✗ "env" does not set GIT_PAGER');
    expect(text).not.toContain('Cannot find module');
    expect(text).not.toContain('git would page');
    expect(jsonReport('0.1.0', '/r', groups, 1).tools[1]?.checks.find((c) => c.id === 'claude.replay')?.cause).toBe(
      'repo.guard',
    );
  });

  it('no hook entry at all: the hooks line alone, not three', () => {
    const groups = settle([
      {
        name: 'cursor',
        label: 'Cursor',
        checks: [
          bad('cursor.hooks', '.cursor/hooks.json: no loop-guard hook', 'rerun'),
          bad('cursor.node', 'no loop-guard hook command to run (see the hooks check)', 'rerun'),
          bad('cursor.replay', 'replaying 7 identical failing attempts: no warning', 'rerun'),
        ],
      },
    ]);
    expect(textReport('0.1.0', '/r', groups, palette(false)).match(/✗/g)?.length).toBe(1);
  });
});

describe('doctor straight after a good install, on a machine that has not trusted anything yet', () => {
  it('Claude Code, Codex, Cursor and Copilot: exit 0, no ✗, the machine steps listed with their commands', () => {
    requireBuilt();
    const sb = sandbox({ trust: false });
    const r0 = runCli(['--yes', '--cwd', sb.root, '--tools', 'claude,codex,cursor,copilot'], sb.env);
    expect(r0.status).toBe(0);
    const r = runCli(['doctor', '--cwd', sb.root], sb.env);
    expect(r.stdout).not.toContain('✗');
    expect(r.status).toBe(0);
    const steps = r.stdout.slice(r.stdout.indexOf('Left to do on this machine'));
    expect(steps).toContain('○ Codex: `codex` → trust this folder, or `codex exec --trust` once');
    expect(steps).toContain('○ Cursor: npx create-loop-guard --shell-profile');
    expect(steps).toMatch(/○ GitHub Copilot CLI: .*trustedFolders/);
    expect(r.stdout).toMatch(/^The loop guard works in this repository \(\d+ checks passed\); 4 steps left/m);
    // Piped: no progress line, no escape codes.
    expect(r.stdout).not.toContain('\r');
    expect(r.stdout).not.toContain('\u001b[');
    expect(runCli(['doctor', '--strict', '--cwd', sb.root], sb.env).status).toBe(1);
  }, 90_000);

  it('on a terminal a progress line counts the tools while they replay, and is cleared before the report', async () => {
    requireBuilt();
    const sb = sandbox();
    install(sb, 'claude,codex');
    const copy = cloneSandbox(sb);
    const out: string[] = [];
    const io: IO = {
      cwd: copy.root,
      env: copy.env,
      home: copy.home,
      stdinIsTTY: true,
      stdoutIsTTY: true,
      out: (s) => out.push(s),
      err: () => {},
      prompter: { chooseTools: async () => [], confirm: async () => false },
    };
    await doctor({ json: false }, { ...io, env: { ...copy.env, NO_COLOR: '1' } });
    const text = out.join('');
    expect(text).toMatch(/replaying real payloads through each tool's hooks… 0 of 2 tools done/);
    expect(text).toMatch(/… 2 of 2 tools done/);
    expect(text.indexOf('\r\u001b[2K', text.lastIndexOf('tools done'))).toBeLessThan(
      text.indexOf('create-loop-guard doctor'),
    );
  }, 90_000);
});
