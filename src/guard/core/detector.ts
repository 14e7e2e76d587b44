// The loop detector: pure functions over a small, bounded per-session state.
import { classifyFailure } from './classify.ts';
import { commandKey, resultKey } from './fingerprint.ts';
import { cycleBlock, cycleWarning, repeatBlock, repeatWarning } from './messages.ts';
import type { Decision, FailureClass, GuardSettings, LadderState } from './types.ts';

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
  /** the ladder's memory for this turn (refusals, last lines of results): see ladder.ts */
  ladder?: LadderState;
}

/** Bounds that keep every state read and write O(1) however long the session runs. */
export const LIMITS = { commands: 64, recent: 12, seen: 32, shownCommand: 120 } as const;
const CYCLE_PERIODS = [2, 3] as const;

export function emptyState(turn?: string): SessionState {
  return turn === undefined ? { v: 1, seq: 0, cmds: {}, recent: [], seen: [] } : { v: 1, turn, seq: 0, cmds: {}, recent: [], seen: [] };
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

/** Find a block of 2 or 3 distinct pairs repeating back to back at the end of `recent`; return its period and full repetitions. */
export function detectCycle(recent: readonly string[]): { period: number; reps: number } | null {
  let best: { period: number; reps: number } | null = null;
  for (const p of CYCLE_PERIODS) {
    if (recent.length < 2 * p) continue;
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

function evictOldest(cmds: Record<string, CommandRecord>): Record<string, CommandRecord> {
  const keys = Object.keys(cmds);
  if (keys.length <= LIMITS.commands) return cmds;
  // One command is added per event, so dropping the single oldest keeps the bound with a linear scan, not a sort.
  let oldest = keys[0] as string;
  for (const k of keys) if ((cmds[k]?.s ?? 0) < (cmds[oldest]?.s ?? 0)) oldest = k;
  const { [oldest]: _dropped, ...rest } = cmds;
  return rest;
}

/** Count a finished command and decide whether the model should be warned. */
export function onPost(
  current: SessionState | undefined,
  input: PostInput,
  settings: GuardSettings,
): { next: SessionState; decision: Decision } {
  const state = stateForTurn(current, input.turnId);
  const seenKey = input.callId ? `post:${input.callId}` : undefined;
  if (seenKey && state.seen.includes(seenKey)) return { next: state, decision: { action: 'allow' } };

  const ck = commandKey(input.command);
  const rk = resultKey(input.output, input.exitCode);
  const failure = input.exitCode === 0 ? null : classifyFailure(input.output, input.exitCode);
  const prev = state.cmds[ck];
  const n = prev && prev.r === rk ? prev.n + 1 : 1;
  const seq = state.seq + 1;
  const record: CommandRecord = { r: rk, n, s: seq, c: input.command.slice(0, LIMITS.shownCommand) };
  if (failure) record.f = failure;
  const next: SessionState = {
    ...state,
    seq,
    cmds: evictOldest({ ...state.cmds, [ck]: record }),
    recent: pushBounded(state.recent, `${ck}:${rk}`, LIMITS.recent),
    seen: seenKey ? pushBounded(state.seen, seenKey, LIMITS.seen) : state.seen,
  };

  // A cycle message names the whole sequence, which says more than a repeat message about one of its commands.
  const cycle = detectCycle(next.recent);
  if (cycle && cycle.reps >= settings.warn) {
    const commands = next.recent.slice(-cycle.period).map((pair) => next.cmds[commandOf(pair)]?.c ?? '?');
    return { next, decision: { action: 'warn', message: cycleWarning(commands, cycle.reps, settings.block) } };
  }
  // Failures that retrying cannot fix are flagged one result earlier than the rest.
  const warnAt = failure ? Math.min(2, settings.warn) : settings.warn;
  if (n >= warnAt) {
    return { next, decision: { action: 'warn', message: repeatWarning(input.command, n, settings.block, failure) } };
  }
  return { next, decision: { action: 'allow' } };
}

/** Decide, before a command runs, whether it is the next turn of a loop that has already been flagged enough. */
export function onPre(
  current: SessionState | undefined,
  input: { command: string; turnId?: string },
  settings: GuardSettings,
  opts: { sayThisCommand?: boolean } = {},
): Decision {
  const state = stateForTurn(current, input.turnId);
  const ck = commandKey(input.command);
  const rec = state.cmds[ck];
  if (rec && rec.n >= settings.block) {
    return { action: 'deny', rule: 'repeat', message: repeatBlock(input.command, rec.n, rec.f ?? null, opts.sayThisCommand) };
  }
  const cycle = detectCycle(state.recent);
  if (cycle && cycle.reps >= settings.block) {
    const block = state.recent.slice(-cycle.period);
    // Only the command that would continue the cycle is refused; anything else breaks it.
    if (block[0] !== undefined && commandOf(block[0]) === ck) {
      const commands = block.map((pair) => state.cmds[commandOf(pair)]?.c ?? '?');
      return { action: 'deny', rule: 'cycle', message: cycleBlock(commands, cycle.reps, opts.sayThisCommand) };
    }
  }
  return { action: 'allow' };
}
