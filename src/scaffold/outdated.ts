// --check's question after "does the repository differ from what this version writes?": is the difference an
// edit (drift) or only an older (or newer) version's output, untouched since (outdated)? The manifest records a
// hash of OUR part of every file as written; a file whose part still hashes the same is untouched.
import { createHash } from 'node:crypto';
import { isObj, parseUserFile } from '../edit/jsonc.ts';
import { hasImportLine } from '../edit/import-line.ts';
import { codeFingerprint } from '../edit/owned-file.ts';
import { splitBom } from '../edit/text.ts';
import { isTable, parseOrThrow } from '../edit/toml-scan.ts';
import { BLOCK_ID, isOurHookCommand, MANIFEST_PATH } from '../tools/markers.ts';
import { GUARD_PATH, type Intent } from '../tools/index.ts';
import { guardState, INERT_WHY } from './guard-file.ts';
import type { FileRecord, Manifest } from './manifest.ts';
import { renderManifest } from './manifest.ts';
import type { FileChange } from './file-change.ts';
import { changeCounts } from '../report/diff.ts';

type Of<K extends Intent['kind']> = Extract<Intent, { kind: K }>;

function hooksOurs(model: Record<string, unknown>): unknown[] {
  const out: unknown[] = [];
  const hooks = model.hooks;
  if (!isObj(hooks)) return out;
  for (const event of Object.keys(hooks).sort()) {
    const arr = hooks[event];
    if (!Array.isArray(arr)) continue;
    for (const el of arr) {
      if (!isObj(el)) continue;
      if (isOurHookCommand(el.command)) out.push([event, el]);
      else if (Array.isArray(el.hooks))
        for (const h of el.hooks) if (isObj(h) && isOurHookCommand(h.command)) out.push([event, el.matcher ?? null, h]);
    }
  }
  return out;
}

function valueAt(model: unknown, path: readonly string[]): unknown {
  let v = model;
  for (const k of path) v = isObj(v) ? v[k] : undefined;
  return v;
}

/** What in `text` is ours, as one canonical string: the user's own parts of a shared file do not count. */
const PART: { [K in Intent['kind']]: (intent: Of<K>, text: string, rec: FileRecord) => string } = {
  // The code a formatter leaves alone, so the record's hash survives a prettier or biome pass over the file.
  owned: (_i, text) => codeFingerprint(text),
  json: (intent, text, rec) => {
    const model = parseUserFile(splitBom(text).rest);
    const env = intent.env
      ? [...(rec.env ?? [])].sort().map((k) => [k, valueAt(model, [...intent.env!.path, k]) ?? null])
      : [];
    return JSON.stringify({ hooks: hooksOurs(model), env });
  },
  'toml-env': (_i, text, rec) => {
    const set = valueAt(parseOrThrow(splitBom(text).rest), ['shell_environment_policy', 'set']);
    return JSON.stringify([...(rec.env ?? [])].sort().map((k) => [k, isTable(set) ? String(set[k] ?? '') : null]));
  },
  block: (_i, text) => {
    const lines = splitBom(text).rest.split(/\r?\n/);
    const begin = lines.findIndex((l) => l.includes(`${BLOCK_ID}:begin`));
    const end = lines.findIndex((l, i) => i > begin && l.includes(`${BLOCK_ID}:end`));
    // Whitespace runs collapsed, as the block's own hash: a formatter's rewrap is not an edit of our part.
    return begin === -1 || end === -1
      ? ''
      : lines
          .slice(begin, end + 1)
          .join('\n')
          .replace(/\s+/g, ' ')
          .trim();
  },
  import: (intent, text) => String(hasImportLine(text, intent.line)),
};

/** A short hash of our part of `text` (null: nothing to hash, or a file we cannot parse). */
export function partHash(intent: Intent, text: string | null, rec: FileRecord): string | null {
  if (text === null) return null;
  try {
    const part = (PART[intent.kind] as (i: Intent, t: string, r: FileRecord) => string)(intent, text, rec);
    return createHash('sha256').update(part, 'utf8').digest('hex').slice(0, 16);
  } catch {
    return null;
  }
}

/** The hash records held before owned files were hashed by their code and blocks by their collapsed text. */
function legacyPartHash(intent: Intent, text: string): string | null {
  let part: string;
  if (intent.kind === 'owned') part = text;
  else if (intent.kind === 'block') {
    const lines = splitBom(text).rest.split(/\r?\n/);
    const begin = lines.findIndex((l) => l.includes(`${BLOCK_ID}:begin`));
    const end = lines.findIndex((l, i) => i > begin && l.includes(`${BLOCK_ID}:end`));
    if (begin === -1 || end === -1) return null;
    part = lines.slice(begin, end + 1).join('\n');
  } else return null;
  return createHash('sha256').update(part, 'utf8').digest('hex').slice(0, 16);
}

export type CheckVerdict = { kind: 'drift' | 'outdated'; why: string };

export interface CheckInput {
  manifest: Manifest;
  /** The manifest file's text as found. */
  manifestText: string | null;
  version: string;
  /** Intents by path of the tools the manifest says are set up. */
  setUp: ReadonlyMap<string, Intent>;
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  return v;
}

function sameData(a: string, b: string): boolean {
  try {
    return JSON.stringify(canonical(JSON.parse(a))) === JSON.stringify(canonical(JSON.parse(b)));
  } catch {
    return false;
  }
}

/** Drift or outdated, for one change --check found (never a noop). */
export function verdict(ch: FileChange, input: CheckInput): CheckVerdict {
  const { manifest, version } = input;
  const older = manifest.version !== version;
  if (ch.action === 'conflict') return { kind: 'drift', why: ch.reason };
  // A guard the hook cannot run is drift whichever version wrote it: every agent here runs unguarded.
  if (ch.path === GUARD_PATH && ch.before !== null && ch.after !== null && guardState(ch.before, ch.after) === 'inert')
    return { kind: 'drift', why: INERT_WHY };
  if (ch.path === MANIFEST_PATH) {
    // Untouched = the same data that version rendered from its own content (key order and spacing aside).
    const untouched = input.manifestText !== null && sameData(input.manifestText, renderManifest(manifest));
    return older && untouched
      ? { kind: 'outdated', why: `recorded by v${manifest.version}` }
      : { kind: 'drift', why: 'edited by hand' };
  }
  if (ch.retired)
    return older
      ? { kind: 'outdated', why: 'the guard under its old name' }
      : { kind: 'drift', why: 'the guard under its old name' };
  const recorded = manifest.hashes?.[ch.path];
  const known = recorded !== undefined || manifest.files[ch.path] !== undefined;
  if (!older) return { kind: 'drift', why: whatHappened(ch, known) };
  const intent = input.setUp.get(ch.path);
  if (!intent) return { kind: 'drift', why: 'belongs to a tool that is not set up' };
  if (ch.before === null)
    return known ? { kind: 'drift', why: 'deleted' } : { kind: 'outdated', why: `new in v${version}` };
  // A manifest from before hashes were recorded cannot tell an edit from an old version; conflicts still show edits.
  if (!manifest.hashes) return { kind: 'outdated', why: `set up by v${manifest.version} (no hashes recorded)` };
  if (recorded === undefined) return { kind: 'outdated', why: `new in v${version}` };
  const untouched =
    partHash(intent, ch.before, manifest.files[ch.path] ?? {}) === recorded ||
    // Records written before owned files were hashed by their code hashed the whole text.
    legacyPartHash(intent, ch.before) === recorded;
  return untouched
    ? { kind: 'outdated', why: `as v${manifest.version} wrote it` }
    : { kind: 'drift', why: whatHappened(ch, known) };
}

/** What happened to a file of ours, in words: deleted, our part taken out of it, or edited. */
function whatHappened(ch: FileChange, known: boolean): string {
  if (ch.before === null) return known ? 'deleted' : 'missing';
  const { added, removed } = changeCounts(ch);
  // Putting ours back only adds lines: what was ours is gone from the file, the rest is as it was.
  if (added > 0 && removed === 0)
    return ch.generated ? 'emptied' : `our ${added} line${added === 1 ? ' was' : 's were'} deleted from it`;
  return ch.generated ? 'edited by hand' : 'our part was edited since it was written';
}
