// One event in, one decision out: the hang rules, then the loop detector. Shared by the hook process (guard/main.ts)
// and the OpenCode plugin, which differ only in where a session's state is kept.
import type { TreeLook } from './progress.ts';
import { coerceState, emptyState, onChange, onPost, onPre, type SessionState } from './detector.ts';
import { askedCommands, wasAsked } from './asked.ts';
import { commandKey } from './fingerprint.ts';
import { checkHang } from './hang/rules.ts';
import { askedNote } from './messages.ts';
import { climb, pendingStop, rememberResult, shrinkStep } from './ladder.ts';
import type { HangContext, ProjectFiles } from './hang/types.ts';
import type { Decision, GuardEvent, GuardSettings, GuardToolFacts, HangVerdict } from './types.ts';

const ALLOW: Decision = { action: 'allow' };

/** Hang rules for commands that keep running (not those that wait for a person): the user may ask for one to run. */
const LONG_RUNNING_RULES: ReadonlySet<string> = new Set(['dev-server', 'watch-mode', 'follow', 'watch', 'endless']);
/** A sign-in (device code, browser) waits for a person: the user who asked for it in this turn is there to finish
 * it. */
const ASKED_PERSON_RULES: ReadonlySet<string> = new Set(['login']);

/** Where one session's state lives: a file under a lock (the hook) or a map in memory (the plugin). */
export interface SessionStore {
  /** The state as last written, for pre events (writers replace it whole, so no lock is needed). */
  read(): unknown;
  /** Read, change and write as one step; undefined when the state could not be updated. */
  update(change: (current: unknown) => { next: SessionState; result: Decision }): Decision | undefined;
}

/**
 * `look` fingerprints the working tree; the core calls it only when a result repeats (see core/progress.ts).
 * `note: false` (the audit, which writes no hand-off note) skips keeping the results' last lines for the note; no
 * decision reads them, and normalizing them was a sixth of the audit's replay time. Nor is a hand-off's note built
 * then: the decision carries one with empty lists. `files` lets the hang rules read a package script or make target.
 */
export function decide(
  event: GuardEvent,
  settings: GuardSettings,
  facts: GuardToolFacts,
  store: SessionStore,
  look?: TreeLook,
  note = true,
  files?: ProjectFiles,
): Decision {
  if (event.kind === 'pre') {
    let state: SessionState | undefined;
    let asked: Decision | undefined;
    if (settings.hangGuard) {
      const hang = files
        ? checkHang(event.command, { ...hangContext(facts, event.background), files })
        : keptHang(event.command, facts, event.background);
      if (hang) {
        // The rare path: the state is read here only to see whether the user asked for this very command.
        state = coerceState(store.read());
        const current = state && (event.turnId === undefined || state.turn === event.turnId) ? state : undefined;
        const long = LONG_RUNNING_RULES.has(hang.rule);
        // The same command already ran and exited in this turn (a server failing at once on a taken port): its result
        // is what it does, so the repeat rule judges it, not the hang rule.
        const exited = long && current?.cmds[commandKey(event.command)] !== undefined;
        const askedFor = (long || ASKED_PERSON_RULES.has(hang.rule)) && wasAsked(event.command, current?.asked);
        if (!exited && !askedFor) return { action: 'deny', rule: hang.rule, message: hang.message };
        if (askedFor && long) asked = { action: 'warn', message: askedNote(event.command, facts.backgroundOption) };
      }
    }
    state ??= coerceState(store.read());
    const input =
      event.turnId === undefined ? { command: event.command } : { command: event.command, turnId: event.turnId };
    const decision = onPre(
      state,
      input,
      settings,
      look ? { sayThisCommand: facts.blockSaysThisCommand, look } : { sayThisCommand: facts.blockSaysThisCommand },
    );
    // The repeat rule still applies to a command the user asked for; when it allows, the note goes with it.
    if (asked && decision.action === 'allow') return asked;
    // Only a loop refusal climbs the ladder, and only it takes the lock: the common allow path stays a lock-free read.
    if (decision.action !== 'deny' || settings.handoff === 0) return decision;
    const climbed = store.update((current) =>
      climb(
        coerceState(current),
        { ...input, ...(event.callId ? { callId: event.callId } : {}) },
        decision,
        settings,
        note,
      ),
    );
    return climbed ?? decision;
  }
  // The hook process answers a session start itself (the hand-off note); nothing is counted.
  if (event.kind === 'start') return ALLOW;
  // A lock-free read: it fires on every permitted command or model request of the tools that send it.
  if (event.kind === 'proceed') return pendingStop(coerceState(store.read()), event) ?? ALLOW;
  // A new user turn on a session with nothing counted (none yet, or already reset for this turn) changes nothing:
  // a lock-free read spares the lock and the write, as on the pre path.
  const askedNow = event.kind === 'userTurn' ? askedCommands(event.prompt) : [];
  if (event.kind === 'userTurn' && askedNow.length === 0 && isEmptyFor(coerceState(store.read()), event.turnId))
    return ALLOW;
  const result = store.update((current) => {
    if (event.kind === 'userTurn') {
      const next = emptyState(event.turnId);
      if (askedNow.length > 0) next.asked = askedNow;
      return { next, result: ALLOW };
    }
    if (event.kind === 'change') return { next: onChange(coerceState(current), event), result: ALLOW };
    const counted = onPost(coerceState(current), event, settings, look);
    const next = note ? rememberResult(counted.next, event.command, event.output) : counted.next;
    return { next, result: shrinkStep(counted.decision, next, event.command, settings) };
  });
  return result ?? ALLOW;
}

/** checkHang's answers without project files, kept (a bounded few) per command and context: a process that lives on
 * (the plugin, audit) asks about the same commands again and again, and the answer reads nothing else. */
function keptHang(command: string, facts: GuardToolFacts, background: boolean): HangVerdict | null {
  const kept = hangsFor(facts, background);
  let hang = kept.get(command);
  if (hang === undefined) {
    if (kept.size >= MAX_HANGS) kept.clear();
    hang = checkHang(command, hangContext(facts, background));
    kept.set(command, hang);
  }
  return hang;
}
const MAX_HANGS = 512;
/** Per context (what of the facts the rules read), the answers by command. */
const hangs = new Map<string, Map<string, HangVerdict | null>>();
let lastContext: { facts: GuardToolFacts; background: boolean; kept: Map<string, HangVerdict | null> } | undefined;

/** The answers kept for one context; the last one is found without writing its key again (the audit asks per call). */
function hangsFor(facts: GuardToolFacts, background: boolean): Map<string, HangVerdict | null> {
  if (lastContext?.facts === facts && lastContext.background === background) return lastContext.kept;
  const env = facts.shellEnv ? JSON.stringify(facts.shellEnv) : '';
  const key = `${facts.longRunsReturn ? 1 : 0}${background ? 1 : 0}${facts.backgroundOption ?? ''}\0${env}`;
  let kept = hangs.get(key);
  if (!kept) {
    if (hangs.size >= 16) hangs.clear();
    hangs.set(key, (kept = new Map()));
  }
  lastContext = { facts, background, kept };
  return kept;
}

function hangContext(facts: GuardToolFacts, background: boolean): HangContext {
  const { longRunsReturn, backgroundOption, shellEnv } = facts;
  return { longRunsReturn, backgroundOption, shellEnv, background };
}

/** True when `state` is what a reset for `turnId` would write, or there is no state at all (which reads the same). */
function isEmptyFor(state: SessionState | undefined, turnId: string | undefined): boolean {
  if (state === undefined) return true;
  // A state that counted something is not empty: answered without writing it out (the audit asks at every turn).
  if (state.seq !== 0) return false;
  return JSON.stringify(state) === JSON.stringify(emptyState(turnId));
}
