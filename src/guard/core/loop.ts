// Loops that outlive a session: the sessions of one unattended loop share one count. A loop is the same
// repository with the same prompt (its hash) within LOOP_WINDOW_MS, or one LOOP_GUARD_RUN_ID. Pure: main.ts and the
// plugins do the I/O (loop-store.ts).
import { emptyState, onChange, type SessionState } from './detector.ts';
import { hash64 } from './hash.ts';

/** A loop whose last event is older than this is over: the next session with its prompt starts from zero. */
export const LOOP_WINDOW_MS = 4 * 60 * 60 * 1000;

/** What a loop's state keeps beyond a session's: when it was last touched and the tree at the last session start. */
export interface LoopFields {
  /** ms since the epoch of the last session start or update */
  at?: number;
  /** the working tree's fingerprint at the last session start */
  lt?: string;
}

export type LoopState = SessionState & LoopFields;

/**
 * The prompt as a loop knows it: a hash of its text with whitespace runs collapsed and the ends trimmed (a shell
 * loop's `$(cat PROMPT.md)` and a CRLF file give the same prompt). Never the text itself.
 */
export function promptHash(prompt: string): string {
  const text = prompt.replace(/\s+/g, ' ').trim();
  return `${hash64(text)}${hash64(`\u0002${text}`)}`;
}

/** How a prompt joins a loop: a new session recalls it, the same prompt again continues it, another prompt resets
 * it. */
export type LoopJoin = 'recall' | 'continue' | 'reset';

/**
 * How a prompt joins the loop of its hash. A new session recalls it (the restart loop). In a session that had a
 * prompt: the same prompt from a new agent process is the session resumed (`claude -p --resume`, `codex exec
 * resume`) and continues it; any other prompt, or the same one typed again in the same live process (a person's
 * "try again"), starts over. `agent` is the agent process's identity (agent-process.ts), undefined when unknown,
 * which never counts as a new process.
 */
export function joinKind(
  previous: { hash?: string | undefined; agent?: string | undefined } | undefined,
  hash: string,
  agent: string | undefined,
): LoopJoin {
  if (previous?.hash === undefined) return 'recall';
  if (previous.hash !== hash) return 'reset';
  return agent !== undefined && previous.agent !== undefined && agent !== previous.agent ? 'continue' : 'reset';
}

/**
 * A session starts (or resumes) in this loop: the state it continues from. A loop untouched for longer than
 * `windowMs` (undefined: no window, as under a run id) or a reset starts empty; a tree that moved since the last
 * session start is a change (every count starts over, as an edit would); the delivered-call list and a pending stop
 * belong to the session that had them (a new session's call ids may repeat the old ones').
 */
export function joinLoop(
  current: SessionState | undefined,
  input: { now: number; windowMs: number | undefined; kind: LoopJoin; tree?: string | undefined; asked?: string[] },
): LoopState {
  const prior = current as LoopState | undefined;
  const stale = prior?.at === undefined || (input.windowMs !== undefined && input.now - prior.at > input.windowMs);
  const recalled = prior !== undefined && input.kind !== 'reset' && !stale;
  let state: LoopState = recalled ? { ...prior, seen: [] } : emptyState();
  if (state.ladder?.h !== undefined) {
    const { h: _h, ...ladder } = state.ladder;
    state = { ...state, ladder };
  }
  const moved = recalled && input.tree !== undefined && prior.lt !== undefined && input.tree !== prior.lt;
  if (moved && Object.keys(state.cmds).length > 0) state = onChange(state, { by: 'edit' });
  const next: LoopState = { ...state, at: input.now };
  if (input.tree !== undefined) next.lt = input.tree;
  else if (prior?.lt !== undefined && next.lt === undefined) next.lt = prior.lt;
  if (input.asked && input.asked.length > 0) next.asked = input.asked;
  else delete next.asked;
  return next;
}

/** True when a join would look at the tree: a loop with counts that is still recent. */
export function worthALook(current: SessionState | undefined, now: number, windowMs: number | undefined): boolean {
  const prior = current as LoopState | undefined;
  if (!prior || prior.at === undefined || Object.keys(prior.cmds ?? {}).length === 0) return false;
  return windowMs === undefined || now - prior.at <= windowMs;
}

/** The state as written after any event of the loop: stamped, so the window runs from its last event. */
export function touched<S extends SessionState>(state: S, now: number): S & LoopFields {
  return { ...state, at: now };
}
