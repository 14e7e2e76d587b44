// Step 6, report: what is left after writing — in the repository (commit, CI) and on this machine (trust a folder,
// the shell profile), in the words doctor uses for them.
import { VERSION } from '../../assets.ts';
import { EXIT } from '../../exit-codes.ts';
import type { IO } from '../../io.ts';
import { fill } from '../../doctor/trust.ts';
import { MACHINE_STEPS } from '../../report/doctor.ts';
import { TOOLS, type ToolName } from '../../tools/index.ts';
import { hasProfileBlock, PROFILE_STEP, profileTarget } from '../profile.ts';
import type { Agreed } from './confirm-step.ts';
import type { Context } from './detect-step.ts';
import type { Options } from './options.ts';
import type { Output } from './output.ts';
import { generatedCode } from './formatters.ts';
import { readHomeFile, readRepoFileSafe } from './repo-files.ts';
import { typedLint, typedLintStep } from '../eslint-notice.ts';

/** The release line CI should pin: 0.x for 0.x releases, the major version after that. */
function releaseLine(): string {
  const [major, minor] = VERSION.split('.');
  return major === '0' ? `0.${minor}` : (major ?? VERSION);
}

export function nextSteps(
  tools: readonly ToolName[],
  profileDone: boolean,
  root: string,
): { repo: string[]; machine: string[] } {
  const machine: string[] = [];
  const repo: string[] = [];
  for (const t of tools) {
    const record = TOOLS[t];
    const trust = record.doctor.trust;
    if (trust) {
      const file = record.doctor.files?.[trust.file]?.path ?? trust.file;
      machine.push(`${record.label}: ${fill(trust.texts.fix, { root, file })}`);
    }
    for (const s of record.nextSteps) repo.push(`${record.label}: ${s}`);
  }
  if (tools.some((t) => TOOLS[t].needsShellProfile) && !profileDone) machine.push(`Cursor: ${PROFILE_STEP}`);
  const typed = typedLint((p) => readRepoFileSafe(root, p), generatedCode(tools));
  if (typed) repo.push(typedLintStep(typed));
  repo.push(
    'Commit the result (git add -A && git commit): the setup lives in the repository, for everyone who clones it.',
    'Prove it works on this machine: npx create-loop-guard doctor',
    `In CI, catch drift: npx create-loop-guard@${releaseLine()} --check ` +
      `(add --strict to fail when the repository was set up by another version too).`,
  );
  return { repo, machine };
}

/** --remove leaves the shell-profile block alone unless asked: it serves every repository on this machine. */
function sayProfileKept(opts: Options, io: IO, ctx: Context, agreed: Agreed, out: Output): void {
  if (opts.mode !== 'remove' || agreed.profile) return;
  const left = profileTarget(io.env, io.home);
  if (!left || !(ctx.manifest?.shellProfile || hasProfileBlock(readHomeFile(left.path)))) return;
  out.say(
    'info',
    'profile-kept',
    `Kept the loop-guard block in ${left.path}: it is yours for every repository on this machine where ` +
      `Cursor runs, not this one only. Take it out with: npx create-loop-guard --remove --shell-profile`,
    (x) => x,
    true,
  );
}

/** Step 6: the steps left, then the exit code of a run that wrote what it planned. */
export function reportStep(opts: Options, io: IO, ctx: Context, agreed: Agreed, out: Output): number {
  sayProfileKept(opts, io, ctx, agreed, out);
  if (opts.mode === 'apply') {
    const steps = nextSteps(ctx.tools, agreed.profile !== undefined, ctx.root);
    out.say('info', 'next-steps', `Next steps:\n${steps.repo.map((s) => `  - ${s}`).join('\n')}`, (s) => s, true);
    if (steps.machine.length)
      out.say(
        'info',
        'machine-steps',
        `${MACHINE_STEPS} (doctor checks these too):\n${steps.machine.map((s) => `  ○ ${s}`).join('\n')}`,
        (s) => s,
        true,
      );
  }
  return out.finish(EXIT.ok, 'applied', agreed.plan);
}
