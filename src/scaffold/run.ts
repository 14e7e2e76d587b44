// The install, as named steps: detect → plan → (check | preview → confirm → apply → report). Each step is a module
// of flow/ that takes the one plan value along and returns it, or the exit code of a run that ends there.
import { OUR_DIRS } from './apply.ts';
import { recover } from './journal.ts';
import { lockRepository, type Lock, LockError } from './lock.ts';
import { chooseRoot, RootError } from './paths.ts';
import type { IO } from '../io.ts';
import { DEFAULT_COLUMNS } from '../report/diff.ts';
import { rowsOf } from '../report/screen.ts';
import { applyStep } from './flow/apply-step.ts';
import { checkStep } from './flow/check-step.ts';
import { confirmStep } from './flow/confirm-step.ts';
import { detectStep } from './flow/detect-step.ts';
import { ignoredStep } from './flow/ignored-step.ts';
import type { Options } from './flow/options.ts';
import { createOutput, stopEarly } from './flow/output.ts';
import { planStep } from './flow/plan-step.ts';
import { previewStep } from './flow/preview-step.ts';
import { reportStep } from './flow/report-step.ts';

export type { IO } from '../io.ts';
export type { Mode, Options } from './flow/options.ts';

/** The root, the repository's lock, and an interrupted earlier run finished or undone; then the steps. */
export async function run(opts: Options, io: IO): Promise<number> {
  let root: string;
  let note: string | undefined;
  try {
    ({ root, note } = chooseRoot(io.cwd, opts, io.home));
  } catch (err) {
    if (err instanceof RootError) return stopEarly(opts, io, '', 'usage', 'usage-error', err.message);
    throw err;
  }
  let lock: Lock | null;
  try {
    // LOOP_GUARD_TEST_LOCK_WAIT_MS: how long to wait for another run, for the tests of a held lock (default 60 s).
    lock = lockRepository(root, Number(io.env.LOOP_GUARD_TEST_LOCK_WAIT_MS) || undefined);
  } catch (err) {
    if (err instanceof LockError) return stopEarly(opts, io, root, 'locked', 'locked', err.message);
    throw err;
  }
  try {
    return await runSteps(opts, io, root, recoveryNotes(root, lock, note));
  } finally {
    lock?.release();
  }
}

/** What the root choice and the recovery of an interrupted run have to say, first thing. */
function recoveryNotes(root: string, lock: Lock | null, note: string | undefined): string[] {
  const rec = lock ? recover(root, OUR_DIRS) : { swept: [] };
  const notes: string[] = [];
  if (note) notes.push(note);
  if (rec.journal === 'rolled-forward')
    notes.push('An earlier run was interrupted after it had staged every file; its changes were completed.');
  if (rec.journal === 'rolled-back')
    notes.push('An earlier run was interrupted before it changed anything; its temporary files were removed.');
  if (rec.swept.length) notes.push(`Removed ${rec.swept.length} leftover temporary file(s) of an earlier run.`);
  return notes;
}

/** The IO with a count of the rows its stdout has taken on the screen so far. */
function counted(io: IO): { io: IO; rows: () => number } {
  let rows = 0;
  const columns = io.columns ?? DEFAULT_COLUMNS;
  return {
    io: {
      ...io,
      out(text) {
        rows += rowsOf(text, columns);
        io.out(text);
      },
    },
    rows: () => rows,
  };
}

async function runSteps(opts: Options, plainIO: IO, root: string, notes: string[]): Promise<number> {
  const screen = counted(plainIO);
  const io = screen.io;
  const out = createOutput(opts, io);
  const ctx = await detectStep(opts, io, root, notes, out);
  if (typeof ctx === 'number') return ctx;
  const planned = planStep(opts, io, ctx, out);
  if (typeof planned === 'number') return planned;
  const refused = ignoredStep(opts, planned, out);
  if (refused !== undefined) return refused;
  if (opts.mode === 'check') return checkStep(opts, io, planned, out);
  previewStep(opts, io, planned, out, screen.rows());
  const agreed = await confirmStep(opts, io, planned, out);
  if (typeof agreed === 'number') return agreed;
  return applyStep(opts, io, ctx.root, agreed, out) ?? reportStep(opts, io, ctx, agreed, out);
}
