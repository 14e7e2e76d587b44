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
import { AGENT_ENV } from '../tools/env.ts';
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

export type CheckVerdict = {
  kind: 'drift' | 'outdated';
  why: string;
  /** The files a difference comes from when that is not the change's own file: the record of ours follows an edit
   * of another file (a value of ours changed there), so the line names that file. */
  about?: string[];
};

export interface CheckInput {
  manifest: Manifest;
  /** The manifest file's text as found. */
  manifestText: string | null;
  version: string;
  /** Intents by path of the tools the manifest says are set up. */
  setUp: ReadonlyMap<string, Intent>;
  /** A file's text as found (the plan's snapshot), to tell which file changed since the record was written. */
  textOf?: (path: string) => string | null;
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
    if (older && untouched) return { kind: 'outdated', why: `recorded by v${manifest.version}` };
    // The record follows files whose part of ours no longer hashes as recorded: those are what the user changed.
    // (Hashed with the record the plan writes: a hand edit of the record's own lists leaves the file's hash as it was.)
    const planned = plannedFiles(ch.after);
    const about = untouched
      ? recordsChanged(manifest, ch.after).filter((p) => {
          const intent = input.setUp.get(p);
          const recorded = manifest.hashes?.[p];
          if (!intent || recorded === undefined || !input.textOf) return false;
          const text = input.textOf(p);
          // Changed when no record it could have been written with (the planned one, the one found, every env key
          // of ours: the found one's list may be what was edited) hashes its part as recorded.
          const recs = [planned[p], manifest.files[p], { ...manifest.files[p], env: Object.keys(AGENT_ENV) }];
          return recs.every((rec) => partHash(intent, text, rec ?? {}) !== recorded);
        })
      : [];
    return about.length
      ? {
          kind: 'drift',
          why: `our part was edited since it was written (${MANIFEST_PATH} would record the change)`,
          about,
        }
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

/** The per-file records of a planned manifest's text. */
function plannedFiles(text: string | null): Record<string, FileRecord> {
  try {
    const files = (JSON.parse(text ?? 'null') as { files?: unknown } | null)?.files;
    return files && typeof files === 'object' ? (files as Record<string, FileRecord>) : {};
  } catch {
    return {};
  }
}

/** The files whose entry in the record (what is ours there, its hash) the planned record changes. */
function recordsChanged(manifest: Manifest, planned: string | null): string[] {
  let next: Record<string, unknown>;
  try {
    next = JSON.parse(planned ?? 'null') as Record<string, unknown>;
  } catch {
    return [];
  }
  if (!next || typeof next !== 'object') return [];
  const entry = (m: Record<string, unknown>, key: 'files' | 'hashes', path: string): string => {
    const table = m[key];
    return JSON.stringify(
      canonical(table && typeof table === 'object' ? (table as Record<string, unknown>)[path] : null) ?? null,
    );
  };
  // As rendered (with its $comment), so both sides have the same fields.
  const now = JSON.parse(renderManifest(manifest)) as Record<string, unknown>;
  // Anything else that differs (the tools, what was removed) is the record's own: edited by hand.
  const rest = (m: Record<string, unknown>) =>
    JSON.stringify(canonical(Object.fromEntries(Object.entries(m).filter(([k]) => k !== 'files' && k !== 'hashes'))));
  if (rest(now) !== rest(next)) return [];
  const paths = new Set([
    ...Object.keys(manifest.files),
    ...Object.keys(manifest.hashes ?? {}),
    ...Object.keys((next.files as object | undefined) ?? {}),
    ...Object.keys((next.hashes as object | undefined) ?? {}),
  ]);
  return [...paths]
    .filter(
      (p) => entry(now, 'files', p) !== entry(next, 'files', p) || entry(now, 'hashes', p) !== entry(next, 'hashes', p),
    )
    .sort();
}

/** What happened to a file of ours, in words: deleted, our part taken out of it, or edited. */
function whatHappened(ch: FileChange, known: boolean): string {
  if (ch.before === null) return known ? 'deleted' : 'missing';
  const { added, removed } = changeCounts(ch);
  // Putting ours back only adds lines: what was ours is gone from the file, the rest is as it was.
  if (added > 0 && removed === 0)
    return ch.generated ? 'emptied' : `our ${added} line${added === 1 ? ' was' : 's were'} deleted from it`;
  if (!ch.generated && ch.after !== null && sameLines(ch.before, ch.after)) return 'our part is where it is not read';
  return ch.generated ? 'edited by hand' : 'our part was edited since it was written';
}

/** The same lines in another order: what moving our block (e.g. to the top of a long AGENTS.md) changes. */
function sameLines(a: string, b: string): boolean {
  const sorted = (s: string) =>
    s
      .replace(/\r?\n$/, '')
      .split(/\r?\n/)
      .sort()
      .join('\n');
  return a !== b && sorted(a) === sorted(b);
}
