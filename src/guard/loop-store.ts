// Where a hook event's counts live: the session's own state file, or the state file of the loop the
// session belongs to — bound by LOOP_GUARD_RUN_ID, or by the session's prompt (its hash) at its first prompt hook.
// The policy is core/loop.ts; this is its I/O: the pointer in the session file, the loop file, the one tree look.
import { resolve } from 'node:path';
import { askedCommands } from './core/asked.ts';
import type { SessionStore } from './core/decide.ts';
import { coerceState, ownOutputs, type SessionState } from './core/detector.ts';
import { joinKind, joinLoop, LOOP_WINDOW_MS, promptHash, touched, worthALook, type LoopJoin } from './core/loop.ts';
import type { TreeLook } from './core/progress.ts';
import type { Decision, GuardEvent } from './core/types.ts';
import { gitRootOf } from './git-root.ts';
import { resolveStateDir } from './state-dir.ts';
import { isLoopFileName, loopFileName, pruneOldSessions, readState, sessionFileName, updateState } from './state.ts';

type Env = Record<string, string | undefined>;
const ALLOW: Decision = { action: 'allow' };

/** The run id `create-loop-guard run` sets: every session under it is one loop, whatever its prompt. */
export function runIdOf(env: Env): string | undefined {
  const id = env.LOOP_GUARD_RUN_ID?.trim();
  return id ? id.slice(0, 200) : undefined;
}

/** The repository a loop is kept for: the git root above the project dir, else the dir itself. */
function rootOf(projectDir: string | undefined): string {
  const dir = resolve(projectDir ?? process.cwd());
  return gitRootOf(dir) ?? dir;
}

/** A store over one state file; a loop file is stamped on every write, so its window runs from its last event. */
function stateStore(dir: string, file: string, loop: boolean, first?: unknown): SessionStore {
  let cached = first;
  return {
    read: () => {
      if (cached === undefined) cached = readState<unknown>(dir, file) ?? null;
      return cached ?? undefined;
    },
    update(change) {
      let fresh = false;
      const now = Date.now();
      const result = updateState<unknown, Decision>(dir, file, (current) => {
        fresh = current === undefined;
        const { next, result } = change(current);
        return { next: loop ? touched(next, now) : next, result };
      });
      if (fresh) pruneOldSessions(dir);
      cached = undefined;
      return result;
    },
  };
}

/** Events counted in a loop carry no turn id: the loop, not the tool's per-prompt id, says when counting starts
 * over. */
function withoutTurn(event: GuardEvent): GuardEvent {
  if (!('turnId' in event) || event.turnId === undefined) return event;
  const { turnId: _t, ...rest } = event;
  return rest as GuardEvent;
}

export interface Bound {
  store: SessionStore;
  /** the store is a loop's file (a plugin keeps its other sessions in memory) */
  loop: boolean;
  event: GuardEvent;
  /** set when the event was handled here (a prompt that joined a loop): the answer */
  done?: Decision;
  /** the session's first prompt hook: nothing of this session was kept before it */
  first?: boolean;
}

/**
 * The store and event for `decide`. A prompt hook (userTurn with a prompt, or any prompt under a run id) joins the
 * loop here and is answered here; every other event goes to the loop's file when the session is bound to one, else
 * to the session's own file as before.
 */
export function bind(
  family: string,
  session: string,
  event: GuardEvent,
  env: Env,
  projectDir: string | undefined,
  look: TreeLook | undefined,
  agent: () => string | undefined = () => undefined,
  now = Date.now(),
): Bound {
  const dir = resolveStateDir(env as NodeJS.ProcessEnv);
  const sessionFile = sessionFileName(family, session);
  const runId = runIdOf(env);
  if (event.kind === 'userTurn' && (runId !== undefined || event.prompt !== undefined)) {
    const root = rootOf(projectDir);
    const mine = coerceState(readState<unknown>(dir, sessionFile));
    let loopFile: string;
    let kind: LoopJoin;
    let first = false;
    if (runId !== undefined) {
      // A run's rungs have different prompts on purpose; none of them starts the run's count over.
      loopFile = loopFileName(family, root, `run\u0000${runId}`);
      kind = 'continue';
      // The pointer only marks the session as begun (its events go to the run's file without reading it).
      if (mine === undefined) first = begin(dir, sessionFile, pointer(loopFile, '', agent()));
    } else {
      const hash = promptHash(event.prompt as string);
      loopFile = loopFileName(family, root, `prompt\u0000${hash}`);
      const ap = agent();
      kind = joinKind(mine?.ph === undefined ? undefined : { hash: mine.ph, agent: mine.ap }, hash, ap);
      if (mine?.ph !== hash || mine.lp !== loopFile || mine.ap !== ap) {
        const begun = begin(dir, sessionFile, pointer(loopFile, hash, ap));
        first = mine === undefined && begun;
      }
    }
    const windowMs = runId !== undefined ? undefined : LOOP_WINDOW_MS;
    const current = coerceState(readState<unknown>(dir, loopFile));
    const tree =
      kind !== 'reset' && look && current && worthALook(current, now, windowMs)
        ? look(ownOutputs(current, ''), current.wt)
        : undefined;
    const asked = askedCommands(event.prompt);
    const loopStore = stateStore(dir, loopFile, true);
    loopStore.update((cur) => ({
      next: joinLoop(coerceState(cur), { now, windowMs, kind, tree, asked }),
      result: ALLOW,
    }));
    return { store: loopStore, loop: true, event, done: ALLOW, first };
  }
  if (runId !== undefined) {
    const loopFile = loopFileName(family, rootOf(projectDir), `run\u0000${runId}`);
    return { store: stateStore(dir, loopFile, true), loop: true, event: withoutTurn(event) };
  }
  const mine = readState<unknown>(dir, sessionFile);
  const lp = (mine as SessionState | undefined)?.lp;
  if (isLoopFileName(lp)) {
    const loopStore = stateStore(dir, lp, true);
    // A prompt hook with no text cannot say whether the prompt changed: the loop goes on.
    if (event.kind === 'userTurn') return { store: loopStore, loop: true, event, done: ALLOW };
    return { store: loopStore, loop: true, event: withoutTurn(event) };
  }
  return { store: stateStore(dir, sessionFile, false, mine ?? null), loop: false, event };
}

/** Writes the session's pointer; true only for the one hook, of any at the same instant, that found no file. */
function begin(dir: string, sessionFile: string, next: SessionState): boolean {
  return updateState<unknown, boolean>(dir, sessionFile, (cur) => ({ next, result: cur === undefined })) === true;
}

/** A session file that says only which loop the session counts in. */
function pointer(loopFile: string, hash: string, agent: string | undefined): SessionState {
  const state: SessionState = { v: 1, seq: 0, cmds: {}, recent: [], seen: [], lp: loopFile, ph: hash };
  if (agent !== undefined) state.ap = agent;
  return state;
}
