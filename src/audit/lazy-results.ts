// Normalizing a result (the guard core's resultKey) is most of the replay's cost, and most results are of a command
// the session's state does not hold: nothing compares them with anything until that command comes again, if ever.
// Such a result is replayed with a stand-in output (empty, which normalizes at once), and its own text is kept; when
// the command comes again (before the guard core sees it), its record is rebuilt by the core's own onPost from the
// state it was counted in, with the real output. Why that gives the guard's answers exactly: a result of a command not
// in the state is counted as a first result (n = 1, not a poll, no thrash), so its decision does not read its text,
// and its text shows only in two places, its record's result key and failure class (read again only when the same
// command comes again) and its (command, result) pair in `recent` (unique while the command is not repeated, so cycle
// detection reads it the same). The same holds for a command whose record is from before the latest change (an edit,
// a sub-agent, a write): its count starts over at 1 whatever the text says, so when nothing else reads whether the
// result is the same as the last one (no poll kind, no thrash count, not a failure after an edit, no pair of the
// command among the last three in `recent`), it stands in too, and its earlier stand-in is not rebuilt (textFree,
// settle). A stand-in record differs from the real one in its result key and failure class only, which is why these
// conditions can be read on a state that holds stand-ins.
// A command that writes is the exception: whether its first result is change for the others reads the text (did it
// fail, did it say something new), so it is replayed as it is.
// test/audit/lazy-results.test.ts replays the same events both ways and requires the same decisions and states.
import { type CommandRecord, coerceState, onPost, type SessionState } from '../guard/core/detector.ts';
import type { GuardSettings } from '../guard/core/types.ts';
import { writesState } from '../guard/core/writes.ts';

/** Results longer than this are replayed as they are: kept texts stay small (at most 64 commands × this). */
const MAX_KEPT = 256 * 1024;

interface Kept {
  /** The record the stand-in produced: the state still holds this very object until the command comes again. */
  record: unknown;
  /** The state the result was counted in. States are never changed in place, so this one is as it was. */
  before: SessionState | undefined;
  input: { command: string; output: string; exitCode?: number; callId?: string };
}

/** A result about to be replayed: its command, text and exit code. */
export interface Upcoming {
  command: string;
  output: string;
  exitCode?: number | undefined;
  callId?: string | undefined;
}

/**
 * True when the guard's answer to this result, and every record field but its key and failure class, cannot depend on
 * its text (see the header): the command is not in the state, or its record is from an older change epoch with
 * nothing that compares the two results (onPost reads `same` only for the poll kind, the thrash count and its note,
 * and the cycle pairs). The exit code must be known when an edit came since (then `failed` would read the text).
 */
function textFree(state: SessionState | undefined, ck: string, e: Upcoming): boolean {
  if (e.output === '' || e.output.length > MAX_KEPT || writesState(e.command)) return false;
  const prev = state?.cmds[ck];
  if (!state || !prev) return true;
  if ((prev.e ?? 0) === (state.ch ?? 0) || prev.p !== undefined || prev.x !== undefined || prev.xn !== undefined)
    return false;
  if ((prev.d ?? 0) !== (state.ed ?? 0) && e.exitCode !== 0) return false;
  // Cycle detection compares pairs 2 or 3 apart, so a pair of the command further back never meets this one.
  const head = `${ck}:`;
  for (let i = Math.max(0, state.recent.length - 3); i < state.recent.length; i++)
    if ((state.recent[i] as string).startsWith(head)) return false;
  return true;
}

export class LazyResults {
  private kept = new Map<string, Kept>();
  /** Stand-ins left unrebuilt, by the tag their pair in `recent` got instead (the newest few: recent holds 12). */
  private stale: Array<{ ck: string; tag: string; kept: Kept }> = [];
  private count = 0;

  constructor(
    private readonly settings: GuardSettings,
    private readonly enabled = true,
  ) {}

  /** The output to replay: a stand-in when its text cannot change the guard's answers yet (textFree), else the real
   * one. */
  standIn(state: SessionState | undefined, ck: string, e: Upcoming): string {
    return this.enabled && textFree(state, ck, e) ? '' : e.output;
  }

  /** After a post replayed with a stand-in: keep what rebuilding its record needs. */
  keep(ck: string, before: SessionState | undefined, after: SessionState | undefined, input: Kept['input']): void {
    const record = after?.cmds[ck];
    if (!after || !record || after === before) return;
    this.kept.set(ck, { record, before, input });
    if (this.kept.size > 256) this.prune(after);
  }

  /**
   * Before the guard sees command ck again: the state with ck's stand-in record replaced by the real one (the state
   * itself when there is nothing to replace). Rare: only a command that repeats pays for its first result's key, and
   * not even then when the upcoming result `next` stands in as well (no decision before its post reads either key,
   * see textFree; the earlier stand-in's record then leaves the state unread, and its pair, 4 or more back, meets no
   * pair of the same command: the next one is at least 5 away).
   */
  settle(state: SessionState | undefined, ck: string, next?: Upcoming): SessionState | undefined {
    const kept = this.kept.get(ck);
    if (!kept) return state;
    const s = coerceState(state);
    // A call delivered again is not counted: its post leaves the stand-in in the state, so it is settled first.
    const again = next?.callId !== undefined && s?.seen.includes(`post:${next.callId}`);
    if (!s || !next || !this.enabled || again || !textFree(s, ck, next)) {
      this.kept.delete(ck);
      return this.rebuilt(state, ck, kept);
    }
    // Its pair, the newest of ck in `recent` if still there, gets a tag of its own (no key is hex with a '~'): no
    // decision reads it, and the test's settled state finds it again by that tag.
    const at = s.recent.lastIndexOf(`${ck}:${(kept.record as CommandRecord).r}`);
    if (at === -1) return state;
    const tag = `${ck}:~${this.count++}`;
    this.stale.push({ ck, tag, kept });
    if (this.stale.length > 12) this.stale.shift();
    return { ...s, recent: s.recent.map((pair, i) => (i === at ? tag : pair)) };
  }

  /** The state with every stand-in replaced, leaving them kept: what the guard core alone would hold (for the test). */
  settled(state: SessionState | undefined): SessionState | undefined {
    let s = state;
    for (const { ck, tag, kept } of this.stale) if (s) s = this.withPair(s, tag, ck, this.realRecord(ck, kept));
    for (const [ck, kept] of this.kept) s = this.rebuilt(s, ck, kept);
    return s;
  }

  private realRecord(ck: string, kept: Kept): CommandRecord | undefined {
    return onPost(kept.before, kept.input, this.settings).next.cmds[ck];
  }

  private rebuilt(state: SessionState | undefined, ck: string, kept: Kept): SessionState | undefined {
    const stand = state?.cmds[ck];
    if (!state || stand !== kept.record) return state; // reset by a new turn, or dropped from the state since
    const real = this.realRecord(ck, kept);
    if (!real) return state;
    const cmds = Object.create(null) as SessionState['cmds'];
    for (const k in state.cmds) cmds[k] = k === ck ? real : (state.cmds[k] as CommandRecord);
    return this.withPair({ ...state, cmds }, `${ck}:${(stand as CommandRecord).r}`, ck, real);
  }

  /**
   * The state with `pair` in `recent` given the real result key. The newest such pair is the stand-in's (a later
   * result of ck would have settled it or tagged it); an older one is real.
   */
  private withPair(state: SessionState, pair: string, ck: string, real: CommandRecord | undefined): SessionState {
    const at = state.recent.lastIndexOf(pair);
    if (at === -1 || !real) return state;
    return { ...state, recent: state.recent.map((p, i) => (i === at ? `${ck}:${real.r}` : p)) };
  }

  /** Drops what no state holds any more (a new turn, or a command pushed out of the state). */
  private prune(state: SessionState): void {
    for (const [ck, kept] of this.kept) if (state.cmds[ck] !== kept.record) this.kept.delete(ck);
  }
}
