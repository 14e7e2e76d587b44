// The audit replays a result of a command its state does not hold with a stand-in output, and rebuilds that result's
// record from the real text only when the command comes again (src/audit/lazy-results.ts). These tests replay the
// same events both ways and require the guard core's exact answers: every decision, and the same state once settled.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module of the benchmark, without types
import { writeHistory } from '../../bench/history-shape.mjs';
import type { AuditEvent } from '../../src/audit/events.ts';
import { createClaudeParser } from '../../src/audit/formats/claude.ts';
import { createCodexParser } from '../../src/audit/formats/codex.ts';
import { guardSettings, SessionJudge } from '../../src/audit/judge.ts';
import { LazyResults } from '../../src/audit/lazy-results.ts';
import { forEachLine } from '../../src/audit/lines.ts';
import { TOOL_FACTS } from '../../src/guard/adapters/index.ts';
import { decide, type SessionStore } from '../../src/guard/core/decide.ts';
import { coerceState, type SessionState } from '../../src/guard/core/detector.ts';
import { commandKey } from '../../src/guard/core/fingerprint.ts';
import type { Decision, GuardEvent, GuardSettings } from '../../src/guard/core/types.ts';
import { transcripts } from './fixtures.ts';

class Store implements SessionStore {
  state: SessionState | undefined;
  read(): unknown {
    return this.state;
  }
  update(change: (current: unknown) => { next: SessionState; result: Decision }): Decision {
    const { next, result } = change(this.state);
    this.state = next;
    return result;
  }
}

type Step =
  | { kind: 'shell'; command: string; output: string; exitCode?: number; callId?: string }
  | { kind: 'user'; turnId?: string }
  | { kind: 'change'; by: 'edit' | 'agent' };

/** Stand-ins for a command the state held (its record from before a change), counted by replay(). */
let heldStandIns = 0;

/**
 * Replays steps as the audit's judge does, with or without stand-ins; every decision, and the settled state after each.
 * A post's message is part of it unless that result stood in (its message quotes its text): `stood` collects those
 * steps, and the replay without stand-ins is given them to leave out the same messages.
 */
function replay(steps: Step[], settings: GuardSettings, lazy: boolean, stood = new Set<number>()) {
  const store = new Store();
  const stand = new LazyResults(settings, lazy);
  const facts = TOOL_FACTS.claude;
  const run = (e: GuardEvent) => decide(e, settings, facts, store, undefined, false);
  const trace: unknown[] = [];
  for (const [i, s] of steps.entries()) {
    if (s.kind === 'user') run({ kind: 'userTurn', ...(s.turnId ? { turnId: s.turnId } : {}) });
    else if (s.kind === 'change') run({ kind: 'change', by: s.by });
    else {
      const ck = commandKey(s.command);
      store.state = stand.settle(store.state, ck, s);
      const call = s.callId ? { callId: s.callId } : {};
      const pre = run({ kind: 'pre', command: s.command, background: false, ...call });
      const before = coerceState(store.state);
      const output = stand.standIn(before, ck, s);
      const exit = s.exitCode !== undefined ? { exitCode: s.exitCode } : {};
      const post = run({ kind: 'post', command: s.command, output, ...exit, ...call });
      if (output !== s.output) {
        stood.add(i);
        if (before?.cmds[ck]) heldStandIns++;
        stand.keep(ck, before, coerceState(store.state), { command: s.command, output: s.output, ...exit, ...call });
      }
      trace.push({
        pre: pre.action === 'allow' ? 'allow' : { action: pre.action, rule: 'rule' in pre ? pre.rule : undefined },
        post: stood.has(i) || post.action === 'allow' ? post.action : post,
      });
    }
    trace.push(JSON.stringify(stand.settled(store.state)));
  }
  return trace;
}

/** Mulberry32, so a failure names a seed that reproduces it. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Commands the guard treats differently: plain, polls and waits, a fallback echo, hang rules, redirections, one-offs.
const COMMANDS = [
  'npm test',
  'git status --short',
  'sleep 5',
  'curl -s localhost:3000/health',
  'ls /missing || echo missing',
  'cat /nope',
  'tail -f app.log',
  'echo ran >> ran.txt; wc -l < ran.txt',
  'npx vitest run   src/a.test.ts',
  'npx vitest run src/a.test.ts',
];
// Outputs that normalize alike (times, pids, temp paths) and apart, failures of several classes, and empty ones.
const OUTPUTS = [
  'FAIL src/a.test.ts\n  expected 1 to be 2',
  'FAIL src/a.test.ts\n  expected 1 to be 2\nDuration 1.23s',
  'FAIL src/a.test.ts\n  expected 1 to be 2\nDuration 4.56s',
  'cat: /nope: No such file or directory',
  'missing',
  ' M src/a.ts\n?? /tmp/tmp.Xa12bC',
  ' M src/a.ts\n?? /tmp/tmp.Qr34sT',
  'curl: (7) Failed to connect to localhost port 3000: Connection refused',
  'ok',
  '',
  '[2026-11-30T12:00:01Z] pid 4123 listening',
  '[2026-11-30T12:00:09Z] pid 4188 listening',
  'Command timed out after 2m 0.0s',
];

function randomSteps(seed: number, n: number): Step[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)] as T;
  const steps: Step[] = [];
  let call = 0;
  for (let i = 0; i < n; i++) {
    const x = r();
    if (x < 0.04) steps.push({ kind: 'user', ...(r() < 0.5 ? { turnId: `t${Math.floor(r() * 3)}` } : {}) });
    else if (x < 0.1) steps.push({ kind: 'change', by: r() < 0.7 ? 'edit' : 'agent' });
    else {
      // Mostly a few commands (loops, cycles, polls), sometimes a one-off; outputs from a small set so results repeat.
      const command = r() < 0.15 ? `echo one-off ${i}` : pick(COMMANDS.slice(0, 3 + Math.floor(r() * 7)));
      const output = r() < 0.1 ? `${pick(OUTPUTS)}\nline ${i}` : pick(OUTPUTS);
      const code = r();
      // A call id delivered twice now and then: the guard counts it once.
      const callId = r() < 0.8 ? `c${r() < 0.05 ? call : ++call}` : undefined;
      steps.push({
        kind: 'shell',
        command,
        output,
        ...(code < 0.15 ? {} : { exitCode: code < 0.5 ? 0 : code < 0.9 ? 1 : 127 }),
        ...(callId ? { callId } : {}),
      });
    }
  }
  return steps;
}

describe('stand-in results (lazy-results.ts)', () => {
  const variants: Array<Record<string, string>> = [
    {},
    { LOOP_GUARD_WARN: '1', LOOP_GUARD_BLOCK: '2' },
    { LOOP_GUARD_WARN: '2', LOOP_GUARD_BLOCK: '3', LOOP_GUARD_HANDOFF: '0' },
    { LOOP_GUARD_BLOCK: '1' },
    { LOOP_GUARD_WARN: '3', LOOP_GUARD_BLOCK: '6', LOOP_GUARD_HANDOFF: '3' },
  ];
  it('give the guard core’s every decision and, once settled, its state: 120 random sessions × 5 settings', {
    timeout: 300_000,
  }, () => {
    let stood = 0;
    for (const [v, env] of variants.entries()) {
      const settings = guardSettings(env);
      for (let seed = 1; seed <= 24; seed++) {
        const steps = randomSteps(seed * 7919 + v, 60 + (seed % 5) * 40);
        const standIns = new Set<number>();
        const lazy = replay(steps, settings, true, standIns);
        const real = replay(steps, settings, false, standIns);
        expect(lazy, `settings ${JSON.stringify(env)}, seed ${seed * 7919 + v}`).toEqual(real);
        stood += steps.filter((s) => s.kind === 'shell').length;
      }
    }
    expect(stood).toBeGreaterThan(12_000);
  });

  // The random sessions repeat a few commands, so a command's pair is rarely out of `recent` when it comes back after a
  // change; these do that on purpose, where a stand-in that lost a record's poll kind or thrash count would show.
  const fillers = (from: number, n: number): Step[] =>
    Array.from({ length: n }, (_, i) => ({
      kind: 'shell',
      command: `echo filler ${from + i}`,
      output: 'x',
      exitCode: 0,
    }));
  const edit: Step = { kind: 'change', by: 'edit' };
  it('give the same answers where a record from before a change carries a bare wait, a thrash count or a cycle', () => {
    const wait: Step = { kind: 'shell', command: 'sleep 5', output: 'waited', exitCode: 0 };
    const check: Step = {
      kind: 'shell',
      command: 'git status --short',
      output: 'cat: x: Permission denied',
      exitCode: 1,
    };
    const test: Step = { kind: 'shell', command: 'npm test', output: 'FAIL src/a.test.ts\n  expected 1', exitCode: 1 };
    const passed: Step = { ...test, exitCode: 0 };
    const ok: Step = { kind: 'shell', command: 'git status --short', output: ' M src/a.ts', exitCode: 0 };
    const agent: Step = { kind: 'change', by: 'agent' };
    const write: Step = { kind: 'shell', command: 'echo done > notes.md', output: 'written', exitCode: 0 };
    const list: Step = { kind: 'shell', command: 'ls src', output: 'a.ts b.ts', exitCode: 0 };
    const scenarios: Step[][] = [
      // A bare wait (p = 2) kept across a change: the check after it is a poll, not a repeated failure.
      [wait, wait, edit, ...fillers(0, 12), check, ...fillers(20, 11), wait, check],
      // The same failure across edits (x) kept by a later identical result after a change, twice.
      [test, edit, test, edit, test, edit, ...fillers(0, 12), passed, edit, ...fillers(20, 12), passed, test],
      // A cycle whose write bumps the epoch once (no marker): its first command's pair 3 back is compared.
      [...fillers(0, 3), ...Array.from({ length: 4 }, () => [ok, write, list]).flat()],
      // Nothing else held: a passing command after each change (an edit, a sub-agent) stands in every time.
      [ok, edit, ...fillers(0, 12), ok, agent, ...fillers(20, 12), ok, edit, ...fillers(40, 12), ok, ok, ok],
    ];
    const before = heldStandIns;
    for (const env of [{}, { LOOP_GUARD_WARN: '2', LOOP_GUARD_BLOCK: '3' }]) {
      const settings = guardSettings(env);
      for (const steps of scenarios) {
        const stood = new Set<number>();
        expect(replay(steps, settings, true, stood)).toEqual(replay(steps, settings, false, stood));
      }
    }
    expect(heldStandIns - before).toBeGreaterThan(5);
  });

  // A call delivered again (a retried hook) is not counted, so its post leaves the stand-in in the state: settle()
  // rebuilds it first (`again`). Tagged instead, as for a new result, the stand-in stays kept too, and settling it
  // again looks for the newest pair with the stand-in's key: here an older, real one (an empty result's: the stand-in
  // text is empty).
  it('give the same answers when a call that stood in is delivered again', () => {
    const agent: Step = { kind: 'change', by: 'agent' };
    const empty: Step = { kind: 'shell', command: 'npm test', output: '', exitCode: 0, callId: 'c1' };
    const failed: Step = {
      kind: 'shell',
      command: 'npm test',
      output: 'FAIL src/a.test.ts',
      exitCode: 1,
      callId: 'c2',
    };
    const passed: Step = { ...failed, exitCode: 0 };
    const scenarios: Step[][] = [
      // c2 stands in (its record is from before a change), and comes again after another change.
      [empty, agent, ...fillers(0, 3), failed, agent, ...fillers(10, 3), failed],
      // The same, then the command once more in a call of its own.
      [empty, agent, ...fillers(0, 3), failed, agent, ...fillers(10, 3), failed, { ...failed, callId: 'c3' }],
      // The change after the fillers, and the command again after more.
      [
        empty,
        agent,
        ...fillers(0, 3),
        failed,
        ...fillers(10, 3),
        agent,
        failed,
        ...fillers(20, 3),
        { ...failed, callId: 'c3' },
      ],
      // Across edits, a passing result (a failing one after an edit is replayed as it is).
      [empty, edit, ...fillers(0, 3), passed, edit, ...fillers(10, 3), passed],
    ];
    for (const env of [{}, { LOOP_GUARD_WARN: '2', LOOP_GUARD_BLOCK: '3' }]) {
      const settings = guardSettings(env);
      for (const steps of scenarios) {
        const stood = new Set<number>();
        expect(replay(steps, settings, true, stood)).toEqual(replay(steps, settings, false, stood));
        // Both deliveries of c2 stood in: the path under test ran.
        const c2 = steps.flatMap((s, i) => (s.kind === 'shell' && s.callId === 'c2' ? [i] : []));
        expect(c2.filter((i) => stood.has(i))).toHaveLength(2);
      }
    }
  });

  it('are used: most results of a session of one-off commands are never normalized', () => {
    const settings = guardSettings({});
    const stand = new LazyResults(settings);
    let standIns = 0;
    const store = new Store();
    for (let i = 0; i < 100; i++) {
      const command = i % 10 === 0 ? 'npm test' : `cat file${i}`;
      const ck = commandKey(command);
      const upcoming = { command, output: `text ${i}`, exitCode: 0 };
      store.state = stand.settle(store.state, ck, upcoming);
      const before = coerceState(store.state);
      const output = stand.standIn(before, ck, upcoming);
      if (output !== upcoming.output) standIns++;
      decide({ kind: 'post', command, output, exitCode: 0 }, settings, TOOL_FACTS.claude, store, undefined, false);
      if (output !== upcoming.output)
        stand.keep(ck, before, coerceState(store.state), { command, output: `text ${i}`, exitCode: 0 });
    }
    // 90 one-offs and the first npm test stood in; the nine npm tests after it were replayed with their text.
    expect(standIns).toBe(91);
  });
});

/** Every shell, user and tool event of the transcripts under dir, per file (the formats' own parsers). */
function sessionsUnder(dir: string): AuditEvent[][] {
  const out: AuditEvent[][] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (n.endsWith('.jsonl')) {
        const parser =
          p.includes(`${join('codex', 'sessions')}`) || p.includes('.codex')
            ? createCodexParser()
            : createClaudeParser();
        const events: AuditEvent[] = [];
        forEachLine(p, (line) => {
          if (line) parser.push(JSON.parse(line), (e) => events.push(e));
        });
        out.push(events);
      }
    }
  };
  walk(dir);
  return out;
}

function loopsOf(events: AuditEvent[], lazy: boolean) {
  let mark = 0;
  const j = new SessionJudge('claude', guardSettings({}), () => mark, lazy);
  for (const e of events) {
    mark++;
    j.feed(e);
  }
  return { loops: j.finish(), waits: j.waits, shellCalls: j.shellCalls, refused: j.refusedByGuard };
}

describe('the judge with stand-ins', () => {
  it('finds the same loops, waits and counts as without, on the real transcripts and a real-shaped history', {
    timeout: 300_000,
  }, () => {
    const home = mkdtempSync(join(tmpdir(), 'lg-lazy-'));
    try {
      writeHistory(home, 6, 3);
      const sessions = [
        ...sessionsUnder(join(transcripts, 'claude')),
        ...sessionsUnder(join(transcripts, 'codex')),
        ...sessionsUnder(home),
      ];
      let loops = 0;
      for (const events of sessions) {
        const real = loopsOf(events, false);
        expect(loopsOf(events, true)).toEqual(real);
        loops += real.loops.length;
      }
      expect(sessions.length).toBeGreaterThan(4);
      expect(loops).toBeGreaterThan(2);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
