import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { commandKey } from '../../src/guard/core/fingerprint.ts';
import { detectCycle, emptyState, LIMITS, onPost, onPre, type SessionState } from '../../src/guard/core/detector.ts';
import { MAX_MESSAGE_CHARS } from '../../src/guard/core/messages.ts';
import { readSettings } from '../../src/guard/core/settings.ts';
import type { Decision } from '../../src/guard/core/types.ts';

const settings = readSettings({});
const TEST_FAIL =
  'FAIL src/sum.test.ts > adds\nAssertionError: expected 2 to be 3\nTests  1 failed | 4 passed (5)\nDuration  1.21s';

/** Drive one command through pre + post n times; returns every decision in order. */
function run(state: SessionState | undefined, steps: Array<{ command: string; output: string; exitCode?: number }>) {
  const decisions: Array<{ pre: Decision; post?: Decision }> = [];
  let s = state;
  steps.forEach((step, i) => {
    const pre = onPre(s, { command: step.command }, settings);
    if (pre.action === 'deny') {
      decisions.push({ pre });
      return;
    }
    const r = onPost(s, { ...step, callId: `call_${i}` }, settings);
    s = r.next;
    decisions.push({ pre, post: r.decision });
  });
  return { decisions, state: s };
}

describe('repeat rule', () => {
  it('warns on the 3rd identical result and refuses the 5th attempt', () => {
    const step = { command: 'npm test', output: TEST_FAIL, exitCode: 1 };
    const { decisions } = run(undefined, Array(6).fill(step));
    expect(decisions.map((d) => d.post?.action ?? `pre:${d.pre.action}`)).toEqual([
      'allow',
      'allow',
      'warn',
      'warn',
      'pre:deny',
      'pre:deny',
    ]);
    const warn = decisions[2]?.post;
    expect(warn?.action === 'warn' && warn.message).toMatch(
      /^loop-guard: `npm test` returned the same result 3 times in a row\./,
    );
    const deny = decisions[4]?.pre;
    expect(deny?.action === 'deny' && deny.rule).toBe('repeat');
    expect(deny?.action === 'deny' && deny.message).toContain('its last 4 runs returned the identical result');
  });

  it('treats results that differ only in noise as identical', () => {
    const steps = [1, 2, 3].map((i) => ({
      command: 'npm  test',
      output: `${TEST_FAIL.replace('1.21s', `${i}.0${i}s`)}\nat 2026-11-30T02:4${i}:00Z pid ${1000 + i}`,
      exitCode: 1,
    }));
    const { decisions } = run(undefined, steps);
    expect(decisions[2]?.post?.action).toBe('warn');
  });

  it('never warns while the output keeps changing (progress)', () => {
    const steps = [6, 5, 4, 3, 2, 1].map((n) => ({
      command: 'npm test',
      output: `Tests  ${n} failed | 3 passed`,
      exitCode: 1,
    }));
    const { decisions } = run(undefined, steps);
    expect(decisions.every((d) => d.pre.action === 'allow' && d.post?.action === 'allow')).toBe(true);
  });

  it('a changed result resets the count for that command', () => {
    const same = { command: 'make', output: 'error: x', exitCode: 2 };
    const other = { command: 'make', output: 'error: y', exitCode: 2 };
    const { decisions } = run(undefined, [same, same, other, same, same]);
    expect(decisions.map((d) => d.post?.action)).toEqual(['allow', 'allow', 'allow', 'allow', 'allow']);
  });

  it('the exit code alone does not make a different result (a `| tail` or `|| true` changes only the code)', () => {
    const steps = [1, 0, 1].map((exitCode, i) => ({
      command: ['npm test', 'npm test 2>&1 | tail -20', 'npm test || true'][i]!,
      output: 'FAIL x',
      exitCode,
    }));
    const { decisions } = run(undefined, steps);
    expect(decisions[2]?.post?.action).toBe('warn');
  });

  it('other commands in between do not reset a command', () => {
    const t = { command: 'npm test', output: TEST_FAIL, exitCode: 1 };
    const steps = [
      t,
      { command: 'cat a', output: '1', exitCode: 0 },
      t,
      { command: 'cat b', output: '2', exitCode: 0 },
      t,
    ];
    const { decisions } = run(undefined, steps);
    expect(decisions[4]?.post?.action).toBe('warn');
  });

  it('warns on the 2nd identical result for failures retrying cannot fix, with class advice', () => {
    const step = {
      command: 'git push',
      output: "fatal: could not read Username for 'https://github.com': terminal prompts disabled",
      exitCode: 128,
    };
    const { decisions } = run(undefined, [step, step]);
    const warn = decisions[1]?.post;
    expect(warn?.action).toBe('warn');
    expect(warn?.action === 'warn' && warn.message).toContain('refused the credentials');
  });

  it('respects LOOP_GUARD_WARN and LOOP_GUARD_BLOCK', () => {
    const s = readSettings({ LOOP_GUARD_WARN: '2', LOOP_GUARD_BLOCK: '2' });
    let state: SessionState | undefined;
    const step = { command: 'x', output: 'same', exitCode: 1 };
    const a = onPost(state, step, s);
    state = a.next;
    expect(a.decision.action).toBe('allow');
    const b = onPost(state, step, s);
    state = b.next;
    expect(b.decision.action).toBe('warn');
    expect(onPre(state, { command: 'x' }, s).action).toBe('deny');
  });

  it('counts a call delivered twice only once', () => {
    const step = { command: 'npm test', output: TEST_FAIL, exitCode: 1, callId: 'toolu_1' };
    const a = onPost(undefined, step, settings);
    const b = onPost(a.next, step, settings);
    expect(b.next.cmds).toEqual(a.next.cmds);
    expect(b.decision.action).toBe('allow');
  });

  it('a new turn id starts over', () => {
    const step = { command: 'npm test', output: TEST_FAIL, exitCode: 1, turnId: 't1' };
    let state: SessionState | undefined;
    for (let i = 0; i < 4; i++) state = onPost(state, { ...step, callId: `c${i}` }, settings).next;
    expect(onPre(state, { command: 'npm test', turnId: 't1' }, settings).action).toBe('deny');
    expect(onPre(state, { command: 'npm test', turnId: 't2' }, settings).action).toBe('allow');
    const after = onPost(state, { ...step, turnId: 't2', callId: 'c9' }, settings);
    expect(after.next.cmds[Object.keys(after.next.cmds)[0] as string]?.n).toBe(1);
  });

  it('keeps the state bounded however long the session is', () => {
    let state: SessionState | undefined;
    for (let i = 0; i < 2000; i++)
      state = onPost(state, { command: `cmd ${i}`, output: `${i}`, exitCode: 0, callId: `c${i}` }, settings).next;
    expect(Object.keys(state?.cmds ?? {}).length).toBeLessThanOrEqual(LIMITS.commands);
    expect(state?.recent.length).toBeLessThanOrEqual(LIMITS.recent);
    expect(state?.seen.length).toBeLessThanOrEqual(LIMITS.seen);
    expect(JSON.stringify(state).length).toBeLessThan(64 * 1024);
  });

  it('keeps every message under the length cap, even for huge commands', () => {
    const step = { command: `echo ${'x'.repeat(5000)}`, output: 'same', exitCode: 1 };
    const { decisions } = run(undefined, Array(5).fill(step));
    for (const d of decisions) {
      for (const dec of [d.pre, d.post])
        if (dec && dec.action !== 'allow') expect(dec.message.length).toBeLessThan(MAX_MESSAGE_CHARS);
    }
  });
});

describe('cycle rule', () => {
  it('detects periods 2 and 3 and counts full repetitions', () => {
    expect(detectCycle(['a', 'b', 'a', 'b', 'a', 'b'])).toEqual({ period: 2, reps: 3 });
    expect(detectCycle(['a', 'b', 'c', 'a', 'b', 'c'])).toEqual({ period: 3, reps: 2 });
    expect(detectCycle(['a', 'a', 'a', 'a'])).toBeNull();
    expect(detectCycle(['a', 'b', 'c', 'd'])).toBeNull();
    expect(detectCycle(['x', 'a', 'b', 'a', 'b'])).toEqual({ period: 2, reps: 2 });
  });

  it('answers as the rule reads in full, for every window of up to 12 pairs over four pairs', () => {
    // The rule as written before the newest pair was looked at first: a block of distinct pairs, counted back.
    const reference = (recent: string[]): { period: number; reps: number } | null => {
      let best: { period: number; reps: number } | null = null;
      for (const p of [2, 3]) {
        if (recent.length < 2 * p) continue;
        if (new Set(recent.slice(-p)).size !== p) continue;
        let matched = 0;
        for (let i = recent.length - 1 - p; i >= 0 && recent[i] === recent[i + p]; i--) matched++;
        const reps = Math.floor((matched + p) / p);
        if (reps >= 2 && (!best || reps > best.reps)) best = { period: p, reps };
      }
      return best;
    };
    let seed = 3;
    const r = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const windows: string[][] = [];
    // Every window of up to 7 pairs over a, b, c, d, then random longer ones made mostly of repetitions.
    const grow = (w: string[]): void => {
      windows.push(w);
      if (w.length < 7) for (const x of 'abcd') grow([...w, x]);
    };
    grow([]);
    for (let k = 0; k < 20_000; k++) {
      const p = 1 + r(4);
      const block = Array.from({ length: p }, () => 'abcd'[r(4)] as string);
      const w = Array.from({ length: 8 + r(5) }, (_, i) => (r(8) === 0 ? ('abcd'[r(4)] as string) : block[i % p]));
      windows.push(w as string[]);
    }
    let cycles = 0;
    for (const w of windows) {
      const want = reference(w);
      if (want) cycles++;
      expect(detectCycle(w), w.join('')).toEqual(want);
    }
    expect(cycles).toBeGreaterThan(1000);
  });

  it('catches one command alternating between two results, which the repeat rule cannot', () => {
    const steps = Array.from({ length: 10 }, (_, i) => ({
      command: 'git stash',
      output: i % 2 ? 'No local changes to save' : 'Saved working directory',
      exitCode: 0,
    }));
    const { decisions } = run(undefined, steps);
    const firstWarn = decisions.findIndex((d) => d.post?.action === 'warn');
    expect(firstWarn).toBe(5);
    expect(decisions[5]?.post?.action === 'warn' && decisions[5].post.message).toContain('has repeated 3 times');
    expect(decisions[8]?.pre).toMatchObject({ action: 'deny', rule: 'cycle' });
  });

  it('warns and then refuses an A,B,A,B cycle of two failing commands', () => {
    const a = { command: 'cat /missing-a', output: 'cat: /missing-a: Permission denied', exitCode: 1 };
    const b = { command: 'cat /missing-b', output: 'cat: /missing-b: Permission denied', exitCode: 1 };
    const { decisions } = run(undefined, [a, b, a, b, a, b, a, b, a, b]);
    expect(decisions.findIndex((d) => d.post?.action === 'warn')).toBeLessThanOrEqual(5);
    expect(decisions[8]?.pre.action).toBe('deny');
    expect(decisions[9]?.pre.action).toBe('deny');
  });

  it('does not refuse a command that breaks the cycle', () => {
    let state: SessionState | undefined = emptyState();
    const seq = ['a', 'b', 'a', 'b', 'a', 'b', 'a', 'b'];
    seq.forEach((c, i) => {
      state = onPost(
        state,
        { command: `alt ${c}`, output: i % 4 < 2 ? 'one' : 'two', exitCode: 0, callId: `${i}` },
        settings,
      ).next;
    });
    expect(onPre(state, { command: 'something else' }, settings).action).toBe('allow');
  });
});

describe('settings', () => {
  it('falls back to defaults on invalid values and can be switched off', () => {
    expect(readSettings({ LOOP_GUARD_WARN: 'abc', LOOP_GUARD_BLOCK: '-1' })).toMatchObject({
      warn: 3,
      block: 4,
      enabled: true,
    });
    expect(readSettings({ LOOP_GUARD: 'off' }).enabled).toBe(false);
    expect(readSettings({ LOOP_GUARD_WARN: '9', LOOP_GUARD_BLOCK: '5' })).toMatchObject({ warn: 5, block: 5 });
    expect(readSettings({ LOOP_GUARD_HANG: 'off' }).hangGuard).toBe(false);
  });
});

describe('the command bound, found during the copy', () => {
  // The eviction this replaced, kept here as the reference: copy, set, then drop the first record with the lowest s.
  function reference(
    cmds: SessionState['cmds'],
    ck: string,
    record: SessionState['cmds'][string],
  ): SessionState['cmds'] {
    const next = Object.create(null) as SessionState['cmds'];
    for (const k in cmds) next[k] = cmds[k]!;
    next[ck] = record;
    const keys = Object.keys(next);
    if (keys.length <= LIMITS.commands) return next;
    let oldest = keys[0] as string;
    for (const k of keys) if ((next[k]?.s ?? 0) < (next[oldest]?.s ?? 0)) oldest = k;
    delete next[oldest];
    return next;
  }

  it('keeps exactly the records, in the order, the reference eviction keeps (ties and odd stored s included)', () => {
    const settings = readSettings({});
    let bounded = 0;
    let replaced = 0;
    const ALL = Array.from({ length: 91 }, (_, i) => i);
    fc.assert(
      fc.property(
        fc.oneof(fc.shuffledSubarray(ALL, { minLength: 60 }), fc.shuffledSubarray(ALL)),
        fc.array(fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constant(undefined)), {
          minLength: ALL.length,
          maxLength: ALL.length,
        }),
        fc.integer({ min: 0, max: 95 }),
        (order, sValues, pick) => {
          const cmds = Object.create(null) as SessionState['cmds'];
          for (const i of order) {
            const s = sValues[i];
            cmds[commandKey(`cmd ${i}`)] = {
              r: 'x',
              n: 1,
              c: `cmd ${i}`,
              ...(s === undefined ? {} : { s }),
            } as SessionState['cmds'][string];
          }
          const state: SessionState = { v: 1, seq: 100, cmds: JSON.parse(JSON.stringify(cmds)), recent: [], seen: [] };
          const { next } = onPost(state, { command: `cmd ${pick}`, output: 'out', exitCode: 1 }, settings);
          const ck = Object.keys(next.cmds).find((k) => !(k in state.cmds) || next.cmds[k] !== state.cmds[k]) as string;
          const want = reference(state.cmds, ck, next.cmds[ck]!);
          expect(Object.keys(next.cmds)).toEqual(Object.keys(want));
          if (Object.keys(state.cmds).length >= LIMITS.commands) bounded++;
          if (ck in state.cmds) replaced++;
          for (const k of Object.keys(want)) expect(next.cmds[k]).toBe(want[k]);
        },
      ),
      { numRuns: 400 },
    );
    // Both paths were taken: a full table that drops one, and a command already in it.
    expect(bounded).toBeGreaterThan(20);
    expect(replaced).toBeGreaterThan(20);
  });
});
