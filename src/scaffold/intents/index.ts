// Each intent kind: plan (put ours in place) and remove (take out only what is ours), over the format editors.
import { type BlockSpec, blockEndOffset, hasBlock, removeBlock, upsertBlock } from '../../edit/md-block.ts';
import { hasImportLine, removeImportLine } from '../../edit/import-line.ts';
import { tokensOf } from '../stop-rule.ts';
import { planOwnedFile, readOwnedHeader } from '../../edit/owned-file.ts';
import { guardState, INERT_WHY } from '../guard-file.ts';
import { AGENT_ENV, type Intent } from '../../tools/index.ts';
import { CODEX_INSTRUCTION_BYTES } from '../../tools/codex.ts';
import type { EditOutcome } from '../../edit/outcome.ts';
import { BLOCK_ID } from '../../tools/markers.ts';
import { valueWaits } from '../../tools/env-waits.ts';
import type { FileRecord } from '../manifest.ts';
import { createdContainers, mergeJson, type MergeSpec } from './json-hooks.ts';
import { removeFromJson } from './json-hooks-remove.ts';
import { mergeCodexEnv, removeCodexEnv } from './toml-env.ts';
import type { IntentContext, IntentHandler } from './types.ts';

type Of<K extends Intent['kind']> = Extract<Intent, { kind: K }>;

/** The editors already report a kept value; this adds the warning when that value makes agents wait for a person. */
function keptNotes(kept: Array<{ key: string; value: string }>): string[] {
  return kept
    .filter(({ key, value }) => valueWaits(key, value))
    .map(
      ({ key, value }) =>
        `Agents may hang on ${key}=${JSON.stringify(value)}: it waits for a person (ours is ` +
        `${JSON.stringify(AGENT_ENV[key] ?? '')}).`,
    );
}

function mergeOwned(prev: string[] | undefined, set: string[], kept: Array<{ key: string }>): string[] {
  const keptKeys = new Set(kept.map((k) => k.key));
  return [...new Set([...(prev ?? []), ...set])].filter((k) => !keptKeys.has(k));
}

function ownedEnv(rec: FileRecord | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of rec?.env ?? []) if (AGENT_ENV[k] !== undefined) out[k] = AGENT_ENV[k] as string;
  return out;
}

function blockSpec(ctx: IntentContext, style: BlockSpec['style'], body: string): BlockSpec {
  return { id: BLOCK_ID, version: ctx.version, body, style };
}

/** Our owned text as a block body: without the header line and the comments that only speak for a whole file. */
function sharedBody(asset: string): string {
  return asset
    .split('\n')
    .filter((l) => !readOwnedHeader(l))
    .join('\n')
    .replace(/\n+$/, '');
}

/** The user's own file where ours would go: not empty and without our header. */
function isUsers(before: string | null): before is string {
  return before !== null && before.trim() !== '' && !readOwnedHeader(before);
}

const owned: IntentHandler<Of<'owned'>> = {
  plan(intent, ctx, record) {
    if (intent.shared && isUsers(ctx.before)) {
      const outcome = upsertBlock(ctx.before, blockSpec(ctx, 'shell', sharedBody(ctx.assets[intent.asset])), {
        force: ctx.force,
      });
      return { outcome, owned: record, reason: 'our lines as a managed block in your file' };
    }
    const desired = ctx.assets[intent.asset];
    // The guard file is the same code only when the hook would run it as it runs ours (guard-file.ts).
    const guard = intent.asset === 'guard';
    let outcome = planOwnedFile(ctx.before, desired, {
      force: ctx.force,
      ...(guard ? { sameCode: (a: string, b: string) => guardState(a, b) === 'same-code' } : {}),
    });
    if (guard && outcome.status === 'changed' && ctx.before !== null && guardState(ctx.before, desired) === 'inert')
      outcome = { ...outcome, notes: [`Rewritten: ${INERT_WHY}.`] };
    // Wholly ours: summarized in reports (--diff shows the lines).
    return {
      outcome,
      owned: record,
      reason: ctx.before === null ? 'add' : 'upgrade',
      extra: { mode: intent.mode, generated: true },
    };
  },
  remove(intent, ctx) {
    if (intent.shared && isUsers(ctx.before) && hasBlock(ctx.before, BLOCK_ID, 'shell')) {
      const r = removeBlock(ctx.before, { id: BLOCK_ID, style: 'shell' }, { force: ctx.force });
      return { kind: 'edit', ...r, reason: 'take out our block' };
    }
    if (!readOwnedHeader(ctx.before))
      return { kind: 'noop', reason: 'not ours (no create-loop-guard header); left alone' };
    return { kind: 'delete', reason: 'delete' };
  },
};

const json: IntentHandler<Of<'json'>> = {
  plan(intent, ctx, record) {
    const spec: MergeSpec = {
      hooks: intent.hooks,
      ...(intent.env
        ? { env: { path: intent.env.path, values: { ...AGENT_ENV }, owned: record.env ?? [], force: ctx.force } }
        : {}),
      ...(intent.ensureTop ? { ensureTop: intent.ensureTop } : {}),
    };
    const r = mergeJson(ctx.before, spec);
    if (intent.env) record.env = mergeOwned(record.env, r.setKeys, r.kept);
    if (r.outcome.status === 'changed') {
      const made = createdContainers(ctx.before, r.outcome.text, spec).map((p) => p.join('/'));
      if (made.length) record.containers = [...new Set([...(record.containers ?? []), ...made])];
    }
    return {
      outcome: r.outcome,
      owned: record,
      reason: intent.env ? 'hooks and environment' : 'hooks',
      notes: keptNotes(r.kept),
    };
  },
  remove(intent, ctx, record) {
    const r = removeFromJson(ctx.before, {
      marker: intent.hooks.marker,
      ...(record ? { created: (record.containers ?? []).map((c) => c.split('/')) } : {}),
      ...(intent.env ? { ownedEnv: { path: intent.env.path, values: ownedEnv(record) } } : {}),
      ...(intent.ensureTop ? { ensureTop: intent.ensureTop } : {}),
    });
    return { kind: 'edit', ...r, reason: 'take out our hooks and environment' };
  },
};

const tomlEnv: IntentHandler<Of<'toml-env'>> = {
  plan(_intent, ctx, record) {
    const r = mergeCodexEnv(ctx.before, { values: { ...AGENT_ENV }, owned: record.env ?? [], force: ctx.force });
    record.env = mergeOwned(record.env, r.setKeys, r.kept);
    if (r.createdTable) record.tableCreated = true;
    return { outcome: r.outcome, owned: record, reason: '[shell_environment_policy] set', notes: keptNotes(r.kept) };
  },
  remove(_intent, ctx, record) {
    const r = removeCodexEnv(ctx.before, { values: ownedEnv(record), createdTable: record?.tableCreated === true });
    return { kind: 'edit', ...r, reason: 'take out our environment keys' };
  },
};

/** The managed blocks: AGENTS.md's stop rule (Markdown markers), .gitattributes' generated-file mark (# markers). */
const BLOCKS = {
  'agents-block': { style: 'markdown', body: (a) => a.agentsBlock, what: 'stop rule' },
  gitattributes: { style: 'shell', body: (a) => a.gitattributesBlock, what: 'guard file marked generated, kept LF' },
} as const satisfies Record<
  Of<'block'>['template'],
  { style: BlockSpec['style']; body: (a: IntentContext['assets']) => string; what: string }
>;

/** Where our block ends in the text, when past Codex's instruction budget (else undefined). */
function endPastBudget(outcome: EditOutcome): number | undefined {
  if (outcome.status === 'conflict') return undefined;
  const end = blockEndOffset(outcome.text);
  return end !== null && end > CODEX_INSTRUCTION_BYTES ? end : undefined;
}

/**
 * The stop rule at the top of a long AGENTS.md, when at the end it would lie past what Codex reads: a new block goes
 * in there, and one an earlier install appended is moved there (said in a note). Otherwise the outcome as it is.
 */
function withinBudget(
  path: string,
  before: string | null,
  spec: BlockSpec,
  force: boolean,
  outcome: EditOutcome,
): EditOutcome {
  const end = endPastBudget(outcome);
  if (before === null || end === undefined) return outcome;
  if (!hasBlock(before, BLOCK_ID, 'markdown')) return upsertBlock(before, spec, { force, position: 'start' });
  const out = removeBlock(before, spec, { force }).outcome;
  if (out.status === 'conflict') return outcome;
  const moved = upsertBlock(out.text, spec, { force, position: 'start' });
  if (moved.status === 'conflict' || endPastBudget(moved) !== undefined) return outcome;
  const kib = (CODEX_INSTRUCTION_BYTES / 1024).toFixed(0);
  return {
    status: 'changed',
    text: moved.text,
    notes: [
      ...(outcome.status === 'changed' ? outcome.notes : []),
      `Moved the ${BLOCK_ID} block to the top of ${path}: where it was, it ended at byte ${end.toLocaleString('en')}, ` +
        `past the ${kib} KiB Codex reads.`,
    ],
  };
}

/** The marker style of a managed block's file (rebuilding a lost record looks for our markers in that style). */
export function blockStyle(template: Of<'block'>['template']): BlockSpec['style'] {
  return BLOCKS[template].style;
}

const block: IntentHandler<Of<'block'>> = {
  plan(intent, ctx, record) {
    const b = BLOCKS[intent.template];
    const spec = blockSpec(ctx, b.style, b.body(ctx.assets));
    const outcome = upsertBlock(ctx.before, spec, { force: ctx.force });
    return {
      outcome:
        intent.template === 'agents-block' ? withinBudget(intent.path, ctx.before, spec, ctx.force, outcome) : outcome,
      owned: record,
      reason: b.what,
    };
  },
  remove(intent, ctx) {
    const b = BLOCKS[intent.template];
    const r = removeBlock(ctx.before, { id: BLOCK_ID, style: b.style }, { force: ctx.force });
    return { kind: 'edit', ...r, reason: `take out the ${b.what.replace(/ marked generated, kept LF$/, ' marks')}` };
  },
};

const importLine: IntentHandler<Of<'import'>> = {
  plan(intent, ctx, record) {
    const target = intent.line.replace(/^@/, '');
    let before = ctx.before;
    if (before !== null && hasImportLine(before, intent.line)) {
      if (!record.importAdded)
        return {
          outcome: { status: 'unchanged', text: before, notes: [] },
          owned: record,
          reason: `imports ${target}: the stop rule reaches ${intent.reader} from there`,
        };
      // Our import from an earlier version put all of AGENTS.md in every session: the block alone is the rule.
      const r = removeImportLine(before, intent.line);
      if (r.outcome.status === 'changed') before = r.becameEmpty ? null : r.outcome.text;
      delete record.importAdded;
    }
    const body = ctx.assets.agentsBlock;
    const outcome = upsertBlock(before, blockSpec(ctx, 'markdown', body), { force: ctx.force });
    return {
      outcome,
      owned: record,
      reason: `the stop rule, as a managed block (adds ~${tokensOf(body)} tokens to every ${intent.reader} session)`,
    };
  },
  remove(intent, ctx, record) {
    if (record?.importAdded && hasImportLine(ctx.before, intent.line))
      return {
        kind: 'edit',
        ...removeImportLine(ctx.before, intent.line),
        reason: `take out the ${intent.line} import`,
      };
    if (hasBlock(ctx.before, BLOCK_ID, 'markdown')) {
      const r = removeBlock(ctx.before, { id: BLOCK_ID, style: 'markdown' }, { force: ctx.force });
      return { kind: 'edit', ...r, reason: 'take out the stop rule' };
    }
    return { kind: 'noop', reason: 'nothing of ours; left alone' };
  },
};

const HANDLERS: { [K in Intent['kind']]: IntentHandler<Of<K>> } = {
  owned,
  json,
  'toml-env': tomlEnv,
  block,
  import: importLine,
};

export function handlerFor<I extends Intent>(intent: I): IntentHandler<I> {
  return HANDLERS[intent.kind] as unknown as IntentHandler<I>;
}
