// The recovery ladder (issue 11): warn, warn + shrink the step, refuse, hand off — through decide(), the one entry
// shared by the hook and the plugin, with an in-memory store.
import { describe, expect, it } from 'vitest';
import { decide, type SessionStore } from '../../src/guard/core/decide.ts';
import type { SessionState } from '../../src/guard/core/detector.ts';
import { buildNote, climb, handoffAfter, lastLines, LADDER_LIMITS } from '../../src/guard/core/ladder.ts';
import { MAX_MESSAGE_CHARS } from '../../src/guard/core/messages.ts';
import { readSettings } from '../../src/guard/core/settings.ts';
import type { Decision, GuardEvent, GuardSettings } from '../../src/guard/core/types.ts';

const TEST_FAIL =
  'FAIL src/sum.test.ts > adds\nAssertionError: expected 2 to be 3\nTests  1 failed | 4 passed (5)\nDuration  1.21s';
const facts = { longRunsReturn: false, blockSaysThisCommand: false };

function memoryStore(): SessionStore & { state: () => SessionState | undefined } {
  let state: SessionState | undefined;
  return {
    state: () => state,
    read: () => state,
    update(change) {
      const { next, result } = change(state);
      state = next;
      return result;
    },
  };
}

let callSeq = 0;

/** Attempts of one command: the pre decision, and the post decision when it ran. */
function attempts(
  n: number,
  settings: GuardSettings,
  step: { command: string; output: string; exitCode?: number },
  store = memoryStore(),
) {
  const out: string[] = [];
  const decisions: Decision[] = [];
  for (let k = 0; k < n; k++) {
    const i = callSeq++;
    const pre = decide(
      { kind: 'pre', command: step.command, background: false, callId: `c${i}` },
      settings,
      facts,
      store,
    );
    if (pre.action !== 'allow') {
      out.push(pre.action);
      decisions.push(pre);
      continue;
    }
    const post = decide({ kind: 'post', ...step, callId: `c${i}` } as GuardEvent, settings, facts, store);
    out.push(post.action === 'allow' ? 'ok' : post.action);
    decisions.push(post);
  }
  return { out, decisions, store };
}

describe('the ladder', () => {
  const settings = readSettings({});
  const loop = { command: 'npm test', output: TEST_FAIL, exitCode: 1 };

  it('warns on the 3rd result, warns again with a smaller step on the 4th, refuses the 5th and 6th, hands off on the 7th', () => {
    const { out, decisions } = attempts(8, settings, loop);
    expect(out).toEqual(['ok', 'ok', 'warn', 'warn', 'deny', 'deny', 'handoff', 'handoff']);
    // A tool that did not stop is stopped again; the note was already written.
    expect((decisions[7] as Extract<Decision, { action: 'handoff' }>).again).toBe(true);
    expect((decisions[6] as Extract<Decision, { action: 'handoff' }>).again).toBeUndefined();
    const third = decisions[2] as Extract<Decision, { action: 'warn' }>;
    const fourth = decisions[3] as Extract<Decision, { action: 'warn' }>;
    expect(third.message).not.toContain('smallest change');
    expect(fourth.message).toContain('smallest change that could possibly work');
    expect(fourth.message.length).toBeLessThan(MAX_MESSAGE_CHARS);
    const h = decisions[6] as Extract<Decision, { action: 'handoff' }>;
    expect(h.message).toMatch(
      /^loop-guard: `npm test` was not run, and this turn stops here: 2 attempts were already refused/,
    );
    expect(h.stopReason).toContain('.agents/handoff.md');
    expect(h.note.command).toBe('npm test');
    expect(h.note.refused).toEqual([
      { command: 'npm test', refusals: 3, results: 4, lastLines: expect.stringContaining('expected 2 to be 3') },
    ]);
  });

  it('failures retrying cannot fix climb faster: one refusal, then the hand-off', () => {
    const missing = {
      command: 'cat /nope/config.yml',
      output: 'cat: /nope/config.yml: No such file or directory',
      exitCode: 1,
    };
    const { out, decisions } = attempts(7, settings, missing);
    expect(out).toEqual(['ok', 'warn', 'warn', 'warn', 'deny', 'handoff', 'handoff']);
    expect((decisions[5] as Extract<Decision, { action: 'handoff' }>).note.refused[0]?.failure).toBe('missing-file');
    expect(handoffAfter(settings, 'auth')).toBe(1);
    expect(handoffAfter(settings, undefined)).toBe(2);
  });

  it('LOOP_GUARD_HANDOFF=0 never hands off and takes no lock on a refusal', () => {
    const off = readSettings({ LOOP_GUARD_HANDOFF: '0' });
    expect(off.handoff).toBe(0);
    const store = memoryStore();
    let updates = 0;
    const counting: SessionStore = { read: store.read, update: (c) => (updates++, store.update(c)) };
    const { out } = attempts(10, off, loop, counting as never);
    expect(out.slice(4)).toEqual(['deny', 'deny', 'deny', 'deny', 'deny', 'deny']);
    expect(updates).toBe(4); // the four posts only
  });

  it('LOOP_GUARD_HANDOFF=1 hands off after one refusal; a typo keeps the default', () => {
    expect(attempts(7, readSettings({ LOOP_GUARD_HANDOFF: '1' }), loop).out).toEqual([
      'ok',
      'ok',
      'warn',
      'warn',
      'deny',
      'handoff',
      'handoff',
    ]);
    expect(readSettings({ LOOP_GUARD_HANDOFF: 'two' }).handoff).toBe(2);
    expect(readSettings({ LOOP_GUARD_HANDOFF: 'off' }).handoff).toBe(0);
  });

  it('refusals count per user turn: a new turn starts the ladder over', () => {
    const store = memoryStore();
    attempts(6, settings, loop, store);
    decide({ kind: 'userTurn' }, settings, facts, store);
    expect(attempts(7, settings, loop, store).out).toEqual(['ok', 'ok', 'warn', 'warn', 'deny', 'deny', 'handoff']);
  });

  it('a user turn writes only when there is something to reset', () => {
    const store = memoryStore();
    let writes = 0;
    const counting: SessionStore = { read: store.read, update: (change) => (writes++, store.update(change)) };
    decide({ kind: 'userTurn' }, settings, facts, counting);
    expect(writes).toBe(0);
    attempts(2, settings, loop, store);
    decide({ kind: 'userTurn', turnId: 't2' }, settings, facts, counting);
    expect(writes).toBe(1);
    expect(store.state()).toEqual({ v: 1, turn: 't2', seq: 0, cmds: {}, recent: [], seen: [] });
    decide({ kind: 'userTurn', turnId: 't2' }, settings, facts, counting);
    expect(writes).toBe(1);
    decide({ kind: 'userTurn', turnId: 't3' }, settings, facts, counting);
    expect(writes).toBe(2);
    expect(store.state()?.turn).toBe('t3');
  });

  it('the same call delivered twice is one refused attempt', () => {
    const store = memoryStore();
    attempts(4, settings, loop, store);
    const pre = (id: string) =>
      decide({ kind: 'pre', command: 'npm test', background: false, callId: id }, settings, facts, store).action;
    expect([pre('x'), pre('x'), pre('x'), pre('y'), pre('z')]).toEqual(['deny', 'deny', 'deny', 'deny', 'handoff']);
  });

  it('the note lists the other commands of the turn with their last lines, newest first, bounded', () => {
    const store = memoryStore();
    for (let i = 0; i < 14; i++)
      attempts(1, settings, { command: `node step${i}.js`, output: `line a\nstep ${i} failed`, exitCode: 1 }, store);
    const { decisions } = attempts(7, settings, loop, store);
    const h = decisions[6] as Extract<Decision, { action: 'handoff' }>;
    expect(h.note.tried.length).toBe(LADDER_LIMITS.tried);
    expect(h.note.tried[0]?.command).toBe('node step13.js');
    expect(h.note.tried[0]?.lastLines).toBe('line a\nstep 13 failed');
    // Only the newest results keep their lines, so the state stays small.
    expect(h.note.tried.at(-1)?.lastLines).toBe('');
    expect(store.state()?.ladder?.tails.length).toBeLessThanOrEqual(LADDER_LIMITS.tails);
  });

  it('last lines are normalized, few and short', () => {
    const long = Array.from(
      { length: 50 },
      (_, i) => `2026-11-30T10:00:${String(i % 60).padStart(2, '0')}Z line ${i} ${'x'.repeat(120)}`,
    ).join('\n');
    const t = lastLines(long);
    expect(t.split('\n').length).toBeLessThanOrEqual(LADDER_LIMITS.tailLines);
    expect(t.length).toBeLessThanOrEqual(LADDER_LIMITS.tailChars);
    expect(t).not.toMatch(/2026-11-30T10/);
  });

  it("a 'proceed' event stops only after a hand-off in the same turn: the handed-off command (Copilot) or the turn (Qwen)", () => {
    const store = memoryStore();
    const proceed = (e: Omit<Extract<GuardEvent, { kind: 'proceed' }>, 'kind'>) =>
      decide({ kind: 'proceed', ...e }, settings, facts, store);
    const { out } = attempts(6, settings, loop, store);
    expect(out.slice(4)).toEqual(['deny', 'deny']);
    // Refusals alone are no stop: the run goes on to the model with the refusal.
    expect(proceed({ command: 'npm test' }).action).toBe('allow');
    expect(proceed({}).action).toBe('allow');
    expect(attempts(1, settings, loop, store).out).toEqual(['handoff']);
    const stop = proceed({ command: 'npm test' });
    expect(stop).toMatchObject({ action: 'handoff', again: true });
    expect((stop as Extract<Decision, { action: 'handoff' }>).stopReason).toContain('`npm test`');
    expect(proceed({}).action).toBe('handoff');
    // Paired by order, without a call id: another command's permission is not this hand-off's.
    expect(proceed({ command: 'git status' }).action).toBe('allow');
    // A different turn id is another turn; a user turn starts over.
    expect(proceed({ turnId: 'other' }).action).toBe('allow');
    decide({ kind: 'userTurn' }, settings, facts, store);
    expect(proceed({}).action).toBe('allow');
    expect(proceed({ command: 'npm test' }).action).toBe('allow');
  });

  it('climb passes a refusal through unchanged below the limit, and buildNote works on a fresh state', () => {
    const deny = { action: 'deny' as const, rule: 'repeat', message: 'loop-guard: no' };
    const { next, result } = climb(undefined, { command: 'x' }, deny, settings);
    expect(result).toBe(deny);
    expect(next.ladder?.n).toBe(1);
    expect(buildNote(next, 'x')).toEqual({
      command: 'x',
      refused: [{ command: 'x', refusals: 1, results: 0, lastLines: '' }],
      tried: [],
    });
  });
});

describe('decide(…, note = false), as the audit calls it', () => {
  it('gives the same decisions as with the note, and a hand-off without the note lists', () => {
    const settings = readSettings({ LOOP_GUARD_HANDOFF: '2' });
    const run = (note: boolean): Decision[] => {
      const store = memoryStore();
      const out: Decision[] = [];
      for (let k = 0; k < 12; k++) {
        const command = k % 3 === 2 ? 'npm run lint' : 'npm test';
        const pre = decide(
          { kind: 'pre', command, background: false, callId: `n${k}` },
          settings,
          facts,
          store,
          undefined,
          note,
        );
        out.push(pre);
        if (pre.action === 'allow')
          out.push(
            decide(
              { kind: 'post', command, output: TEST_FAIL, exitCode: 1, callId: `n${k}` },
              settings,
              facts,
              store,
              undefined,
              note,
            ),
          );
      }
      return out;
    };
    const withNote = run(true);
    const without = run(false);
    expect(withNote.some((d) => d.action === 'handoff')).toBe(true);
    const strip = (d: Decision) => (d.action === 'handoff' ? { ...d, note: { command: d.note.command } } : d);
    expect(without.map(strip)).toEqual(withNote.map(strip));
    for (const d of without)
      if (d.action === 'handoff') expect(d.note).toEqual({ command: d.note.command, refused: [], tried: [] });
    for (const d of withNote) if (d.action === 'handoff') expect(d.note.refused.length).toBeGreaterThan(0);
  });
});
