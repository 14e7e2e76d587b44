// Our environment keys in `[shell_environment_policy] set` of a user's `.codex/config.toml`.
//
// smol-toml only parses and verifies: every edit is a text splice found by edit/toml-scan.ts, so every
// comment and every byte outside the splice survives. Shapes:
//   1. no set table anywhere          → append a `[shell_environment_policy.set]` table at the end
//   2. `[shell_environment_policy]` without set → insert `set = { … }` after that table's last key line
//   3. `set = { … }` on one line      → extend the inline table
//   4. `[shell_environment_policy.set]` → add `KEY = "value"` lines after that table's last key line
//   otherwise (dotted keys, multi-line inline table, inline policy) → conflict with a snippet to paste.
import { parse } from 'smol-toml';
import { envPolicy, type EnvPolicySpec } from './env-policy.ts';
import {
  applySplices,
  detectEol,
  FileFormatError,
  splitBom,
  type EditOutcome,
  type Splice,
} from '../../edit/splice.ts';
import {
  deepEqual,
  insertAfterLine,
  insertionPoint,
  isBlank,
  isTable,
  PARSE_OPTIONS,
  parseOrThrow,
  quote,
  removeLines,
  renderKey,
  samePath,
  scanToml,
  section,
  separatorOf,
  type Inline,
  type Pair,
  type Scan,
  type Section,
  type Table,
} from '../../edit/toml-scan.ts';

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
export function mergeCodexEnv(before: string | null, spec: EnvPolicySpec): TomlEnvResult {
  const { bom, rest: body } = splitBom(before ?? '');
  const doc = parseOrThrow(body);
  const current = setTableOf(doc, spec.values);

  const add: string[] = [];
  const replace: string[] = [];
  const setKeys: string[] = [];
  const kept: Array<{ key: string; value: string }> = [];
  const notes: string[] = [];
  const decided = envPolicy(spec, (key) =>
    current !== undefined && Object.hasOwn(current, key) ? { has: true, value: current[key] } : { has: false },
  );
  for (const step of decided.steps) {
    const { key, value } = step;
    if (step.action === 'add') add.push(key);
    else if (step.action === 'replace') {
      replace.push(key);
      if (step.forced)
        notes.push(
          `Replaced your ${key} = ${display(step.current)} in [${POLICY}] set with ${quote(value)} (--force).`,
        );
    } else if (step.action === 'keep') {
      kept.push({ key, value: typeof step.current === 'string' ? step.current : display(step.current) });
      const why = step.changed
        ? `you changed loop-guard's ${quote(value)}, so it is yours now; --force puts ours back`
        : `ours would be ${quote(value)}; --force replaces it`;
      notes.push(`Kept your ${key} = ${display(step.current)} in [${POLICY}] set (${why}).`);
    }
  }
  setKeys.push(...decided.setKeys);

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

interface Refusal {
  kind: 'root-dotted' | 'root-inline' | 'set-dotted' | 'multiline-inline' | 'generic';
  reason: string;
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
  const edits: Splice[] = [];
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
    return { text: applySplices(body, edits), createdTable: true };
  }

  if (where.shape === 'insert-set') {
    const { indent, sep, after } = insertionPoint(scan, where.section);
    const line = `${indent}set${sep}{ ${add.map((k) => entry(k, ' = ')).join(', ')} }`;
    edits.push(insertAfterLine(scan, after, [line], eol));
    return { text: applySplices(body, edits), createdTable: true };
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
    return { text: applySplices(body, edits), createdTable: false };
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
    edits.push(
      insertAfterLine(
        scan,
        after,
        add.map((k) => indent + entry(k, sep)),
        eol,
      ),
    );
  }
  return { text: applySplices(body, edits), createdTable: false };
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
      return {
        text: applySplices(body, [{ start: inline.open + 1, end: inline.close - 1, text: '' }]),
        dropped: false,
      };
    }
    const keptIndex = gone.indexOf(false);
    const edits: Splice[] = [];
    inline.entries.forEach((e, i) => {
      if (!gone[i]) return;
      // Entries before the first kept one take their following comma; later ones their preceding comma.
      if (i < keptIndex) edits.push({ start: e.keyStart, end: inline.entries[i + 1]!.keyStart, text: '' });
      else edits.push({ start: inline.entries[i - 1]!.valueEnd, end: e.valueEnd, text: '' });
    });
    return { text: applySplices(body, edits), dropped: false };
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

// ---------------------------------------------------------------------------------------------------
// Conflicts and checks.

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
