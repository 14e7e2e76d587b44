// The climb: run the rung the step's failure count selects, verify, classify, and either pass, halt, or record the
// failure and climb to the next rung, until the verifier passes or the table's hand-off ends the run (exit 4).
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { roundUsd } from '../audit/cost.ts';
import { agentRecord, userModel, withoutModel } from './agents.ts';
import type { RunOptions } from './args.ts';
import { overShare, spentNow } from './budget.ts';
import { classify, firstReason } from './classify.ts';
import { handoffSince } from './handoff.ts';
import { jsonLine, money, type RungRecord, textLine } from './log.ts';
import { type Policy, type Rung, rungFor } from './policy.ts';
import { rungPrompt } from './prompts.ts';
import { runVerifier, startAgent } from './spawn.ts';
import {
  clearStep,
  ensureRunDir,
  loadState,
  RUN_DIR,
  saveState,
  stepName,
  TERMINAL_FILE,
  triedText,
  writeTerminal,
} from './state.ts';
import { startSessionMeter } from './session-meter.ts';
import { feedLine, newTally, type PriceOf, readerFor, requestsOf, type Tally } from './streams.ts';

export const EXIT_RUN = { passed: 0, usage: 2, escalated: 4 } as const;

/** The run id the guard reads to count repeats across the sessions of one climb (its cross-session count). */
export const RUN_ID_ENV = 'LOOP_GUARD_RUN_ID';

export interface RunIO {
  env: Record<string, string | undefined>;
  out(text: string): void;
  err(text: string): void;
}

/** The verifier's first lines, kept with each rejected attempt (bounded). */
function excerpt(output: string): string {
  const lines = output.replace(/\s+$/, '').split(/\r?\n/);
  const kept = lines.length > 20 ? [...lines.slice(0, 8), '…', ...lines.slice(-10)] : lines;
  return kept.join('\n').slice(0, 2000);
}

function emit(io: RunIO, json: boolean, r: RungRecord): void {
  io.err(`${textLine(r)}\n`);
  if (json) io.out(`${jsonLine(r)}\n`);
}

/** One climb under way: its options and table, the step's state and folder, and the totals so far. */
interface Climb {
  opts: RunOptions;
  policy: Policy;
  price: PriceOf;
  root: string;
  io: RunIO;
  rec: ReturnType<typeof agentRecord>;
  step: string;
  state: ReturnType<typeof loadState>;
  dir: string;
  total: number;
  requests: number;
}

type RecordBase = Omit<RungRecord, 'outcome' | 'reason' | 'class'>;

/** The run's last line, with the step's totals; returns the exit code. */
function finish(c: Climb, code: number, what: string): number {
  c.io.err(`run: ${what} (step ${c.step}; ${c.requests} model requests, ${money(roundUsd(c.total))} in all)\n`);
  return code;
}

/** What a rung that hit --rung-timeout says in its line and its attempt. */
function timeoutNote(seconds: number | null): string {
  return `timed out after ${seconds} s (--rung-timeout): the agent's process group was ended`;
}

/** What a verifier that hit --verify-timeout says: the objection of its rung, in its line and in tried.md. */
export function verifyTimeoutNote(seconds: number | null): string {
  return `the verifier timed out after ${seconds} s (--verify-timeout): its process group was ended`;
}

/** A rung's record before anything ran. */
function base(rung: Rung, shareUsd: number | null): RecordBase {
  return {
    rung: rung.rung,
    action: rung.action,
    share: rung.share,
    budgetUsd: shareUsd,
    spentUsd: 0,
    requests: 0,
    verifyExit: null,
    model: null,
    ms: 0,
    timedOut: false,
    verifyTimedOut: false,
    notes: [],
  };
}

export async function climb(
  opts: RunOptions,
  policy: Policy,
  price: PriceOf,
  root: string,
  io: RunIO,
): Promise<number> {
  const rec = agentRecord(opts.agent);
  const step = stepName(opts.step, opts.task, opts.verify);
  const state = loadState(root, step);
  const dir = ensureRunDir(root, step);
  const c: Climb = { opts, policy, price, root, io, rec, step, state, dir, total: 0, requests: 0 };
  for (;;) {
    const rung = rungFor(policy, c.state.failures);
    const shareUsd = opts.budgetUsd === null ? null : roundUsd(opts.budgetUsd * rung.share);
    const ended = endBefore(c, rung, shareUsd) ?? (await runRung(c, rung, shareUsd));
    if (ended !== null) return ended;
  }
}

/** The table's hand-off, or a rung with no share of the budget, ends the run before an agent starts; else null. */
function endBefore(c: Climb, rung: Rung, shareUsd: number | null): number | null {
  const { root, step, state, io, opts } = c;
  if (rung.action === 'hand-off') {
    const last = state.attempts[state.attempts.length - 1];
    const reason = last ? firstReason(last.error) || `the verifier exited ${last.verifyExit}` : 'no attempt passed';
    writeTerminal(root, step, `${state.failures} failures: ${reason}`);
    saveState(root, state);
    emit(io, opts.json, {
      ...base(rung, shareUsd),
      outcome: 'escalated',
      class: null,
      reason,
      notes: [`see ${TERMINAL_FILE}`],
    });
    return finish(c, EXIT_RUN.escalated, `ESCALATED after ${state.failures} failures`);
  }
  if (shareUsd !== null && shareUsd <= 0) {
    const reason = `budget exhausted: rung ${rung.rung} has no share of --budget`;
    writeTerminal(root, step, `budget: ${reason}`);
    emit(io, opts.json, { ...base(rung, shareUsd), outcome: 'halt', class: 'budget', reason });
    return finish(c, EXIT_RUN.escalated, 'halted: budget');
  }
  return null;
}

/** One rung: the agent with the rung's prompt and caps, then the verifier; the exit code, or null to climb on. */
async function runRung(c: Climb, rung: Rung, shareUsd: number | null): Promise<number | null> {
  const { opts, policy, rec, root, state, io } = c;
  const notes: string[] = [];
  const smaller = rung.action === 'smallest-step' ? policy.smallerModel[opts.agent] : undefined;
  if (rung.action === 'smallest-step' && !smaller)
    notes.push(`no smaller model set for ${opts.agent} in the recovery table: the tool's own model runs`);
  const resume = rung.action === 'retry-with-reason' && rec.resumes ? state.session : undefined;
  const sessionId = rec.choosesSessionId && !resume ? randomUUID() : undefined;
  const prompt = rungPrompt({
    task: opts.task,
    action: rung.action,
    state,
    triedPath: `${RUN_DIR}/${c.step}/tried.md`,
    tried: state.attempts.length ? triedText(state) : '',
  });
  const args = rec.args({
    prompt,
    model: smaller || undefined,
    turns: rec.capsTurns ? rung.turns : null,
    budgetUsd: rec.capsDollars ? shareUsd : null,
    resume,
    sessionId,
    extra: smaller ? withoutModel(opts.extra) : opts.extra,
  });
  const named = smaller || userModel(opts.extra) || (rec.modelEnv ? io.env[rec.modelEnv] : undefined);
  // A model only the tool's settings file names is a forecast: its closing event's model, if another, wins.
  const onDisk = named ? undefined : rec.configuredModel?.(io.env, opts.extra, root);
  const tally = newTally(named || onDisk);
  const read = readerFor(rec.stream, tally, c.price);
  const t0 = Date.now();
  const env = { ...io.env, [RUN_ID_ENV]: state.runId };
  // Read before the agent starts, put back once it has ended (stopped at its share or not).
  const restoreModel = smaller ? rec.keepsModel?.(env, opts.extra, root, smaller) : undefined;
  const check = () => {
    if (!tally.closed && overShare(tally, shareUsd, state.usdPerRequest)) agent.stop();
  };
  const agent = startAgent(rec.bin, args, {
    cwd: root,
    env,
    logPath: join(c.dir, `rung-${rung.rung}.agent.log`),
    timeoutMs: opts.rungTimeoutS === null ? null : opts.rungTimeoutS * 1000,
    onLine: (line) => {
      // The file first: a closing total read after it replaces what it priced.
      meter?.poll();
      feedLine(read, line);
      check();
    },
  });
  const meter = rec.sessionFile
    ? startSessionMeter({
        format: rec.sessionFile,
        env,
        cwd: root,
        since: t0,
        tally,
        price: c.price,
        onRequest: check,
      })
    : undefined;
  const end = await agent.done;
  restoreModel?.();
  // A rung cut before its closing event: what the file recorded up to the end is its spend.
  meter?.poll();
  meter?.stop();
  const overspent = spentPastShare(c, tally, shareUsd, end.stopped);
  if (overspent) notes.push(overspent);
  if (onDisk && tally.model && tally.model !== onDisk)
    notes.push(
      `${rec.label} named ${tally.model} at its end, not ${onDisk} from its settings: priced as ${tally.model}`,
    );
  const spent = spentNow(tally, state.usdPerRequest);
  c.total += spent ?? 0;
  c.requests += requestsOf(tally);
  const record = {
    ...base(rung, shareUsd),
    spentUsd: spent,
    requests: requestsOf(tally),
    model: tally.model ?? null,
    timedOut: end.timedOut,
    notes,
  };
  if (end.spawnError) {
    writeTerminal(root, c.step, `command-not-found: ${end.spawnError}`);
    emit(io, opts.json, {
      ...record,
      outcome: 'halt',
      class: 'command-not-found',
      reason: end.spawnError,
      ms: end.ms,
    });
    return finish(c, EXIT_RUN.escalated, `halted: ${rec.label} is not installed (${rec.bin} is not on PATH)`);
  }
  if (end.stopped) notes.push(`stopped at its share (${money(shareUsd)})`);
  // A hung agent is a failed rung, not a halt: the verifier still decides (the work may pass), and on a failure the
  // run climbs to a rung that changes something.
  if (end.timedOut) notes.push(timeoutNote(opts.rungTimeoutS));
  if (tally.terminal === 'budget') notes.push(`${rec.label} stopped at its own budget cap`);
  return verifyRung(c, rung, { tally, end, t0, record, sessionId, cut: end.stopped || overspent !== null });
}

/**
 * A rung whose share was found spent only when the agent reported its tokens at its end (the first rung of a stream
 * that prices at the close: nothing to stop by then): its note; it halts as a cut rung does, so no later rung starts.
 */
function spentPastShare(c: Climb, tally: Tally, shareUsd: number | null, stopped: boolean): string | null {
  if (stopped || !overShare(tally, shareUsd, c.state.usdPerRequest)) return null;
  const spent = spentNow(tally, c.state.usdPerRequest);
  return `spent ${money(spent)} of its ${money(shareUsd)} share by the end of the agent's run (${c.rec.label} reported its tokens only then)`;
}

/** What one rung's agent left: its tally and end, when it started, its record so far, the session id we chose. */
interface AgentRan {
  tally: ReturnType<typeof newTally>;
  end: Awaited<ReturnType<typeof startAgent>['done']>;
  t0: number;
  record: RecordBase;
  sessionId: string | undefined;
  /** The rung spent its share: stopped at it, or found past it when the agent reported its tokens at its end. */
  cut: boolean;
}

/** After the agent: the verifier, the verdict, and the attempt recorded; the exit code, or null to climb on. */
async function verifyRung(c: Climb, rung: Rung, ran: AgentRan): Promise<number | null> {
  const { opts, policy, root, step, state, io } = c;
  const { tally, end, record } = ran;
  const handoff = handoffSince(root, ran.t0);
  if (handoff) record.notes.push('the loop guard handed off');
  const verified = await runVerifier(opts.verify, {
    cwd: root,
    env: io.env,
    logPath: join(c.dir, `rung-${rung.rung}.verify.log`),
    timeoutMs: opts.verifyTimeoutS === null ? null : opts.verifyTimeoutS * 1000,
  });
  // The note goes where the objection is read: the reason of the line, the error of the attempt in tried.md.
  const verifyOutput = verified.timedOut
    ? `${verified.output.replace(/\s+$/, '')}\n${verifyTimeoutNote(opts.verifyTimeoutS)}`.trimStart()
    : verified.output;
  if (!tally.unmetered && tally.unpriced === 0 && requestsOf(tally) > 0)
    state.usdPerRequest = tally.usd / requestsOf(tally);
  const session = tally.session ?? ran.sessionId;
  if (session) state.session = session;
  const verdict = classify(
    {
      tally,
      cut: ran.cut,
      agentExit: end.exitCode,
      agentStderr: end.stderrTail,
      handoffClasses: handoff?.classes ?? [],
      handedOff: handoff !== null,
      verifyExit: verified.exitCode,
      verifyOutput,
      verifyTimedOut: verified.timedOut,
    },
    policy,
  );
  const done = {
    ...record,
    verifyExit: verified.exitCode,
    verifyTimedOut: verified.timedOut,
    ms: end.ms + verified.ms,
  };
  if (verdict.kind === 'pass') {
    clearStep(root, step);
    emit(io, opts.json, { ...done, outcome: 'pass', class: null, reason: '' });
    return finish(c, EXIT_RUN.passed, `passed on rung ${rung.rung}`);
  }
  state.attempts.push({
    rung: rung.rung,
    action: rung.action,
    approach: ((tally.finalText ?? '').trim() || (end.timedOut ? timeoutNote(opts.rungTimeoutS) : '')).slice(0, 600),
    verifyExit: verified.exitCode,
    error: excerpt(verifyOutput),
    ...(handoff ? { handoff: handoff.text } : {}),
    at: new Date().toISOString(),
  });
  if (verdict.kind === 'halt') {
    saveState(root, state);
    writeTerminal(root, step, `${verdict.cls}: ${verdict.reason}`);
    emit(io, opts.json, { ...done, outcome: 'halt', class: verdict.cls, reason: verdict.reason });
    return finish(c, EXIT_RUN.escalated, `halted: ${verdict.cls}`);
  }
  state.failures++;
  saveState(root, state);
  emit(io, opts.json, { ...done, outcome: 'climb', class: verdict.cls, reason: verdict.reason });
  return null;
}
