// The audit judges exactly as the installed guard: the same sequence of shell calls, edits and user turns is fed to
// the BUILT hook (dist/loop-guard.cjs, real Claude Code payload shapes, the way Claude Code calls it: no post for a
// refused call) and to the audit's judge; the attempts at which each warns, refuses and hands off must be the same.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../src/audit/events.ts';
import { guardSettings, SessionJudge } from '../../src/audit/judge.ts';
import { freshStateDir, guardEnv, loadPayload, requireBuilt, runGuardSync, type Json } from '../helpers/guard.ts';

type Step = { run: string; out: string; code: number } | { edit: true } | { user: true };

/** First attempt (global, 1-based over shell calls) of each action, per stretch between resets (a user turn or an edit). */
type Firsts = Array<{ warn: number | null; refuse: number | null; handoff: number | null }>;

const sh = (run: string, out: string, code: number): Step => ({ run, out, code });
const times = (n: number, step: Step): Step[] => Array.from({ length: n }, () => step);

const base = (name: string) => loadPayload(name) as Record<string, Json>;

/** The hook as Claude Code drives it: pre; if refused, the command never runs (no post); else the post with its result. */
function hookFirsts(steps: Step[], extraEnv: Record<string, string>): Firsts {
  const env = guardEnv(freshStateDir(), { CLAUDE_PROJECT_DIR: cwd, ...extraEnv });
  const common = { session_id: `agree-${Math.random().toString(36).slice(2)}`, cwd };
  const out: Firsts = [];
  let cur = { warn: null as number | null, refuse: null as number | null, handoff: null as number | null };
  const flush = () => {
    if (cur.warn !== null || cur.refuse !== null || cur.handoff !== null) out.push(cur);
    cur = { warn: null, refuse: null, handoff: null };
  };
  let attempt = 0;
  for (const step of steps) {
    if ('user' in step) {
      flush();
      runGuardSync('claude', { ...base('claude/UserPromptSubmit-prompt.json'), ...common }, env);
      continue;
    }
    if ('edit' in step) {
      flush();
      runGuardSync(
        'claude',
        { ...base('claude/captured/PostToolUse-Edit-edit.json'), ...common, tool_use_id: `edit-${attempt}` },
        env,
      );
      continue;
    }
    attempt++;
    const id = `toolu_${attempt}`;
    const input = { command: step.run, description: 'step' };
    const pre = runGuardSync(
      'claude',
      { ...base('claude/PreToolUse-failure.json'), ...common, tool_input: input, tool_use_id: id },
      env,
    ).stdout;
    if (pre.includes('"continue":false')) {
      cur.handoff ??= attempt;
      continue;
    }
    if (pre.includes('"deny"')) {
      cur.refuse ??= attempt;
      continue;
    }
    const post =
      step.code === 0
        ? {
            ...base('claude/PostToolUse-success.json'),
            ...common,
            tool_input: input,
            tool_use_id: id,
            tool_response: {
              stdout: step.out,
              stderr: '',
              interrupted: false,
              isImage: false,
              noOutputExpected: false,
            },
          }
        : {
            ...base('claude/PostToolUseFailure-failure.json'),
            ...common,
            tool_input: input,
            tool_use_id: id,
            error: `Exit code ${step.code}\n${step.out}`,
          };
    const said = runGuardSync('claude', post, env).stdout;
    if (said.includes('additionalContext')) cur.warn ??= attempt;
  }
  flush();
  return out;
}

/** The audit's judge over the same steps as a transcript records them (every call ran); `at` = the global attempt number. */
function judgeFirsts(steps: Step[], env: Record<string, string>): Firsts {
  const judge = new SessionJudge('claude', guardSettings(env), () => 0);
  let attempt = 0;
  for (const step of steps) {
    let e: AuditEvent;
    if ('user' in step) e = { kind: 'user' };
    else if ('edit' in step) e = { kind: 'tool', name: 'Edit', edit: true, callId: `edit-${attempt}` };
    else
      e = {
        kind: 'shell',
        command: step.run,
        output: step.out,
        exitCode: step.code,
        at: ++attempt,
        callId: `toolu_${attempt}`,
      };
    judge.feed(e);
  }
  const at = (first: number, n: number | undefined) => (n === undefined ? null : first + n - 1);
  return judge
    .finish()
    .sort((a, b) => (a.firstAt ?? 0) - (b.firstAt ?? 0))
    .map((ep) => ({
      warn: at(ep.firstAt ?? 1, ep.warnAt),
      refuse: at(ep.firstAt ?? 1, ep.refuseAt),
      handoff: at(ep.firstAt ?? 1, ep.handoffAt),
    }));
}

let cwd = '';
beforeAll(() => {
  requireBuilt();
  cwd = mkdtempSync(join(tmpdir(), 'lg-agree-'));
});

const FAIL = sh('npm test', 'FAIL src/a.test.ts\n  expected 1 to be 2', 1);
const MISSING = sh(
  'ls /definitely-missing-dir',
  "ls: cannot access '/definitely-missing-dir': No such file or directory",
  2,
);

const SCENARIOS: Array<{ name: string; steps: Step[]; env?: Record<string, string>; expected: Firsts }> = [
  { name: 'a failing test run, 9 times', steps: times(9, FAIL), expected: [{ warn: 3, refuse: 5, handoff: 7 }] },
  {
    name: 'a missing directory (retrying cannot fix it), 8 times',
    steps: times(8, MISSING),
    expected: [{ warn: 2, refuse: 5, handoff: 6 }],
  },
  {
    name: 'a cycle of two failing commands',
    steps: Array.from({ length: 16 }, (_, i) => (i % 2 ? sh('cat b.log', 'b: bad', 1) : sh('cat a.log', 'a: bad', 1))),
    // The 5th call is `cat a.log`'s 3rd identical result: a repeat warning comes before the cycle's (3 repetitions at the 6th).
    expected: [{ warn: 5, refuse: 9, handoff: 11 }],
  },
  {
    name: 'a poll (later thresholds)',
    steps: times(12, sh('sleep 5; curl -s localhost:3000/health', 'starting', 0)),
    expected: [{ warn: 5, refuse: 8, handoff: 10 }],
  },
  {
    name: 'an edit between runs is progress',
    steps: [...times(3, FAIL), { edit: true }, ...times(8, FAIL)],
    expected: [
      { warn: 3, refuse: null, handoff: null },
      { warn: 6, refuse: 8, handoff: 10 },
    ],
  },
  {
    name: 'a user turn starts over',
    steps: [...times(4, FAIL), { user: true }, ...times(6, FAIL)],
    expected: [
      { warn: 3, refuse: null, handoff: null },
      { warn: 7, refuse: 9, handoff: null },
    ],
  },
  {
    name: 'LOOP_GUARD_HANDOFF=0: refusals, never a hand-off',
    steps: times(8, FAIL),
    env: { LOOP_GUARD_HANDOFF: '0' },
    expected: [{ warn: 3, refuse: 5, handoff: null }],
  },
  {
    name: 'LOOP_GUARD_WARN=2 LOOP_GUARD_BLOCK=3 LOOP_GUARD_HANDOFF=1',
    steps: times(7, FAIL),
    env: { LOOP_GUARD_WARN: '2', LOOP_GUARD_BLOCK: '3', LOOP_GUARD_HANDOFF: '1' },
    expected: [{ warn: 2, refuse: 4, handoff: 5 }],
  },
  {
    name: 'progress (a new result every time): nothing',
    steps: Array.from({ length: 8 }, (_, i) => sh('wc -l < ran.txt', `${i + 1}`, 0)),
    expected: [],
  },
];

describe('audit judge = built hook on the same sequence', () => {
  for (const s of SCENARIOS) {
    it(s.name, () => {
      const hook = hookFirsts(s.steps, s.env ?? {});
      expect(judgeFirsts(s.steps, s.env ?? {})).toEqual(hook);
      // And the numbers are the ladder's, not only equal to each other.
      expect(hook).toEqual(s.expected);
    });
  }
});
