// Pure editor for `[shell_environment_policy] set` in a user's `.codex/config.toml`.
//
// smol-toml only parses and verifies: every edit is a text splice found by a small scanner, so every
// comment and every byte outside the splice survives. Shapes:
//   1. no set table anywhere          → append a `[shell_environment_policy.set]` table at the end
//   2. `[shell_environment_policy]` without set → insert `set = { … }` after that table's last key line
//   3. `set = { … }` on one line      → extend the inline table
//   4. `[shell_environment_policy.set]` → add `KEY = "value"` lines after that table's last key line
//   otherwise (dotted keys, multi-line inline table, inline policy) → conflict with a snippet to paste.
import { parse, TomlError } from 'smol-toml';
import { detectEol, FileFormatError, splitBom, type EditOutcome } from './splice.ts';

const POLICY = 'shell_environment_policy';

export interface TomlEnvResult {
  outcome: EditOutcome;
  /** Keys that are ours after this run (added, replaced, or already equal and listed in `owned`). */
  setKeys: string[];
  /** The user's own different values that we left alone. */
  kept: Array<{ key: string; value: string }>;
  /**
   * True when this run created the set table (shape 1) or the `set = { … }` line (shape 2).
   * Store it in the manifest (OR it with earlier runs) and pass it back to removeCodexEnv.
   */
  createdTable: boolean;
}

interface MergeSpec {
  values: Record<string, string>;
  owned: string[];
  force: boolean;
}

interface RemoveSpec {
  /** Only the keys recorded as ours (merge's `setKeys`); a key is removed only while it still has our value. */
  values: Record<string, string>;
  createdTable: boolean;
}

/**
 * Ensure [shell_environment_policy] set has our values. before=null → create a file with just that table.
 * Throws FileFormatError when `before` is not valid TOML (message: the parser's line/column and what is
 * wrong) or `shell_environment_policy`/`set` has a non-table type.
 */
export function mergeCodexEnv(before: string | null, spec: MergeSpec): TomlEnvResult {
  const { bom, rest: body } = splitBom(before ?? '');
  const doc = parseOrThrow(body);
  const current = setTableOf(doc, spec.values);

  const add: string[] = [];
  const replace: string[] = [];
  const setKeys: string[] = [];
  const kept: Array<{ key: string; value: string }> = [];
  const notes: string[] = [];
  for (const [key, value] of Object.entries(spec.values)) {
    const has = current !== undefined && Object.hasOwn(current, key);
    const existing = has ? current[key] : undefined;
    if (!has) {
      add.push(key);
      setKeys.push(key);
    } else if (existing === value) {
      if (spec.owned.includes(key)) setKeys.push(key);
    } else if (spec.force || spec.owned.includes(key)) {
      replace.push(key);
      setKeys.push(key);
      if (!spec.owned.includes(key)) {
        notes.push(`Replaced your ${key} = ${display(existing)} in [${POLICY}] set with ${quote(value)} (--force).`);
      }
    } else {
      kept.push({ key, value: typeof existing === 'string' ? existing : display(existing) });
      const why = `ours would be ${quote(value)}; --force replaces it`;
      notes.push(`Kept your ${key} = ${display(existing)} in [${POLICY}] set (${why}).`);
    }
  }

  if (add.length === 0 && replace.length === 0) {
    return { outcome: { status: 'unchanged', text: before ?? '', notes }, setKeys, kept, createdTable: false };
  }

  const wanted = [...add, ...replace].map((k) => [k, spec.values[k] as string] as const);
  let plan: { text: string; createdTable: boolean } | Refusal;
  try {
    plan = planMerge(body, spec.values, add, replace);
  } catch {
    // The scanner is simpler than the parser; if it trips, refusing is safer than guessing.
    plan = refusal('the file has a shape this editor does not recognise', 'generic');
  }
  if ('kind' in plan) {
    return { outcome: conflict(plan, wanted), setKeys: [], kept, createdTable: false };
  }

  const after = plan.text;
  const expected = parseOrThrow(body) as Table;
  const policy = (expected[POLICY] ??= {}) as Table;
  const set = (policy['set'] ??= {}) as Table;
  for (const [k, v] of wanted) set[k] = v;
  let ok = false;
  try {
    ok = deepEqual(parse(after, PARSE_OPTIONS), expected);
  } catch {
    ok = false;
  }
  if (!ok) {
    const outcome = conflict(refusal('a text edit here would not give exactly the intended keys', 'generic'), wanted);
    return { outcome, setKeys: [], kept, createdTable: false };
  }
  return {
    outcome: { status: 'changed', text: bom + after, notes },
    setKeys,
    kept,
    createdTable: plan.createdTable,
  };
}

/**
 * Remove our keys (those in `values` whose current value still equals ours); drop a table/inline-table we
 * created only if it is left empty AND it was created by us (flag `createdTable` from the manifest);
 * otherwise leave empty tables in place.
 */
export function removeCodexEnv(before: string, spec: RemoveSpec): { outcome: EditOutcome; becameEmpty: boolean } {
  const { bom, rest: body } = splitBom(before);
  const doc = parseOrThrow(body);
  const current = setTableOf(doc, spec.values);
  const unchanged = { outcome: { status: 'unchanged', text: before, notes: [] } as EditOutcome, becameEmpty: false };
  if (current === undefined) return unchanged;
  const ours = Object.keys(spec.values).filter((k) => Object.hasOwn(current, k) && current[k] === spec.values[k]);
  if (ours.length === 0) return unchanged;
  const becameEmpty = Object.keys(current).every((k) => ours.includes(k));

  let plan: { text: string; dropped: boolean } | Refusal;
  try {
    plan = planRemove(body, ours, spec.createdTable);
  } catch {
    // Same reasoning as in merge: a scanner surprise means a hand edit, not a guess.
    plan = refusal('the file has a shape this editor does not recognise', 'generic');
  }
  const fix = `Delete these keys from shell_environment_policy.set by hand: ${ours.join(', ')}.`;
  if ('kind' in plan) {
    const reason = `Cannot remove our keys from ${POLICY}.set: ${plan.reason}.`;
    return { outcome: { status: 'conflict', reason, fix }, becameEmpty: false };
  }

  const expected = parseOrThrow(body) as Table;
  const policy = expected[POLICY] as Table;
  const set = policy['set'] as Table;
  for (const k of ours) delete set[k];
  let ok = false;
  try {
    const actual = parse(plan.text, PARSE_OPTIONS) as Table;
    if (plan.dropped && Object.keys(set).length === 0) {
      delete policy['set'];
      // Dropping `[shell_environment_policy.set]` also drops a policy table that only it implied.
      if (Object.keys(policy).length === 0 && !(POLICY in actual)) delete expected[POLICY];
    }
    ok = deepEqual(actual, expected);
  } catch {
    ok = false;
  }
  if (!ok) {
    const reason = `Cannot remove our keys from ${POLICY}.set: a text edit here would not remove exactly them.`;
    return { outcome: { status: 'conflict', reason, fix }, becameEmpty: false };
  }
  return { outcome: { status: 'changed', text: bom + plan.text, notes: [] }, becameEmpty };
}

// ---------------------------------------------------------------------------------------------------
// Planning the splices.

type Table = Record<string, unknown>;

interface Refusal {
  kind: 'root-dotted' | 'root-inline' | 'set-dotted' | 'multiline-inline' | 'generic';
  reason: string;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

function refusal(reason: string, kind: Refusal['kind']): Refusal {
  return { kind, reason };
}

/** Where the set table lives in the text, or why we will not touch it. */
type Located =
  | { shape: 'append' }
  | { shape: 'insert-set'; section: Section }
  | { shape: 'inline'; section: Section; pair: Pair; inline: Inline }
  | { shape: 'table'; section: Section }
  | Refusal;

function locate(scan: Scan): Located {
  const rootPolicy = scan.pairs.filter((p) => p.table === -1 && p.path[0] === POLICY);
  if (rootPolicy.some((p) => p.path.length === 1)) {
    return refusal(`${POLICY} is written as an inline table (${POLICY} = { … })`, 'root-inline');
  }
  if (rootPolicy.length > 0) return refusal(`${POLICY} is written with dotted keys (${POLICY}.… = …)`, 'root-dotted');

  const setHeader = scan.headers.findIndex((h) => !h.array && samePath(h.path, [POLICY, 'set']));
  const policyHeader = scan.headers.findIndex((h) => !h.array && samePath(h.path, [POLICY]));
  if (policyHeader >= 0) {
    const pairs = scan.pairs.filter((p) => p.table === policyHeader && p.path[0] === 'set');
    if (pairs.some((p) => p.path.length > 1)) {
      return refusal(`set is written with dotted keys (set.… = …) under [${POLICY}]`, 'set-dotted');
    }
    const pair = pairs[0];
    if (pair !== undefined) {
      if (pair.value.kind !== 'inline') return refusal('set is not an inline table', 'generic');
      if (/[\r\n]/.test(scan.text.slice(pair.value.open, pair.value.close))) {
        return refusal('set = { … } spans several lines', 'multiline-inline');
      }
      return { shape: 'inline', section: section(scan, policyHeader), pair, inline: pair.value };
    }
  }
  if (setHeader >= 0) return { shape: 'table', section: section(scan, setHeader) };
  if (policyHeader >= 0) return { shape: 'insert-set', section: section(scan, policyHeader) };
  return { shape: 'append' };
}

function planMerge(
  body: string,
  values: Record<string, string>,
  add: string[],
  replace: string[],
): { text: string; createdTable: boolean } | Refusal {
  const scan = scanToml(body);
  const where = locate(scan);
  if ('kind' in where) return where;
  const eol = detectEol(body);
  const edits: Edit[] = [];
  const entry = (k: string, sep: string) => `${renderKey(k)}${sep}${quote(values[k] as string)}`;

  if (where.shape === 'append' || where.shape === 'insert-set') {
    // Nothing to replace can exist when there is no set table yet.
    if (replace.length > 0) return refusal('set is defined in a way this editor does not recognise', 'generic');
  }

  if (where.shape === 'append') {
    // A `[shell_environment_policy.set]` table (the form real configs in the corpus use) rather than
    // `set = { … }`: one key per line keeps diffs and removal line-based, and on removal it cannot be
    // mistaken for a user's own empty `[shell_environment_policy]` table.
    let last = scan.lines.length - 1;
    while (last >= 0 && isBlank(scan, last)) last--;
    const lines = [...(last >= 0 ? [''] : []), `[${POLICY}.set]`, ...add.map((k) => entry(k, ' = '))];
    edits.push(insertAfterLine(scan, last, lines, eol));
    return { text: applyEdits(body, edits), createdTable: true };
  }

  if (where.shape === 'insert-set') {
    const { indent, sep, after } = insertionPoint(scan, where.section);
    const line = `${indent}set${sep}{ ${add.map((k) => entry(k, ' = ')).join(', ')} }`;
    edits.push(insertAfterLine(scan, after, [line], eol));
    return { text: applyEdits(body, edits), createdTable: true };
  }

  if (where.shape === 'inline') {
    const { inline } = where;
    const first = inline.entries[0];
    const sep = first !== undefined ? separatorOf(body, first) : ' = ';
    for (const k of replace) {
      const hit = inline.entries.filter((e) => samePath(e.path, [k]));
      if (hit.length !== 1) return refusal(`${k} is defined in a way this editor does not recognise`, 'generic');
      edits.push({ start: hit[0]!.valueStart, end: hit[0]!.valueEnd, text: quote(values[k] as string) });
    }
    if (add.length > 0) {
      const added = add.map((k) => entry(k, sep)).join(', ');
      const last = inline.entries[inline.entries.length - 1];
      if (last === undefined) edits.push({ start: inline.open + 1, end: inline.close - 1, text: ` ${added} ` });
      else if (inline.trailingComma !== null) {
        edits.push({ start: inline.trailingComma + 1, end: inline.trailingComma + 1, text: ` ${added},` });
      } else edits.push({ start: last.valueEnd, end: last.valueEnd, text: `, ${added}` });
    }
    return { text: applyEdits(body, edits), createdTable: false };
  }

  // A `[shell_environment_policy.set]` table, possibly far from `[shell_environment_policy]`.
  const pairs = scan.pairs.filter((p) => p.table === where.section.header);
  for (const k of replace) {
    const hit = pairs.filter((p) => samePath(p.path, [k]));
    if (hit.length !== 1) return refusal(`${k} is defined in a way this editor does not recognise`, 'generic');
    edits.push({ start: hit[0]!.valueStart, end: hit[0]!.valueEnd, text: quote(values[k] as string) });
  }
  if (add.length > 0) {
    const { indent, sep, after } = insertionPoint(scan, where.section);
    edits.push(insertAfterLine(scan, after, add.map((k) => indent + entry(k, sep)), eol));
  }
  return { text: applyEdits(body, edits), createdTable: false };
}

function planRemove(body: string, keys: string[], created: boolean): { text: string; dropped: boolean } | Refusal {
  const scan = scanToml(body);
  const where = locate(scan);
  if ('kind' in where) return where;
  if (where.shape === 'append' || where.shape === 'insert-set') {
    return refusal('set is defined in a way this editor does not recognise', 'generic');
  }

  if (where.shape === 'inline') {
    const { inline, pair } = where;
    const gone = inline.entries.map((e) => e.path.length === 1 && keys.includes(e.path[0]!));
    if (gone.filter(Boolean).length !== keys.length) return refusal('a key is written in an unusual way', 'generic');
    const first = scan.lineOf(pair.keyStart);
    const last = scan.lineOf(pair.valueEnd - 1);
    if (gone.every(Boolean)) {
      // Drop the whole `set = { … }` line only if we wrote it and nobody commented on it since.
      if (created && first === last && !scan.comments.some((c) => scan.lineOf(c) === first)) {
        return { text: removeLines(scan, new Set([first])), dropped: true };
      }
      return { text: applyEdits(body, [{ start: inline.open + 1, end: inline.close - 1, text: '' }]), dropped: false };
    }
    const keptIndex = gone.indexOf(false);
    const edits: Edit[] = [];
    inline.entries.forEach((e, i) => {
      if (!gone[i]) return;
      // Entries before the first kept one take their following comma; later ones their preceding comma.
      if (i < keptIndex) edits.push({ start: e.keyStart, end: inline.entries[i + 1]!.keyStart, text: '' });
      else edits.push({ start: inline.entries[i - 1]!.valueEnd, end: e.valueEnd, text: '' });
    });
    return { text: applyEdits(body, edits), dropped: false };
  }

  const pairs = scan.pairs.filter((p) => p.table === where.section.header);
  const hits = pairs.filter((p) => p.path.length === 1 && keys.includes(p.path[0]!));
  if (hits.length !== keys.length) return refusal('a key is written in an unusual way', 'generic');
  const drop = new Set<number>();
  for (const p of hits) {
    for (let l = scan.lineOf(p.keyStart); l <= scan.lineOf(p.valueEnd - 1); l++) drop.add(l);
  }
  const { section: sec } = where;
  // Our table goes once it holds no keys or comments, even if sub-tables of set still imply set.
  const empty =
    created &&
    pairs.length === hits.length &&
    !scan.comments.some((c) => c > scan.headers[sec.header]!.start && c < sec.end);
  if (empty) {
    const headerLine = scan.lineOf(scan.headers[sec.header]!.start);
    drop.add(headerLine);
    // The blank line we put before our appended table goes with it.
    const prev = scan.lines[headerLine - 1];
    if (prev !== undefined && prev.start === prev.end) drop.add(headerLine - 1);
  }
  return { text: removeLines(scan, drop), dropped: empty };
}

interface Section {
  /** Index into scan.headers. */
  header: number;
  /** Offset where the next header starts (or the end of the text). */
  end: number;
}

function section(scan: Scan, header: number): Section {
  const next = scan.headers[header + 1];
  return { header, end: next === undefined ? scan.text.length : next.start };
}

/** After which line new key lines go, and how to indent and space them like their neighbours. */
function insertionPoint(scan: Scan, sec: Section): { after: number; indent: string; sep: string } {
  const pairs = scan.pairs.filter((p) => p.table === sec.header);
  const last = pairs[pairs.length - 1];
  if (last === undefined) return { after: scan.lineOf(scan.headers[sec.header]!.start), indent: '', sep: ' = ' };
  const line = scan.lines[scan.lineOf(last.keyStart)]!;
  return {
    after: scan.lineOf(last.valueEnd - 1),
    indent: scan.text.slice(line.start, last.keyStart),
    sep: separatorOf(scan.text, last),
  };
}

function separatorOf(text: string, e: Entry): string {
  const sep = text.slice(e.keyEnd, e.valueStart);
  return /^[ \t]*=[ \t]*$/.test(sep) ? sep : ' = ';
}

function isBlank(scan: Scan, line: number): boolean {
  const l = scan.lines[line]!;
  return scan.text.slice(l.start, l.end).trim() === '';
}

/** New lines after line `after` (-1: at the start); a last line without EOL stays without one. */
function insertAfterLine(scan: Scan, after: number, lines: string[], eol: string): Edit {
  if (after < 0) return { start: 0, end: 0, text: lines.map((l) => l + eol).join('') };
  const l = scan.lines[after]!;
  if (l.next === l.end) return { start: l.end, end: l.end, text: lines.map((x) => eol + x).join('') };
  return { start: l.next, end: l.next, text: lines.map((x) => x + eol).join('') };
}

/** The exact inverse of insertAfterLine: drop whole lines, and the EOL a dropped last line lacked. */
function removeLines(scan: Scan, drop: Set<number>): string {
  let out = '';
  let lastKept: ScanLine | undefined;
  scan.lines.forEach((l, i) => {
    if (drop.has(i)) return;
    out += scan.text.slice(l.start, l.next);
    lastKept = l;
  });
  const final = scan.lines[scan.lines.length - 1];
  if (final !== undefined && drop.has(scan.lines.length - 1) && final.next === final.end && lastKept !== undefined) {
    out = out.slice(0, out.length - (lastKept.next - lastKept.end));
  }
  return out;
}

function applyEdits(text: string, edits: Edit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Conflicts, quoting and checks.

function conflict(r: Refusal, wanted: ReadonlyArray<readonly [string, string]>): EditOutcome {
  const kv = (k: string, v: string) => `${renderKey(k)} = ${quote(v)}`;
  let fix: string;
  switch (r.kind) {
    case 'root-dotted':
      fix = `Add these lines among the top-level keys of .codex/config.toml (above the first [table] header):\n${wanted
        .map(([k, v]) => `${POLICY}.set.${kv(k, v)}`)
        .join('\n')}`;
      break;
    case 'root-inline':
      fix =
        `Add these entries to the set = { … } table inside your ${POLICY} = { … }` +
        ` (create set = { … } if it is missing):\n${wanted.map(([k, v]) => kv(k, v)).join(', ')}`;
      break;
    case 'set-dotted':
      fix = `Add these lines under [${POLICY}]:\n${wanted.map(([k, v]) => `set.${kv(k, v)}`).join('\n')}`;
      break;
    case 'multiline-inline':
      fix = `Add these lines inside the braces of set = { … } under [${POLICY}]:\n${wanted
        .map(([k, v]) => `  ${kv(k, v)},`)
        .join('\n')}`;
      break;
    default:
      fix = `Make ${POLICY}.set contain these keys by hand, e.g. as lines of a [${POLICY}.set] table:\n${wanted
        .map(([k, v]) => kv(k, v))
        .join('\n')}`;
  }
  return { status: 'conflict', reason: `Cannot add our keys to ${POLICY}.set: ${r.reason}.`, fix };
}

const PARSE_OPTIONS = { integersAsBigInt: 'asNeeded' } as const;

function parseOrThrow(text: string): Table {
  try {
    return parse(text, PARSE_OPTIONS) as Table;
  } catch (err) {
    if (err instanceof TomlError) {
      const what = err.message.split('\n')[0]!.replace(/^Invalid TOML document: /, '');
      throw new FileFormatError(
        `line ${err.line}, column ${err.column}: ${what}`,
        `Fix the TOML at line ${err.line}, column ${err.column}, then run again.`,
      );
    }
    throw err;
  }
}

function isTable(v: unknown): v is Table {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

/** The current set table (undefined when absent); throws when the policy or set is not a table. */
function setTableOf(doc: Table, values: Record<string, string>): Table | undefined {
  const policy = doc[POLICY];
  const example = `[${POLICY}.set]\n${Object.entries(values)
    .map(([k, v]) => `${renderKey(k)} = ${quote(v)}`)
    .join('\n')}`;
  if (policy === undefined) return undefined;
  if (!isTable(policy)) {
    throw new FileFormatError(
      `${POLICY} is ${kindOf(policy)}, not a table`,
      `Make ${POLICY} a table, for example:\n${example}`,
    );
  }
  const set = policy['set'];
  if (set === undefined) return undefined;
  if (!isTable(set)) {
    throw new FileFormatError(
      `${POLICY}.set is ${kindOf(set)}, not a table`,
      `Make ${POLICY}.set a table of strings, for example:\n${example}`,
    );
  }
  return set;
}

function kindOf(v: unknown): string {
  if (Array.isArray(v)) return 'an array';
  if (v instanceof Date) return 'a date';
  return `a ${typeof v}`;
}

function display(v: unknown): string {
  if (typeof v === 'string') return quote(v);
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Date) return v.toISOString();
  return JSON.stringify(v) ?? String(v);
}

/** A TOML basic string. */
function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (c < 0x20 || c === 0x7f) out += `\\u${c.toString(16).padStart(4, '0').toUpperCase()}`;
    else out += ch;
  }
  return out + '"';
}

function renderKey(k: string): string {
  return /^[A-Za-z0-9_-]+$/.test(k) ? k : quote(k);
}

function samePath(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (a instanceof Date || b instanceof Date) {
    if (!(a instanceof Date && b instanceof Date)) return false;
    return Number.isNaN(a.getTime()) ? Number.isNaN(b.getTime()) : a.toISOString() === b.toISOString();
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (!isTable(a) || !isTable(b)) return false;
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
}

// ---------------------------------------------------------------------------------------------------
// The scanner: finds headers, key/value pairs and comments with their offsets in already-valid TOML.

interface ScanLine {
  start: number;
  /** End of the content, before the EOL. */
  end: number;
  /** Start of the next line (equals `end` for a last line without EOL). */
  next: number;
}

interface Entry {
  path: string[];
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
  value: Inline | { kind: 'other' };
}

interface Inline {
  kind: 'inline';
  /** Offset of `{`. */
  open: number;
  /** Offset just after `}`. */
  close: number;
  entries: Entry[];
  trailingComma: number | null;
}

interface Pair extends Entry {
  /** Index of the header whose table holds the pair, -1 for the root table. */
  table: number;
}

interface Header {
  array: boolean;
  path: string[];
  start: number;
}

interface Scan {
  text: string;
  lines: ScanLine[];
  headers: Header[];
  pairs: Pair[];
  comments: number[];
  lineOf(offset: number): number;
}

function scanToml(text: string): Scan {
  const lines: ScanLine[] = [];
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', start)) {
    lines.push({ start, end: i > start && text[i - 1] === '\r' ? i - 1 : i, next: i + 1 });
    start = i + 1;
  }
  if (start < text.length) lines.push({ start, end: text.length, next: text.length });
  const lineOf = (offset: number): number => {
    let lo = 0;
    let hi = lines.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lines[mid]!.start <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const s = new Scanner(text);
  s.document();
  return { text, lines, headers: s.headers, pairs: s.pairs, comments: s.comments, lineOf };
}

class Scanner {
  pos = 0;
  headers: Header[] = [];
  pairs: Pair[] = [];
  comments: number[] = [];

  constructor(private readonly s: string) {}

  document(): void {
    const s = this.s;
    let table = -1;
    while (this.pos < s.length) {
      this.ws();
      const c = s[this.pos];
      if (c === undefined) break;
      if (c === '\n' || c === '\r') {
        this.pos++;
      } else if (c === '#') {
        this.comment();
      } else if (c === '[') {
        const start = this.pos;
        const array = s[this.pos + 1] === '[';
        this.pos += array ? 2 : 1;
        this.ws();
        const key = this.key();
        this.expect(array ? ']]' : ']');
        this.headers.push({ array, path: key.path, start });
        table = this.headers.length - 1;
        this.endOfLine();
      } else {
        this.pairs.push({ ...this.entry(), table });
        this.endOfLine();
      }
    }
  }

  private entry(): Entry {
    const key = this.key();
    this.expect('=');
    this.ws();
    const valueStart = this.pos;
    const value = this.value();
    return { path: key.path, keyStart: key.start, keyEnd: key.end, valueStart, valueEnd: this.pos, value };
  }

  private key(): { path: string[]; start: number; end: number } {
    const s = this.s;
    const path: string[] = [];
    const start = this.pos;
    for (;;) {
      this.ws();
      const c = s[this.pos];
      if (c === '"') {
        const end = this.basicEnd(this.pos);
        path.push(unescapeBasic(s.slice(this.pos + 1, end - 1)));
        this.pos = end;
      } else if (c === "'") {
        const end = s.indexOf("'", this.pos + 1);
        if (end === -1) this.fail('unterminated key');
        path.push(s.slice(this.pos + 1, end));
        this.pos = end + 1;
      } else {
        const from = this.pos;
        while (this.pos < s.length && !/[\s=.[\]"'#,{}]/.test(s[this.pos]!)) this.pos++;
        if (this.pos === from) this.fail('expected a key');
        path.push(s.slice(from, this.pos));
      }
      const end = this.pos;
      this.ws();
      if (s[this.pos] === '.') {
        this.pos++;
        continue;
      }
      return { path, start, end };
    }
  }

  private value(): Entry['value'] {
    const s = this.s;
    const c = s[this.pos];
    if (s.startsWith('"""', this.pos) || s.startsWith("'''", this.pos)) {
      const q = s[this.pos]!;
      let i = this.pos + 3;
      for (;;) {
        if (i >= s.length) this.fail('unterminated string');
        if (q === '"' && s[i] === '\\') i += 2;
        else if (s.startsWith(q.repeat(3), i)) {
          i += 3;
          // Up to two quotes right before the closing delimiter belong to the string.
          for (let extra = 0; extra < 2 && s[i] === q; extra++) i++;
          break;
        } else i++;
      }
      this.pos = i;
    } else if (c === '"') {
      this.pos = this.basicEnd(this.pos);
    } else if (c === "'") {
      const end = s.indexOf("'", this.pos + 1);
      if (end === -1) this.fail('unterminated string');
      this.pos = end + 1;
    } else if (c === '[') {
      this.pos++;
      for (;;) {
        this.wsNl();
        if (s[this.pos] === ']') {
          this.pos++;
          break;
        }
        if (s[this.pos] === ',') this.pos++;
        else this.value();
      }
    } else if (c === '{') {
      const open = this.pos++;
      const entries: Entry[] = [];
      let trailingComma: number | null = null;
      for (;;) {
        this.wsNl();
        if (s[this.pos] === '}') {
          this.pos++;
          break;
        }
        if (s[this.pos] === ',') {
          trailingComma = this.pos++;
          continue;
        }
        trailingComma = null;
        entries.push(this.entry());
      }
      return { kind: 'inline', open, close: this.pos, entries, trailingComma };
    } else {
      const from = this.pos;
      for (;;) {
        while (this.pos < s.length && !/[\s,\]}#]/.test(s[this.pos]!)) this.pos++;
        // A date and a time may be separated by one space.
        if (/^\d{4}-\d{2}-\d{2}$/.test(s.slice(from, this.pos)) && /^ \d{2}:/.test(s.slice(this.pos, this.pos + 4))) {
          this.pos++;
          continue;
        }
        break;
      }
      if (this.pos === from) this.fail('expected a value');
    }
    return { kind: 'other' };
  }

  private basicEnd(open: number): number {
    const s = this.s;
    let i = open + 1;
    while (s[i] !== '"') {
      if (i >= s.length || s[i] === '\n') this.fail('unterminated string');
      i += s[i] === '\\' ? 2 : 1;
    }
    return i + 1;
  }

  private ws(): void {
    while (this.s[this.pos] === ' ' || this.s[this.pos] === '\t') this.pos++;
  }

  /** Whitespace, newlines and comments, as allowed inside arrays and (TOML 1.1) inline tables. */
  private wsNl(): void {
    for (;;) {
      const c = this.s[this.pos];
      if (c === ' ' || c === '\t' || c === '\r' || c === '\n') this.pos++;
      else if (c === '#') this.comment();
      else if (c === undefined) this.fail('unexpected end of text');
      else return;
    }
  }

  private comment(): void {
    this.comments.push(this.pos);
    while (this.pos < this.s.length && this.s[this.pos] !== '\n' && this.s[this.pos] !== '\r') this.pos++;
  }

  private endOfLine(): void {
    this.ws();
    if (this.s[this.pos] === '#') this.comment();
    const c = this.s[this.pos];
    if (c !== undefined && c !== '\n' && c !== '\r') this.fail('expected the end of the line');
  }

  private expect(token: string): void {
    this.ws();
    if (!this.s.startsWith(token, this.pos)) this.fail(`expected ${token}`);
    this.pos += token.length;
  }

  private fail(what: string): never {
    throw new Error(`toml scan: ${what} at offset ${this.pos}`);
  }
}

function unescapeBasic(raw: string): string {
  const simple: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', e: '\x1b', '"': '"', '\\': '\\' };
  return raw.replace(/\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|x[0-9A-Fa-f]{2}|.)/g, (_, esc: string) => {
    if (esc.length > 1) return String.fromCodePoint(parseInt(esc.slice(1), 16));
    return simple[esc] ?? esc;
  });
}
