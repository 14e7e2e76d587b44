// intents + current files → FileChange[]. Pure: every mode (apply, --dry-run, --check, --remove) uses this one plan.
import { type BlockSpec, hasBlock, removeBlock, upsertBlock } from '../edit/md-block.ts';
import { planOwnedFile, readOwnedHeader } from '../edit/owned-file.ts';
import { AGENTS_GITIGNORE, BLOCK_ID, GITATTRIBUTES, IGNORE_BLOCK_ID, PRETTIER_IGNORE } from '../tools/markers.ts';
import { type Intent, TOOLS, type ToolName } from '../tools/index.ts';
import { handlerFor } from './intents/index.ts';
import { HANDOFF_FILES, planHandoffRemoval } from './handoff-files.ts';
import { BIOME_CONFIGS } from '../tools/markers.ts';
import { fallbackBlocks, fallbackDoc, fallbackDocPaths } from './project-doc.ts';
import { importTarget, placeStopRule, readsAgentsElsewhere, stopRulePaths } from './stop-rule.ts';
import type { Assets, IntentContext } from './intents/types.ts';
import { emptyManifest, type FileRecord, MANIFEST_PATH, type Manifest, renderManifest } from './manifest.ts';
import type { ProfileTarget } from './profile.ts';
import { planRetired, RETIRED, retiredPaths } from './legacy.ts';
import { partHash } from './outdated.ts';
import { planBiome } from './biome-plan.ts';
import type { BiomeEdit } from './biome-config.ts';

export type { Action, FileChange } from './file-change.ts';
import type { FileChange } from './file-change.ts';
import { joinSameFile, realOf, SameFileTexts } from './same-file.ts';

export { PlanError } from './plan-change.ts';
import { change, wrap } from './plan-change.ts';

export interface PlanInput {
  mode: 'apply' | 'remove';
  tools: ToolName[];
  /** Current content of every path planPaths() named; null = missing. */
  files: ReadonlyMap<string, string | null>;
  manifest: Manifest | null;
  version: string;
  force: boolean;
  /** Rendered text of what we own. */
  assets: Assets;
  profile?: ProfileTarget;
  /** Each planned path's real file, repo-relative (a symlink in the repository resolved); absent = the path itself.
   *  Paths with the same real file are planned as one file: their edits in turn, one change. */
  realPaths?: ReadonlyMap<string, string>;
  /** .gitignore path → the body of our negation block there; null takes an earlier block out (scaffold/ignored.ts). */
  ignoreBlocks?: ReadonlyMap<string, string | null>;
  /** The project policy each negation block changes, in words (scaffold/ignored.ts). */
  ignoreNotes?: ReadonlyMap<string, readonly string[]>;
  /** The body of our block in .prettierignore (our generated files), when the repository has a prettier config. */
  prettierIgnore?: string;
  /** The entries a biome config gets (biome before 2.4, or unpinned), unless the user refused the edit. */
  biome?: BiomeEdit;
  /** `--no-biome-edit` (now or recorded): the record keeps the refusal, so a rerun and `--check` honour it. */
  biomeRefused?: boolean;
  /** What the install changes in what a tool reads, said on that file's line when it is written (project-doc.ts). */
  pathNotes?: ReadonlyMap<string, readonly string[]>;
  /** --remove / --check with --tools: these tools only; files another recorded tool needs stay, the record is kept. */
  only?: readonly ToolName[];
}

/** The .gitignore a negation block goes in when the repository's root rules ignore our files; --remove looks there
 *  even without a record. */
export const ROOT_GITIGNORE = '.gitignore';
export { PRETTIER_IGNORE } from '../tools/markers.ts';

export interface Plan {
  changes: FileChange[];
  manifest: Manifest;
  /** Lines the preview shows under headings of their own (paths left alone, tools also possible): rendered as data. */
  sections?: Array<{ title: string; lines: string[] }>;
}

/** Intents of the chosen tools, one per path (the guard file is shared); with `read`, each stop rule in the file the
 *  tool reads (placeStopRule). */
export function intentsFor(tools: readonly ToolName[], read?: (path: string) => string | null): Intent[] {
  const byPath = new Map<string, Intent>();
  for (const t of tools)
    for (const each of TOOLS[t].intents) {
      const intent = read && each.kind === 'import' ? placeStopRule(each, read) : each;
      if (!byPath.has(intent.path)) byPath.set(intent.path, intent);
    }
  // Every tool reads AGENTS.md (Claude Code through the CLAUDE.md import), so the stop rule is common; in Codex's
  // fallback file instead where a new AGENTS.md would take that file's place and no other tool needs it.
  const stopRule = (path: string): Intent => ({ kind: 'block', path, template: 'agents-block' });
  const records = tools.map((t) => TOOLS[t]);
  const doc = tools.length && read ? fallbackDoc(records, read) : null;
  if (doc && !byPath.has(doc.path)) byPath.set(doc.path, stopRule(doc.path));
  else if (tools.length && !doc) byPath.set('AGENTS.md', stopRule('AGENTS.md'));
  for (const p of read ? fallbackBlocks(records, read) : []) if (!byPath.has(p)) byPath.set(p, stopRule(p));
  // The guard of every tool may write the hand-off note, so keeping it out of git is common too.
  if (tools.length)
    byPath.set(AGENTS_GITIGNORE, {
      kind: 'owned',
      path: AGENTS_GITIGNORE,
      asset: 'agents-gitignore',
      mode: 0o644,
      // .agents/ is shared with other tools (skills/, hooks.json, plugins/): a .gitignore there may be the user's.
      shared: 'shell-block',
    });
  // Every tool runs the one guard file, so marking it generated (GitHub folds it in pull-request diffs) is common too.
  if (tools.length) byPath.set(GITATTRIBUTES, { kind: 'block', path: GITATTRIBUTES, template: 'gitattributes' });
  return [...byPath.values()];
}

/** Every repo path the plan may read: the chosen tools' files, the files an earlier run recorded, and the manifest;
 *  with `read`, the fallback files the repository's Codex config names (fallbackDoc). */
export function planPaths(
  tools: readonly ToolName[],
  manifest: Manifest | null,
  read?: (path: string) => string | null,
): string[] {
  const paths = new Set(intentsFor(tools).flatMap((i) => [i.path, ...(i.kind === 'import' ? stopRulePaths(i) : [])]));
  const records = tools.map((t) => TOOLS[t]);
  if (read) for (const p of fallbackDocPaths(records, read)) paths.add(p);
  // Where the stop rule goes can depend on a setting (Gemini's contextFileName): the files it names are read too.
  if (read) for (const i of intentsFor([...tools, ...(manifest?.tools ?? [])], read)) paths.add(i.path);
  if (manifest) {
    for (const p of intentsFor(manifest.tools)) paths.add(p.path);
    for (const p of Object.keys(manifest.files)) paths.add(p);
  }
  for (const p of retiredPaths(paths)) paths.add(p);
  paths.add(ROOT_GITIGNORE);
  paths.add(PRETTIER_IGNORE);
  for (const p of BIOME_CONFIGS) paths.add(p);
  paths.add(MANIFEST_PATH);
  for (const p of HANDOFF_FILES) paths.add(p);
  return [...paths];
}

/** The plan's reader of a path's text before the run. */
function readOf(input: PlanInput): (path: string) => string | null {
  return (path) => input.files.get(path) ?? null;
}

function blockSpec(input: Pick<PlanInput, 'version'>, style: BlockSpec['style'], body: string): BlockSpec {
  return { id: BLOCK_ID, version: input.version, body, style };
}

function context(input: PlanInput, before: string | null): IntentContext {
  return { before, force: input.force, version: input.version, assets: input.assets };
}

/** The real file of a planned path (itself when it is no symlink). */
function selfImport(intent: Intent, input: PlanInput): boolean {
  return intent.kind === 'import' && realOf(input, intent.path) === realOf(input, importTarget(intent));
}

function planApplyIntent(
  intent: Intent,
  input: PlanInput,
  rec: FileRecord,
  before: string | null,
): { change: FileChange; owned: FileRecord } {
  if (intent.kind === 'import' && selfImport(intent, input)) {
    const reason = `is ${intent.line.replace(/^@/, '')} itself (a symlink): nothing to import`;
    return { change: { path: intent.path, action: 'noop', before, after: before, reason, notes: [] }, owned: {} };
  }
  if (intent.kind === 'import') {
    const elsewhere = readsAgentsElsewhere(intent, (p) => input.files.get(p) ?? null);
    if (elsewhere && (before === null || !hasBlock(before, BLOCK_ID, 'markdown')))
      return {
        change: { path: intent.path, action: 'noop', before, after: before, reason: elsewhere, notes: [] },
        owned: rec,
      };
  }
  if (before === null) rec.created = true;
  const r = wrap(intent.path, () => handlerFor(intent).plan(intent, context(input, before), rec));
  const c = change(intent.path, before, r.outcome, r.reason, r.extra);
  if (r.notes?.length) c.notes = [...c.notes, ...r.notes];
  return { change: c, owned: r.owned };
}

function planRemoveIntent(
  intent: Intent,
  input: PlanInput,
  rec: FileRecord | undefined,
  before: string | null,
): FileChange {
  const path = intent.path;
  const noop = (reason: string): FileChange => ({ path, action: 'noop', before, after: before, reason, notes: [] });
  if (before === null) return noop('not present');
  if (selfImport(intent, input)) return noop('the file itself (a symlink): no import of ours');
  const r = wrap(path, () => handlerFor(intent).remove(intent, { ...context(input, before), before }, rec));
  if (r.kind === 'noop') return noop(r.reason);
  if (r.kind === 'delete')
    return {
      path,
      action: 'remove',
      before,
      after: null,
      reason: r.reason,
      notes: [],
      ...(intent.kind === 'owned' ? { generated: true } : {}),
    };
  if (r.outcome.status !== 'conflict' && r.becameEmpty && rec?.created === true) {
    return { path, action: 'remove', before, after: null, reason: 'delete (created by create-loop-guard)', notes: [] };
  }
  return change(path, before, r.outcome, r.reason);
}

/** The stop rule an earlier install left in a file its tool no longer reads (placeStopRule's `leftIn`), taken out. */
function planLeftIn(intents: readonly Intent[], input: PlanInput, prev: Manifest, texts: SameFileTexts): FileChange[] {
  return intents.flatMap((intent) => {
    if (intent.kind !== 'import' || !intent.leftIn) return [];
    const { leftIn, ...rest } = intent;
    const c = planRemoveIntent({ ...rest, ...leftIn }, input, prev.files[leftIn.path], texts.get(leftIn.path));
    // The reason's last words say where the rule is now (a `delete (…)` reason keeps its parenthesis for the preview).
    const now = `${intent.reader} reads ${intent.path} instead, which holds it now`;
    if (c.action === 'remove') c.reason = `${c.reason.replace(/\)$/, '')}; ${now})`;
    else if (c.action !== 'noop' && c.action !== 'conflict') c.reason = `${c.reason}: ${now}`;
    texts.set(leftIn.path, c);
    return [c];
  });
}

function planProfile(input: PlanInput): FileChange | null {
  const target = input.profile;
  if (!target) return null;
  const before = input.files.get(target.path) ?? null;
  if (target.kind === 'fish') {
    if (input.mode === 'remove') {
      if (before === null || !readOwnedHeader(before)) return null;
      return { path: target.path, action: 'remove', before, after: null, reason: 'delete', notes: [], home: true };
    }
    return change(
      target.path,
      before,
      planOwnedFile(before, input.assets.profileFish, { force: input.force }),
      'Cursor agent environment',
      { home: true, mode: 0o644 },
    );
  }
  if (input.mode === 'remove') {
    if (before === null) return null;
    const r = wrap(target.path, () => removeBlock(before, { id: BLOCK_ID, style: 'shell' }, { force: input.force }));
    // A profile that held nothing but our block was made by us: take the file away rather than leave 0 bytes.
    if (r.outcome.status === 'changed' && r.outcome.text === '')
      return {
        path: target.path,
        action: 'remove',
        before,
        after: null,
        reason: 'delete (it held only the loop-guard block)',
        notes: [],
        home: true,
      };
    return change(target.path, before, r.outcome, 'take out the Cursor agent environment', { home: true });
  }
  const outcome = wrap(target.path, () =>
    upsertBlock(before, blockSpec(input, 'shell', input.assets.profileBlock), { force: input.force }),
  );
  return change(target.path, before, outcome, 'Cursor agent environment', { home: true });
}

function planRetiredFiles(planned: string[], input: PlanInput): FileChange[] {
  const wanted = new Set(retiredPaths(planned));
  return RETIRED.filter((r) => wanted.has(r.path)).flatMap(
    (r) => planRetired(r.path, r.replacedBy, input.files.get(r.path) ?? null) ?? [],
  );
}

/** Our block of generated files in .prettierignore: put in (apply, with a prettier config), or taken out (remove, or
 *  no config any more), the file deleted again when we created it and nothing else is left. */
function planPrettierIgnore(
  input: PlanInput,
  prev: Manifest,
  texts: SameFileTexts,
): { change: FileChange; owned?: FileRecord } | null {
  const before = texts.get(PRETTIER_IGNORE);
  const rec = prev.files[PRETTIER_IGNORE] ?? {};
  const body = input.mode === 'apply' ? input.prettierIgnore : undefined;
  if (body !== undefined) {
    const outcome = wrap(PRETTIER_IGNORE, () =>
      upsertBlock(before, blockSpec(input, 'shell', body), { force: input.force }),
    );
    const owned: FileRecord = { ...rec, formatterBlock: true, ...(before === null ? { created: true } : {}) };
    return { change: change(PRETTIER_IGNORE, before, outcome, 'keep prettier off the files we generate'), owned };
  }
  if (before === null || !hasBlock(before, BLOCK_ID, 'shell')) return null;
  const r = wrap(PRETTIER_IGNORE, () => removeBlock(before, { id: BLOCK_ID, style: 'shell' }, { force: input.force }));
  if (r.outcome.status === 'changed' && r.outcome.text.trim() === '' && rec.created)
    return {
      change: {
        path: PRETTIER_IGNORE,
        action: 'remove',
        before,
        after: null,
        reason: 'delete (created by create-loop-guard)',
        notes: [],
      },
    };
  return { change: change(PRETTIER_IGNORE, before, r.outcome, 'take out our generated files') };
}

/** Two JSON texts with the same data, key order aside. */
function sameJson(a: string, b: string): boolean {
  const canon = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canon)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canon((v as Record<string, unknown>)[k])]),
          )
        : v;
  try {
    return JSON.stringify(canon(JSON.parse(a))) === JSON.stringify(canon(JSON.parse(b)));
  } catch {
    return false;
  }
}

/** --remove --tools X while other tools stay set up: X's files go, the shared ones stay, and the record says so. */
function planRemoveSome(input: PlanInput, prev: Manifest, others: ToolName[]): Plan {
  const keep = new Set(intentsFor(others, readOf(input)).map((i) => i.path));
  const texts = new SameFileTexts(input);
  const changes: FileChange[] = [];
  const gone = intentsFor(input.only ?? [], readOf(input)).filter((i) => !keep.has(i.path));
  for (const intent of gone) {
    const c = planRemoveIntent(intent, input, prev.files[intent.path], texts.get(intent.path));
    texts.set(intent.path, c);
    changes.push(c);
  }
  changes.push(...planLeftIn(gone, input, prev, texts));
  const removed = [...new Set([...(prev.removed ?? []), ...(input.only ?? [])])];
  const next: Manifest = {
    ...prev,
    tools: others,
    files: { ...prev.files },
    hashes: { ...(prev.hashes ?? {}) },
    removed,
  };
  for (const c of changes) {
    if (keep.has(c.path)) continue;
    delete next.files[c.path];
    delete next.hashes?.[c.path];
  }
  const mBefore = input.files.get(MANIFEST_PATH) ?? null;
  const mAfter = renderManifest(next);
  changes.push({
    path: MANIFEST_PATH,
    action: mBefore === mAfter ? 'noop' : mBefore === null ? 'create' : 'update',
    before: mBefore,
    after: mAfter,
    reason: `what create-loop-guard owns here (still set up for ${others.map((t) => TOOLS[t].label).join(', ')})`,
    notes: [],
    mode: 0o644,
    generated: true,
  });
  return { changes: joinSameFile(changes, input), manifest: next };
}

/** The record's own change: created, kept as it is (a formatter's layout included), or updated. */
function manifestChange(input: PlanInput, next: Manifest): FileChange {
  const mBefore = input.files.get(MANIFEST_PATH) ?? null;
  // The same record in a formatter's layout (biome's tabs) is kept as it is: a reformat is not a change.
  const mAfter = mBefore !== null && sameJson(mBefore, renderManifest(next)) ? mBefore : renderManifest(next);
  return {
    path: MANIFEST_PATH,
    action: mBefore === null ? 'create' : mBefore === mAfter ? 'noop' : 'update',
    before: mBefore,
    after: mAfter,
    reason: 'what create-loop-guard owns here',
    notes: [],
    mode: 0o644,
    generated: true,
  };
}

/** --remove of every tool: each intent taken out, our ignore and prettier blocks, retired files, the record. */
function planRemoveAll(input: PlanInput, prev: Manifest): Plan {
  const changes: FileChange[] = [];
  const tools = input.manifest ? input.manifest.tools : input.tools;
  const intents = intentsFor([...new Set([...tools, ...input.tools])], readOf(input));
  const texts = new SameFileTexts(input);
  for (const intent of intents) {
    const c = planRemoveIntent(intent, input, prev.files[intent.path], texts.get(intent.path));
    texts.set(intent.path, c);
    changes.push(c);
  }
  changes.push(...planLeftIn(intents, input, prev, texts));
  const fmt = planPrettierIgnore(input, prev, texts);
  if (fmt) changes.push(fmt.change);
  changes.push(...planBiome(input, prev, texts).map((b) => b.change));
  const ignoreFiles = new Set([ROOT_GITIGNORE, ...Object.keys(prev.files).filter((p) => prev.files[p]?.ignoreBlock)]);
  for (const path of ignoreFiles) {
    const before = texts.get(path);
    if (before === null || !hasBlock(before, IGNORE_BLOCK_ID, 'shell')) continue;
    const r = wrap(path, () => removeBlock(before, { id: IGNORE_BLOCK_ID, style: 'shell' }, { force: input.force }));
    const c = change(path, before, r.outcome, 'take out the negations of our files');
    texts.set(path, c);
    changes.push(c);
  }
  const joined = joinSameFile(changes, input);
  joined.push(
    ...planRetiredFiles(
      intents.map((i) => i.path),
      input,
    ),
  );
  const profile = planProfile(input);
  if (profile) joined.push(profile);
  joined.push(...planHandoffRemoval(input.files));
  const mBefore = input.files.get(MANIFEST_PATH) ?? null;
  if (mBefore !== null)
    joined.push({
      path: MANIFEST_PATH,
      action: 'remove',
      before: mBefore,
      after: null,
      reason: 'delete',
      notes: [],
      generated: true,
    });
  return { changes: joined, manifest: emptyManifest(input.version) };
}

/** The ignore-negation blocks the run needs (null: one no longer needed), and the prettier block. */
function planIgnoreChanges(input: PlanInput, prev: Manifest, next: Manifest, texts: SameFileTexts): FileChange[] {
  const ignoreChanges: FileChange[] = [];
  for (const [path, body] of input.ignoreBlocks ?? []) {
    const before = texts.get(path);
    if (body === null) {
      if (before === null || !hasBlock(before, IGNORE_BLOCK_ID, 'shell')) continue;
      const r = wrap(path, () => removeBlock(before, { id: IGNORE_BLOCK_ID, style: 'shell' }, { force: input.force }));
      ignoreChanges.push(change(path, before, r.outcome, 'take out the negations no longer needed'));
    } else {
      const outcome = wrap(path, () =>
        upsertBlock(before, { ...blockSpec(input, 'shell', body), id: IGNORE_BLOCK_ID }, { force: input.force }),
      );
      next.files[path] = { ...(prev.files[path] ?? {}), ignoreBlock: true };
      const c = change(path, before, outcome, 'let the files we write past its ignore rules');
      c.notes = [...c.notes, ...(input.ignoreNotes?.get(path) ?? [])];
      ignoreChanges.push(c);
    }
    texts.set(path, ignoreChanges[ignoreChanges.length - 1] as FileChange);
  }
  const fmt = planPrettierIgnore(input, prev, texts);
  if (fmt) {
    ignoreChanges.push(fmt.change);
    if (fmt.owned) next.files[PRETTIER_IGNORE] = fmt.owned;
  }
  for (const b of planBiome(input, prev, texts)) {
    ignoreChanges.push(b.change);
    if (b.owned) next.files[b.change.path] = b.owned;
  }
  if (input.biomeRefused) next.biomeEdit = false;
  return ignoreChanges;
}

/** An install or upgrade: every intent's edit with its ownership and hash, the blocks, retired files, the record. */
function planApply(input: PlanInput, prev: Manifest): Plan {
  const next: Manifest = { version: input.version, tools: [...new Set(input.tools)].sort(), files: {}, hashes: {} };
  const stillRemoved = (prev.removed ?? []).filter((t) => !input.tools.includes(t));
  if (stillRemoved.length) next.removed = stillRemoved;
  const texts = new SameFileTexts(input);
  const planned = intentsFor(input.tools, readOf(input)).map((intent) => {
    // Ownership carries over from earlier runs; a fresh record is built from what this run finds.
    const p = planApplyIntent(intent, input, { ...(prev.files[intent.path] ?? {}) }, texts.get(intent.path));
    texts.set(intent.path, p.change);
    next.files[intent.path] = p.owned;
    return { intent, ...p };
  });
  for (const { intent, change: c, owned } of planned) {
    // Hashed on the file as it ends up, so a second edit of the same file (a symlink) is part of what --check sees.
    const hash =
      c.action === 'conflict' ? prev.hashes?.[intent.path] : partHash(intent, texts.final(intent.path), owned);
    if (hash) next.hashes![intent.path] = hash;
  }
  const left = planLeftIn(
    planned.map((p) => p.intent),
    input,
    prev,
    texts,
  );
  const ignoreChanges = planIgnoreChanges(input, prev, next, texts);
  const changes = joinSameFile([...planned.map((p) => p.change), ...left, ...ignoreChanges], input);
  changes.push(
    ...planRetiredFiles(
      intentsFor(input.tools).map((i) => i.path),
      input,
    ),
  );
  for (const c of changes)
    if (c.action === 'create' || c.action === 'update') c.notes = [...c.notes, ...(input.pathNotes?.get(c.path) ?? [])];
  const profile = planProfile(input);
  if (profile) changes.push(profile);
  if (profile || prev.shellProfile) next.shellProfile = true;
  changes.push(manifestChange(input, next));
  return { changes, manifest: next };
}

export function buildPlan(input: PlanInput): Plan {
  const prev = input.manifest ?? emptyManifest(input.version);
  const others = input.only && input.manifest ? input.manifest.tools.filter((t) => !input.only?.includes(t)) : [];
  if (input.mode === 'remove' && others.length) return planRemoveSome(input, prev, others);
  if (input.mode === 'remove') return planRemoveAll(input, prev);
  return planApply(input, prev);
}
