// The scaffolder's flow: options → detect → plan → report → (confirm) → apply. I/O comes in through `io`.
import { ApplyError, applyPlan, OUR_DIRS } from './apply.ts';
import { recover } from './journal.ts';
import { lockRepository, type Lock, LockError } from './lock.ts';
import { chooseRoot, EscapeError, hookPathProblem, insidePath, repoRealPaths, RootError } from './paths.ts';
import { GUARD_PATH } from '../tools/markers.ts';
import { ConfigReadError, readConfig } from './read-config.ts';
import { RUN_DIR, removeRunState } from '../run/state.ts';
import { gitignoresFor, type IgnoreRule, planIgnores, ruleText } from './ignored.ts';
import { rebuildManifest } from './rebuild.ts';
import { buildAssets, VERSION } from '../assets.ts';
import { type DetectedTool, detectTools, detectWeak } from './detect.ts';
import { MANIFEST_PATH, type Manifest, parseManifest } from './manifest.ts';
import { buildPlan, type FileChange, type Plan, PlanError, planPaths } from './plan.ts';
import { EXIT } from '../exit-codes.ts';
import { canPrompt } from './prompt/index.ts';
import { CANCELLED } from './prompt/types.ts';
import type { IO } from '../io.ts';
import { colorEnabled, type Palette, palette } from '../report/colors.ts';
import { colorDiff, displayDiff, unifiedDiff } from '../report/diff.ts';
import { annotations } from '../report/github.ts';
import { type JsonReport, jsonChanges } from '../report/json.ts';
import { filesReport, previewReport, shownPath, toolsReport } from '../report/summary.ts';
import type { Level, Message } from '../report/messages.ts';
import { checkLines, checkVerdict } from '../report/check.ts';
import { intentsFor } from './plan.ts';
import { verdict } from './outdated.ts';
import { parseToolArg, toolListError } from './tool-list.ts';
import { planTense } from '../report/tense.ts';
import { FileFormatError } from '../edit/outcome.ts';
import { hasProfileBlock, PROFILE_LINE, PROFILE_STEP, profileTarget, type ProfileTarget } from './profile.ts';
import { MACHINE_STEPS } from '../report/doctor.ts';
import { fill } from '../doctor/trust.ts';
import { TOOL_NAMES, TOOLS, type ToolName } from '../tools/index.ts';

export type { IO } from '../io.ts';

export type Mode = 'apply' | 'check' | 'remove';

export interface Options {
  mode: Mode;
  yes: boolean;
  dryRun: boolean;
  force: boolean;
  json: boolean;
  shellProfile: boolean;
  /** --check: fail on outdated too. */
  strict?: boolean;
  /** Show full diffs of our own files and the ownership record (--diff / --verbose). */
  diff?: boolean;
  cwd?: string;
  /** Accept a --cwd directory that is not under git. */
  noGit?: boolean;
  tools?: string;
}

/** A file the plan reads: resolved inside the root through every parent, regular, under the size cap. */
function readRepoFile(root: string, rel: string): string | null {
  const text = readConfig(insidePath(root, rel), rel);
  // An empty JSON config is a reasonable thing to find: it means {}.
  if (text !== null && rel.endsWith('.json') && text.trim() === '') return '{}\n';
  return text;
}

function readHomeFile(path: string): string | null {
  try {
    return readConfig(path, path);
  } catch {
    return null;
  }
}

interface Context {
  root: string;
  detected: DetectedTool[];
  tools: ToolName[];
  manifest: Manifest | null;
}

function loadManifest(root: string): Manifest | null {
  const text = readRepoFile(root, MANIFEST_PATH);
  if (text === null) return null;
  try {
    return parseManifest(text);
  } catch (err) {
    if (err instanceof FileFormatError) throw new PlanError(MANIFEST_PATH, err.message, err.fix);
    throw err;
  }
}

/** What is left after writing: in the repository (commit, CI) and on this machine (trust a folder, the shell
 * profile) — the machine steps in the words doctor uses for them. */
function nextSteps(
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
  repo.push(
    'Commit the result (git add -A && git commit): the setup lives in the repository, for everyone who clones it.',
    'Prove it works on this machine: npx create-loop-guard doctor',
    `In CI, catch drift: npx create-loop-guard@` +
      `${VERSION.split('.')[0] === '0' ? `0.${VERSION.split('.')[1]}` : VERSION.split('.')[0]} --check ` +
      `(add --strict to fail when the repository was set up by another version too).`,
  );
  return { repo, machine };
}

/**
 * A run that stops before it has a plan (no root, the lock held by another run): the reason on stderr, and under
 * --json the same report shape as every other exit, with the reason as its one `{level, code, text}` message.
 */
function stopEarly(opts: Options, io: IO, root: string, code: string, result: string, text: string): number {
  io.err(`create-loop-guard: ${text}\n`);
  if (opts.json) {
    const report: JsonReport = {
      version: VERSION,
      root,
      mode: opts.mode === 'apply' && opts.dryRun ? 'dry-run' : opts.mode,
      tools: [],
      changes: [],
      result,
      exitCode: EXIT.error,
      messages: [{ level: 'error', code, text }],
    };
    io.out(`${JSON.stringify(report, null, 2)}\n`);
  }
  return EXIT.error;
}

const PRETTIER_CONFIGS = [
  '.prettierrc',
  '.prettierrc.json',
  '.prettierrc.json5',
  '.prettierrc.yaml',
  '.prettierrc.yml',
  '.prettierrc.toml',
  '.prettierrc.js',
  '.prettierrc.cjs',
  '.prettierrc.mjs',
  '.prettierrc.ts',
  'prettier.config.js',
  'prettier.config.cjs',
  'prettier.config.mjs',
  'prettier.config.ts',
];
const BIOME_CONFIGS = ['biome.json', 'biome.jsonc'];

/** The repository's formatter configs, as found at its root (package.json's "prettier" key counts). */
export function formatterConfigs(root: string): { prettier?: string; biome?: string } {
  const out: { prettier?: string; biome?: string } = {};
  const prettier = PRETTIER_CONFIGS.find((f) => readRepoFileSafe(root, f) !== null);
  if (prettier) out.prettier = prettier;
  else {
    try {
      const pkg = JSON.parse(readRepoFileSafe(root, 'package.json') ?? '{}') as Record<string, unknown>;
      if (pkg && typeof pkg === 'object' && 'prettier' in pkg) out.prettier = 'package.json "prettier"';
    } catch {
      // not JSON: not ours to judge here
    }
  }
  const biome = BIOME_CONFIGS.find((f) => readRepoFileSafe(root, f) !== null);
  if (biome) out.biome = biome;
  return out;
}

function readRepoFileSafe(root: string, rel: string): string | null {
  try {
    return readRepoFile(root, rel);
  } catch {
    return null;
  }
}

/** With a prettier config, our generated scripts go in .prettierignore (prettier would reformat them). */
function formatterInput(root: string, tools: readonly ToolName[]): { prettierIgnore?: string } {
  if (!formatterConfigs(root).prettier) return {};
  const generated = intentsFor(tools)
    .filter((i) => i.kind === 'owned' && /\.(c|m)?js$/.test(i.path))
    .map((i) => `/${i.path}`);
  if (!generated.length) return {};
  return {
    prettierIgnore: ['# Generated by create-loop-guard; --check compares them itself.', ...generated].join('\n'),
  };
}

/** The tools only weak evidence suggests, for the no-tools message. */
function weakLine(root: string): string {
  const weak = detectWeak(root);
  if (!weak.length) return '';
  return (
    `\n  Also possible: ` +
    `${weak.map((d) => `${TOOLS[d.name].label} (${d.evidence.join(', ')}; other tools use it too): --tools ${d.name}`).join('; ')}`
  );
}

/** The flow under the repository lock, after an interrupted earlier run has been finished or undone. */
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
    const rec = lock ? recover(root, OUR_DIRS) : { swept: [] };
    const notes: string[] = [];
    if (note) notes.push(note);
    if (rec.journal === 'rolled-forward')
      notes.push('An earlier run was interrupted after it had staged every file; its changes were completed.');
    if (rec.journal === 'rolled-back')
      notes.push('An earlier run was interrupted before it changed anything; its temporary files were removed.');
    if (rec.swept.length) notes.push(`Removed ${rec.swept.length} leftover temporary file(s) of an earlier run.`);
    return await runLocked(opts, io, root, notes);
  } finally {
    lock?.release();
  }
}

async function runLocked(opts: Options, io: IO, root: string, notes: string[]): Promise<number> {
  const c: Palette = palette(!opts.json && colorEnabled(io.env, io.stdoutIsTTY));
  const interactive = !opts.json && canPrompt(io.env, io.stdinIsTTY, io.stdoutIsTTY);
  const messages: Message[] = [];
  /** A message people read on stdout (with a blank line before it when `gap`) and scripts read in --json. */
  const say = (level: Level, code: string, text: string, style: (s: string) => string = (s) => s, gap = false) => {
    messages.push({ level, code, text });
    if (!opts.json) io.out(`${gap ? '\n' : ''}${style(text)}\n`);
  };
  /** The reason for a non-zero exit that belongs on stderr: still one of the --json messages. */
  const problem = (code: string, text: string) => {
    messages.push({ level: 'error', code, text });
    io.err(`create-loop-guard: ${text}\n`);
  };
  const report: Partial<JsonReport> = {
    version: VERSION,
    mode: opts.mode === 'apply' && opts.dryRun ? 'dry-run' : opts.mode,
  };
  const finish = (code: number, result: string, plan?: Plan): number => {
    if (opts.json) {
      const full: JsonReport = {
        version: VERSION,
        root: report.root ?? '',
        mode: report.mode ?? opts.mode,
        tools: report.tools ?? [],
        changes: plan ? jsonChanges(plan.changes, (ch) => displayDiff(ch, opts.diff === true)) : [],
        result,
        exitCode: code,
        messages,
      };
      io.out(`${JSON.stringify(full, null, 2)}\n`);
    }
    return code;
  };

  /** A file that could not be read or parsed, or a path that leads outside the repository: exit 2, nothing written. */
  const readFailure = (err: unknown): number => {
    if (err instanceof PlanError || err instanceof ConfigReadError) {
      problem('parse-error', `${err.message}\n  fix: ${err.fix}\n  Nothing was written.`);
      return finish(EXIT.error, 'parse-error');
    }
    if (err instanceof EscapeError) {
      problem('outside-repo', `${err.message}\n  Nothing was written.`);
      return finish(EXIT.error, 'outside-repo');
    }
    throw err;
  };

  let ctx: Context;
  let recordLost = false;
  try {
    report.root = root;
    for (const note of notes) say('info', 'root', note, c.dim);
    let manifest = loadManifest(root);
    if (!manifest) {
      // A lost record: rebuilt from our marks, so nothing we wrote is taken for the user's (scaffold/rebuild.ts).
      const all = planPaths(TOOL_NAMES, null);
      all.push(...gitignoresFor(all).filter((p) => !all.includes(p)));
      const texts = new Map(all.map((p) => [p, readRepoFile(root, p)] as const));
      manifest = rebuildManifest(texts, intentsFor, { version: VERSION, assets: buildAssets(VERSION) });
      if (manifest) {
        recordLost = true;
        say(
          'info',
          'record-rebuilt',
          `${MANIFEST_PATH} is missing: rebuilt what create-loop-guard owns from its marks in the files (` +
            `${manifest.tools.map((t) => TOOLS[t].label).join(', ')}).`,
          c.dim,
        );
      }
    }
    const detected = detectTools(root);
    let tools: ToolName[];
    if (opts.tools !== undefined) {
      const parsed = parseToolArg(opts.tools);
      if (parsed.unknown.length || !parsed.tools.length) {
        problem('usage', toolListError(opts.tools, parsed));
        return finish(EXIT.error, 'usage-error');
      }
      tools = parsed.tools;
    } else {
      // A tool taken out with --remove --tools stays out until --tools names it again; --check judges what is set up.
      tools = detected.map((d) => d.name).filter((t) => !manifest?.removed?.includes(t));
      if (opts.mode === 'check' && manifest) tools = tools.filter((t) => manifest.tools.includes(t));
    }
    // An upgrade keeps every tool an earlier run set up, even if its folder was not detected this time; --remove and
    // --check with --tools work on the named tools only.
    if (opts.mode === 'apply' || opts.tools === undefined)
      for (const t of manifest?.tools ?? []) if (!tools.includes(t)) tools.push(t);
    ctx = { root, detected, tools, manifest };
  } catch (err) {
    return readFailure(err);
  }

  if (!ctx.tools.length && opts.mode !== 'remove') {
    if (interactive && opts.mode === 'apply') {
      const chosen = await io.prompter.chooseTools();
      if (chosen === CANCELLED) {
        say('info', 'cancelled', 'Nothing written.');
        return finish(EXIT.drift, 'cancelled');
      }
      ctx.tools = chosen;
    }
    if (!ctx.tools.length) {
      const looked = Object.values(TOOLS)
        .flatMap((t) => t.evidence)
        .join(', ');
      problem(
        'no-tools',
        `no agent tool config found in ${ctx.root} (looked for ${looked}).${weakLine(ctx.root)}\n  Pass the ` +
          `tools you use: --tools ${TOOL_NAMES.join(',')} (or --tools all)`,
      );
      return finish(EXIT.error, 'no-tools');
    }
  }

  const pathProblem = opts.mode === 'remove' ? null : hookPathProblem(ctx.root, GUARD_PATH);
  if (pathProblem) {
    problem('unsafe-path', `${pathProblem}\n  Nothing was written.`);
    return finish(EXIT.error, 'unsafe-path');
  }

  if (opts.mode === 'apply' && opts.tools === undefined) {
    const weak = detectWeak(ctx.root).filter((d) => !ctx.tools.includes(d.name));
    if (weak.length)
      say(
        'info',
        'also-possible',
        `Also possible, not set up: ` +
          `${weak.map((d) => `${TOOLS[d.name].label} (${d.evidence.join(', ')} alone; other tools use it too)`).join('; ')}` +
          `.\n  To set it up as well: npx create-loop-guard --tools ` +
          `${[...ctx.tools, ...weak.map((d) => d.name)].join(',')}`,
        c.dim,
      );
  }

  if (opts.mode === 'apply') {
    const f = formatterConfigs(ctx.root);
    if (f.prettier)
      say(
        'info',
        'formatter',
        `Prettier config found (${f.prettier}): the files we generate are listed in .prettierignore (a ` +
          `managed block), so prettier leaves them alone.`,
        c.dim,
      );
    if (f.biome)
      say(
        'info',
        'formatter',
        `Biome config found (${f.biome}): a biome pass over the files we generate is not drift (--check ` +
          `compares their code). To keep biome off them, add "!**/.agents/hooks" and our plugin folders to ` +
          `files.includes.`,
        c.dim,
      );
  }

  const toolRows: DetectedTool[] = ctx.tools.map((name) => ({
    name,
    evidence: ctx.detected.find((d) => d.name === name)?.evidence ?? [],
  }));
  report.tools = toolRows;
  if (!opts.json && opts.mode !== 'remove') io.out(`${toolsReport(toolRows, c)}\n`);

  // $HOME is touched only on explicit opt-in, and --check never looks there.
  let profile: ProfileTarget | undefined;
  /** The shell profile asked about after the main question, never by default: its change is previewed, not counted. */
  let askProfile: ProfileTarget | undefined;
  // --remove --shell-profile takes our block out of the profile even when this repository has no record any more.
  if (
    opts.mode !== 'check' &&
    (ctx.tools.some((t) => TOOLS[t].needsShellProfile) || (opts.mode === 'remove' && opts.shellProfile))
  ) {
    let want = opts.shellProfile;
    const existing = profileTarget(io.env, io.home);
    // Once accepted, the profile block is kept current on every rerun without asking again.
    if (!want && opts.mode === 'apply' && existing && hasProfileBlock(readHomeFile(existing.path))) want = true;
    if (!want && interactive && opts.mode === 'apply' && !opts.dryRun && existing) askProfile = existing;
    if (want) {
      const target = profileTarget(io.env, io.home);
      if (!target) {
        problem(
          'usage',
          `--shell-profile supports bash, zsh and fish ($SHELL is ${io.env.SHELL ?? 'unset'}). Add this line ` +
            `to your shell profile by hand:\n    ${PROFILE_LINE}`,
        );
        return finish(EXIT.error, 'usage-error');
      }
      profile = target;
    }
  }

  let plan: Plan;
  /** The plan had the user said yes to the shell profile too. */
  let planWithProfile: Plan | undefined;
  let ignoreRefused: IgnoreRule[] = [];
  try {
    const paths = planPaths(ctx.tools, ctx.manifest);
    const files = new Map<string, string | null>();
    for (const p of paths) files.set(p, readRepoFile(ctx.root, p));
    const realPaths = repoRealPaths(ctx.root, paths);
    const base = {
      mode: opts.mode === 'remove' ? ('remove' as const) : ('apply' as const),
      tools: ctx.tools,
      manifest: ctx.manifest,
      version: VERSION,
      force: opts.force,
      assets: buildAssets(VERSION),
      realPaths,
      ...formatterInput(ctx.root, ctx.tools),
      ...(opts.tools !== undefined && opts.mode !== 'apply' ? { only: ctx.tools } : {}),
    };
    let ignoreBlocks: ReadonlyMap<string, string | null> | undefined;
    const build = (target: ProfileTarget | undefined) => {
      const withHome = new Map(files);
      if (target) withHome.set(target.path, readConfig(target.path, target.path));
      return buildPlan({
        ...base,
        files: withHome,
        ...(target ? { profile: target } : {}),
        ...(ignoreBlocks ? { ignoreBlocks } : {}),
      });
    };
    plan = build(profile);
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
          plan = build(profile);
        }
      }
    }
    if (askProfile) planWithProfile = build(askProfile);
  } catch (err) {
    return readFailure(err);
  }
  const deferred = planWithProfile?.changes.find((ch) => ch.home && ch.action !== 'noop');
  if (!deferred) planWithProfile = undefined;

  if (ignoreRefused.length) {
    const rules = ignoreRefused.map((r) => `    ${r.path}  (${ruleText(r)})`).join('\n');
    const text =
      `git ignores ${ignoreRefused.length} file(s) create-loop-guard writes, by rules no clone of this ` +
      `repository has (or that a negation cannot undo):\n${rules}`;
    if (opts.force) {
      say(
        'warn',
        'ignored',
        `${text}\n  Written anyway (--force): add them with git add -f, or set each clone up itself.`,
        c.yellow,
      );
    } else if (opts.mode === 'check') {
      say('error', 'ignored', `${text}\n  A clone has hooks that point at files it does not have.`, c.red);
      return finish(EXIT.drift, 'ignored', plan);
    } else if (!opts.dryRun) {
      problem(
        'ignored',
        `${text}\n  Nothing was written. Ways out: take the rule out (or add a negation such as !/` +
          `${ignoreRefused[0]?.path} after it in the repository's .gitignore), or rerun with --force to write ` +
          `them anyway (each clone then needs its own install).`,
      );
      return finish(EXIT.drift, 'ignored', plan);
    } else say('warn', 'ignored', text, c.yellow);
  }

  const changes = plan.changes;
  const pending = changes.filter((ch) => ch.action !== 'noop' && ch.action !== 'conflict');
  const conflicts = changes.filter((ch) => ch.action === 'conflict');

  /** --check: drift (exit 1) apart from outdated (exit 0 with a notice, 1 under --strict). Read-only. */
  const finishCheck = (): number => {
    const manifest = ctx.manifest;
    // --check --tools X plans X's files only, so the record (which lists every tool) is not X's to judge.
    const differing = changes.filter(
      (ch) => ch.action !== 'noop' && !(opts.tools !== undefined && ch.path === MANIFEST_PATH),
    );
    if (!manifest) {
      const anyOurs = changes.some((ch) => ch.action === 'noop' && ch.before !== null);
      if (!anyOurs) {
        say(
          'error',
          'not-set-up',
          `loop-guard is not set up in ${ctx.root} (no ${MANIFEST_PATH}). Run npx create-loop-guard to set it ` +
            `up, then commit the result.`,
          c.red,
        );
        return finish(EXIT.drift, 'not-set-up', plan);
      }
    }
    const setUp = new Map(intentsFor(manifest?.tools ?? []).map((i) => [i.path, i]));
    const input = {
      manifest: manifest ?? { version: VERSION, tools: [], files: {} },
      manifestText: readRepoFile(ctx.root, MANIFEST_PATH),
      version: VERSION,
      setUp,
    };
    const lost = {
      kind: 'drift' as const,
      why: `${MANIFEST_PATH} is missing; run npx create-loop-guard --yes to rebuild it from the files, then commit it`,
    };
    const judged = differing.map((change) => ({
      change,
      verdict: !manifest || (recordLost && change.path === MANIFEST_PATH) ? lost : verdict(change, input),
    }));
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
    };
    if (!opts.json) {
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
      if (io.env.GITHUB_ACTIONS === 'true') io.out(annotations(outcome.drift.map((d) => d.change)));
    }
    // Values of ours the user has changed are theirs: not drift, but said, so a reviewer sees them.
    const kept = changes.filter((ch) => ch.action === 'noop' && ch.notes.some((n) => n.startsWith('Kept your')));
    if (kept.length)
      say(
        'warn',
        'kept-values',
        `Your own values where loop-guard would set its own (kept; --yes --force puts ours back):\n` +
          `${kept.flatMap((ch) => ch.notes.map((n) => `  ${ch.path}: ${n}`)).join('\n')}`,
        c.yellow,
      );
    const v = checkVerdict(outcome);
    say(
      v.message.level,
      v.message.code,
      v.message.text,
      v.code ? c.red : v.message.level === 'warn' ? c.yellow : c.green,
      opts.diff === true && outcome.drift.length > 0,
    );
    return finish(v.code, v.result, plan);
  };
  const readOnly = opts.mode === 'check' || opts.dryRun;
  if (opts.mode === 'check') return finishCheck();
  if (!opts.json) {
    const tense = readOnly ? 'would' : 'will';
    if (opts.diff) {
      io.out(
        filesReport(
          opts.mode === 'remove' ? changes.filter((ch) => ch.action !== 'noop') : changes,
          c,
          tense,
          io.home,
          deferred,
        ),
      );
      for (const ch of [...pending, ...(deferred ? [deferred] : [])])
        io.out(`\n${colorDiff(displayDiff(ch, true, shownPath(ch, io.home)), c)}`);
    } else {
      // --remove lists only what it takes out: a repository never set up is one line, not a list of "up to date".
      const shown = opts.mode === 'remove' ? changes.filter((ch) => ch.action !== 'noop') : changes;
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
    }
  }

  if (conflicts.length) {
    say(
      'error',
      'conflicts',
      `${conflicts.length} conflict(s): nothing was written. Fix them as shown above, or ` +
        `${opts.mode === 'remove' ? 'rerun with --remove --force to take them out anyway' : 'rerun with --force to replace them'}` +
        `.`,
      c.red,
      true,
    );
    return finish(EXIT.drift, 'conflicts', plan);
  }
  if (!pending.length && !deferred) {
    say(
      'info',
      'up-to-date',
      opts.mode === 'remove' ? 'Nothing of create-loop-guard is here; nothing to remove.' : 'Everything is up to date.',
      c.green,
    );
    return finish(EXIT.ok, 'up-to-date', plan);
  }
  if (opts.dryRun) {
    say('info', 'dry-run', `Dry run: nothing written (${pending.length} file(s) would change).`, c.dim, true);
    return finish(EXIT.ok, 'dry-run', plan);
  }
  if (!opts.yes && pending.length) {
    if (!interactive) {
      say(
        'error',
        'needs-yes',
        `Nothing written: no terminal to ask on. Pass --yes to apply these changes (or --dry-run to preview, ` +
          `--check to verify).`,
        (s) => s,
        true,
      );
      return finish(EXIT.drift, 'needs-yes', plan);
    }
    io.out('\n');
    const ok = await io.prompter.confirm(
      opts.mode === 'remove' ? `Remove loop-guard from ${pending.length} file(s)?` : `Write ${pending.length} file(s)?`,
    );
    if (ok !== true) {
      say('error', 'declined', 'Nothing written.');
      return finish(EXIT.drift, 'declined', plan);
    }
  }
  // The user-level question comes last, and Enter means No: it changes a file outside this repository.
  if (deferred && planWithProfile && askProfile) {
    if (!pending.length) say('info', 'up-to-date', 'The repository is up to date.', c.green);
    const answer = await io.prompter.confirm(
      `Also add Cursor's agent environment to ${shownPath(deferred, io.home)} (every repository where Cursor runs)?`,
      false,
    );
    if (answer === CANCELLED) {
      say('info', 'cancelled', 'Nothing written.');
      return finish(EXIT.drift, 'cancelled');
    }
    if (answer) {
      plan = planWithProfile;
      profile = askProfile;
    } else if (!pending.length) return finish(EXIT.ok, 'up-to-date', plan);
  }
  const toWrite = plan.changes;

  try {
    const result = applyPlan(ctx.root, toWrite, io.env);
    const files = result.written.length + result.removed.length;
    // A removal deletes the files we created and edits ours out of the user's; "Removed 8 file(s)" read as 8 deleted.
    const done =
      opts.mode === 'remove'
        ? `Removed loop-guard from ${files} file(s): ${result.removed.length} deleted, ${result.written.length} edited.`
        : `Wrote ${files} file(s).`;
    say('info', 'applied', done, c.green, true);
    if (opts.mode === 'remove' && removeRunState(ctx.root))
      say('info', 'removed-run-state', `Removed the state of unattended runs (${RUN_DIR}/).`);
  } catch (err) {
    if (err instanceof ApplyError) {
      problem('write-error', `${err.message}${err.partial ? '' : '\n  Nothing was written.'}`);
      return finish(EXIT.error, 'write-error', plan);
    }
    throw err;
  }
  if (opts.mode === 'remove' && !profile) {
    const left = profileTarget(io.env, io.home);
    if (left && (ctx.manifest?.shellProfile || hasProfileBlock(readHomeFile(left.path)))) {
      say(
        'info',
        'profile-kept',
        `Kept the loop-guard block in ${left.path}: it is yours for every repository on this machine where ` +
          `Cursor runs, not this one only. Take it out with: npx create-loop-guard --remove --shell-profile`,
        (x) => x,
        true,
      );
    }
  }
  if (opts.mode === 'apply') {
    const steps = nextSteps(ctx.tools, profile !== undefined, ctx.root);
    say('info', 'next-steps', `Next steps:\n${steps.repo.map((s) => `  - ${s}`).join('\n')}`, (s) => s, true);
    if (steps.machine.length)
      say(
        'info',
        'machine-steps',
        `${MACHINE_STEPS} (doctor checks these too):\n${steps.machine.map((s) => `  ○ ${s}`).join('\n')}`,
        (s) => s,
        true,
      );
  }
  return finish(EXIT.ok, 'applied', plan);
}

export type { FileChange };
