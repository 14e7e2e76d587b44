// The checklist and --json reporters, exit codes, colour rules, and the doctor() entry with a fake IO.
import { describe, expect, it } from 'vitest';
import { doctor } from '../../src/doctor/index.ts';
import { exitCodeOf, jsonReport, textReport } from '../../src/report/doctor.ts';
import { type Group, note } from '../../src/doctor/types.ts';
import { palette } from '../../src/report/colors.ts';
import type { IO } from '../../src/scaffold/run.ts';
import { tempDir } from '../helpers/sandbox.ts';

const groups: Group[] = [
  { name: 'repo', label: 'Repository', checks: [{ id: 'repo.guard', ok: true, message: 'guard ok' }] },
  {
    name: 'claude',
    label: 'Claude Code',
    checks: [{ id: 'claude.hooks', ok: false, message: 'no hook on X', fix: 'rerun' }],
  },
];

describe('reporters', () => {
  it('exit codes: 2 not set up, 1 any ✗, 0 all good', () => {
    expect(exitCodeOf(false, [])).toBe(2);
    expect(exitCodeOf(true, groups)).toBe(1);
    expect(exitCodeOf(true, [groups[0] as Group])).toBe(0);
  });

  it('text: grouped by tool, ✓ / ✗ with the fix, a summary naming the failed ids', () => {
    const t = textReport('0.1.0', '/r', groups, palette(false));
    expect(t).toBe(
      'create-loop-guard doctor v0.1.0 — /r\n\nRepository\n  ✓ guard ok\n\nClaude Code\n  ✗ no hook on X — fix: rerun\n\nBroken: 1 problem in the repository or the install (claude.hooks); 1 check passed.\n',
    );
  });

  it('text: a reminder is shown with • and not counted as a passed check', () => {
    const withNote: Group[] = [
      {
        name: 'codex',
        label: 'Codex',
        checks: [{ id: 'codex.trust', ok: true, message: 'trusted' }, note('codex.hook-approval', 'approve in /hooks')],
      },
    ];
    const t = textReport('0.1.0', '/r', withNote, palette(false));
    expect(t).toContain('  • approve in /hooks\n');
    expect(t).toContain('All 1 checks passed');
    expect(jsonReport('0.1.0', '/r', withNote, 0).tools[0]?.checks[1]).toEqual({
      id: 'codex.hook-approval',
      ok: true,
      message: 'approve in /hooks',
      info: true,
    });
  });

  it('text: colour only when asked for', () => {
    expect(textReport('0.1.0', '/r', groups, palette(true))).toContain('\u001b[31m✗\u001b[39m');
  });

  it('json: the same as data; fix only on a ✗', () => {
    expect(jsonReport('0.1.0', '/r', groups, 1)).toEqual({
      version: '0.1.0',
      root: '/r',
      tools: [
        { name: 'repo', checks: [{ id: 'repo.guard', ok: true, message: 'guard ok' }] },
        { name: 'claude', checks: [{ id: 'claude.hooks', ok: false, message: 'no hook on X', fix: 'rerun' }] },
      ],
      verdict: 'broken',
      exitCode: 1,
    });
  });
});

describe('doctor() entry', () => {
  const io = (cwd: string, over: Partial<IO> = {}) => {
    const out: string[] = [];
    const err: string[] = [];
    const value: IO = {
      cwd,
      env: { PATH: process.env.PATH },
      home: tempDir(),
      stdinIsTTY: false,
      stdoutIsTTY: false,
      out: (s) => out.push(s),
      err: (s) => err.push(s),
      prompter: { chooseTools: async () => [], confirm: async () => false },
      ...over,
    };
    return { value, out, err };
  };

  it('not set up: exit 2, a hint on stderr, nothing on stdout', async () => {
    const dir = tempDir();
    const x = io(dir);
    expect(await doctor({ json: false }, x.value)).toBe(2);
    expect(x.out).toEqual([]);
    expect(x.err.join('')).toContain(`loop-guard is not set up in ${dir}`);
  });

  it('--cwd is resolved against the working directory', async () => {
    const dir = tempDir();
    const x = io('/', {});
    expect(await doctor({ json: true, cwd: dir }, x.value)).toBe(2);
    expect(JSON.parse(x.out.join(''))).toMatchObject({ root: dir, tools: [], exitCode: 2 });
  });
});
