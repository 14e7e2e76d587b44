// The recorded, removable edit of a biome config that keeps biome off the files we generate, for a biome that does
// not honour their `biome-ignore-all format` marker (docs/editing.md, "Biome"). Pure: text in, outcome out; the edit
// splices the user's JSONC (comments and layout kept) and `--remove` takes back exactly what it added.
import {
  applyAndVerify,
  findCst,
  isObj,
  type Json,
  type JsonObject,
  type Op,
  parseValue,
  same,
} from '../edit/jsonc.ts';
import { parseCst } from '../edit/jsonc-scan.ts';
import { reflowList } from '../edit/json-reflow.ts';
import type { EditOutcome } from '../edit/outcome.ts';
import { splitBom } from '../edit/text.ts';
import { parseEditable } from './intents/json-hooks.ts';

/** What the plan puts in a biome config: entries appended to the list at `key`. */
export interface BiomeEdit {
  /** The config file at the repository's root (biome.json or biome.jsonc). */
  path: string;
  /** `files.includes` (biome 2: negated globs) or `files.ignore` (biome 1: plain paths). */
  key: readonly [string, string];
  entries: string[];
  /** A new `files.includes` starts with `"**"`: biome 2 reads a list of negations alone as "nothing". */
  all: string | null;
}

/** The edit a biome config needs for these generated files: biome 1 has no in-file marker at all. */
export function biomeEdit(path: string, version: [number, number] | null, generated: readonly string[]): BiomeEdit {
  if (version !== null && version[0] === 1)
    return { path, key: ['files', 'ignore'], entries: [...generated], all: null };
  return { path, key: ['files', 'includes'], entries: generated.map((p) => `!${p}`), all: '**' };
}

/** The text to paste by hand: what `--no-biome-edit` prints, and the fix of a config we cannot edit. */
export function biomeEntriesText(edit: BiomeEdit): string {
  return edit.entries.map((e) => JSON.stringify(e)).join(', ');
}

export interface BiomeAdded {
  outcome: EditOutcome;
  /** The entries this edit added (an entry already in the list is the user's). */
  added: string[];
  /** The containers it created, as "files" and "files/includes". */
  containers: string[];
  /** The text of the `files` value before the edit, when it had one: --remove puts it back as it was. */
  was?: string;
}

/** The formatter's line width for JSON in this config (biome's default 80) and the file's indent step. */
function layoutOf(model: JsonObject, body: string): { width: number; unit: string } {
  const at = (o: unknown, k: string) => (isObj(o) ? o[k] : undefined);
  const w = at(at(at(model, 'json'), 'formatter'), 'lineWidth') ?? at(at(model, 'formatter'), 'lineWidth');
  const unit = /^([ \t]+)["/]/m.exec(body)?.[1] ?? '  ';
  return { width: typeof w === 'number' ? w : 80, unit };
}

/** The text of the value at `key` in the top-level object, or undefined. */
function textAt(body: string, key: string): string | undefined {
  const node = findCst(parseCst(body).root, [key]);
  return node ? body.slice(node.start, node.end) : undefined;
}

/** Appends our entries to the list, creating `files` and the list when missing. */
export function addBiomeEntries(before: string, edit: BiomeEdit): BiomeAdded {
  const { bom, rest: body } = splitBom(before);
  const fix = `add to "${edit.key.join('.')}" in ${edit.path} by hand: ${biomeEntriesText(edit)}`;
  const model = parseEditable(body, fix);
  const [outer, inner] = edit.key;
  const files = model[outer];
  const list = isObj(files) ? files[inner] : undefined;
  const unchanged = (notes: string[] = []): BiomeAdded => ({
    outcome: { status: 'unchanged', text: before, notes },
    added: [],
    containers: [],
  });
  if (files !== undefined && !isObj(files)) return conflict(edit, `"${outer}" is not an object`, fix);
  if (list !== undefined && !Array.isArray(list)) return conflict(edit, `"${edit.key.join('.')}" is not a list`, fix);
  const have = new Set((list ?? []).filter((v): v is string => typeof v === 'string'));
  const added = edit.entries.filter((e) => !have.has(e));
  if (!added.length) return unchanged();
  const fresh: Json[] = [...(edit.all ? [edit.all] : []), ...added];
  let ops: Op[];
  let containers: string[];
  if (files === undefined) {
    ops = [{ kind: 'add', path: [], key: outer, value: { [inner]: fresh } }];
    containers = [outer, `${outer}/${inner}`];
  } else if (list === undefined) {
    ops = [{ kind: 'add', path: [outer], key: inner, value: fresh }];
    containers = [`${outer}/${inner}`];
  } else {
    ops = added.map((value) => ({ kind: 'add', path: [outer, inner], value }));
    containers = [];
  }
  const done = applyAndVerify(body, model, ops);
  if ('problem' in done) return conflict(edit, done.problem, fix);
  const { width, unit } = layoutOf(model, body);
  const text = reflowList(done.text, [outer, inner], width, unit);
  if (!same(parseValue(text), done.model))
    return conflict(edit, 'the edited text would not hold the intended values', fix);
  const was = textAt(body, outer);
  return {
    outcome: { status: 'changed', text: bom + text, notes: [] },
    added,
    containers,
    ...(was !== undefined ? { was } : {}),
  };
}

function conflict(edit: BiomeEdit, why: string, fix: string): BiomeAdded {
  return {
    outcome: { status: 'conflict', reason: `Could not add loop-guard's entries to ${edit.path}: ${why}.`, fix },
    added: [],
    containers: [],
  };
}

/** Takes out the entries we added, and a list or `files` we created once nothing of the user's is in it. */
export function removeBiomeEntries(
  before: string,
  key: readonly string[],
  entries: readonly string[],
  containers: readonly string[],
  was?: string,
): EditOutcome {
  const { bom, rest: body } = splitBom(before);
  const model = parseEditable(body, `take ${entries.map((e) => JSON.stringify(e)).join(', ')} out by hand`);
  const [outer = 'files', inner = 'includes'] = key;
  const files = model[outer];
  const list = isObj(files) ? files[inner] : undefined;
  if (!isObj(files) || !Array.isArray(list)) return { status: 'unchanged', text: before, notes: [] };
  const ours = new Set(entries);
  const rest = list.filter((v) => !(typeof v === 'string' && ours.has(v)));
  if (rest.length === list.length) return { status: 'unchanged', text: before, notes: [] };
  const listOurs = containers.includes(`${outer}/${inner}`) && rest.every((v) => v === '**');
  const ops: Op[] = [];
  if (listOurs && containers.includes(outer) && Object.keys(files).length === 1)
    ops.push({ kind: 'remove', path: [outer] });
  else if (listOurs) ops.push({ kind: 'remove', path: [outer, inner] });
  else
    for (let i = list.length - 1; i >= 0; i--) {
      const v = list[i];
      if (typeof v === 'string' && ours.has(v)) ops.push({ kind: 'remove', path: [outer, inner, i] });
    }
  const done = applyAndVerify(body, model, ops);
  if ('problem' in done)
    return {
      status: 'conflict',
      reason: `Could not take loop-guard's entries out of this file: ${done.problem}.`,
      fix: `take ${entries.map((e) => JSON.stringify(e)).join(', ')} out of "${outer}.${inner}" by hand`,
    };
  return { status: 'changed', text: bom + restoreLayout(done.text, outer, was), notes: [] };
}

/** The `files` value as it was before our edit, when it holds the same data again (our reflow undone). */
function restoreLayout(text: string, outer: string, was: string | undefined): string {
  if (was === undefined) return text;
  const node = findCst(parseCst(text).root, [outer]);
  if (!node) return text;
  try {
    if (!same(parseValue(was), parseValue(text.slice(node.start, node.end)))) return text;
  } catch {
    return text;
  }
  const out = text.slice(0, node.start) + was + text.slice(node.end);
  return same(parseValue(out), parseValue(text)) ? out : text;
}

/** Our entries in a config without the record (a lost record): the entries naming our files, and the containers a
 *  list holding only `"**"` and them implies we created (biome reads `["**"]` as its default either way). */
export function biomeMarks(
  text: string,
  generated: readonly string[],
): { key: [string, string]; entries: string[]; containers: string[] } | null {
  let model: JsonObject;
  try {
    model = parseEditable(splitBom(text).rest, '');
  } catch {
    return null;
  }
  const files = model.files;
  if (!isObj(files)) return null;
  for (const [inner, mine] of [
    ['includes', generated.map((p) => `!${p}`)],
    ['ignore', [...generated]],
  ] as const) {
    const list = files[inner];
    if (!Array.isArray(list)) continue;
    const entries = mine.filter((e) => list.includes(e));
    if (!entries.length) continue;
    const others = list.filter((v) => !(typeof v === 'string' && entries.includes(v)));
    const created = others.every((v) => v === (inner === 'includes' ? '**' : null)) && others.length <= 1;
    const containers = created ? [`files/${inner}`, ...(Object.keys(files).length === 1 ? ['files'] : [])] : [];
    return { key: ['files', inner], entries, containers };
  }
  return null;
}

/**
 * The config this one extends that sets (or may set) the list at `key` when this one has none of its own: a list
 * written here replaces the inherited one (biome 2.6.8, measured) and would widen what biome checks. Null when the
 * edit is safe. `read` takes a path relative to this config's folder.
 */
export function inheritedList(
  text: string,
  key: readonly [string, string],
  read: (rel: string) => string | null,
  depth = 0,
): string | null {
  const model = parseQuiet(text);
  if (!isObj(model)) return null;
  const files = model[key[0]];
  if (isObj(files) && files[key[1]] !== undefined) return null;
  const ext = model.extends;
  for (const e of typeof ext === 'string' ? [ext] : Array.isArray(ext) ? ext : []) {
    if (typeof e !== 'string') continue;
    // A package or biome's "//" (the monorepo root) is not read here: it may set the list.
    if (!/^\.\.?\//.test(e) || depth > 4) return e;
    const inner = read(e);
    const m = inner === null ? undefined : parseQuiet(inner);
    if (!isObj(m)) return e;
    const f = m[key[0]];
    if (isObj(f) && f[key[1]] !== undefined) return e;
    const dir = e.slice(0, e.lastIndexOf('/') + 1);
    if (inheritedList(inner as string, key, (rel) => read(dir + rel), depth + 1) !== null) return e;
  }
  return null;
}

function parseQuiet(text: string): Json | undefined {
  try {
    return parseValue(splitBom(text).rest);
  } catch {
    return undefined;
  }
}
