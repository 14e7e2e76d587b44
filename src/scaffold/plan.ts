// intents + current files → FileChange[]. Pure: every mode (apply, --dry-run, --check, --remove) uses this one plan.
import { type BlockSpec, removeBlock, upsertBlock } from '../edit/md-block.ts';
import { planOwnedFile, readOwnedHeader } from '../edit/owned-file.ts';
import { type EditOutcome, FileFormatError } from '../edit/outcome.ts';
import { AGENTS_GITIGNORE, BLOCK_ID, GITATTRIBUTES } from '../tools/markers.ts';
import { type Intent, TOOLS, type ToolName } from '../tools/index.ts';
import { handlerFor } from './intents/index.ts';
import type { Assets, IntentContext } from './intents/types.ts';
import { emptyManifest, type FileRecord, MANIFEST_PATH, type Manifest, renderManifest } from './manifest.ts';
import type { ProfileTarget } from './profile.ts';
import { planRetired, RETIRED, retiredPaths } from './legacy.ts';
import { partHash } from './outdated.ts';

export type { Action, FileChange } from './file-change.ts';
import type { Action, FileChange } from './file-change.ts';

/** A user file that cannot be parsed: exit 2, nothing written. */
export class PlanError extends Error {
  constructor(
    public readonly path: string,
    message: string,
    public readonly fix: string,
  ) {
    super(`${path}: ${message}`);
    this.name = 'PlanError';
  }
}

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
}

export interface Plan {
  changes: FileChange[];
  manifest: Manifest;
  /** Lines the preview shows under headings of their own (paths left alone, tools also possible): rendered as data. */
  sections?: Array<{ title: string; lines: string[] }>;
}

/** Intents of the chosen tools, one per path (the guard file is shared). */
export function intentsFor(tools: readonly ToolName[]): Intent[] {
  const byPath = new Map<string, Intent>();
  for (const t of tools)
    for (const intent of TOOLS[t].intents) if (!byPath.has(intent.path)) byPath.set(intent.path, intent);
  // Every tool reads AGENTS.md (Claude Code through the CLAUDE.md import), so the stop rule is common.
  if (tools.length) byPath.set('AGENTS.md', { kind: 'block', path: 'AGENTS.md', template: 'agents-block' });
  // The guard of every tool may write the hand-off note, so keeping it out of git is common too.
  if (tools.length)
    byPath.set(AGENTS_GITIGNORE, { kind: 'owned', path: AGENTS_GITIGNORE, asset: 'agents-gitignore', mode: 0o644 });
  // Every tool runs the one guard file, so marking it generated (GitHub folds it in pull-request diffs) is common too.
  if (tools.length) byPath.set(GITATTRIBUTES, { kind: 'block', path: GITATTRIBUTES, template: 'gitattributes' });
  return [...byPath.values()];
}

/** Every repo path the plan may read: the chosen tools' files, the files an earlier run recorded, and the manifest. */
export function planPaths(tools: readonly ToolName[], manifest: Manifest | null): string[] {
  const paths = new Set(intentsFor(tools).map((i) => i.path));
  if (manifest) {
    for (const p of intentsFor(manifest.tools)) paths.add(p.path);
    for (const p of Object.keys(manifest.files)) paths.add(p);
  }
  for (const p of retiredPaths(paths)) paths.add(p);
  paths.add(MANIFEST_PATH);
  return [...paths];
}

function actionFor(before: string | null, outcome: EditOutcome): Action {
  if (outcome.status === 'conflict') return 'conflict';
  if (outcome.status === 'unchanged') return 'noop';
  return before === null ? 'create' : 'update';
}

function change(
  path: string,
  before: string | null,
  outcome: EditOutcome,
  reason: string,
  extra: Partial<FileChange> = {},
): FileChange {
  const action = actionFor(before, outcome);
  if (outcome.status === 'conflict') {
    return { path, action, before, after: before, reason: outcome.reason, notes: [], fix: outcome.fix, ...extra };
  }
  return { path, action, before, after: outcome.text, reason, notes: outcome.notes, ...extra };
}

function wrap<T>(path: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof FileFormatError) throw new PlanError(path, err.message, err.fix);
    throw err;
  }
}

function blockSpec(input: Pick<PlanInput, 'version'>, style: BlockSpec['style'], body: string): BlockSpec {
  return { id: BLOCK_ID, version: input.version, body, style };
}

function context(input: PlanInput, before: string | null): IntentContext {
  return { before, force: input.force, version: input.version, assets: input.assets };
}

function planApplyIntent(intent: Intent, input: PlanInput, rec: FileRecord): { change: FileChange; owned: FileRecord } {
  const before = input.files.get(intent.path) ?? null;
  if (before === null) rec.created = true;
  const r = wrap(intent.path, () => handlerFor(intent).plan(intent, context(input, before), rec));
  const c = change(intent.path, before, r.outcome, r.reason, r.extra);
  if (r.notes?.length) c.notes = [...c.notes, ...r.notes];
  return { change: c, owned: r.owned };
}

function planRemoveIntent(intent: Intent, input: PlanInput, rec: FileRecord | undefined): FileChange {
  const path = intent.path;
  const before = input.files.get(path) ?? null;
  const noop = (reason: string): FileChange => ({ path, action: 'noop', before, after: before, reason, notes: [] });
  if (before === null) return noop('not present');
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

export function buildPlan(input: PlanInput): Plan {
  const prev = input.manifest ?? emptyManifest(input.version);
  const changes: FileChange[] = [];

  if (input.mode === 'remove') {
    const tools = input.manifest ? input.manifest.tools : input.tools;
    const intents = intentsFor([...new Set([...tools, ...input.tools])]);
    for (const intent of intents) changes.push(planRemoveIntent(intent, input, prev.files[intent.path]));
    changes.push(
      ...planRetiredFiles(
        intents.map((i) => i.path),
        input,
      ),
    );
    const profile = planProfile(input);
    if (profile) changes.push(profile);
    const mBefore = input.files.get(MANIFEST_PATH) ?? null;
    if (mBefore !== null)
      changes.push({
        path: MANIFEST_PATH,
        action: 'remove',
        before: mBefore,
        after: null,
        reason: 'delete',
        notes: [],
        generated: true,
      });
    return { changes, manifest: emptyManifest(input.version) };
  }

  const next: Manifest = { version: input.version, tools: [...new Set(input.tools)].sort(), files: {}, hashes: {} };
  for (const intent of intentsFor(input.tools)) {
    // Ownership carries over from earlier runs; a fresh record is built from what this run finds.
    const planned = planApplyIntent(intent, input, { ...(prev.files[intent.path] ?? {}) });
    changes.push(planned.change);
    next.files[intent.path] = planned.owned;
    const c = planned.change;
    const hash = c.action === 'conflict' ? prev.hashes?.[intent.path] : partHash(intent, c.after, planned.owned);
    if (hash) next.hashes![intent.path] = hash;
  }
  changes.push(
    ...planRetiredFiles(
      intentsFor(input.tools).map((i) => i.path),
      input,
    ),
  );
  const profile = planProfile(input);
  if (profile) changes.push(profile);
  if (profile || prev.shellProfile) next.shellProfile = true;

  const mBefore = input.files.get(MANIFEST_PATH) ?? null;
  const mAfter = renderManifest(next);
  changes.push({
    path: MANIFEST_PATH,
    action: mBefore === null ? 'create' : mBefore === mAfter ? 'noop' : 'update',
    before: mBefore,
    after: mAfter,
    reason: 'what create-loop-guard owns here',
    notes: [],
    mode: 0o644,
    generated: true,
  });
  return { changes, manifest: next };
}
