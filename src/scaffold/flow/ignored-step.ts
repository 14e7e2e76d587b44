// Files git would leave out of a commit by rules no negation block can undo: said, and (unless --force or a dry run)
// the run stops, since a clone would have hooks that point at files it does not have.
import { EXIT } from '../../exit-codes.ts';
import { ruleText } from '../ignored.ts';
import type { Options } from './options.ts';
import type { Output } from './output.ts';
import type { Planned } from './plan-step.ts';

/** The exit code when the run stops here, else undefined. */
export function ignoredStep(opts: Options, planned: Planned, out: Output): number | undefined {
  const refused = planned.ignoreRefused;
  if (!refused.length) return undefined;
  const { c } = out;
  const rules = refused.map((r) => `    ${r.path}  (${ruleText(r)})`).join('\n');
  const text =
    `git ignores ${refused.length} file(s) create-loop-guard writes, by rules no clone of this ` +
    `repository has (or that a negation cannot undo):\n${rules}`;
  if (opts.force) {
    out.say(
      'warn',
      'ignored',
      `${text}\n  Written anyway (--force): add them with git add -f, or set each clone up itself.`,
      c.yellow,
    );
    return undefined;
  }
  if (opts.mode === 'check') {
    out.say('error', 'ignored', `${text}\n  A clone has hooks that point at files it does not have.`, c.red);
    return out.finish(EXIT.drift, 'ignored', planned.plan);
  }
  if (opts.dryRun) {
    out.say('warn', 'ignored', text, c.yellow);
    return undefined;
  }
  out.problem(
    'ignored',
    `${text}\n  Nothing was written. Ways out: take the rule out (or add a negation such as !/` +
      `${refused[0]?.path} after it in the repository's .gitignore), or rerun with --force to write ` +
      `them anyway (each clone then needs its own install).`,
  );
  return out.finish(EXIT.drift, 'ignored', planned.plan);
}
