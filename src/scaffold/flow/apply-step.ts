// Step 5, apply: every change or none (apply.ts and its journal), then one line saying what was done.
import { EXIT } from '../../exit-codes.ts';
import type { IO } from '../../io.ts';
import { RUN_DIR, removeRunState } from '../../run/state.ts';
import { ApplyError, applyPlan } from '../apply.ts';
import type { Agreed } from './confirm-step.ts';
import type { Options } from './options.ts';
import type { Output } from './output.ts';

/** The exit code when writing failed, else undefined. */
export function applyStep(opts: Options, io: IO, root: string, agreed: Agreed, out: Output): number | undefined {
  try {
    const result = applyPlan(root, agreed.plan.changes, io.env);
    const files = result.written.length + result.removed.length;
    // A removal deletes the files we created and edits ours out of the user's; "Removed 8 file(s)" read as 8 deleted.
    const done =
      opts.mode === 'remove'
        ? `Removed loop-guard from ${files} file(s): ${result.removed.length} deleted, ${result.written.length} edited.`
        : `Wrote ${files} file(s).`;
    out.say('info', 'applied', done, out.c.green, true);
    if (opts.mode === 'remove' && removeRunState(root))
      out.say('info', 'removed-run-state', `Removed the state of unattended runs (${RUN_DIR}/).`);
    return undefined;
  } catch (err) {
    if (err instanceof ApplyError) {
      out.problem('write-error', `${err.message}${err.partial ? '' : '\n  Nothing was written.'}`);
      return out.finish(EXIT.error, 'write-error', agreed.plan);
    }
    throw err;
  }
}
