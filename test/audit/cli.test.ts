// `create-loop-guard audit` end to end: the BUILT CLI in a child with a temp HOME holding the real transcripts.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireCli, runCli } from '../helpers/cli.ts';
import { fixtureHome, homeEnv, LOOP_CMD } from './fixtures.ts';

let home: string;
let cwd: string;
beforeAll(() => {
  requireCli();
  home = fixtureHome();
  cwd = mkdtempSync(join(tmpdir(), 'lg-audit-cwd-'));
});
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

interface Report {
  version: number;
  scope: { project: string | null; since: string | null; tools: string[] };
  loops: Array<
    Record<string, unknown> & {
      tool: string;
      command: string;
      repeats: number;
      guard: { warnAt: number | null; refuseAt: number | null; handoffAt: number | null };
      saved: { requests: number };
    }
  >;
  totals: Record<string, unknown> & {
    sessions: number;
    loops: number;
    requests: number;
    byTool: Record<string, { sessions: number; loops: number }>;
    byProject: Array<{ project: string }>;
    byDay: unknown[];
  };
  waits: { count: number };
  guard: { warnings: number; refusals: number };
  read: {
    files: number;
    unknownLines: number;
    oversizeLines: number;
    unreadable: Array<{ file: string; error: string }>;
  };
}

function audit(
  args: string[],
  env: Record<string, string> = {},
): { status: number | null; stdout: string; stderr: string; json?: Report } {
  const r = runCli(['audit', ...args], { cwd, env: { ...homeEnv(home), ...env } });
  return { ...r, ...(args.includes('--json') && r.status === 0 ? { json: JSON.parse(r.stdout) as Report } : {}) };
}

describe('audit (built CLI, temp HOME with the real transcripts)', () => {
  it('default scope = this repository: the loop of the looping session in each CLI, with the right command and count', () => {
    const r = audit(['--json', '--cwd', '/home/dev/loop']);
    expect(r.status, r.stderr).toBe(0);
    const rep = r.json as Report;
    expect(rep.scope.project).toBe('/home/dev/loop');
    expect(rep.loops.map((l) => l.tool).sort()).toEqual(['claude', 'cline', 'codex', 'kilo', 'opencode', 'qwen']);
    for (const l of rep.loops) {
      // Qwen Code and Cline stop a run at their own 5th identical call, so their sessions loop 4 times.
      const n = l.tool === 'qwen' || l.tool === 'cline' ? 4 : 6;
      expect(l).toMatchObject({
        command: LOOP_CMD,
        repeats: n,
        attempts: n,
        kind: 'repeat',
        project: '/home/dev/loop',
        exitCode: 2,
      });
      // A missing directory: warned at the 2nd result, refused at the 5th attempt, and (retrying cannot fix it) handed off at the next.
      expect(l.guard).toEqual(
        n === 6 ? { warnAt: 2, refuseAt: 5, handoffAt: 6 } : { warnAt: 2, refuseAt: null, handoffAt: null },
      );
      expect(l.requests).toBe(n - 1);
      expect(l.tokens).toBe(15 * (n - 1));
      expect(l.saved.requests).toBe(n === 6 ? 1 : 0);
      expect(typeof l.file).toBe('string');
      expect(String(l.file)).toContain(home);
      expect(typeof l.session).toBe('string');
      expect(Date.parse(String(l.firstAt))).toBeLessThanOrEqual(Date.parse(String(l.lastAt)));
    }
    expect(rep.totals.sessions).toBe(6);
    expect(rep.totals.loops).toBe(6);
    expect(rep.read.unknownLines).toBe(0);
    expect(rep.read.unreadable).toEqual([]);
  });

  it('the progress session: nothing reported', () => {
    const rep = audit(['--json', '--cwd', '/home/dev/progress']).json as Report;
    expect(rep.loops).toEqual([]);
    expect(rep.totals.sessions).toBe(6);
  });

  it('--all: every project and tool (Gemini CLI and Copilot CLI sessions read, no loops in them)', () => {
    const rep = audit(['--json', '--all']).json as Report;
    expect(rep.scope.project).toBeNull();
    expect(rep.totals.sessions).toBe(14);
    expect(rep.loops).toHaveLength(6);
    expect(rep.totals.byTool.gemini).toMatchObject({ sessions: 1, loops: 0 });
    expect(rep.totals.byTool.copilot).toMatchObject({ sessions: 1, loops: 0 });
    for (const t of ['qwen', 'cline', 'kilo']) expect(rep.totals.byTool[t], t).toMatchObject({ sessions: 2, loops: 1 });
    expect(rep.totals.byProject.map((p) => p.project).sort()).toEqual([
      '/home/dev/loop',
      '/home/dev/progress',
      '/home/dev/proj',
    ]);
  });

  it('--json has the documented shape', () => {
    const rep = audit(['--json', '--all']).json as Report;
    expect(Object.keys(rep).sort()).toEqual([
      'elsewhere',
      'guard',
      'loops',
      'prices',
      'read',
      'scope',
      'totals',
      'version',
      'waits',
    ]);
    expect(Object.keys(rep.loops[0] ?? {}).sort()).toEqual(
      [
        'attempts',
        'command',
        'commands',
        'excerpt',
        'exitCode',
        'file',
        'firstAt',
        'guard',
        'kind',
        'lastAt',
        'ms',
        'project',
        'repeats',
        'requests',
        'saved',
        'session',
        'tokenKinds',
        'tokens',
        'tool',
        'unpriced',
        'unrecorded',
        'usd',
      ].sort(),
    );
    expect(Object.keys(rep.loops[0]?.guard ?? {}).sort()).toEqual(['handoffAt', 'refuseAt', 'warnAt']);
    expect(Object.keys(rep.totals).sort()).toEqual(
      [
        'allRequests',
        'byDay',
        'byProject',
        'bySession',
        'byTool',
        'loops',
        'ms',
        'requests',
        'saved',
        'sessions',
        'shellCalls',
        'tokenKinds',
        'tokens',
        'unpriced',
        'unrecorded',
        'usd',
      ].sort(),
    );
  });

  it('--tool and --since narrow the scope', () => {
    expect((audit(['--json', '--all', '--tool', 'codex']).json as Report).loops.map((l) => l.tool)).toEqual(['codex']);
    expect((audit(['--json', '--all', '--since', '2026-11-01']).json as Report).loops).toHaveLength(6);
    const later = audit(['--json', '--all', '--since', '2099-01-01']).json as Report;
    expect(later.loops).toEqual([]);
    expect(later.totals.sessions).toBe(0);
  });

  it('--redact hides paths, arguments and outputs', () => {
    const r = audit(['--json', '--all', '--redact']);
    expect(r.stdout).not.toContain('/home/dev');
    expect(r.stdout).not.toContain(home);
    expect(r.stdout).not.toContain('definitely-missing-dir');
    const rep = JSON.parse(r.stdout) as Report;
    expect(rep.loops[0]?.command).toBe('echo …; ls …');
  });

  it('the terminal report names the loop, the guard point and the totals, without colour when not a terminal', () => {
    const r = audit(['--cwd', '/home/dev/loop']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(LOOP_CMD);
    expect(r.stdout).toContain('×6 identical');
    expect(r.stdout).toContain('guard: warn at 2, refuse at 5, hand off at 6, saves 1 request, 15 tokens');
    expect(r.stdout).toMatch(/^ {2}Loops {11}6 /m);
    expect(r.stdout).not.toContain('\u001b[');
  });

  it('usage errors exit 2', () => {
    expect(audit(['--since', 'yesterday']).status).toBe(2);
    expect(audit(['--tool', 'vim']).status).toBe(2);
    expect(audit(['--limit', '0']).status).toBe(2);
    expect(audit(['extra']).status).toBe(2);
  });

  it('bad transcripts: unknown lines skipped and counted, an unreadable one reported by name, the rest still read', () => {
    const bad = fixtureHome();
    try {
      const f = join(bad, '.codex', 'sessions', '2026', '11', '30');
      const file = join(f, 'rollout-2026-11-30T12-48-45-01a22c80-2789-7ae3-8f0e-04c79be9a489.jsonl');
      appendFileSync(file, 'not json\n{"no":"type"}\n[1,2]\n\u0000\u0001binary\n');
      writeFileSync(join(bad, '.local', 'share', 'opencode', 'opencode.db'), 'this is not a database');
      mkdirSync(join(bad, '.gemini', 'tmp', 'broken', 'chats'), { recursive: true });
      writeFileSync(
        join(bad, '.gemini', 'tmp', 'broken', 'chats', 'session-x.json'),
        '{"sessionId": "x", "messages": [',
      );
      const r = runCli(['audit', '--json', '--all'], { cwd, env: homeEnv(bad) });
      expect(r.status, r.stderr).toBe(0);
      const rep = JSON.parse(r.stdout) as Report;
      expect(rep.read.unknownLines).toBe(4);
      expect(rep.read.unreadable.map((u) => u.file).sort()).toEqual([
        join(bad, '.gemini', 'tmp', 'broken', 'chats', 'session-x.json'),
        join(bad, '.local', 'share', 'opencode', 'opencode.db'),
      ]);
      expect(rep.read.unreadable.find((u) => u.file.endsWith('opencode.db'))?.error).toContain(
        'not an SQLite database',
      );
      expect(rep.loops.map((l) => l.tool).sort()).toEqual(['claude', 'cline', 'codex', 'kilo', 'qwen']);
      const text = runCli(['audit', '--all'], { cwd, env: homeEnv(bad) });
      expect(text.stdout).toContain(`Could not read ${join(bad, '.local', 'share', 'opencode', 'opencode.db')}`);
      expect(text.stdout).toContain('4 unknown lines skipped');
    } finally {
      rmSync(bad, { recursive: true, force: true });
    }
  });

  it('a huge transcript streams: a 40 MB line is skipped and counted, the loop around it still found', () => {
    const big = fixtureHome();
    try {
      const dir = join(big, '.claude', 'projects', '-home-dev-loop');
      const src = join(dir, '23de7ca1-4800-4e2f-a018-a131f1951a9d.jsonl');
      // A line past the 32 MB cap, as if one tool result were enormous, at the end of the real session.
      appendFileSync(src, `{"type":"user","message":{"content":"${'x'.repeat(40 * 1024 * 1024)}"}}\n`);
      const r = runCli(['audit', '--json', '--cwd', '/home/dev/loop', '--tool', 'claude'], { cwd, env: homeEnv(big) });
      expect(r.status, r.stderr).toBe(0);
      const rep = JSON.parse(r.stdout) as Report;
      expect(rep.read.oversizeLines).toBe(1);
      expect(rep.loops).toHaveLength(1);
      expect(rep.loops[0]?.repeats).toBe(6);
    } finally {
      rmSync(big, { recursive: true, force: true });
    }
  });

  it('shows what the installed guard did, from its own event log', () => {
    const state = join(home, '.local', 'state', 'loop-guard');
    mkdirSync(state, { recursive: true });
    const line = (a: string) =>
      JSON.stringify({
        t: Date.parse('2026-11-30T10:00:00Z'),
        tool: 'claude',
        a,
        cmd: 'npm test',
        cwd: '/home/dev/loop',
      });
    writeFileSync(join(state, 'events.log'), `${line('warn')}\n${line('warn')}\n${line('deny')}\nnot json\n`);
    const rep = audit(['--json', '--cwd', '/home/dev/loop']).json as Report;
    expect(rep.guard).toMatchObject({ warnings: 2, refusals: 1 });
    expect((audit(['--json', '--cwd', '/home/dev/progress']).json as Report).guard).toMatchObject({
      warnings: 0,
      refusals: 0,
    });
  });
});
