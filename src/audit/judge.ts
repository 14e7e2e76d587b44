// The audit's judgment: replays a session's events through the guard's own core (the functions the hook and the
// OpenCode plugin call), so the audit flags exactly what the installed guard would have flagged. This is the only
// audit file that imports from src/guard; when the guard's judgment changes, this file is where audit follows it.
import { TOOL_FACTS } from '../guard/adapters/index.ts';
import { checkHang } from '../guard/core/hang/rules.ts';
import { commandKey } from '../guard/core/fingerprint.ts';
import { detectCycle, emptyState, onChange, onPost, onPre, type SessionState } from '../guard/core/detector.ts';
import { MARKER } from '../guard/core/messages.ts';
import { readSettings } from '../guard/core/settings.ts';
import type { GuardSettings, ToolName } from '../guard/core/types.ts';
import { SUBAGENT_TOOL_NAMES, type AuditEvent, type AuditTool } from './events.ts';

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
  warnAt?: number;
  /** Attempt the guard would have refused to run. */
  refuseAt?: number;
  /** The last result, for an excerpt. */
  output: string;
  exitCode?: number;
  firstMark: M;
  lastMark: M;
  /** Mark taken just before the refused attempt: everything after it is what the guard would have saved. */
  refuseMark?: M;
  refusedAtTime?: number;
}

/** A command that waits for a person, which the guard's hang rules would have refused before it ran. */
export interface Wait {
  command: string;
  rule: string;
  at?: number;
}

interface Attempt<M> {
  mark: M;
  at?: number;
}

interface Open<M> extends Episode<M> {
  /** Command keys this loop covers. */
  keys: string[];
  flagged: boolean;
}

/** The guard tool family whose hang rules apply to a transcript's shell calls (Claude's for tools the guard does not wire yet). */
const FAMILY: Readonly<Record<AuditTool, ToolName>> = { claude: 'claude', codex: 'codex', opencode: 'opencode', gemini: 'claude', copilot: 'claude' };

/**
 * Feeds one session's events through the guard core. Constant memory: the core's state is bounded, and so are the
 * open loops (one per command the core still remembers).
 */
export class SessionJudge<M> {
  private state: SessionState | undefined;
  /** Per command key: where its current run of identical results began, and the run's open loop. */
  private runs = new Map<string, { start: Attempt<M>; open?: Open<M> }>();
  private cycle: Open<M> | undefined;
  /** The last few attempts, oldest first, to find where a cycle began. */
  private recent: Attempt<M>[] = [];
  readonly episodes: Episode<M>[] = [];
  readonly waits: Wait[] = [];
  shellCalls = 0;
  /** Attempts an installed guard refused in this session (they never ran). */
  refusedByGuard = 0;

  constructor(
    private readonly tool: AuditTool,
    private readonly settings: GuardSettings,
    private readonly mark: () => M,
  ) {}

  feed(event: AuditEvent): void {
    if (event.kind === 'user') {
      this.closeAll();
      this.state = emptyState(event.turnId);
    } else if (event.kind === 'tool') {
      // As the guard: an edit or a finished sub-agent is change, so the next identical result is progress, not a repeat.
      if (event.edit || SUBAGENT_TOOL_NAMES.has(event.name)) {
        this.state = onChange(this.state, { by: event.edit ? 'edit' : 'agent', ...(event.callId ? { callId: event.callId } : {}) });
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
    const attempt: Attempt<M> = { mark: this.mark(), ...(e.at !== undefined ? { at: e.at } : {}) };
    const settings = this.settings;
    const ck = commandKey(e.command);

    // Before it runs: would the guard have refused it?
    if (settings.hangGuard) {
      const facts = TOOL_FACTS[FAMILY[this.tool]];
      const hang = checkHang(e.command, { longRunsReturn: facts.longRunsReturn, backgroundOption: facts.backgroundOption, background: false });
      if (hang && this.waits.length < 1000) this.waits.push({ command: e.command, rule: hang.rule, ...(e.at !== undefined ? { at: e.at } : {}) });
    }
    const pre = onPre(this.state, { command: e.command }, settings);

    // After it ran (it did, in the real session): the guard's count and decision.
    const { next, decision } = onPost(
      this.state,
      { command: e.command, output: e.output, ...(e.exitCode !== undefined ? { exitCode: e.exitCode } : {}), ...(e.callId ? { callId: e.callId } : {}) },
      settings,
    );
    if (next === this.state) return; // a duplicate delivery of a call already counted
    this.state = next;
    this.recent.push(attempt);
    if (this.recent.length > 12) this.recent.shift();
    const n = next.cmds[ck]?.n ?? 1;

    let run = this.runs.get(ck);
    if (!run || n === 1) {
      if (run?.open) this.close(run.open);
      run = { start: attempt };
      this.runs.set(ck, run);
      if (this.runs.size > 256) this.dropOldestRun();
    }
    const cycle = detectCycle(next.recent);
    if (this.cycle && (!cycle || !this.cycle.keys.includes(ck))) this.closeCycle();

    const inCycle = this.cycle ?? (cycle && decision.action === 'warn' && cycle.reps >= settings.warn ? this.openCycle(cycle, next) : undefined);
    if (inCycle) {
      this.touch(inCycle, attempt, e, pre.action === 'deny', decision.action === 'warn');
      inCycle.repeats = Math.max(inCycle.repeats, cycle?.reps ?? 0);
      return;
    }
    if (n >= 2 || pre.action === 'deny') {
      const open = run.open ?? (run.open = this.openRepeat(e.command, ck, run.start, n));
      open.repeats = n;
      this.touch(open, attempt, e, pre.action === 'deny', decision.action === 'warn');
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
    };
  }

  private openCycle(cycle: { period: number; reps: number }, state: SessionState): Open<M> {
    const block = state.recent.slice(-cycle.period);
    const keys = block.map((pair) => pair.slice(0, pair.indexOf(':')));
    const span = Math.min(this.recent.length, cycle.period * cycle.reps);
    const start = this.recent[this.recent.length - span] ?? this.recent[0];
    // Repeat loops of the block's commands are the same loop seen one command at a time: the cycle absorbs them.
    let firstAt = start?.at;
    let firstMark = start?.mark as M;
    for (const k of keys) {
      const run = this.runs.get(k);
      if (run?.open) {
        if (run.open.firstAt !== undefined && (firstAt === undefined || run.open.firstAt < firstAt)) {
          firstAt = run.open.firstAt;
          firstMark = run.open.firstMark;
        }
        run.open = undefined;
      }
    }
    this.cycle = {
      kind: 'cycle',
      commands: keys.map((k) => state.cmds[k]?.c ?? '?'),
      keys,
      attempts: span - 1,
      repeats: cycle.reps,
      ...(firstAt !== undefined ? { firstAt } : {}),
      output: '',
      firstMark,
      lastMark: firstMark,
      flagged: false,
    };
    return this.cycle;
  }

  private touch(open: Open<M>, attempt: Attempt<M>, e: Extract<AuditEvent, { kind: 'shell' }>, denied: boolean, warned: boolean): void {
    open.attempts++;
    if (denied && open.refuseAt === undefined) {
      open.refuseAt = open.attempts;
      open.refuseMark = attempt.mark;
      if (attempt.at !== undefined) open.refusedAtTime = attempt.at;
      open.flagged = true;
    }
    if (warned && open.warnAt === undefined) open.warnAt = open.attempts;
    if (warned) open.flagged = true;
    if (open.firstAt === undefined && attempt.at !== undefined) open.firstAt = attempt.at;
    if (attempt.at !== undefined) open.lastAt = attempt.at;
    open.lastMark = attempt.mark;
    open.output = e.output.length > 2000 ? e.output.slice(0, 2000) : e.output;
    if (e.exitCode !== undefined) open.exitCode = e.exitCode;
    else delete open.exitCode;
  }

  private close(open: Open<M>): void {
    if (!open.flagged) return;
    const { keys: _k, flagged: _f, ...episode } = open;
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

// The guard's own log of what it did, read for "stopped since install" (kept here: this file is audit's one link to src/guard).
export { readGuardLog, type GuardLogEntry } from '../guard/event-log.ts';
export { resolveStateDir } from '../guard/state.ts';
