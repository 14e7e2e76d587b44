// Step 4, confirm: stop on conflicts, on nothing to do and on --dry-run; otherwise ask (or take --yes), and ask
// about the shell profile last.
import { EXIT } from '../../exit-codes.ts';
import type { IO } from '../../io.ts';
import { shownPath } from '../../report/summary.ts';
import type { Plan } from '../plan.ts';
import type { ProfileTarget } from '../profile.ts';
import { CANCELLED } from '../prompt/types.ts';
import type { Options } from './options.ts';
import type { Output } from './output.ts';
import type { Planned } from './plan-step.ts';
import { pendingChanges } from './preview-step.ts';

/** What the user agreed to write: the plan, with the shell profile when they said yes to it. */
export interface Agreed {
  plan: Plan;
  profile?: ProfileTarget;
}

/** The exit code of a run that ends before writing, else undefined. */
function gate(opts: Options, { plan, deferred }: Planned, out: Output): number | undefined {
  const { c } = out;
  const conflicts = plan.changes.filter((ch) => ch.action === 'conflict');
  const pending = pendingChanges(plan.changes);
  if (conflicts.length) {
    out.say(
      'error',
      'conflicts',
      `${conflicts.length} conflict(s): nothing was written. Fix them as shown above, or ` +
        `${opts.mode === 'remove' ? 'rerun with --remove --force to take them out anyway' : 'rerun with --force to replace them'}` +
        `.`,
      c.red,
      true,
    );
    return out.finish(EXIT.drift, 'conflicts', plan);
  }
  if (!pending.length && !deferred) {
    out.say(
      'info',
      'up-to-date',
      opts.mode === 'remove' ? 'Nothing of create-loop-guard is here; nothing to remove.' : 'Everything is up to date.',
      c.green,
    );
    return out.finish(EXIT.ok, 'up-to-date', plan);
  }
  if (opts.dryRun) {
    out.say('info', 'dry-run', `Dry run: nothing written (${pending.length} file(s) would change).`, c.dim, true);
    return out.finish(EXIT.ok, 'dry-run', plan);
  }
  return undefined;
}

/** The main question: asked only with a terminal; without one, --yes is the way to write. */
async function askMain(opts: Options, io: IO, plan: Plan, out: Output): Promise<number | undefined> {
  const pending = pendingChanges(plan.changes);
  if (opts.yes || !pending.length) return undefined;
  if (!out.interactive) {
    out.say(
      'error',
      'needs-yes',
      `Nothing written: no terminal to ask on. Pass --yes to apply these changes (or --dry-run to preview, ` +
        `--check to verify).`,
      (s) => s,
      true,
    );
    return out.finish(EXIT.drift, 'needs-yes', plan);
  }
  io.out('\n');
  const ok = await io.prompter.confirm(
    opts.mode === 'remove' ? `Remove loop-guard from ${pending.length} file(s)?` : `Write ${pending.length} file(s)?`,
  );
  if (ok === true) return undefined;
  out.say('error', 'declined', 'Nothing written.');
  return out.finish(EXIT.drift, 'declined', plan);
}

/** The user-level question comes last, and Enter means No: it changes a file outside this repository. */
async function askProfile(io: IO, planned: Planned, out: Output): Promise<Agreed | number> {
  const { plan, deferred, planWithProfile, askProfile: target } = planned;
  const agreed: Agreed = { plan, ...(planned.profile ? { profile: planned.profile } : {}) };
  if (!deferred || !planWithProfile || !target) return agreed;
  const pending = pendingChanges(plan.changes);
  if (!pending.length) out.say('info', 'up-to-date', 'The repository is up to date.', out.c.green);
  const answer = await io.prompter.confirm(
    `Also add Cursor's agent environment to ${shownPath(deferred, io.home)} (every repository where Cursor runs)?`,
    false,
  );
  if (answer === CANCELLED) {
    out.say('info', 'cancelled', 'Nothing written.');
    return out.finish(EXIT.drift, 'cancelled');
  }
  if (answer) return { plan: planWithProfile, profile: target };
  if (!pending.length) return out.finish(EXIT.ok, 'up-to-date', plan);
  return agreed;
}

/** Step 4: what to write, or the exit code of a run that ends without writing. */
export async function confirmStep(opts: Options, io: IO, planned: Planned, out: Output): Promise<Agreed | number> {
  const stop = gate(opts, planned, out) ?? (await askMain(opts, io, planned.plan, out));
  if (stop !== undefined) return stop;
  return askProfile(io, planned, out);
}
