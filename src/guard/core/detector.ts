// The loop detector: pure functions over a small, bounded per-session state.
import { classifyFailure } from './classify.ts';
import { commandKey, resultKey } from './fingerprint.ts';
import { pollBlock, pollCycleWarning, pollWarning, thrashNote } from './progress-messages.ts';
import { editTargets, looksFailed, MAX_WATCHED, THRASH_RUNS, writtenPaths, type TreeLook } from './progress.ts';
import { cycleBlock, cycleWarning, repeatBlock, repeatWarning } from './messages.ts';
import { pollKind, pollThresholds } from './poll.ts';
import type { Decision, FailureClass, GuardSettings, LadderState } from './types.ts';
import { unseenResult } from './unseen.ts';
import { writesState } from './writes.ts';

/** Per-command memory: the last result and how many times in a row it came back. */
export interface CommandRecord {
  /** result key of the last result */
  r: string;
  /** identical results in a row */
  n: number;
  /** sequence number of the last result (for eviction) */
  s: number;
  /** failure class of the last result, if any */
  f?: FailureClass;
  /** the command as shown in messages (clipped) */
  c: string;
  /** the session's change epoch when this result came (absent = 0) */
  e?: number;
  /** the session's edit count when this result came (absent = 0) */
  d?: number;
  /** the working tree's fingerprint at this result, when one was taken (only at repeats) */
  t?: string;
  /** identical failures in a row, each after a change (thrash) */
  x?: number;
  /** the thrash note was given for this result */
  xn?: 1;
  /** a poll (1) or a bare wait (2): other thresholds apply */
  p?: 1 | 2;
}

export interface SessionState {
  v: 1;
  /** the user turn these counts belong to (Codex turn_id, Cursor generation_id) */
  turn?: string;
  seq: number;
  cmds: Record<string, CommandRecord>;
  /** the last few (command key, result key) pairs, oldest first, for cycle detection */
  recent: string[];
  /** the last few delivered post calls, so a call delivered twice counts once */
  seen: string[];
  /** change epoch: bumped by every change (an edit tool, a sub-agent, a tree that moved); absent = 0 */
  ch?: number;
  /** edits only (edit tools, a tree that moved): what "the same failure across edits" counts; absent = 0 */
  ed?: number;
  /** the ladder's memory for this turn (refusals, last lines of results): see ladder.ts */
  ladder?: LadderState;
  /** hashes of the commands the latest user prompt asked for literally (asked.ts), never the prompt itself */
  asked?: string[];
  /** files that shell edits named (newest last, at most MAX_WATCHED): the tree look stats them too */
  wt?: string[];
  /** a session bound to a loop (loop.ts): the loop's state file, and the hash of the prompt that bound it */
  lp?: string;
  ph?: string;
  /** the agent process that sent that prompt (agent-process.ts), so a resume can be told from a person typing again */
  ap?: string;
}

/** Bounds that keep every state read and write O(1) however long the session runs. */
export const LIMITS = { commands: 64, recent: 12, seen: 32, shownCommand: 120 } as const;
const CYCLE_PERIODS = [2, 3] as const;

export function emptyState(turn?: string): SessionState {
  return turn === undefined
    ? { v: 1, seq: 0, cmds: {}, recent: [], seen: [] }
    : { v: 1, turn, seq: 0, cmds: {}, recent: [], seen: [] };
}

/** Accept a stored value only if it has our shape; anything else starts fresh (fail open). */
export function coerceState(value: unknown): SessionState | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const s = value as Partial<SessionState>;
  if (s.v !== 1 || typeof s.seq !== 'number' || !s.cmds || typeof s.cmds !== 'object') return undefined;
  if (!Array.isArray(s.recent) || !Array.isArray(s.seen)) return undefined;
  return s as SessionState;
}

/** The state that applies to an event in `turnId`: a different turn than the stored one starts over. */
export function stateForTurn(state: SessionState | undefined, turnId: string | undefined): SessionState {
  if (!state) return emptyState(turnId);
  if (turnId !== undefined && state.turn !== turnId) return emptyState(turnId);
  return state;
}

export interface PostInput {
  command: string;
  output: string;
  exitCode?: number;
  callId?: string;
  turnId?: string;
}

/** Find a block of 2 or 3 distinct pairs repeating back to back at the end of `recent`; return its period and full
 * repetitions. */
export function detectCycle(recent: readonly string[]): { period: number; reps: number } | null {
  let best: { period: number; reps: number } | null = null;
  const last = recent.length - 1;
  for (const p of CYCLE_PERIODS) {
    // Two repetitions begin with the newest pair equal to the one p back: without it there is nothing to count.
    if (recent.length < 2 * p || recent[last] !== recent[last - p]) continue;
    const block = recent.slice(-p);
    // A block with a repeated pair inside is a shorter cycle or a plain repeat, which other rules handle.
    if (new Set(block).size !== p) continue;
    let matched = 0;
    for (let i = recent.length - 1 - p; i >= 0 && recent[i] === recent[i + p]; i--) matched++;
    const reps = Math.floor((matched + p) / p);
    if (reps >= 2 && (!best || reps > best.reps)) best = { period: p, reps };
  }
  return best;
}

function commandOf(pair: string): string {
  return pair.slice(0, pair.indexOf(':'));
}

function pushBounded(list: string[], item: string, max: number): string[] {
  const next = list.length >= max ? list.slice(list.length - max + 1) : list.slice();
  next.push(item);
  return next;
}

/**
 * A copy of cmds with ck set and, past the bound, the oldest record dropped (the first with the lowest sequence
 * number, in key order). A null-prototype object is a V8 dictionary from the start: spreading a 64-key object whose
 * keys keep changing built a new hidden class on every event (8× slower, most of the audit's replay time). The
 * oldest is found during the copy: one command is added per event, so dropping one keeps the bound.
 */
function withRecord(
  cmds: Record<string, CommandRecord>,
  ck: string,
  record: CommandRecord,
): Record<string, CommandRecord> {
  const next = Object.create(null) as Record<string, CommandRecord>;
  let count = 0;
  let oldest: string | undefined;
  let oldestS = 0;
  let hasCk = false;
  for (const k in cmds) {
    const rec = k === ck ? ((hasCk = true), record) : (cmds[k] as CommandRecord);
    next[k] = rec;
    count++;
    const s = rec?.s ?? 0;
    if (oldest === undefined || s < oldestS) (oldest = k), (oldestS = s);
  }
  if (!hasCk) {
    next[ck] = record;
    count++;
    if (oldest === undefined || (record.s ?? 0) < oldestS) oldest = ck;
  }
  if (count > LIMITS.commands) delete next[oldest as string];
  return next;
}

/** Files this command and the session's recent commands write by redirection: their output, not edits (a cycle A,B
 * where B appends to its log must stay a cycle). */
export function ownOutputs(state: SessionState, command: string): string[] {
  const paths = writtenPaths(command);
  for (const pair of state.recent) {
    const c = state.cmds[commandOf(pair)]?.c;
    if (c) paths.push(...writtenPaths(c));
  }
  return paths;
}

/** Record that the workspace changed (an edit tool, a sub-agent): the next identical result of any command is progress,
 * not a repeat. */
export function onChange(
  current: SessionState | undefined,
  input: { by: 'edit' | 'agent'; callId?: string; turnId?: string },
): SessionState {
  const state = stateForTurn(current, input.turnId);
  const seenKey = input.callId ? `change:${input.callId}` : undefined;
  if (seenKey && state.seen.includes(seenKey)) return state;
  const ch = (state.ch ?? 0) + 1;
  // A marker in `recent` breaks any cycle across the change, as the change breaks the loop.
  return {
    ...state,
    ch,
    ...(input.by === 'edit' ? { ed: (state.ed ?? 0) + 1 } : {}),
    recent: pushBounded(state.recent, `~:${ch}`, LIMITS.recent),
    seen: seenKey ? pushBounded(state.seen, seenKey, LIMITS.seen) : state.seen,
  };
}

/** Count a finished command and decide whether the model should be warned. `look` fingerprints the working tree (I/O,
 * called only when a result repeats). */
export function onPost(
  current: SessionState | undefined,
  input: PostInput,
  settings: GuardSettings,
  look?: TreeLook,
): { next: SessionState; decision: Decision } {
  const state0 = stateForTurn(current, input.turnId);
  const seenKey = input.callId ? `post:${input.callId}` : undefined;
  if (seenKey && state0.seen.includes(seenKey)) return { next: state0, decision: { action: 'allow' } };

  const ck = commandKey(input.command);
  const rk = resultKey(input.output, input.exitCode, input.command);
  let failure = input.exitCode === 0 ? null : classifyFailure(input.output, input.exitCode);
  const prev = state0.cmds[ck];
  const same = prev !== undefined && prev.r === rk;
  let state = state0;
  // Change since the previous identical result: an edit event (epoch), else, only now that the result repeats, the
  // tree.
  let changed = same && (prev.e ?? 0) !== (state.ch ?? 0);
  let tree: string | undefined;
  if (same && !changed && look) {
    tree = look(ownOutputs(state, input.command), state.wt);
    if (tree !== undefined && prev.t !== undefined && tree !== prev.t) {
      changed = true;
      state = onChange(state, { by: 'edit' });
    }
  }
  const edited = same && (prev.d ?? 0) !== (state.ed ?? 0);
  const n = same && !changed ? prev.n + 1 : 1;
  // A check right after a bare wait (`sleep 10`, then `git status`) is a poll too, and stays one.
  const last = state.recent[state.recent.length - 1];
  const afterWait = last !== undefined && state.cmds[commandOf(last)]?.p === 2;
  // Classified only once a result repeats (a repeat always comes before any warning), so a new result runs no regex.
  const sticky = same && prev.p !== undefined ? (prev.p === 1 ? 'poll' : 'wait') : null;
  // A command stopped at the tool's timeout never finished its check, so it is no poll: it gets the plain thresholds
  // and the timeout advice.
  const timedOut = n >= 2 && unseenResult(input.output)?.kind === 'timeout';
  const kind = timedOut
    ? null
    : n >= 2
      ? (pollKind(input.command) ?? (afterWait || prev?.p === 1 ? 'poll' : null))
      : sticky;
  // A poll's "connection refused" is what it waits for, not a failure that retrying cannot fix.
  if (kind && failure === 'network') failure = null;
  const failed = input.exitCode !== undefined ? input.exitCode !== 0 : looksFailed(input.output);
  const x = same ? (edited && failed ? (prev.x ?? 1) + 1 : (prev.x ?? 1)) : 1;
  const seq = state.seq + 1;
  const record: CommandRecord = { r: rk, n, s: seq, c: input.command.slice(0, LIMITS.shownCommand) };
  if (failure) record.f = failure;
  if (state.ch) record.e = state.ch;
  if (state.ed) record.d = state.ed;
  if (tree !== undefined) record.t = tree;
  if (x > 1) record.x = x;
  const noteNow = failed && x >= THRASH_RUNS && !(same && prev.xn);
  if (noteNow || (same && prev.xn)) record.xn = 1;
  if (kind) record.p = kind === 'poll' ? 1 : 2;
  const next: SessionState = {
    ...state,
    seq,
    cmds: withRecord(state.cmds, ck, record),
    recent: pushBounded(state.recent, `${ck}:${rk}`, LIMITS.recent),
    seen: seenKey ? pushBounded(state.seen, seenKey, LIMITS.seen) : state.seen,
  };
  // Files a shell edit names, for the tree look of later repeats (outside git, or deeper than it reaches).
  const targets = editTargets(input.command);
  if (targets.length)
    next.wt = [...(state.wt ?? []).filter((p) => !targets.includes(p)), ...targets].slice(-MAX_WATCHED);
  // A command that writes (`bd close X`, `git commit`, `> notes.md`), succeeded and said something new (not a result
  // it gave in the recent window) is change for every other command's count. Its own record takes the new epoch, so
  // the same write repeated still counts; no marker goes into `recent`, so a cycle of the same pairs stays a cycle.
  if (n === 1 && !failed && !state.recent.includes(`${ck}:${rk}`) && writesState(input.command)) {
    const ch = (state.ch ?? 0) + 1;
    record.e = ch;
    next.ch = ch;
  }

  if (noteNow) return { next, decision: { action: 'warn', message: thrashNote(input.command, x) } };
  return { next, decision: postDecision(next, input, n, kind, failure, settings) };
}

/** Pure: what a counted result gets: a cycle's warning, a poll's, a repeat's (by the count `n`), or nothing. */
function postDecision(
  next: SessionState,
  input: PostInput,
  n: number,
  kind: 'poll' | 'wait' | null,
  failure: FailureClass | null,
  settings: GuardSettings,
): Decision {
  // A cycle message names the whole sequence, which says more than a repeat message about one of its commands.
  const cycle = detectCycle(next.recent);
  if (cycle) {
    const block = next.recent.slice(-cycle.period);
    const polling = block.some((pair) => next.cmds[commandOf(pair)]?.p !== undefined);
    const limits = polling ? pollThresholds(settings) : settings;
    if (cycle.reps >= limits.warn) {
      const commands = block.map((pair) => next.cmds[commandOf(pair)]?.c ?? '?');
      const message = polling
        ? pollCycleWarning(commands, cycle.reps, limits.block)
        : cycleWarning(commands, cycle.reps, limits.block);
      return { action: 'warn', message };
    }
  }
  // A bare wait says nothing by itself; only the check after it can repeat.
  if (kind === 'wait') return { action: 'allow' };
  if (kind === 'poll') {
    const poll = pollThresholds(settings);
    if (n >= poll.warn) return { action: 'warn', message: pollWarning(input.command, n, poll.block) };
    return { action: 'allow' };
  }
  // Failures that retrying cannot fix are flagged one result earlier than the rest.
  const warnAt = failure ? Math.min(2, settings.warn) : settings.warn;
  if (n >= warnAt)
    return {
      action: 'warn',
      message: repeatWarning(input.command, n, settings.block, failure, unseenResult(input.output)),
    };
  return { action: 'allow' };
}

/** Decide, before a command runs, whether it is the next turn of a loop that has already been flagged enough. */
export function onPre(
  current: SessionState | undefined,
  input: { command: string; turnId?: string },
  settings: GuardSettings,
  opts: { sayThisCommand?: boolean; look?: TreeLook } = {},
): Decision {
  const state = stateForTurn(current, input.turnId);
  const ck = commandKey(input.command);
  const rec = state.cmds[ck];
  // Anything changed since the last identical result (an edit event, else the tree, looked at only on this rare path)
  // lets it run.
  const changedSince = (r: CommandRecord): boolean => {
    if ((r.e ?? 0) !== (state.ch ?? 0)) return true;
    if (r.t === undefined || !opts.look) return false;
    const tree = opts.look(ownOutputs(state, input.command), state.wt);
    return tree !== undefined && tree !== r.t;
  };
  if (rec && rec.p !== 2) {
    const block = rec.p === 1 ? pollThresholds(settings).block : settings.block;
    if (rec.n >= block && !changedSince(rec)) {
      const message =
        rec.p === 1
          ? pollBlock(input.command, rec.n, opts.sayThisCommand)
          : repeatBlock(input.command, rec.n, rec.f ?? null, opts.sayThisCommand);
      return { action: 'deny', rule: rec.p === 1 ? 'poll' : 'repeat', message };
    }
  }
  const cycle = detectCycle(state.recent);
  if (cycle) {
    const block = state.recent.slice(-cycle.period);
    const polling = block.some((pair) => state.cmds[commandOf(pair)]?.p !== undefined);
    const limit = polling ? pollThresholds(settings).block : settings.block;
    // Only the command that would continue the cycle is refused; anything else breaks it.
    if (cycle.reps >= limit && block[0] !== undefined && commandOf(block[0]) === ck) {
      const commands = block.map((pair) => state.cmds[commandOf(pair)]?.c ?? '?');
      return { action: 'deny', rule: 'cycle', message: cycleBlock(commands, cycle.reps, opts.sayThisCommand) };
    }
  }
  return { action: 'allow' };
}
