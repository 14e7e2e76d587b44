// Replays one tool's hook payloads through the hook commands configured in the repo and judges the answers:
// results 1–2 silent, a `loop-guard:` warning on the 3rd, the 5th and 6th attempts denied, the 7th a hand-off (a
// refusal that also stops the turn, in the tool's own stop fields), and a user turn lets it run again.
import { TOOLS, type ReplayFacts, type ToolName } from '../tools/index.ts';
import { READERS, type Reading, type Step } from './answers.ts';
import { type Json, loadPayload } from './payloads.ts';
import { describeExit, type ProcResult } from './exec.ts';
import { type Check, fail, pass, RERUN } from './types.ts';
import { type Obj, obj } from '../guard/json-value.ts';

export type { Reading, Step } from './answers.ts';

/** The failing command the replay repeats, and its output: a test failure, which the guard counts normally (an
 * "unfixable" class such as a missing file would warn on the 2nd result already). */
export const REPLAY_COMMAND = 'npm test';
export const REPLAY_OUTPUT =
  'FAIL src/sum.test.ts > adds\nAssertionError: expected 2 to be 3\nTests  1 failed | 4 passed (5)\nDuration  1.21s';

/** A command the hang rules refuse before it runs (the `editor` rule, which every tool keeps), so the replay proves
 * they are on. */
export const HANG_COMMAND = 'vim notes.txt';

/** The same for a Windows shell tool: PowerShell's `notepad` opens a window and waits (hang/powershell.ts). */
export const WINDOWS_HANG_COMMAND = 'notepad notes.txt';

/** What the replayed user says. */
const PROMPT = 'try a different approach';

export interface Driver {
  events: Record<Step, string>;
  pre(attempt: number, turn: number, command?: string): Json;
  post(attempt: number, turn: number): Json;
  userTurn(turn: number): Json;
  read(stdout: string, step: Step, event: string): Reading;
  /** The tool has no stop field the hook can set: its hand-off reads as a refusal that says the turn stops here. */
  handoffIsDeny?: boolean;
  /** The tool's Windows shell tool, as its pre payload (ReplayFacts.windowsShell). */
  windows?: { label: string; pre(attempt: number, turn: number): Json };
  /** The event whose answer ends the run (ReplayFacts.stop), sent after every pre; its answer, if it stops, makes that
   *  attempt the hand-off. */
  stop?: { event: string; answer: Record<string, unknown>; payload(attempt: number, turn: number): Json };
}

/** A hook's JSON answer as an object, or null when it is not one. */
function parseAnswer(text: string): Obj | null {
  try {
    return obj(JSON.parse(text)) ?? null;
  } catch {
    return null;
  }
}

/** The value at a dotted path, or undefined. */
export function getPath(o: unknown, path: string): unknown {
  let cur: unknown = o;
  for (const k of path.split('.')) cur = obj(cur)?.[k];
  return cur;
}

/** Overwrite the value at a dotted path only where the payload has it (a list gets `[value]`): the replay changes
 *  fields of the captured payload, it never adds one the tool does not send. */
function setPresent(o: Obj, path: string, value: unknown): void {
  const keys = path.split('.');
  const last = keys.pop() as string;
  let cur: Obj | undefined = o;
  for (const k of keys) cur = obj(cur?.[k]);
  if (cur && last in cur) cur[last] = Array.isArray(cur[last]) ? [value] : value;
}

/** Pure: a driver from the tool's replay facts and its three captured payloads. */
export function buildDriver(
  facts: ReplayFacts,
  label: string,
  captured: Record<Step, Json> & { stop?: Json; windows?: Json },
  root: string,
): Driver {
  const firstTurnId = facts.turnId === undefined ? undefined : getPath(captured.pre, facts.turnId);
  const make = (step: Step | 'stop', attempt: number, turn: number): Obj => {
    const p = structuredClone(captured[step]) as Obj;
    for (const f of facts.root) setPresent(p, f, root);
    // Each tool marks a new user message with a new id; the replay does the same after the user turn.
    if (facts.turnId !== undefined) setPresent(p, facts.turnId, turn === 1 ? firstTurnId : `doctor-turn-${turn}`);
    if (facts.callId !== undefined && step !== 'turn') setPresent(p, facts.callId, `doctor-call-${attempt}`);
    return p;
  };
  const windowsPre = (attempt: number, turn: number): Obj => {
    const p = structuredClone(captured.windows) as Obj;
    for (const f of facts.root) setPresent(p, f, root);
    if (facts.turnId !== undefined) setPresent(p, facts.turnId, `doctor-turn-${turn}`);
    if (facts.callId !== undefined) setPresent(p, facts.callId, `doctor-call-${attempt}`);
    setPresent(p, facts.command, WINDOWS_HANG_COMMAND);
    return p;
  };
  const read = READERS[facts.answers];
  const who = { label, preEvent: facts.pre.event, stops: facts.handoff === 'stops' };
  return {
    events: { pre: facts.pre.event, post: facts.post.event, turn: facts.turn.event },
    pre: (attempt, turn, command = REPLAY_COMMAND) => {
      const p = make('pre', attempt, turn);
      setPresent(p, facts.command, command);
      return p;
    },
    post: (attempt, turn) => {
      const p = make('post', attempt, turn);
      setPresent(p, facts.command, REPLAY_COMMAND);
      return { ...p, ...facts.result({ command: REPLAY_COMMAND, output: REPLAY_OUTPUT, exitCode: 1, attempt }) };
    },
    userTurn: (turn) => {
      const p = make('turn', 0, turn);
      for (const f of facts.prompt) setPresent(p, f, PROMPT);
      return p;
    },
    read: (stdout, step, event) => read(stdout, step, event, who),
    ...(facts.handoff === 'refusal' ? { handoffIsDeny: true } : {}),
    ...(facts.windowsShell && captured.windows !== undefined
      ? {
          windows: {
            label: facts.windowsShell.label,
            pre: (attempt: number, turn: number) => windowsPre(attempt, turn),
          },
        }
      : {}),
    ...(facts.stop && captured.stop !== undefined
      ? {
          stop: {
            event: facts.stop.event,
            answer: facts.stop.answer,
            payload: (attempt: number, turn: number) => {
              const p = make('stop', attempt, turn);
              setPresent(p, facts.stop?.command ?? facts.command, REPLAY_COMMAND);
              return p;
            },
          },
        }
      : {}),
  };
}

/** The tool's driver, built from its record and its payloads shipped in assets/payloads/<tool>/; null without replay
 * facts. */
export function driverFor(tool: ToolName, root: string): Driver | null {
  const facts = TOOLS[tool].doctor.replay;
  if (!facts) return null;
  const load = (file: string) => loadPayload(`${tool}/${file}`);
  const stop = facts.stop ? { stop: load(facts.stop.payload) } : {};
  const windows = facts.windowsShell ? { windows: load(facts.windowsShell.payload) } : {};
  return buildDriver(
    facts,
    TOOLS[tool].label,
    {
      pre: load(facts.pre.payload),
      post: load(facts.post.payload),
      turn: load(facts.turn.payload),
      ...stop,
      ...windows,
    },
    root,
  );
}

/** Runs one hook command with a payload on stdin. */
export type Send = (command: string, payload: Json) => Promise<ProcResult>;

interface Entry {
  step: Step;
  attempt: number;
  reading: Reading | 'no-hook';
}

function mark(e: Entry): string {
  if (e.reading === 'no-hook') return '-';
  const k = e.reading.kind;
  return k === 'silent' ? 'ok' : k === 'handoff' ? 'stop' : k;
}

/** "attempts 1–5: ok/ok ok/ok ok/warn …", one token per pre/post pair, for messages. */
function timeline(entries: readonly Entry[]): string {
  const parts: string[] = [];
  for (let a = 1; a <= 8; a++) {
    const pre = entries.find((e) => e.step === 'pre' && e.attempt === a);
    const post = entries.find((e) => e.step === 'post' && e.attempt === a);
    if (a === 8) parts.push('| user turn |');
    if (pre) parts.push(`${a}:${mark(pre)}${post ? `/${mark(post)}` : ''}`);
  }
  return parts.join(' ');
}

/** The broken-hook fix: reinstall. */
const FIX_BROKEN = `${RERUN} to reinstall the guard and its hook entries, then run doctor again`;

/** One replay under way: its check id, the tool's driver and hook commands, and the readings so far. */
interface Session {
  id: string;
  driver: Driver;
  commands: Readonly<Record<string, string>>;
  send: Send;
  entries: Entry[];
}

/** Sends one payload to the hook of its step's event (skipped, as the tool would, when there is none). */
async function deliver(s: Session, step: Step, attempt: number, payload: Json): Promise<Check | null> {
  const event = s.driver.events[step];
  const command = s.commands[event];
  if (command === undefined) {
    s.entries.push({ step, attempt, reading: 'no-hook' });
    return null;
  }
  const r = await s.send(command, payload);
  if (r.status !== 0 || r.timedOut || r.spawnError) {
    return fail(s.id, `the ${event} hook command \`${command}\` ${describeExit(r)}`, FIX_BROKEN);
  }
  s.entries.push({ step, attempt, reading: s.driver.read(r.stdout, step, event) });
  return null;
}

/** Where the stop is another event's answer, that event follows each pre, and its stop makes the attempt the
 * hand-off. */
async function stopAfter(s: Session, attempt: number, turn: number): Promise<Check | null> {
  const { driver, entries } = s;
  const last = entries[entries.length - 1];
  const stopCommand = driver.stop ? s.commands[driver.stop.event] : undefined;
  if (
    !driver.stop ||
    stopCommand === undefined ||
    last?.step !== 'pre' ||
    last.reading === 'no-hook' ||
    last.reading.kind === 'bad'
  )
    return null;
  const r = await s.send(stopCommand, driver.stop.payload(attempt, turn));
  if (r.status !== 0 || r.timedOut || r.spawnError)
    return fail(s.id, `the ${driver.stop.event} hook command \`${stopCommand}\` ${describeExit(r)}`, FIX_BROKEN);
  const answer = r.stdout.trim() ? parseAnswer(r.stdout.trim()) : {};
  const stops = answer !== null && Object.entries(driver.stop.answer).every(([k, v]) => answer[k] === v);
  if (stops)
    last.reading = { kind: 'handoff', text: last.reading.kind === 'silent' ? r.stdout.trim() : last.reading.text };
  return null;
}

/** The sequence itself: 7 attempts, the user turn, one more attempt, the hang command; a broken hook ends it. */
async function drive(s: Session): Promise<Check | null> {
  const { driver, entries } = s;
  for (let attempt = 1; attempt <= 7; attempt++) {
    const broken = (await deliver(s, 'pre', attempt, driver.pre(attempt, 1))) ?? (await stopAfter(s, attempt, 1));
    if (broken) return broken;
    const last = entries[entries.length - 1];
    // A denied command never runs, so there is no result to report for it.
    if (
      last?.step === 'pre' &&
      last.reading !== 'no-hook' &&
      (last.reading.kind === 'deny' || last.reading.kind === 'handoff')
    )
      continue;
    const brokenPost = await deliver(s, 'post', attempt, driver.post(attempt, 1));
    if (brokenPost) return brokenPost;
  }
  const brokenTurn = await deliver(s, 'turn', 8, driver.userTurn(2));
  if (brokenTurn) return brokenTurn;
  const brokenAgain = (await deliver(s, 'pre', 8, driver.pre(8, 2))) ?? (await stopAfter(s, 8, 2));
  if (brokenAgain) return brokenAgain;
  const brokenHang = await deliver(s, 'pre', 9, driver.pre(9, 2, HANG_COMMAND));
  if (brokenHang || !driver.windows) return brokenHang;
  return deliver(s, 'pre', 10, driver.windows.pre(10, 2));
}

/** Pure: why a part of the sequence cannot work, one phrase per hook the config lacks. */
function missingHooks(driver: Driver, commands: Readonly<Record<string, string>>): string[] {
  const hint: string[] = [];
  for (const e of ['pre', 'post', 'turn'] as const) {
    if (commands[driver.events[e]] === undefined)
      hint.push(
        `no ${driver.events[e]} hook, so ` +
          `${e === 'post' ? 'results never reach the guard' : e === 'pre' ? 'nothing can be denied' : 'a new user message never reaches it'}`,
      );
  }
  if (driver.stop && commands[driver.stop.event] === undefined)
    hint.push(`no ${driver.stop.event} hook, so a hand-off cannot end the run`);
  return hint;
}

/** A reading's kind, with 'none' for an event that was never sent. */
const kind = (r: Reading | 'no-hook' | undefined) => (r === undefined ? 'none' : r === 'no-hook' ? 'no-hook' : r.kind);

/** Pure: what the readings got wrong against the expected warn, deny, hand-off and reset, one phrase each. */
function problemsIn(entries: readonly Entry[], driver: Driver, commands: Readonly<Record<string, string>>): string[] {
  const at = (step: Step, attempt: number) => entries.find((e) => e.step === step && e.attempt === attempt)?.reading;
  const problems: string[] = [];
  const early = entries.find((e) => e.step === 'pre' && e.attempt < 5 && kind(e.reading) === 'deny');
  if (early) problems.push(`denied attempt ${early.attempt} already (expected the 5th)`);
  for (const a of [1, 2]) if (kind(at('post', a)) === 'warn') problems.push(`warned on result ${a} (expected the 3rd)`);
  const third = at('post', 3);
  if (kind(third) !== 'warn') problems.push('no warning on the 3rd identical result');
  else if (third && third !== 'no-hook' && third.kind === 'warn' && !third.text.startsWith('loop-guard:'))
    problems.push('the 3rd result got a warning that does not start with `loop-guard:`');
  const fifth = at('pre', 5);
  if (!early && kind(fifth) !== 'deny') problems.push('the 5th attempt was not denied');
  else if (fifth && fifth !== 'no-hook' && fifth.kind === 'deny' && !fifth.text.startsWith('loop-guard:'))
    problems.push('the 5th attempt was denied with a reason that does not start with `loop-guard:`');
  if (!early && kind(at('pre', 6)) !== 'deny') problems.push('the 6th attempt was not denied');
  const seventh = at('pre', 7);
  const handedOff = driver.handoffIsDeny
    ? kind(seventh) === 'deny' &&
      seventh !== 'no-hook' &&
      seventh?.kind === 'deny' &&
      seventh.text.includes('turn stops here')
    : kind(seventh) === 'handoff';
  if (!early && !handedOff && commands[driver.events.pre] !== undefined) {
    problems.push(
      `the 7th attempt (after 2 refusals in the turn) was not a hand-off` +
        `${driver.handoffIsDeny ? '' : ' that stops the turn'} (an older guard, or LOOP_GUARD_HANDOFF=0)`,
    );
  }
  const turn = at('turn', 8);
  if (kind(turn) === 'warn' || kind(turn) === 'deny' || kind(turn) === 'handoff')
    problems.push('the user-prompt event got an answer instead of passing silently');
  const after = at('pre', 8);
  if (kind(after) === 'deny' || kind(after) === 'handoff') problems.push('still denied after a new user message');
  const hang = at('pre', 9);
  if (commands[driver.events.pre] !== undefined && kind(hang) !== 'deny')
    problems.push(
      `\`${HANG_COMMAND}\` was not refused, so the hang rules are off (LOOP_GUARD_HANG=off in the hook's environment?)`,
    );
  const windows = at('pre', 10);
  if (driver.windows && commands[driver.events.pre] !== undefined && kind(hang) === 'deny' && kind(windows) !== 'deny')
    problems.push(`\`${WINDOWS_HANG_COMMAND}\` through the ${driver.windows.label} (Windows) was not refused`);
  return problems;
}

/**
 * Drive the sequence: 7 × (pre, post) of the same failing command (a refused attempt has no post), the user-turn
 * event, one more pre. An event the
 * config has no hook for is skipped, as the tool would skip it, so a missing hook shows as a guard that never fires.
 */
export async function replay(
  tool: string,
  driver: Driver,
  commands: Readonly<Record<string, string>>,
  send: Send,
  configPath: string,
): Promise<Check> {
  const id = `${tool}.replay`;
  const entries: Entry[] = [];
  const broken = await drive({ id, driver, commands, send, entries });
  if (broken) return broken;

  const seen = timeline(entries);
  const bad = entries.find((e) => e.reading !== 'no-hook' && e.reading.kind === 'bad');
  if (bad && bad.reading !== 'no-hook' && bad.reading.kind === 'bad')
    return fail(id, `the guard ${bad.reading.why} (${seen})`, FIX_BROKEN);

  const hint = missingHooks(driver, commands);
  const problems = problemsIn(entries, driver, commands);
  if (problems.length) {
    const why = hint.length ? ` (${hint.join('; ')})` : '';
    return fail(
      id,
      `replaying 7 identical failing \`${REPLAY_COMMAND}\` attempts: ${problems.join('; ')}${why}. Seen: ${seen}`,
      hint.length ? `${RERUN} to put the missing hook entries back in ${configPath}` : FIX_BROKEN,
    );
  }
  return pass(
    id,
    `replayed 7 identical failing \`${REPLAY_COMMAND}\` attempts through the configured hook commands: ` +
      `warned on the 3rd result, denied the 5th and 6th attempts, handed off on the 7th` +
      `${driver.handoffIsDeny ? ' (a refusal that says the turn stops here)' : driver.stop ? ` (refused, and stopped the run from ${driver.stop.event})` : ' (refused and stopped the turn)'}` +
      `, a new user message let it run again, and \`${HANG_COMMAND}\` was refused by the hang rules` +
      `${driver.windows ? `, as \`${WINDOWS_HANG_COMMAND}\` through the ${driver.windows.label} (Windows)` : ''}`,
  );
}
