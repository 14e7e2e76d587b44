// The audit's judgment: replays a session's events through the guard's own decide() (the function the hook and the
// OpenCode plugin call), so the audit flags exactly what the installed guard would have flagged. This is the only
// audit file that imports from src/guard (with lazy-results.ts, its helper); when the guard's judgment changes, this
// file is where audit follows it.
import { TOOL_FACTS } from '../guard/adapters/index.ts';
import { decide, type SessionStore } from '../guard/core/decide.ts';
import { commandKey } from '../guard/core/fingerprint.ts';
import { coerceState, detectCycle, type SessionState } from '../guard/core/detector.ts';
import { MARKER } from '../guard/core/messages.ts';
import { readSettings } from '../guard/core/settings.ts';
import type { Decision, GuardEvent, GuardSettings, ToolName } from '../guard/core/types.ts';
import { SUBAGENT_TOOL_NAMES, type AuditEvent } from './events.ts';
import { LazyResults } from './lazy-results.ts';

export type { GuardSettings };

/** The guard's settings as this environment would give them to the hook (LOOP_GUARD_WARN, LOOP_GUARD_BLOCK, …). */
export function guardSettings(env: Record<string, string | undefined>): GuardSettings {
  return { ...readSettings(env), enabled: true };
}

/**
 * A result that is an installed guard's refusal, as each tool wraps it ("PreToolUse:Bash hook error: loop-guard: …",
 * "Command blocked by PreToolUse hook: loop-guard: …", OpenCode's bare error): the command never ran, and the guard
 * never counted it. A warning is not one: it follows the command's real output.
 */
export function isGuardRefusal(output: string): boolean {
  const head = output.trimStart().slice(0, 200);
  return head.startsWith(MARKER) || HOOK_REFUSAL.test(head);
}
const HOOK_REFUSAL = new RegExp(`^[^\\n]{0,80}\\bhook\\b[^\\n]{0,40}: ${MARKER}`, 'i');

/** A loop the guard would have acted on. M is the caller's mark (e.g. a cost meter reading) taken at each attempt. */
export interface Episode<M> {
  kind: 'repeat' | 'cycle';
  /** The commands as the agent wrote them: one for a repeat, the block for a cycle. */
  commands: string[];
  /** Attempts inside the loop (for a cycle: every call of the block). */
  attempts: number;
  /** Identical results in a row (repeat) or full repetitions of the block (cycle). */
  repeats: number;
  firstAt?: number;
  lastAt?: number;
  /** Attempt (1-based, within this loop) on whose result the guard would have warned; undefined if it never would. */
  warnAt?: number | undefined;
  /** Attempt the guard would have refused to run. */
  refuseAt?: number | undefined;
  /** Attempt at which the guard would have stopped the turn and written the hand-off note (the ladder's last rung). */
  handoffAt?: number | undefined;
  /** The last result, for an excerpt. */
  output: string;
  exitCode?: number;
  firstMark: M;
  lastMark: M;
  /** Mark taken just before the refused attempt: everything after it is what the guard would have saved. */
  refuseMark?: M;
  refusedAtTime?: number;
  /** When each attempt ran (epoch ms, where recorded), for a timeline; bounded. */
  times: number[];
}

/** Attempt times kept per loop: a timeline needs no more, and memory stays bounded. */
const MAX_TIMES = 20_000;

/** A command that waits for a person, which the guard's hang rules would have refused before it ran. */
export interface Wait {
  command: string;
  rule: string;
  at?: number;
}

interface Attempt<M> {
  mark: M;
  at?: number;
  /** This attempt's number among the session's counted shell calls. */
  g: number;
}

interface Open<M> extends Episode<M> {
  /** Command keys this loop covers. */
  keys: string[];
  flagged: boolean;
  /** Session-wide attempt numbers of the loop's first attempt and of the guard's steps, so a cycle that absorbs a
   * repeat keeps them. */
  firstG: number;
  steps: { warn?: number | undefined; refuse?: number | undefined; handoff?: number | undefined };
}

/** The rules a loop refusal carries (onPre's); any other refusal before a command runs is a hang rule. */
const LOOP_RULES = new Set(['repeat', 'poll', 'cycle']);

/** The session's state in memory: the hook's file store without the disk (no lock, no I/O), as the OpenCode plugin
 * keeps it. */
class MemoryStore implements SessionStore {
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

/**
 * Feeds one session's events through the guard's own decide() (the function the hook and the OpenCode plugin call),
 * with the session's state in memory. Constant memory: the core's state is bounded, and so are the open loops (one per
 * command the core still remembers).
 */
export class SessionJudge<M> {
  private readonly store = new MemoryStore();
  private readonly lazy: LazyResults;
  /** Per command key: where its current run of identical results began, and the run's open loop. */
  private runs = new Map<string, { start: Attempt<M>; open?: Open<M> | undefined }>();
  private cycle: Open<M> | undefined;
  /** The last few attempts, oldest first, to find where a cycle began. */
  private recent: Attempt<M>[] = [];
  readonly episodes: Episode<M>[] = [];
  readonly waits: Wait[] = [];
  shellCalls = 0;
  /** Shell calls the guard counted (duplicates and refusals seen in the transcript are not). */
  private counted = 0;
  /** Attempts an installed guard refused in this session (they never ran). */
  refusedByGuard = 0;

  constructor(
    private readonly tool: ToolName,
    private readonly settings: GuardSettings,
    private readonly mark: () => M,
    /** False replays every result with its text (the test that proves the stand-ins change nothing compares both). */
    lazy = true,
  ) {
    this.lazy = new LazyResults(settings, lazy);
  }

  private decide(event: GuardEvent): Decision {
    // No tree look (a transcript's working tree is long gone; its edits come as events) and no hand-off note.
    return decide(event, this.settings, TOOL_FACTS[this.tool], this.store, undefined, false);
  }

  feed(event: AuditEvent): void {
    if (event.kind === 'user') {
      this.closeAll();
      this.decide({ kind: 'userTurn', ...(event.turnId !== undefined ? { turnId: event.turnId } : {}) });
    } else if (event.kind === 'tool') {
      // As the guard: an edit or a finished sub-agent is change, so the next identical result is progress, not a
      // repeat.
      if (event.edit || SUBAGENT_TOOL_NAMES.has(event.name)) {
        this.decide({
          kind: 'change',
          by: event.edit ? 'edit' : 'agent',
          ...(event.callId ? { callId: event.callId } : {}),
        });
      }
    } else if (event.kind === 'shell') {
      this.shell(event);
    }
  }

  /** Ends the session: open loops are reported. */
  finish(): Episode<M>[] {
    this.closeAll();
    return this.episodes;
  }

  private shell(e: Extract<AuditEvent, { kind: 'shell' }>): void {
    this.shellCalls++;
    if (isGuardRefusal(e.output)) {
      this.refusedByGuard++;
      return;
    }
    const attempt: Attempt<M> = { mark: this.mark(), ...(e.at !== undefined ? { at: e.at } : {}), g: this.counted + 1 };
    const call = e.callId ? { callId: e.callId } : {};
    const ck = commandKey(e.command);
    const upcoming = { command: e.command, output: e.output, exitCode: e.exitCode, callId: e.callId };
    // A command seen before in this state: its earlier result gets its real key first (see lazy-results.ts).
    this.store.state = this.lazy.settle(this.store.state, ck, upcoming);

    // Before it runs: what the guard would have answered (a hang refusal, a loop refusal, or the hand-off).
    const pre = this.decide({ kind: 'pre', command: e.command, background: false, ...call });
    const stopped = pre.action === 'deny' || pre.action === 'handoff';
    const loopStop = stopped && LOOP_RULES.has(pre.rule);
    if (stopped && !loopStop && this.waits.length < 1000)
      this.waits.push({ command: e.command, rule: pre.rule, ...(e.at !== undefined ? { at: e.at } : {}) });

    // After it ran (it did, in the real session): the guard's count and decision.
    const before = coerceState(this.store.state);
    const seq = before?.seq ?? 0;
    const output = this.lazy.standIn(before, ck, upcoming);
    const exit = e.exitCode !== undefined ? { exitCode: e.exitCode } : {};
    const post = this.decide({ kind: 'post', command: e.command, output, ...exit, ...call });
    const next = coerceState(this.store.state);
    if (output !== e.output)
      this.lazy.keep(ck, before, next, { command: e.command, output: e.output, ...exit, ...call });
    if (!next || next.seq === seq) return; // a duplicate delivery of a call already counted
    this.counted++;
    this.recent.push(attempt);
    if (this.recent.length > 12) this.recent.shift();
    const n = next.cmds[ck]?.n ?? 1;
    const verdict = {
      refused: loopStop,
      handoff: loopStop && pre.action === 'handoff',
      warned: post.action === 'warn',
    };

    let run = this.runs.get(ck);
    if (!run || n === 1) {
      if (run?.open) this.close(run.open);
      run = { start: attempt };
      this.runs.set(ck, run);
      if (this.runs.size > 256) this.dropOldestRun();
    }
    const cycle = detectCycle(next.recent);
    if (this.cycle && (!cycle || !this.cycle.keys.includes(ck))) this.closeCycle();

    const inCycle =
      this.cycle ??
      (cycle && verdict.warned && cycle.reps >= this.settings.warn ? this.openCycle(cycle, next, attempt) : undefined);
    if (inCycle) {
      this.touch(inCycle, attempt, e, verdict);
      inCycle.repeats = Math.max(inCycle.repeats, cycle?.reps ?? 0);
      return;
    }
    if (n >= 2 || loopStop) {
      const open = run.open ?? (run.open = this.openRepeat(e.command, ck, run.start, n));
      open.repeats = n;
      this.touch(open, attempt, e, verdict);
    }
  }

  private openRepeat(command: string, ck: string, start: Attempt<M>, n: number): Open<M> {
    return {
      kind: 'repeat',
      commands: [command],
      keys: [ck],
      // The run began n-1 attempts ago; those attempts are part of the loop.
      attempts: n - 1,
      repeats: n,
      ...(start.at !== undefined ? { firstAt: start.at } : {}),
      output: '',
      firstMark: start.mark,
      lastMark: start.mark,
      flagged: false,
      firstG: start.g,
      steps: {},
      times: start.at !== undefined ? [start.at] : [],
    };
  }

  private openCycle(cycle: { period: number; reps: number }, state: SessionState, now: Attempt<M>): Open<M> {
    const block = state.recent.slice(-cycle.period);
    const keys = block.map((pair) => pair.slice(0, pair.indexOf(':')));
    const span = Math.min(this.recent.length, cycle.period * cycle.reps);
    const start = this.recent[this.recent.length - span] ?? now;
    // Repeat loops of the block's commands are the same loop seen one command at a time: the cycle absorbs them, with
    // their start and the guard's steps already taken (a command of the block can be warned as a repeat first).
    let first = { g: start.g, mark: start.mark, ...(start.at !== undefined ? { at: start.at } : {}) };
    const steps: Open<M>['steps'] = {};
    let refused: Open<M> | undefined;
    const earliest = (a: number | undefined, b: number | undefined) =>
      a === undefined ? b : b === undefined ? a : Math.min(a, b);
    for (const k of keys) {
      const open = this.runs.get(k)?.open;
      if (!open) continue;
      if (open.firstG < first.g)
        first = { g: open.firstG, mark: open.firstMark, ...(open.firstAt !== undefined ? { at: open.firstAt } : {}) };
      steps.warn = earliest(steps.warn, open.steps.warn);
      steps.handoff = earliest(steps.handoff, open.steps.handoff);
      if (open.steps.refuse !== undefined && (steps.refuse === undefined || open.steps.refuse < steps.refuse)) {
        steps.refuse = open.steps.refuse;
        refused = open;
      }
      (this.runs.get(k) as { open?: Open<M> | undefined }).open = undefined;
    }
    const rel = (g: number | undefined) => (g === undefined ? undefined : g - first.g + 1);
    this.cycle = {
      kind: 'cycle',
      commands: keys.map((k) => state.cmds[k]?.c ?? '?'),
      keys,
      attempts: now.g - first.g,
      repeats: cycle.reps,
      ...(first.at !== undefined ? { firstAt: first.at } : {}),
      output: '',
      firstMark: first.mark,
      lastMark: first.mark,
      flagged: steps.warn !== undefined || steps.refuse !== undefined,
      firstG: first.g,
      steps,
      // The block's attempts so far, as far as the recent window still holds them.
      times: this.recent.flatMap((a) => (a.g >= first.g && a.g < now.g && a.at !== undefined ? [a.at] : [])),
      ...(steps.warn !== undefined ? { warnAt: rel(steps.warn) } : {}),
      ...(steps.handoff !== undefined ? { handoffAt: rel(steps.handoff) } : {}),
      ...(refused?.refuseMark !== undefined ? { refuseAt: rel(steps.refuse), refuseMark: refused.refuseMark } : {}),
      ...(refused?.refusedAtTime !== undefined ? { refusedAtTime: refused.refusedAtTime } : {}),
    };
    return this.cycle;
  }

  private touch(
    open: Open<M>,
    attempt: Attempt<M>,
    e: Extract<AuditEvent, { kind: 'shell' }>,
    v: { refused: boolean; handoff: boolean; warned: boolean },
  ): void {
    open.attempts++;
    const { refused: denied, warned } = v;
    if (v.handoff && open.handoffAt === undefined) {
      open.handoffAt = open.attempts;
      open.steps.handoff = attempt.g;
    }
    if (denied && open.refuseAt === undefined) {
      open.steps.refuse = attempt.g;
      open.refuseAt = open.attempts;
      open.refuseMark = attempt.mark;
      if (attempt.at !== undefined) open.refusedAtTime = attempt.at;
      open.flagged = true;
    }
    if (warned && open.warnAt === undefined) {
      open.warnAt = open.attempts;
      open.steps.warn = attempt.g;
    }
    if (warned) open.flagged = true;
    if (open.firstAt === undefined && attempt.at !== undefined) open.firstAt = attempt.at;
    if (attempt.at !== undefined) {
      open.lastAt = attempt.at;
      if (open.times.length < MAX_TIMES) open.times.push(attempt.at);
    }
    open.lastMark = attempt.mark;
    open.output = e.output.length > 2000 ? e.output.slice(0, 2000) : e.output;
    if (e.exitCode !== undefined) open.exitCode = e.exitCode;
    else delete open.exitCode;
  }

  private close(open: Open<M>): void {
    // A refusal carried over from a finished loop onto a call whose result then differed is not a loop of its own.
    if (!open.flagged || (open.kind === 'repeat' && open.repeats < 2)) return;
    const { keys: _k, flagged: _f, firstG: _g, steps: _s, ...episode } = open;
    this.episodes.push(episode);
  }

  private closeCycle(): void {
    if (this.cycle) this.close(this.cycle);
    this.cycle = undefined;
  }

  private closeAll(): void {
    this.closeCycle();
    for (const run of this.runs.values()) if (run.open) this.close(run.open);
    this.runs.clear();
    this.recent = [];
  }

  private dropOldestRun(): void {
    const first = this.runs.keys().next().value as string;
    const run = this.runs.get(first);
    if (run?.open) this.close(run.open);
    this.runs.delete(first);
  }
}

// The guard's own log of what it did, read for "stopped since install" (kept here: this file is audit's one link to
// src/guard).
export { readGuardLog, type GuardLogEntry } from '../guard/event-log.ts';
export { resolveStateDir } from '../guard/state-dir.ts';
