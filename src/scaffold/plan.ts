// intents + current files → FileChange[]. Pure: every mode (apply, --dry-run, --check, --remove) uses this one plan.
import { type BlockSpec, removeBlock, upsertBlock } from '../edit/md-block.ts';
import { createdContainers, mergeJson, type MergeSpec, removeFromJson } from '../edit/jsonc.ts';
import { planOwnedFile, readOwnedHeader } from '../edit/owned-file.ts';
import { ensureImportLine, removeImportLine } from '../edit/lines.ts';
import { mergeCodexEnv, removeCodexEnv } from '../edit/toml-scan.ts';
import { type EditOutcome, FileFormatError } from '../edit/splice.ts';
import { emptyManifest, type FileRecord, MANIFEST_PATH, type Manifest, renderManifest } from './manifest.ts';
import type { ProfileTarget } from './profile.ts';
import { BLOCK_ID } from '../tools/markers.ts';
import { valueWaits } from '../tools/env-waits.ts';
import { AGENT_ENV, type Intent, type OwnedAsset, TOOLS, type ToolName } from '../tools/index.ts';

export type Action = 'create' | 'update' | 'noop' | 'conflict' | 'remove';

export interface FileChange {
  /** Repo-relative path (absolute for a file in $HOME). */
  path: string;
  action: Action;
  before: string | null;
  /** null when the file is deleted. */
  after: string | null;
  /** One line on what happens to this file. */
  reason: string;
  /** Things the user should know, one sentence each. */
  notes: string[];
  /** For conflicts: exactly what to do by hand. */
  fix?: string;
  /** File mode for a file we create. */
  mode?: number;
  /** A file outside the repository (the shell profile). */
  home?: boolean;
  /** A built file we ship (the guard, the plugin): reports summarize it instead of printing every line. */
  generated?: boolean;
}

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
  assets: Record<OwnedAsset, string> & { agentsBlock: string; profileBlock: string; profileFish: string };
  profile?: ProfileTarget;
}

export interface Plan {
  changes: FileChange[];
  manifest: Manifest;
}

/** Intents of the chosen tools, one per path (the guard file is shared). */
export function intentsFor(tools: readonly ToolName[]): Intent[] {
  const byPath = new Map<string, Intent>();
  for (const t of tools) for (const intent of TOOLS[t].intents) if (!byPath.has(intent.path)) byPath.set(intent.path, intent);
  // Every tool reads AGENTS.md (Claude Code through the CLAUDE.md import), so the stop rule is common.
  if (tools.length) byPath.set('AGENTS.md', { kind: 'block', path: 'AGENTS.md', template: 'agents-block' });
  return [...byPath.values()];
}

/** Every repo path the plan may read: the chosen tools' files, the files an earlier run recorded, and the manifest. */
export function planPaths(tools: readonly ToolName[], manifest: Manifest | null): string[] {
  const paths = new Set(intentsFor(tools).map((i) => i.path));
  if (manifest) {
    for (const p of intentsFor(manifest.tools)) paths.add(p.path);
    for (const p of Object.keys(manifest.files)) paths.add(p);
  }
  paths.add(MANIFEST_PATH);
  return [...paths];
}

function actionFor(before: string | null, outcome: EditOutcome): Action {
  if (outcome.status === 'conflict') return 'conflict';
  if (outcome.status === 'unchanged') return 'noop';
  return before === null ? 'create' : 'update';
}

/** The editors already report a kept value; this adds the warning when the kept value makes agents wait for a person. */
function keptNotes(kept: Array<{ key: string; value: string }>): string[] {
  return kept
    .filter(({ key, value }) => valueWaits(key, value))
    .map(({ key, value }) => `Agents may hang on ${key}=${JSON.stringify(value)}: it waits for a person (ours is ${JSON.stringify(AGENT_ENV[key] ?? '')}).`);
}

function ownedEnv(rec: FileRecord | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of rec?.env ?? []) if (AGENT_ENV[k] !== undefined) out[k] = AGENT_ENV[k] as string;
  return out;
}

function change(path: string, before: string | null, outcome: EditOutcome, reason: string, extra: Partial<FileChange> = {}): FileChange {
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

function blockSpec(input: PlanInput, style: BlockSpec['style'], body: string): BlockSpec {
  return { id: BLOCK_ID, version: input.version, body, style };
}

function planApplyIntent(intent: Intent, input: PlanInput, rec: FileRecord): FileChange {
  const before = input.files.get(intent.path) ?? null;
  if (before === null) rec.created = true;
  switch (intent.kind) {
    case 'owned': {
      const outcome = planOwnedFile(before, input.assets[intent.asset], { force: input.force });
      const generated = intent.asset !== 'cursor-env';
      return change(intent.path, before, outcome, before === null ? 'add' : 'upgrade', { mode: intent.mode, ...(generated ? { generated } : {}) });
    }
    case 'json': {
      const spec: MergeSpec = {
        hooks: intent.hooks,
        ...(intent.env ? { env: { path: intent.env.path, values: { ...AGENT_ENV }, owned: rec.env ?? [], force: input.force } } : {}),
        ...(intent.ensureTop ? { ensureTop: intent.ensureTop } : {}),
      };
      const r = wrap(intent.path, () => mergeJson(before, spec));
      if (intent.env) rec.env = mergeOwned(rec.env, r.setKeys, r.kept);
      if (r.outcome.status === 'changed') {
        const made = createdContainers(before, r.outcome.text, spec).map((p) => p.join('/'));
        if (made.length) rec.containers = [...new Set([...(rec.containers ?? []), ...made])];
      }
      const c = change(intent.path, before, r.outcome, intent.env ? 'hooks and environment' : 'hooks');
      c.notes = [...c.notes, ...keptNotes(r.kept)];
      return c;
    }
    case 'toml-env': {
      const r = wrap(intent.path, () => mergeCodexEnv(before, { values: { ...AGENT_ENV }, owned: rec.env ?? [], force: input.force }));
      rec.env = mergeOwned(rec.env, r.setKeys, r.kept);
      if (r.createdTable) rec.tableCreated = true;
      const c = change(intent.path, before, r.outcome, '[shell_environment_policy] set');
      c.notes = [...c.notes, ...keptNotes(r.kept)];
      return c;
    }
    case 'block': {
      const outcome = wrap(intent.path, () => upsertBlock(before, blockSpec(input, 'markdown', input.assets.agentsBlock), { force: input.force }));
      return change(intent.path, before, outcome, 'stop rule');
    }
    case 'import': {
      const outcome = wrap(intent.path, () => ensureImportLine(before, intent.line));
      if (outcome.status !== 'conflict' && outcome.added) rec.importAdded = true;
      return change(intent.path, before, outcome, `${intent.line} import`);
    }
  }
}

function mergeOwned(prev: string[] | undefined, set: string[], kept: Array<{ key: string }>): string[] {
  const keptKeys = new Set(kept.map((k) => k.key));
  return [...new Set([...(prev ?? []), ...set])].filter((k) => !keptKeys.has(k));
}

function planRemoveIntent(intent: Intent, input: PlanInput, rec: FileRecord | undefined): FileChange {
  const path = intent.path;
  const before = input.files.get(path) ?? null;
  const noop = (reason: string): FileChange => ({ path, action: 'noop', before, after: before, reason, notes: [] });
  if (before === null) return noop('not present');
  const created = rec?.created === true;
  const finish = (r: { outcome: EditOutcome; becameEmpty: boolean }, reason: string): FileChange => {
    if (r.outcome.status !== 'conflict' && r.becameEmpty && created) {
      return { path, action: 'remove', before, after: null, reason: 'delete (created by create-loop-guard)', notes: [] };
    }
    return change(path, before, r.outcome, reason);
  };
  switch (intent.kind) {
    case 'owned':
      if (!readOwnedHeader(before)) return { ...noop('not ours (no create-loop-guard header); left alone'), notes: [] };
      return { path, action: 'remove', before, after: null, reason: 'delete', notes: [] };
    case 'json':
      return finish(
        wrap(path, () =>
          removeFromJson(before, {
            marker: intent.hooks.marker,
            ...(rec ? { created: (rec.containers ?? []).map((c) => c.split('/')) } : {}),
            ...(intent.env ? { ownedEnv: { path: intent.env.path, values: ownedEnv(rec) } } : {}),
            ...(intent.ensureTop ? { ensureTop: intent.ensureTop } : {}),
          }),
        ),
        'take out our hooks and environment',
      );
    case 'toml-env':
      return finish(
        wrap(path, () => removeCodexEnv(before, { values: ownedEnv(rec), createdTable: rec?.tableCreated === true })),
        'take out our environment keys',
      );
    case 'block':
      return finish(
        wrap(path, () => removeBlock(before, { id: BLOCK_ID, style: 'markdown' }, { force: input.force })),
        'take out the stop rule',
      );
    case 'import':
      if (!rec?.importAdded) return noop('import was there before; left alone');
      return finish(
        wrap(path, () => removeImportLine(before, intent.line)),
        `take out the ${intent.line} import`,
      );
  }
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
    return change(target.path, before, planOwnedFile(before, input.assets.profileFish, { force: input.force }), 'Cursor agent environment', { home: true, mode: 0o644 });
  }
  if (input.mode === 'remove') {
    if (before === null) return null;
    const r = wrap(target.path, () => removeBlock(before, { id: BLOCK_ID, style: 'shell' }, { force: input.force }));
    return change(target.path, before, r.outcome, 'take out the Cursor agent environment', { home: true });
  }
  const outcome = wrap(target.path, () => upsertBlock(before, blockSpec(input, 'shell', input.assets.profileBlock), { force: input.force }));
  return change(target.path, before, outcome, 'Cursor agent environment', { home: true });
}

export function buildPlan(input: PlanInput): Plan {
  const prev = input.manifest ?? emptyManifest(input.version);
  const changes: FileChange[] = [];

  if (input.mode === 'remove') {
    const tools = input.manifest ? input.manifest.tools : input.tools;
    const intents = intentsFor([...new Set([...tools, ...input.tools])]);
    for (const intent of intents) changes.push(planRemoveIntent(intent, input, prev.files[intent.path]));
    const profile = planProfile(input);
    if (profile) changes.push(profile);
    const mBefore = input.files.get(MANIFEST_PATH) ?? null;
    if (mBefore !== null) changes.push({ path: MANIFEST_PATH, action: 'remove', before: mBefore, after: null, reason: 'delete', notes: [] });
    return { changes, manifest: emptyManifest(input.version) };
  }

  const next: Manifest = { version: input.version, tools: [...new Set(input.tools)].sort(), files: {} };
  for (const intent of intentsFor(input.tools)) {
    // Ownership carries over from earlier runs; a fresh record is built from what this run finds.
    const rec: FileRecord = { ...(prev.files[intent.path] ?? {}) };
    changes.push(planApplyIntent(intent, input, rec));
    next.files[intent.path] = rec;
  }
  const profile = planProfile(input);
  if (profile) changes.push(profile);

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
  });
  return { changes, manifest: next };
}
