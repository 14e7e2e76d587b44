// Step 3, preview: what will be written, before anything is — compact, or every line with --diff.
import type { IO } from '../../io.ts';
import { colorDiff, DEFAULT_COLUMNS, displayDiff } from '../../report/diff.ts';
import { filesReport, previewReport, shownPath } from '../../report/summary.ts';
import type { Options } from './options.ts';
import type { Output } from './output.ts';
import type { Planned } from './plan-step.ts';

/** The rows the question takes below the preview: the blank line, clack's four (│, the question, the answers, └), and
 * the row the cursor waits on. */
export const QUESTION_ROWS = 6;
/** A terminal's height when it does not say. */
const DEFAULT_ROWS = 24;

/** `printedRows`: what the run has printed on the screen before the preview (the root note, the tools). */
export function previewStep(opts: Options, io: IO, planned: Planned, out: Output, printedRows = 0): void {
  if (opts.json) return;
  // On a terminal the preview fits its width and leaves the question on the same screen (the rest of the lines are
  // --diff's); a log (CI, a pipe) is 80 wide and keeps every line, so it shows all it will do before writing.
  const columns = io.stdoutIsTTY && io.columns ? io.columns : DEFAULT_COLUMNS;
  const rows = io.stdoutIsTTY ? (io.rows ?? DEFAULT_ROWS) - printedRows - QUESTION_ROWS : undefined;
  const { plan, deferred } = planned;
  const { c } = out;
  const tense = opts.dryRun ? 'would' : 'will';
  // --remove lists only what it takes out: a repository never set up is one line, not a list of "up to date".
  const shown = opts.mode === 'remove' ? plan.changes.filter((ch) => ch.action !== 'noop') : plan.changes;
  if (!opts.diff) {
    io.out(
      previewReport(
        {
          changes: shown,
          tense,
          full: false,
          home: io.home,
          deferred,
          columns,
          fitFiles: io.stdoutIsTTY,
          ...(rows !== undefined ? { rows } : {}),
          ...(plan.sections ? { sections: plan.sections } : {}),
        },
        c,
      ),
    );
    return;
  }
  io.out(filesReport(shown, c, tense, io.home, deferred));
  for (const ch of [...pendingChanges(plan.changes), ...(deferred ? [deferred] : [])])
    io.out(`\n${colorDiff(displayDiff(ch, true, shownPath(ch, io.home)), c)}`);
}

/** The changes apply would make: neither up to date nor a conflict. */
export function pendingChanges<T extends { action: string }>(changes: readonly T[]): T[] {
  return changes.filter((ch) => ch.action !== 'noop' && ch.action !== 'conflict');
}
