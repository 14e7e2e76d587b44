// The judge replays sequences through the guard core: the same counts, thresholds and resets as the hook.
import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../src/audit/events.ts';
import { guardSettings, SessionJudge } from '../../src/audit/judge.ts';
import { SessionRun } from '../../src/audit/session.ts';
import { runHook } from '../../src/guard/main.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const settings = guardSettings({});
let clock = 1_800_000_000_000;
const shell = (command: string, output: string, exitCode?: number): AuditEvent => ({
  kind: 'shell',
  command,
  output,
  ...(exitCode !== undefined ? { exitCode } : {}),
  at: (clock += 1000),
});
const usage = (n = 100): AuditEvent => ({
  kind: 'usage',
  at: clock,
  tokens: { input: n, cacheRead: 0, cacheWrite: 0, output: 0 },
});

function judge(events: AuditEvent[]) {
  let i = 0;
  const j = new SessionJudge('claude', settings, () => i);
  for (const e of events) {
    i++;
    j.feed(e);
  }
  return j.finish();
}

describe('judge', () => {
  it('a failing command repeated 6 times: one loop, warned on the 3rd result, refused at the 5th attempt (the hook defaults)', () => {
    const eps = judge(
      Array.from({ length: 6 }, () => shell('npm test', 'FAIL src/a.test.ts\n  expected 1 to be 2', 1)),
    );
    expect(eps).toHaveLength(1);
    expect(eps[0]).toMatchObject({
      kind: 'repeat',
      commands: ['npm test'],
      repeats: 6,
      attempts: 6,
      warnAt: 3,
      refuseAt: 5,
    });
  });

  it('a failure retrying cannot fix (a missing file) is warned one result earlier', () => {
    const eps = judge(Array.from({ length: 6 }, () => shell('cat /nope', 'cat: /nope: No such file or directory', 1)));
    expect(eps[0]).toMatchObject({ warnAt: 2, refuseAt: 5, repeats: 6 });
  });

  it('progress (a different result every time) is not a loop, and neither are two identical results', () => {
    expect(judge(Array.from({ length: 8 }, (_, i) => shell('wc -l < ran.txt', `${i + 1}`, 0)))).toEqual([]);
    expect(judge([shell('make', 'error', 2), shell('make', 'error', 2)])).toEqual([]);
  });

  it('agrees with the hook: the attempt the judge calls refused is the one runHook denies', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lg-audit-judge-'));
    const env = { LOOP_GUARD_STATE_DIR: dir };
    let denied = 0;
    for (let n = 1; n <= 6 && !denied; n++) {
      const pre = runHook(
        JSON.stringify({
          hook_event_name: 'PreToolUse',
          session_id: 's',
          tool_name: 'Bash',
          tool_input: { command: 'npm test' },
          tool_use_id: `t${n}`,
        }),
        'claude',
        env,
      );
      if (pre.includes('"deny"')) denied = n;
      else
        runHook(
          JSON.stringify({
            hook_event_name: 'PostToolUseFailure',
            session_id: 's',
            tool_name: 'Bash',
            tool_input: { command: 'npm test' },
            tool_use_id: `t${n}`,
            error: 'Exit code 1\nFAIL',
          }),
          'claude',
          env,
        );
    }
    const eps = judge(Array.from({ length: 6 }, () => shell('npm test', 'FAIL', 1)));
    expect(denied).toBe(eps[0]?.refuseAt);
  });

  it('a user turn starts the counts over, as in the hook', () => {
    const loop = () => Array.from({ length: 2 }, () => shell('npm test', 'FAIL', 1));
    expect(judge([...loop(), { kind: 'user' }, ...loop()])).toEqual([]);
  });

  it('a changed result ends the loop; a later run of identical results is a second loop', () => {
    const a = Array.from({ length: 3 }, () => shell('npm test', 'FAIL one', 1));
    const b = Array.from({ length: 4 }, () => shell('npm test', 'FAIL two', 1));
    const eps = judge([...a, ...b]);
    expect(eps.map((e) => e.repeats)).toEqual([3, 4]);
  });

  it('a cycle A,B,A,B,… is one loop naming both commands', () => {
    const events = Array.from({ length: 10 }, (_, i) =>
      i % 2 ? shell('cat /missing-b', 'boom b', 1) : shell('cat /missing-a', 'boom a', 1),
    );
    const eps = judge(events);
    expect(eps).toHaveLength(1);
    expect(eps[0]?.kind).toBe('cycle');
    expect(new Set(eps[0]?.commands)).toEqual(new Set(['cat /missing-a', 'cat /missing-b']));
    expect(eps[0]?.refuseAt).toBeDefined();
  });

  it('edits and other tools are passed through without breaking the count (today the core does not count them)', () => {
    const events: AuditEvent[] = [];
    for (let i = 0; i < 5; i++) events.push(shell('npm test', 'FAIL', 1), { kind: 'tool', name: 'Read', edit: false });
    expect(judge(events)[0]?.repeats).toBe(5);
  });

  it('the same call delivered twice counts once', () => {
    const e = { ...shell('npm test', 'FAIL', 1), callId: 'x' } as AuditEvent;
    expect(judge([e, e, e])).toEqual([]);
  });

  it('cost: requests and tokens inside the loop, and what the guard would have saved after its refusal', () => {
    const run = new SessionRun('claude', 'f', settings);
    run.feed(usage(1000)); // before the loop
    for (let i = 0; i < 6; i++) {
      run.feed(shell('npm test', 'FAIL', 1));
      run.feed(usage(100));
    }
    const s = run.finish({ id: 's', cwd: '/p' });
    expect(s.requests).toBe(7);
    expect(s.loops).toHaveLength(1);
    const l = s.loops[0];
    // Requests that issued attempts 2..6; the guard refuses attempt 5, so attempt 6's request is saved.
    expect(l).toMatchObject({
      requests: 5,
      tokens: 500,
      repeats: 6,
      guard: { warnAt: 3, refuseAt: 5 },
      saved: { requests: 1, tokens: 100 },
    });
    expect(l?.ms).toBe(5000);
  });
});

describe('judge: waits and formats we cannot run', () => {
  it('a command that waits for a person is listed as one the hang rules would refuse', () => {
    const j = new SessionJudge('codex', settings, () => 0);
    j.feed(shell('git commit', 'Aborting commit due to empty commit message.', 1));
    j.feed(shell('git status', 'clean', 0));
    expect(j.waits.map((w) => [w.command, w.rule])).toEqual([['git commit', 'git-commit-editor']]);
  });

  it("Claude Code's own GIT_EDITOR=true: a bare git commit is no wait there, an editor of the line's own is", () => {
    const j = new SessionJudge('claude', settings, () => 0);
    j.feed(shell('git commit', 'Aborting commit due to empty commit message.', 1));
    j.feed(shell('GIT_EDITOR=vim git commit', 'Vim: Warning: Output is not to a terminal', 1));
    expect(j.waits.map((w) => [w.command, w.rule])).toEqual([['GIT_EDITOR=vim git commit', 'git-commit-editor']]);
  });
});

describe('judge: refusals of an installed guard in a transcript', () => {
  it('are recognised as each tool wraps them, not replayed, and counted', () => {
    const refusal = 'loop-guard: `npm test` was not run: its last 4 runs returned the identical result.';
    const j = new SessionJudge('claude', settings, () => 0);
    for (let i = 0; i < 4; i++) j.feed(shell('npm test', 'FAIL', 1));
    j.feed(shell('npm test', `PreToolUse:Bash hook error: ${refusal}`, 1));
    j.feed(shell('npm test', `Command blocked by PreToolUse hook: ${refusal}`));
    j.feed(shell('npm test', refusal));
    expect(j.refusedByGuard).toBe(3);
    const eps = j.finish();
    expect(eps.map((e) => [e.repeats, e.attempts, e.refuseAt])).toEqual([[4, 4, undefined]]);
  });

  it('a warning that follows the real output is not a refusal', async () => {
    const { isGuardRefusal } = await import('../../src/audit/judge.ts');
    expect(
      isGuardRefusal('FAIL src/a.test.ts\n\nloop-guard: `npm test` returned the same result 3 times in a row.'),
    ).toBe(false);
    expect(isGuardRefusal('echo loop-guard: hi')).toBe(false);
  });
});
