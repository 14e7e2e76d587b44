// The recovery ladder (seed 002), as policy over the detector's counts: warn with the reason (the 3rd identical
// result), warn again and ask for a smaller step (the 4th), refuse (the 5th attempt), and hand off — stop the turn
// with a note — after a few refused attempts in the same turn. Pure: the note is written at the edge (handoff-note.ts).
import { stateForTurn, type SessionState } from './detector.ts';
import { commandKey } from './fingerprint.ts';
import { clip, MARKER, MAX_MESSAGE_CHARS, showCommand } from './messages.ts';
import { normalizeOutput } from './normalize.ts';
import type { Decision, FailureClass, GuardSettings, HandoffNote, LadderState } from './types.ts';

import { DEFAULT_HANDOFF } from '../../tools/env.ts';

export { DEFAULT_HANDOFF };
/** Where the note goes, relative to the repository root. */
export const HANDOFF_NOTE = '.agents/handoff.md';
export const HANDOFF_JSON = '.agents/handoff.json';

/** Bounds that keep the ladder's share of the session state small and constant. */
export const LADDER_LIMITS = {
  tails: 8,
  tailLines: 6,
  tailChars: 400,
  tailInput: 1536,
  refused: 16,
  tried: 10,
} as const;

const SHRINK =
  'Two identical results in a row after the warning: the step is too big or aimed at the wrong cause. ' +
  'The next step is the smallest change that could possibly work, stated in one sentence first.';

/** Refused attempts allowed in a turn before the hand-off; 0 = never hand off. Failures retrying cannot fix climb
 * faster. */
export function handoffAfter(settings: GuardSettings, failure: FailureClass | undefined): number {
  const k = settings.handoff ?? DEFAULT_HANDOFF;
  if (k <= 0) return 0;
  // The seed's rule for auth, network and missing command/file is "never retry these": one refusal, then hand off.
  return failure ? 1 : k;
}

/** The last few lines of a result, normalized so the note shows what failed without timestamps and temp paths. */
export function lastLines(output: string): string {
  // Only the end is normalized (this runs on every result, after the fingerprint's full pass), without the line the cut
  // split.
  let tail = output;
  if (output.length > LADDER_LIMITS.tailInput) {
    tail = output.slice(-LADDER_LIMITS.tailInput);
    const nl = tail.indexOf('\n');
    if (nl >= 0 && nl < tail.length - 1) tail = tail.slice(nl + 1);
  }
  const text = normalizeOutput(tail);
  const lines = text.replace(/\s+$/, '').split('\n').slice(-LADDER_LIMITS.tailLines).join('\n');
  return lines.length <= LADDER_LIMITS.tailChars ? lines : `…${lines.slice(-(LADDER_LIMITS.tailChars - 1))}`;
}

function ladderOf(state: SessionState): LadderState {
  const l = state.ladder;
  return l && typeof l.n === 'number' && l.refused && Array.isArray(l.tails) ? l : { n: 0, refused: {}, tails: [] };
}

/** Keep the last lines of this command's result for a later note (the newest few commands only). */
export function rememberResult(state: SessionState, command: string, output: string): SessionState {
  const ck = commandKey(command);
  const l = ladderOf(state);
  const tails = l.tails.filter(([k]) => k !== ck);
  tails.push([ck, lastLines(output)]);
  return { ...state, ladder: { ...l, tails: tails.slice(-LADDER_LIMITS.tails) } };
}

/** Rung 2: the warning on the block-th identical result also asks for the smallest step that could work. */
export function shrinkStep(
  decision: Decision,
  state: SessionState,
  command: string,
  settings: GuardSettings,
): Decision {
  if (decision.action !== 'warn') return decision;
  const rec = state.cmds[commandKey(command)];
  // A poll has its own, later thresholds and its own advice (a bounded wait), so it is not told to shrink the step.
  if (!rec || rec.p !== undefined || rec.n < settings.block) return decision;
  const room = MAX_MESSAGE_CHARS - SHRINK.length - 3;
  const base = decision.message.length <= room ? decision.message : `${decision.message.slice(0, room - 1)}…`;
  return { action: 'warn', message: clip(`${base} ${SHRINK}`) };
}

/** Rungs 3 and 4: count a refusal in this turn; past the limit the refusal becomes a hand-off that stops the turn. */
export function climb(
  current: SessionState | undefined,
  input: { command: string; turnId?: string; callId?: string },
  refusal: Extract<Decision, { action: 'deny' }>,
  settings: GuardSettings,
  note = true,
): { next: SessionState; result: Decision } {
  const state = stateForTurn(current, input.turnId);
  const seenKey = input.callId ? `pre:${input.callId}` : undefined;
  // The same call delivered twice (duplicate hook entries) is one attempt.
  if (seenKey && state.seen.includes(seenKey)) return { next: state, result: refusal };
  const ck = commandKey(input.command);
  const l = ladderOf(state);
  const mine = l.refused[ck];
  let refused = { ...l.refused, [ck]: { c: mine?.c ?? input.command.slice(0, 120), n: (mine?.n ?? 0) + 1 } };
  const keys = Object.keys(refused);
  if (keys.length > LADDER_LIMITS.refused)
    refused = Object.fromEntries(keys.slice(-LADDER_LIMITS.refused).map((k) => [k, refused[k]!]));
  const seen = seenKey ? [...state.seen.slice(-31), seenKey] : state.seen;
  const next: SessionState = { ...state, seen, ladder: { ...l, n: l.n + 1, refused } };
  const limit = handoffAfter(settings, state.cmds[ck]?.f);
  if (limit === 0 || next.ladder!.n <= limit) return { next, result: refusal };
  const result = handoff(next, input.command, refusal.rule, l.n, note);
  // A tool that kept going after the stop gets stopped again, but the note is written once per turn.
  return {
    next: { ...next, ladder: { ...next.ladder!, h: ck } },
    result: l.n > limit ? { ...result, again: true } : result,
  };
}

/**
 * A 'proceed' event after a hand-off in the same turn: the stop again (no second note), for tools whose stop works
 * only there. With a command (Copilot pairs PermissionRequest with the PreToolUse before it by order, no call id)
 * only that command is stopped; without one (Qwen's next model request) the turn is.
 */
export function pendingStop(
  state: SessionState | undefined,
  input: { command?: string; turnId?: string },
): Decision | undefined {
  const h = state?.ladder?.h;
  if (!state || !h || (input.turnId !== undefined && state.turn !== input.turnId)) return undefined;
  if (input.command !== undefined && commandKey(input.command) !== h) return undefined;
  const l = ladderOf(state);
  const refused = l.refused[h];
  return { ...handoff(state, refused?.c ?? input.command ?? '', 'handoff', Math.max(0, l.n - 1)), again: true };
}

/** `note: false` (the audit, which writes no note) leaves the note's lists empty instead of building them. */
function handoff(
  state: SessionState,
  command: string,
  rule: string,
  refusedBefore: number,
  note = true,
): Extract<Decision, { action: 'handoff' }> {
  const shown = `\`${showCommand(command)}\``;
  const failure = state.cmds[commandKey(command)]?.f;
  const message = clip(
    `${MARKER} ${shown} was not run, and this turn stops here: ${refusedBefore} ` +
      `${refusedBefore === 1 ? 'attempt was' : 'attempts were'} already refused in it. What was tried and ` +
      `what each returned is in ${HANDOFF_NOTE}; the next session starts from that note.`,
  );
  const stopReason = clip(
    `loop-guard stopped the agent: ${shown} kept returning the same result` +
      `${failure ? ` (${failure})` : ''} and was refused ${refusedBefore + 1} times. Why, and what was ` +
      `tried: ${HANDOFF_NOTE}`,
  );
  return {
    action: 'handoff',
    rule,
    message,
    stopReason,
    note: note ? buildNote(state, command) : { command: command.slice(0, 120), refused: [], tried: [] },
  };
}

/** What was refused and what else was tried in this turn, each with the last lines of its result. */
export function buildNote(state: SessionState, command: string): HandoffNote {
  const l = ladderOf(state);
  const tail = new Map(l.tails);
  const refused = Object.entries(l.refused).map(([ck, r]) => {
    const rec = state.cmds[ck];
    return {
      command: rec?.c ?? r.c,
      refusals: r.n,
      results: rec?.n ?? 0,
      ...(rec?.f ? { failure: rec.f } : {}),
      lastLines: tail.get(ck) ?? '',
    };
  });
  const tried = Object.entries(state.cmds)
    .filter(([ck]) => !(ck in l.refused))
    .sort(([, a], [, b]) => b.s - a.s)
    .slice(0, LADDER_LIMITS.tried)
    .map(([ck, rec]) => ({
      command: rec.c,
      results: rec.n,
      ...(rec.f ? { failure: rec.f } : {}),
      lastLines: tail.get(ck) ?? '',
    }));
  return { command: command.slice(0, 120), refused, tried };
}
