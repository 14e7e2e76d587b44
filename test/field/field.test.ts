// The field corpus: for each repository layout cut from a real public repository (test/fixtures/field), the life of
// an install as a team lives it. Apply, `--check`, a rerun that changes nothing, the repository's own formatter over
// the whole tree, `--check`, its own linters (biome, cspell, pre-commit-hooks' rules) over what we wrote, commit, a
// fresh clone whose installed hooks answer a real payload (and, with the guard file gone, stay silent and allow), a
// clone that lost the ownership record (`--yes` then `--remove` give its tree back), `--remove`, and the tree is the
// one the layout had (after the same formatter).
// Each layout runs its whole life once (several at a time); every step is its own test of what that run saw.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/cli.ts';
import { requireBuilt } from '../helpers/paths.ts';
import { type FormatterRun, format, formattersOf } from './formatters.ts';
import { deleteGuardFiles, hookEnv, installedHooks } from './hooks.ts';
import { lint, lintersOf, preCommitHooksOf, preCommitRules } from './linters.ts';
import { git, type Layout, loadLayouts, materialise, snapshot, treeDiff } from './layout.ts';

const STEPS = [
  'detection',
  'apply',
  'check',
  'rerun',
  'format',
  'check after format',
  'linters',
  'clone check',
  'clone hooks answer',
  'clone without guard',
  'lost record',
  'remove',
] as const;
type Step = (typeof STEPS)[number];
/** null = passed, 'n/a' = the layout has nothing for this step, else what went wrong. */
type Outcome = null | 'n/a' | string;

/**
 * Steps that still fail, each with the defect it shows. A listed step is skipped, so the suite stays green while the
 * defect is open; remove the line once it passes.
 */
const KNOWN: Record<string, Partial<Record<Step, string>>> = {};

/**
 * What a lost record may leave on purpose (docs/editing.md): an `@AGENTS.md` import line, alone in CLAUDE.md or
 * GEMINI.md or added to the user's own, cannot be told from one the user wrote, so without the record it stays theirs.
 */
function importResidue(path: string, want: string | undefined, got: string): boolean {
  if (!/(^|\/)(CLAUDE|GEMINI)\.md$/.test(path)) return false;
  const lines = (text: string) => text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const extra = [...lines(got)];
  for (const l of lines(want ?? '')) {
    const i = extra.indexOf(l);
    if (i === -1) return false;
    extra.splice(i, 1);
  }
  return extra.length > 0 && extra.every((l) => l.trim() === '@AGENTS.md');
}

const all = loadLayouts();
/** LOOP_GUARD_FIELD_ONLY=a,b runs the lives of those layouts only (the corpus checks still see every layout). */
const only = process.env.LOOP_GUARD_FIELD_ONLY?.split(',').filter(Boolean);
const layouts = only?.length ? all.filter((l) => only.includes(l.name)) : all;
const results = new Map<string, Promise<Map<Step, Outcome>>>();
/** What the report should say about a formatter pass (plugins left out, a file of theirs it cannot parse). */
const formatNotes = new Map<string, string>();
const durations = new Map<string, number>();
const hookCounts = new Map<string, number>();
const keep = process.env.LOOP_GUARD_FIELD_KEEP === '1';
const bases: string[] = [];

const cli = (args: string[], cwd: string, home: string) => runCliAsync(args, { cwd, env: { HOME: home } });
const firstLine = (text: string) => text.trim().split('\n')[0] ?? '';
const isJsonOrEmpty = (text: string) => {
  if (text.trim() === '') return true;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};
const said = (r: { status: number | null; stdout: string; stderr: string }) =>
  `exit ${r.status}\n${(r.stdout + r.stderr).trim().split('\n').slice(-12).join('\n')}`;

async function life(layout: Layout): Promise<Map<Step, Outcome>> {
  const out = new Map<Step, Outcome>(STEPS.map((s) => [s, 'not reached']));
  const m = materialise(layout);
  bases.push(m.base);
  // Weak evidence alone is listed with the --tools line that adds it, and nothing is planned for it.
  const weakOnly = Boolean(layout.weak?.length) && detectsNothingElse(layout);
  if (layout.weak?.length) {
    const dry = await cli(['--dry-run'], m.cwd, m.home);
    const text = dry.stdout + dry.stderr;
    const wrong: string[] = [];
    if (dry.status !== (weakOnly ? 2 : 0)) wrong.push(`exit ${dry.status}, want ${weakOnly ? 2 : 0}`);
    if (!/Also possible/.test(text)) wrong.push('no "Also possible" line');
    for (const t of layout.weak) {
      if (!new RegExp(`--tools [\\w,]*\\b${t}\\b`).test(text)) wrong.push(`no --tools line naming ${t}`);
      if (WEAK_TARGET[t]?.test(text)) wrong.push(`plans ${t}'s files`);
    }
    out.set('detection', wrong.length ? `${wrong.join('; ')}\n${said(dry)}` : null);
  } else out.set('detection', 'n/a');
  // Then the user takes the suggestion for a repository with nothing else.
  const chosen = layout.tools ?? (weakOnly ? layout.weak : null);
  const tools = chosen ? ['--tools', chosen.join(',')] : [];
  const formatters = formattersOf(layout);
  const notes: string[] = layout.noFormatter ? [layout.noFormatter] : [];
  if (layout.noFormatter) formatNotes.set(layout.name, layout.noFormatter);

  // What the tree must be after --remove: the checkout as it was, after the same formatter pass (on a copy).
  const ref = join(m.base, 'ref');
  cpSync(m.top, ref, { recursive: true, verbatimSymlinks: true });
  for (const f of formatters) {
    const note = await format(ref, f, layout).catch(
      (e: Error) => `the formatter failed on the untouched layout: ${firstLine(e.message)}`,
    );
    if (note) notes.push(note);
  }
  const want = snapshot(ref);

  const before = snapshot(m.top);
  const apply = await cli(['--yes', ...tools], m.cwd, m.home);
  out.set('apply', apply.status === 0 ? null : said(apply));
  if (apply.status !== 0) return out;
  const check = await cli(['--check', ...tools], m.cwd, m.home);
  out.set('check', check.status === 0 ? null : said(check));
  // A second run changes no byte: nothing of ours is written twice, nothing imports itself.
  const installed1 = snapshot(m.top);
  const rerun = await cli(['--yes', ...tools], m.cwd, m.home);
  const moved = treeDiff(installed1, snapshot(m.top));
  out.set('rerun', rerun.status !== 0 ? said(rerun) : moved.length ? `the rerun changed ${moved.join(', ')}` : null);

  if (formatters.length === 0) {
    out.set('format', 'n/a');
    out.set('check after format', 'n/a');
  } else {
    const problems: string[] = [];
    for (const f of formatters as FormatterRun[])
      await format(m.top, f, layout).catch((e: Error) => problems.push(e.message));
    if (notes.length) formatNotes.set(layout.name, [...new Set(notes)].join('; '));
    out.set('format', problems.length ? problems.join('\n') : null);
    const again = await cli(['--check', ...tools], m.cwd, m.home);
    out.set('check after format', again.status === 0 ? null : said(again));
  }
  // The repository's own linters over what the install wrote (after its formatter, as its pre-commit leaves them).
  const linters = lintersOf(layout);
  const preCommit = preCommitHooksOf(layout);
  if (linters.length === 0 && !preCommit) out.set('linters', 'n/a');
  else {
    const now = snapshot(m.top);
    const ours = [...now.keys()].filter((p) => before.get(p) !== now.get(p) && !now.get(p)?.startsWith('-> '));
    const problems: string[] = [];
    for (const l of linters) {
      const said = await lint(m.top, l, ours).catch((e: Error) => e.message);
      if (said) problems.push(said);
    }
    const rules = preCommit ? preCommitRules(m.top, preCommit, ours) : null;
    if (rules) problems.push(rules);
    out.set('linters', problems.length ? problems.join('\n') : null);
  }

  // Commit what the CLI says to commit, then clone: what a teammate gets.
  const scratch = join(m.base, 'scratch');
  mkdirSync(scratch);
  const installed = installedHooks(m.top, scratch);
  const created = [...snapshot(m.top).keys()].filter((p) => !before.has(p));
  const ignored = created.length
    ? spawnSync('git', ['check-ignore', '-v', '--', ...created], { cwd: m.top, encoding: 'utf8' }).stdout.trim()
    : '';
  git(['add', '-A'], m.top, m.home);
  git(['commit', '-q', '--no-verify', '--allow-empty', '-m', 'create-loop-guard'], m.top, m.home);
  const clone = join(m.base, 'clone');
  git(['clone', '-q', ...m.cloneArgs, m.top, clone], m.base, m.home);
  const state = join(m.base, 'state');
  mkdirSync(state);
  // The clone holds everything the install needs: its own --check is green.
  const cloneCheck = await cli(['--check', ...tools], join(clone, layout.cwd), m.home);
  out.set('clone check', cloneCheck.status === 0 ? null : said(cloneCheck));
  const hooks = installedHooks(clone, scratch);
  hookCounts.set(layout.name, hooks.length);
  const bad: string[] = [];
  if (installed.length === 0) bad.push('the install wired no hook');
  const inClone = new Set(hooks.map((h) => h.label));
  for (const h of installed) if (!inClone.has(h.label)) bad.push(`${h.label}: installed, but not in the clone`);
  for (const h of hooks) {
    const r = await h.run(hookEnv(h, state, m.home));
    if (r.status !== 0 || r.stderr !== '' || !isJsonOrEmpty(r.stdout))
      bad.push(
        `${h.label}: exit ${r.status} ${firstLine(r.stderr)} ${isJsonOrEmpty(r.stdout) ? '' : `stdout ${r.stdout.slice(0, 120)}`}`,
      );
  }
  if (bad.length && ignored) bad.push(`git ignores what the install wrote:\n${ignored}`);
  out.set('clone hooks answer', bad.length ? bad.join('\n') : null);
  if (hooks.length === 0) out.set('clone without guard', 'no hook in the clone');
  else {
    deleteGuardFiles(clone);
    // With the guard file gone, hooks that run the same command fail the same way: one run of each is enough.
    const distinct = [...new Map(hooks.map((h) => [`${h.file}\0${h.command}`, h])).values()];
    const loud: string[] = [];
    // A plugin loader says in the tool's log, once, that the guard is not active (docs/guard-file.md); a hook command
    // says nothing at all.
    const saysNotActive = (h: (typeof distinct)[number], text: string) =>
      /plugins\/loop-guard\.js$/.test(h.file) &&
      text.split('\n').every((l) => l === '' || l.startsWith('loop-guard: not active'));
    for (const h of distinct) {
      const r = await h.run(hookEnv(h, state, m.home));
      if (r.status !== 0 || (!saysNotActive(h, r.stdout + r.stderr) && (r.stdout !== '' || r.stderr !== '')))
        loud.push(`${h.label}: exit ${r.status} ${firstLine(r.stderr || r.stdout)}`);
    }
    out.set('clone without guard', loud.length ? loud.join('\n') : null);
  }

  // A clone that lost the ownership record: a rerun rebuilds it from our marks, and --remove then takes out all we
  // wrote and nothing of the repository's.
  const lost = join(m.base, 'lost');
  git(['clone', '-q', ...m.cloneArgs, m.top, lost], m.base, m.home);
  const record = join(lost, layout.cwd, '.agents', 'loop-guard.json');
  const rootRecord = join(lost, '.agents', 'loop-guard.json');
  rmSync(record, { force: true });
  rmSync(rootRecord, { force: true });
  const rebuilt = await cli(['--yes', ...tools], join(lost, layout.cwd), m.home);
  const gone = rebuilt.status === 0 ? await cli(['--remove', '--yes'], join(lost, layout.cwd), m.home) : rebuilt;
  if (gone.status !== 0) out.set('lost record', said(gone));
  else {
    const got = snapshot(lost);
    const diff = treeDiff(want, got).filter((d) => {
      const path = d.replace(/^(extra|changed) /, '');
      return d.startsWith('missing ') || !importResidue(path, want.get(path), got.get(path) ?? '');
    });
    out.set('lost record', diff.length ? `after --yes and --remove: ${diff.join(', ')}` : null);
  }

  const remove = await cli(['--remove', '--yes'], m.cwd, m.home);
  if (remove.status !== 0) out.set('remove', said(remove));
  else {
    const diff = treeDiff(want, snapshot(m.top));
    out.set('remove', diff.length ? `not the layout's tree: ${diff.join(', ')}` : null);
  }
  return out;
}

/** A plan line that writes a tool's hook files, so a plan for a weakly hinted tool shows. */
const WEAK_TARGET: Record<string, RegExp> = {
  copilot: /^\s*(create|update)\s+\.github\/hooks\//m,
  kilo: /^\s*(create|update)\s+\.kilo\/plugins\//m,
};
/** A layout whose only agent evidence is the weak kind (by the files the layout has). */
function detectsNothingElse(layout: Layout): boolean {
  const strong =
    /^(\.claude|\.codex|\.cursor|\.opencode|\.gemini|\.qwen|\.cline|\.clinerules|\.kilo)(\/|$)|^(CLAUDE|GEMINI|QWEN)\.md$|^\.cursorrules$|^(opencode|kilo)\.jsonc?$|^\.github\/hooks\//;
  return !layout.files.some((f) => strong.test(f.path));
}

/** At most this many layouts alive at once: each run is mostly waiting on node and git child processes. */
const PARALLEL = 4;
function limited<T>(jobs: (() => Promise<T>)[]): Promise<T>[] {
  let next = 0;
  const slots: Promise<void>[] = [];
  const settled = jobs.map(() => {
    let resolve!: (v: T) => void;
    let reject!: (e: unknown) => void;
    const p = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
    return { p, resolve, reject };
  });
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      await jobs[i]!().then(settled[i]!.resolve, settled[i]!.reject);
    }
  };
  for (let i = 0; i < PARALLEL; i++) slots.push(worker());
  return settled.map((s) => s.p);
}

beforeAll(() => {
  requireBuilt();
  // The biggest layouts start first, so the last one to finish is not also the longest.
  const order = [...layouts].sort((a, b) => b.files.length - a.files.length);
  const started = limited(
    order.map((l) => async () => {
      const t0 = Date.now();
      const r = await life(l);
      durations.set(l.name, Date.now() - t0);
      return r;
    }),
  );
  const runs = layouts.map((l) => started[order.indexOf(l)]!);
  layouts.forEach((l, i) => {
    const run = runs[i]!;
    run.catch(() => undefined); // reported by the layout's own tests
    results.set(l.name, run);
  });
});

afterAll(async () => {
  await Promise.allSettled(results.values());
  if (process.env.LOOP_GUARD_FIELD_REPORT) {
    const table: Record<string, Record<string, Outcome>> = {};
    for (const [name, p] of results) {
      table[name] = Object.fromEntries(await p.catch((e: Error) => new Map([['apply', String(e)]])));
      if (formatNotes.has(name)) table[name]['format note'] = formatNotes.get(name) ?? null;
      table[name].ms = String(durations.get(name) ?? '');
      table[name].hooks = String(hookCounts.get(name) ?? '');
    }
    const { writeFileSync } = await import('node:fs');
    writeFileSync(process.env.LOOP_GUARD_FIELD_REPORT, `${JSON.stringify(table, null, 2)}\n`);
  }
  if (!keep) for (const b of bases) rmSync(b, { recursive: true, force: true });
});

describe.each(layouts)('$name ($source.repo)', (layout) => {
  // A layout without a formatter config has no formatter steps: they are listed as skipped, not passed.
  const unformatted = formattersOf(layout).length === 0;
  for (const step of STEPS) {
    const known = KNOWN[layout.name]?.[step];
    const skip =
      known ||
      (unformatted && (step === 'format' || step === 'check after format')) ||
      (step === 'linters' && lintersOf(layout).length === 0 && !preCommitHooksOf(layout)) ||
      (!layout.weak?.length && step === 'detection');
    (skip ? it.skip : it)(
      step,
      async () => {
        const outcome = (await results.get(layout.name))?.get(step);
        expect(outcome, `${layout.name} ${step}`).toBeNull();
      },
      180_000,
    );
  }
});

it('every layout says where it comes from, and the corpus covers the shapes of real repositories', () => {
  expect(all.length).toBeGreaterThanOrEqual(20);
  for (const l of all) {
    expect(l.source.repo, l.name).toMatch(/^[\w.-]+\/[\w.-]+$/);
    expect(l.source.commit, l.name).toMatch(/^[0-9a-f]{40}$/);
    expect(l.source.licence, l.name).not.toBe('');
    if (l.kind !== 'plain') expect(l.derived, l.name).toBeTruthy();
  }
  const shapes = new Set(all.flatMap((l) => [...l.shapes, l.kind]));
  for (const s of [
    'CLAUDE.md-symlink-to-AGENTS.md',
    'AGENTS.md-symlink-to-CLAUDE.md',
    'GEMINI.md-symlink-to-AGENTS.md',
    'gitignore-hits-.agents',
    'gitignore-hits-.claude',
    'gitignore-hits-.cursor',
    'gitignore-hits-.opencode',
    'agents-own-gitignore',
    'agents-skills',
    'copilot-instructions-only',
    'kilocode-only',
    'monorepo-subdir',
    'prettier',
    'biome',
    'cspell',
    'lefthook',
    '.claude-CLAUDE.md',
    'gemini-context.fileName',
    'pre-commit-hooks-shebangs',
    'large-AGENTS.md-linked-from-CLAUDE.md',
    'worktree',
    'submodule',
    'crlf',
  ])
    expect(shapes, s).toContain(s);
});
