// --check: drift (exit 1) apart from outdated (exit 0 with a notice, 1 under --strict). Read-only.
import { VERSION } from '../../assets.ts';
import { EXIT } from '../../exit-codes.ts';
import type { IO } from '../../io.ts';
import { type CheckOutcome, checkLines, checkVerdict } from '../../report/check.ts';
import { colorDiff, unifiedDiff } from '../../report/diff.ts';
import { annotations } from '../../report/github.ts';
import { planTense } from '../../report/tense.ts';
import { TOOLS } from '../../tools/index.ts';
import { MANIFEST_PATH } from '../manifest.ts';
import { type CheckVerdict, verdict } from '../outdated.ts';
import { type FileChange, intentsFor } from '../plan.ts';
import { type Options, repeatedFlags } from './options.ts';
import type { Output } from './output.ts';
import type { Planned } from './plan-step.ts';
import { readRepoFile } from './repo-files.ts';

type Judged = { change: FileChange; verdict: CheckVerdict };

/** Each differing file's verdict: drift, outdated (another release, untouched) or nothing. */
function judge(opts: Options, { ctx, plan }: Planned): Judged[] {
  const manifest = ctx.manifest;
  // --check --tools X plans X's files only, so the record (which lists every tool) is not X's to judge.
  const differing = plan.changes.filter(
    (ch) => ch.action !== 'noop' && !(opts.tools !== undefined && ch.path === MANIFEST_PATH),
  );
  const input = {
    manifest: manifest ?? { version: VERSION, tools: [], files: {} },
    manifestText: readRepoFile(ctx.root, MANIFEST_PATH),
    version: VERSION,
    setUp: new Map(intentsFor(manifest?.tools ?? [], (p) => readRepoFile(ctx.root, p)).map((i) => [i.path, i])),
    textOf: (path: string) => plan.changes.find((ch) => ch.path === path)?.before ?? null,
  };
  const lost = {
    kind: 'drift' as const,
    why: `${MANIFEST_PATH} is missing; run npx create-loop-guard${repeatedFlags(opts)} --yes to rebuild it from the files, then commit it`,
  };
  return differing.map((change) => ({
    change,
    verdict: !manifest || (ctx.recordLost && change.path === MANIFEST_PATH) ? lost : verdict(change, input),
  }));
}

/** The drift lines with their notes and fixes, the --diff of each, and GitHub's annotations. */
function printDrift(opts: Options, io: IO, out: Output, outcome: CheckOutcome): void {
  const { c } = out;
  const lines = checkLines(outcome);
  if (lines.length) io.out(`Files:\n${lines.join('\n')}\n`);
  for (const { change } of outcome.drift) {
    for (const note of change.notes) io.out(`             ${c.yellow('!')} ${planTense(note, 'would')}\n`);
    if (change.fix) io.out(`             ${c.bold('fix:')} ${change.fix}\n`);
  }
  // For a reviewer in CI: the lines themselves, what is there (---) against what we write (+++).
  if (opts.diff && outcome.drift.length) {
    io.out(c.dim('\n--- what is in the repository, +++ what create-loop-guard writes:\n'));
    for (const { change } of outcome.drift)
      if (change.action !== 'conflict' || change.after !== change.before)
        io.out(`\n${colorDiff(unifiedDiff(change), c)}`);
  }
  // On the file the user changed, when the record only follows it.
  const onFiles = outcome.drift.flatMap((d) =>
    (d.verdict.about ?? [d.change.path]).map((path) => ({ ...d.change, path })),
  );
  if (io.env.GITHUB_ACTIONS === 'true') io.out(annotations(onFiles, repeatedFlags(opts)));
}

/** Step 3 under --check, in place of the preview: the verdict and its exit code. */
export function checkStep(opts: Options, io: IO, planned: Planned, out: Output): number {
  const { ctx, plan } = planned;
  const { c } = out;
  const manifest = ctx.manifest;
  if (!manifest && !plan.changes.some((ch) => ch.action === 'noop' && ch.before !== null)) {
    out.say(
      'error',
      'not-set-up',
      `loop-guard is not set up in ${ctx.root} (no ${MANIFEST_PATH}). Run npx create-loop-guard${repeatedFlags(opts)} to set it ` +
        `up, then commit the result.`,
      c.red,
    );
    return out.finish(EXIT.drift, 'not-set-up', plan);
  }
  const judged = judge(opts, planned);
  const outcome = {
    drift: judged.filter((j) => j.verdict.kind === 'drift'),
    outdated: judged.filter((j) => j.verdict.kind === 'outdated'),
    notSetUp: manifest
      ? ctx.detected
          .filter((d) => !manifest.tools.includes(d.name) && !manifest.removed?.includes(d.name))
          .map((d) => ({ label: TOOLS[d.name].label, evidence: d.evidence }))
      : [],
    installed: manifest?.version ?? VERSION,
    version: VERSION,
    strict: opts.strict === true,
    flags: repeatedFlags(opts),
  };
  if (!opts.json) printDrift(opts, io, out, outcome);
  // Values of ours the user has changed are theirs: not drift, but said, so a reviewer sees them.
  const kept = plan.changes.filter((ch) => ch.action === 'noop' && ch.notes.some((n) => n.startsWith('Kept your')));
  if (kept.length)
    out.say(
      'warn',
      'kept-values',
      `Your own values where loop-guard would set its own (kept; --yes --force puts ours back):\n` +
        `${kept.flatMap((ch) => ch.notes.map((n) => `  ${ch.path}: ${n}`)).join('\n')}`,
      c.yellow,
    );
  const v = checkVerdict(outcome);
  out.say(
    v.message.level,
    v.message.code,
    v.message.text,
    v.code ? c.red : v.message.level === 'warn' ? c.yellow : c.green,
    opts.diff === true && outcome.drift.length > 0,
  );
  return out.finish(v.code, v.result, plan);
}
