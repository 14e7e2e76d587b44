// Step 3, preview: what will be written, before anything is — compact, or every line with --diff.
import type { IO } from '../../io.ts';
import { colorDiff, displayDiff } from '../../report/diff.ts';
import { filesReport, previewReport, shownPath } from '../../report/summary.ts';
import type { Options } from './options.ts';
import type { Output } from './output.ts';
import type { Planned } from './plan-step.ts';

export function previewStep(opts: Options, io: IO, planned: Planned, out: Output): void {
  if (opts.json) return;
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
