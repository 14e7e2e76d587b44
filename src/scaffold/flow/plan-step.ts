import { join } from 'node:path';
// Step 2, plan: the shell-profile choice, then one pure plan over a snapshot of every file it may touch, with the
// ignore blocks git needs to let our files into a commit.
import { buildAssets, VERSION } from '../../assets.ts';
import { EXIT } from '../../exit-codes.ts';
import type { IO } from '../../io.ts';
import { TOOLS } from '../../tools/index.ts';
import { type IgnoreRule, planIgnores } from '../ignored.ts';
import { repoRealPaths } from '../paths.ts';
import { buildPlan, type FileChange, type Plan, planPaths } from '../plan.ts';
import { hasProfileBlock, PROFILE_LINE, profileTarget, type ProfileTarget } from '../profile.ts';
import { readConfig } from '../read-config.ts';
import type { Context } from './detect-step.ts';
import { formatterInput } from './formatters.ts';
import { biomeRefused, type Options } from './options.ts';
import type { Output } from './output.ts';
import { readHomeFile, readRepoFile, readRepoFileSafe } from './repo-files.ts';
import { docNotes, fallbackDoc } from '../project-doc.ts';

/** The plan value the later steps pass along. */
export interface Planned {
  ctx: Context;
  plan: Plan;
  /** The shell profile the user agreed to (--shell-profile, or a block accepted before). */
  profile?: ProfileTarget;
  /** The shell profile asked about after the main question, never by default: previewed, not counted. */
  askProfile?: ProfileTarget;
  /** The plan had the user said yes to the shell profile too, and that profile change. */
  planWithProfile?: Plan;
  deferred?: FileChange;
  /** Files git would leave out of a commit by rules no negation block can undo. */
  ignoreRefused: IgnoreRule[];
}

type ProfileChoice = { profile?: ProfileTarget; askProfile?: ProfileTarget };

/** $HOME is touched only on explicit opt-in, and --check never looks there. */
function chooseProfile(opts: Options, io: IO, ctx: Context, out: Output): ProfileChoice | number {
  // --remove --shell-profile takes our block out of the profile even when this repository has no record any more.
  const wanted = ctx.tools.some((t) => TOOLS[t].needsShellProfile) || (opts.mode === 'remove' && opts.shellProfile);
  if (opts.mode === 'check' || !wanted) return {};
  let want = opts.shellProfile;
  const existing = profileTarget(io.env, io.home);
  // Once accepted, the profile block is kept current on every rerun without asking again.
  if (!want && opts.mode === 'apply' && existing && hasProfileBlock(readHomeFile(existing.path))) want = true;
  if (!want)
    return out.interactive && opts.mode === 'apply' && !opts.dryRun && existing ? { askProfile: existing } : {};
  const target = profileTarget(io.env, io.home);
  if (!target) {
    out.problem(
      'usage',
      `--shell-profile supports bash, zsh and fish ($SHELL is ${io.env.SHELL ?? 'unset'}). Add this line ` +
        `to your shell profile by hand:\n    ${PROFILE_LINE}`,
    );
    return out.finish(EXIT.error, 'usage-error');
  }
  return { profile: target };
}

/** The plans: as asked, and (when the profile question is still to come) with the profile too. */
/** What the install changes in what each tool reads (a new AGENTS.md in place of Codex's fallback file). */
function readNotes(ctx: Context, io: IO): Map<string, string[]> {
  const read = (c: { path: string; movedBy?: { env: string; dir: string } }) => {
    const moved = c.movedBy && io.env[c.movedBy.env] && c.path.startsWith(c.movedBy.dir) ? c.movedBy : null;
    if (moved) {
      const abs = join(io.env[moved.env] as string, c.path.slice(moved.dir.length));
      return { shown: `$${moved.env}${c.path.slice(moved.dir.length)}`, text: readHomeFile(abs) };
    }
    if (c.path.startsWith('~/')) return { shown: c.path, text: readHomeFile(join(io.home, c.path.slice(2))) };
    return { shown: c.path, text: readRepoFileSafe(ctx.root, c.path) };
  };
  const exists = (p: string) => readRepoFileSafe(ctx.root, p) !== null;
  const records = ctx.tools.map((t) => TOOLS[t]);
  const notes = docNotes(records, exists, read);
  const byPath = new Map<string, string[]>(notes.length ? [['AGENTS.md', notes]] : []);
  const doc = fallbackDoc(records, (p) => readRepoFileSafe(ctx.root, p));
  if (doc) byPath.set(doc.path, [...(byPath.get(doc.path) ?? []), doc.note]);
  return byPath;
}

function buildPlans(opts: Options, ctx: Context, choice: ProfileChoice, io: IO): Omit<Planned, 'ctx'> {
  const paths = planPaths(ctx.tools, ctx.manifest, (p) => readRepoFileSafe(ctx.root, p));
  const files = new Map<string, string | null>();
  for (const p of paths) files.set(p, readRepoFile(ctx.root, p));
  const base = {
    mode: opts.mode === 'remove' ? ('remove' as const) : ('apply' as const),
    tools: ctx.tools,
    manifest: ctx.manifest,
    version: VERSION,
    force: opts.force,
    assets: buildAssets(VERSION),
    realPaths: repoRealPaths(ctx.root, paths),
    ...formatterInput(ctx.root, ctx.tools, biomeRefused(opts, ctx.manifest)),
    pathNotes: readNotes(ctx, io),
    ...(opts.tools !== undefined && opts.mode !== 'apply' ? { only: ctx.tools } : {}),
  };
  let ignoreBlocks: ReadonlyMap<string, string | null> | undefined;
  let ignoreNotes: ReadonlyMap<string, readonly string[]> | undefined;
  const build = (target: ProfileTarget | undefined) => {
    const withHome = new Map(files);
    if (target) withHome.set(target.path, readConfig(target.path, target.path));
    return buildPlan({
      ...base,
      files: withHome,
      ...(target ? { profile: target } : {}),
      ...(ignoreBlocks ? { ignoreBlocks } : {}),
      ...(ignoreNotes ? { ignoreNotes } : {}),
    });
  };
  let plan = build(choice.profile);
  let ignoreRefused: IgnoreRule[] = [];
  if (opts.mode !== 'remove') {
    // Ask git which of the files we write it would leave out of a commit (scaffold/ignored.ts).
    const after = new Map(plan.changes.filter((c) => !c.home).map((c) => [c.path, c.after]));
    const targets = plan.changes.filter((c) => !c.home && c.after !== null && c.action !== 'conflict');
    const read = (rel: string): string | null => {
      if (after.has(rel)) return after.get(rel) ?? null;
      if (!files.has(rel)) files.set(rel, readRepoFile(ctx.root, rel));
      return files.get(rel) ?? null;
    };
    const recorded = Object.keys(ctx.manifest?.files ?? {}).filter((p) => ctx.manifest?.files[p]?.ignoreBlock);
    const ig = planIgnores(
      ctx.root,
      targets.map((c) => c.path),
      read,
      recorded,
    );
    if (ig) {
      ignoreRefused = ig.refused;
      if (ig.blocks.size) {
        for (const p of ig.blocks.keys()) read(p);
        ignoreBlocks = ig.blocks;
        ignoreNotes = ig.notes;
        plan = build(choice.profile);
      }
    }
  }
  const withProfile = choice.askProfile ? build(choice.askProfile) : undefined;
  const deferred = withProfile?.changes.find((ch) => ch.home && ch.action !== 'noop');
  return {
    plan,
    ignoreRefused,
    ...choice,
    ...(deferred && withProfile ? { planWithProfile: withProfile, deferred } : {}),
  };
}

/** Step 2: the plan value, or the exit code of a run that stops here. */
export function planStep(opts: Options, io: IO, ctx: Context, out: Output): Planned | number {
  const choice = chooseProfile(opts, io, ctx, out);
  if (typeof choice === 'number') return choice;
  try {
    return { ctx, ...buildPlans(opts, ctx, choice, io) };
  } catch (err) {
    return out.readFailure(err);
  }
}
