// What survives between rungs and between runs: per step, the failure count and every attempt with the error that
// rejected it (.agents/run/<step>/state.json), the state file the fresh-context rungs read (tried.md), and the
// terminal file of escalated steps. All under .agents/run/, which ignores itself: nothing here is for git history.
import { createHash, randomUUID } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const RUN_DIR = '.agents/run';
/** One line per escalated step: `ESCALATED<TAB>step<TAB>reason`. */
export const TERMINAL_FILE = `${RUN_DIR}/escalated.tsv`;

export interface Attempt {
  rung: number;
  action: string;
  /** What the agent said it did (its final message, first lines). */
  approach: string;
  /** What rejected it: the verifier's exit code and the first lines of its output. */
  verifyExit: number | null;
  error: string;
  /** The guard's hand-off note of that session, when the guard stopped the agent. */
  handoff?: string;
  at: string;
}

export interface StepState {
  step: string;
  /** The LOOP_GUARD_RUN_ID of this step's climb: the same across its rungs' sessions, so the guard counts across
   * them. */
  runId: string;
  failures: number;
  /** The agent's session of the last rung, for the next rung's retry in the same conversation. */
  session?: string;
  /** Dollars per model request measured so far, for tools whose stream reports tokens only at the end. */
  usdPerRequest?: number;
  attempts: Attempt[];
}

/** A step name fit for a folder name; the default step is named by the task and the verifier. */
export function stepName(given: string | undefined, task: string, verify: string): string {
  if (given !== undefined)
    return (
      given
        .replace(/[^A-Za-z0-9._-]+/g, '-')
        .replace(/^[.-]+/, '')
        .slice(0, 80) || 'step'
    );
  return `step-${createHash('sha256').update(`${task}\0${verify}`).digest('hex').slice(0, 10)}`;
}

export function stepDir(root: string, step: string): string {
  return join(root, RUN_DIR, step);
}

/** Creates .agents/run/ with a .gitignore that ignores the folder itself (git sees nothing of it). */
export function ensureRunDir(root: string, step: string): string {
  const base = join(root, RUN_DIR);
  mkdirSync(base, { recursive: true });
  const ignore = join(base, '.gitignore');
  try {
    lstatSync(ignore);
  } catch {
    writeFileSync(
      ignore,
      '# create-loop-guard run: the recovery state of unattended runs, for this checkout only\n*\n',
    );
  }
  const dir = stepDir(root, step);
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function loadState(root: string, step: string): StepState {
  try {
    const v = JSON.parse(readFileSync(join(stepDir(root, step), 'state.json'), 'utf8')) as Partial<StepState>;
    if (typeof v.failures === 'number' && typeof v.runId === 'string' && Array.isArray(v.attempts))
      return { step, runId: v.runId, failures: v.failures, attempts: v.attempts, ...pick(v) };
  } catch {
    // None yet, or unreadable: the climb starts at the first rung.
  }
  return { step, runId: randomUUID(), failures: 0, attempts: [] };
}

function pick(v: Partial<StepState>): Partial<StepState> {
  return {
    ...(typeof v.session === 'string' ? { session: v.session } : {}),
    ...(typeof v.usdPerRequest === 'number' ? { usdPerRequest: v.usdPerRequest } : {}),
  };
}

function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** Keeps the newest attempts only, so the state file a prompt carries stays bounded. */
const MAX_ATTEMPTS = 12;

export function saveState(root: string, s: StepState): void {
  const dir = ensureRunDir(root, s.step);
  const kept = { ...s, attempts: s.attempts.slice(-MAX_ATTEMPTS) };
  writeAtomic(join(dir, 'state.json'), `${JSON.stringify(kept, null, 2)}\n`);
  writeAtomic(join(dir, 'tried.md'), triedText(kept));
}

/** The state file of the fresh-context rungs: each approach tried and rejected, with the error that rejected it. */
export function triedText(s: StepState): string {
  const lines = [
    `# Approaches tried and rejected for step ${s.step}`,
    '',
    'Written by `create-loop-guard run` after every failed attempt. Do not repeat any of them.',
    '',
  ];
  s.attempts.forEach((a, i) => {
    lines.push(
      `## ${i + 1}. rung ${a.rung} (${a.action}), ${a.at}`,
      '',
      `Approach: ${a.approach || '(the agent said nothing)'}`,
    );
    lines.push(
      '',
      `Rejected by the verifier (exit ${a.verifyExit ?? 'none'}):`,
      '',
      '```',
      a.error || '(no output)',
      '```',
      '',
    );
    if (a.handoff) lines.push('The loop guard stopped the agent:', '', a.handoff, '');
  });
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}

/** A passing verifier clears the step: its state and its line in the terminal file. */
export function clearStep(root: string, step: string): void {
  rmSync(stepDir(root, step), { recursive: true, force: true });
  writeTerminal(root, step, null);
}

/** Sets (or with null, removes) the step's line in the terminal file. */
export function writeTerminal(root: string, step: string, reason: string | null): void {
  const path = join(root, TERMINAL_FILE);
  let lines: string[] = [];
  try {
    lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
  } catch {
    if (reason === null) return;
  }
  lines = lines.filter((l) => l.split('\t')[1] !== step);
  if (reason !== null) lines.push(`ESCALATED\t${step}\t${reason.replace(/[\t\r\n]+/g, ' ')}`);
  if (!lines.length) {
    rmSync(path, { force: true });
    return;
  }
  mkdirSync(join(root, RUN_DIR), { recursive: true });
  writeAtomic(path, `${lines.join('\n')}\n`);
}

/** `--remove`: the run state goes with everything else the installer put in. */
export function removeRunState(root: string): boolean {
  try {
    lstatSync(join(root, RUN_DIR));
  } catch {
    return false;
  }
  rmSync(join(root, RUN_DIR), { recursive: true, force: true });
  try {
    // The installer's removal left .agents/ in place for our folder; empty now, it goes too.
    rmdirSync(join(root, '.agents'));
  } catch {
    // Not empty (the user's files, the guard's hand-off note): it stays.
  }
  return true;
}
