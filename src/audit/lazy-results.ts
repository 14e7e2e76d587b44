// Normalizing a result (the guard core's resultKey) is most of the replay's cost, and most results are of a command
// the session's state does not hold: nothing compares them with anything until that command comes again, if ever.
// Such a result is replayed with a stand-in output (empty), and its own text is kept; when the command comes again
// (before the guard core sees it), its record is rebuilt by the core's own onPost from the state it was counted in,
// with the real output. Why that gives the guard's answers exactly: a result of a command not in the state is counted
// as a first result (n = 1, not a poll, no thrash), so its decision does not read its text, and its text shows only in
// two places, its record's result key and failure class (read again only when the same command comes again) and its
// (command, result) pair in `recent` (unique while the command is not repeated, so cycle detection reads it the same).
// A command that writes is the exception: whether its first result is change for the others reads the text (did it
// fail, did it say something new), so it is replayed as it is.
// test/audit/lazy-results.test.ts replays the same events both ways and requires the same decisions and states.
import { onPost, type SessionState } from '../guard/core/detector.ts';
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

export class LazyResults {
  private kept = new Map<string, Kept>();

  constructor(
    private readonly settings: GuardSettings,
    private readonly enabled = true,
  ) {}

  /** The output to replay: '' when the state holds no result of this command (ck) yet, else the real one. */
  standIn(state: SessionState | undefined, ck: string, command: string, output: string): string {
    if (
      !this.enabled ||
      output.length > MAX_KEPT ||
      output === '' ||
      (state !== undefined && state.cmds[ck] !== undefined) ||
      writesState(command)
    )
      return output;
    return '';
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
   * itself when there is nothing to replace). Rare: only a command that repeats pays for its first result's key.
   */
  settle(state: SessionState | undefined, ck: string): SessionState | undefined {
    const kept = this.kept.get(ck);
    if (!kept) return state;
    this.kept.delete(ck);
    return this.rebuilt(state, ck, kept);
  }

  /** The state with every stand-in replaced, leaving them kept: what the guard core alone would hold (for the test). */
  settled(state: SessionState | undefined): SessionState | undefined {
    let s = state;
    for (const [ck, kept] of this.kept) s = this.rebuilt(s, ck, kept);
    return s;
  }

  private rebuilt(state: SessionState | undefined, ck: string, kept: Kept): SessionState | undefined {
    const stand = state?.cmds[ck];
    if (!state || stand !== kept.record) return state; // reset by a new turn, or dropped from the state since
    const real = onPost(kept.before, kept.input, this.settings).next.cmds[ck];
    if (!real) return state;
    const cmds = Object.create(null) as SessionState['cmds'];
    for (const k in state.cmds) cmds[k] = k === ck ? real : (state.cmds[k] as SessionState['cmds'][string]);
    const from = `${ck}:${(stand as { r: string }).r}`;
    const to = `${ck}:${real.r}`;
    return { ...state, cmds, recent: state.recent.map((pair) => (pair === from ? to : pair)) };
  }

  /** Drops what no state holds any more (a new turn, or a command pushed out of the state). */
  private prune(state: SessionState): void {
    for (const [ck, kept] of this.kept) if (state.cmds[ck] !== kept.record) this.kept.delete(ck);
  }
}
