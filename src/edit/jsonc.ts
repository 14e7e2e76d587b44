// Pure JSON/JSONC editing by byte splices: every byte we do not touch (comments, indentation, EOLs, BOM,
// trailing commas, key order) is kept; each operation is applied to the value comment-json parsed too, and the
// text must re-parse to exactly that value, with every comment kept, or the edit is refused.
// Insertion and removal are exact inverses, which is what makes --remove give back the original bytes:
// - append to a multi-line container: a new line after its last token, indented like the last
//   sibling, with a comma after the previous value (or a trailing comma on ours, if theirs has one);
// - append to a one-line container (`[{ "a": 1 }]`, a minified file): on that same line;
// - fill an empty `{}`/`[]`: opened onto new lines, unless its parent is on one line;
// - remove: the element back to the previous token, plus the comma added for it; an emptied
//   container with only whitespace left in it collapses back to `{}`/`[]`.

import { parse as parseJsonc } from 'comment-json';
import { type Cst, type Container, type CstNode, type Elem, lex, parseCst } from './jsonc-scan.ts';
import { applySplices, type Splice } from './splice.ts';
import { detectEol } from './text.ts';
import { FileFormatError } from './outcome.ts';
import { excerpt, jsonReason } from './excerpt.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export type Path = Array<string | number>;
export type Op =
  | { kind: 'set'; path: Path; value: Json }
  | { kind: 'add'; path: Path; key?: string; value: Json }
  | { kind: 'remove'; path: Path };

// ───────────────────────────── formatting ─────────────────────────────

interface Fmt {
  eol: string;
  /** One level of indentation: a tab, or N spaces. */
  unit: string;
  /** `": "` normally, `":"` in files written without spaces (minified). */
  colon: string;
  /** Spaces inside single-line `{ … }` and after commas. */
  pad: boolean;
}

function detectFmt(text: string, cst: Cst): Fmt {
  const colonTok = cst.toks.find((t) => t.kind === ':');
  const colon = colonTok && !/[ \t]/.test(text[colonTok.end] ?? '') ? ':' : ': ';
  return { eol: detectEol(text), unit: detectUnit(text, cst.root), colon, pad: colon === ': ' };
}

/** The indent step, read from the first multi-line container whose child starts a line. */
function detectUnit(text: string, root: Container): string {
  const queue: Container[] = [root];
  while (queue.length > 0) {
    const c = queue.shift()!;
    if (!onOneLine(text, c.start, c.end)) {
      const first = c.elems.find((e) => startsLine(text, e.start));
      if (first) {
        const inner = lineIndent(text, first.start);
        const outer = lineIndent(text, c.start);
        if (inner.startsWith(outer) && inner.length > outer.length) return inner.slice(outer.length);
      }
    }
    for (const e of c.elems) if (e.value.kind !== 'scalar') queue.push(e.value);
  }
  return '  ';
}

function lineStart(text: string, pos: number): number {
  return text.lastIndexOf('\n', pos - 1) + 1;
}
function lineIndent(text: string, pos: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, pos), pos))![0];
}
function startsLine(text: string, pos: number): boolean {
  return /^[ \t]*$/.test(text.slice(lineStart(text, pos), pos));
}
function onOneLine(text: string, from: number, to: number): boolean {
  return !text.slice(from, to).includes('\n');
}
/** Offset of the first line break (its `\r` for CRLF) in [from, to), or -1. */
function eolIndex(text: string, from: number, to: number): number {
  const i = text.indexOf('\n', from);
  if (i < 0 || i >= to) return -1;
  return i > from && text[i - 1] === '\r' ? i - 1 : i;
}
/** End of the last token (comment or not) that ends at or before pos. */
function prevTokenEnd(cst: Cst, pos: number): number {
  let end = 0;
  for (const t of cst.toks) {
    if (t.end > pos) break;
    end = t.end;
  }
  return end;
}
/** Where an appended line goes and where a removed one starts: right before the line break that
 * follows the previous token, so whitespace trailing that token's line stays on that line. */
function lineGapStart(text: string, cst: Cst, pos: number): number {
  const prev = prevTokenEnd(cst, pos);
  const eol = eolIndex(text, prev, pos);
  return eol >= 0 ? eol : prev;
}

/** Where an appended element's line goes: after the last token before the closing bracket, or,
 * when only comments share the bracket's line, before that whole line. */
function appendPoint(text: string, cst: Cst, c: Container): number {
  const close = c.end - 1;
  const at = lineGapStart(text, cst, close);
  if (!onOneLine(text, at, close)) return at;
  const last = c.elems[c.elems.length - 1];
  const floor = last ? (last.comma >= 0 ? last.comma + 1 : last.value.end) : c.start + 1;
  const ls = lineStart(text, close);
  const eol = ls >= 2 && text[ls - 2] === '\r' ? ls - 2 : ls - 1;
  return ls > 0 && eol >= floor ? eol : at;
}

function serialize(v: Json, multi: boolean, indent: string, f: Fmt): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  const isArr = Array.isArray(v);
  const parts: Array<[string | undefined, Json]> = isArr ? v.map((x) => [undefined, x]) : Object.entries(v);
  if (parts.length === 0) return isArr ? '[]' : '{}';
  const [open, close] = isArr ? ['[', ']'] : ['{', '}'];
  const head = (k: string | undefined): string => (k === undefined ? '' : JSON.stringify(k) + f.colon);
  if (multi) {
    const inner = indent + f.unit;
    const body = parts.map(([k, x]) => f.eol + inner + head(k) + serialize(x, true, inner, f)).join(',');
    return open + body + f.eol + indent + close;
  }
  const body = parts.map(([k, x]) => head(k) + serialize(x, false, '', f)).join(f.pad ? ', ' : ',');
  return isArr || !f.pad ? open + body + close : `${open} ${body} ${close}`;
}

// ───────────────────────────── text operations ─────────────────────────────

export function findCst(root: Container, path: Path): CstNode | undefined {
  let node: CstNode = root;
  for (const seg of path) {
    if (node.kind === 'scalar') return undefined;
    // The last duplicate key wins, as it does for JSON.parse and comment-json.
    const elem: Elem | undefined =
      typeof seg === 'number' ? (node.kind === 'array' ? node.elems[seg] : undefined) : findMember(node, seg);
    if (!elem) return undefined;
    node = elem.value;
  }
  return node;
}
function findMember(c: Container, key: string): Elem | undefined {
  if (c.kind !== 'object') return undefined;
  for (let i = c.elems.length - 1; i >= 0; i--) if (c.elems[i]!.key === key) return c.elems[i];
  return undefined;
}
function containerAt(cst: Cst, path: Path): Container {
  const node = findCst(cst.root, path);
  if (!node || node.kind === 'scalar') throw new Error(`no container at ${pathLabel(path)}`);
  return node;
}

/** Applies one operation to the text; returns the new text and the comment texts it dropped. */
function applyTextOp(text: string, op: Op, f: Fmt): { text: string; dropped: string[] } {
  const cst = parseCst(text);
  if (op.kind === 'add')
    return { text: insertInto(text, cst, containerAt(cst, op.path), op.key, op.value, f), dropped: [] };
  const parent = containerAt(cst, op.path.slice(0, -1));
  const last = op.path[op.path.length - 1]!;
  const index = typeof last === 'number' ? last : parent.elems.lastIndexOf(findMember(parent, last)!);
  const elem = parent.elems[index];
  if (!elem) throw new Error(`nothing at ${pathLabel(op.path)}`);
  if (op.kind === 'set') {
    const multi = !onOneLine(text, parent.start, parent.end);
    const body = serialize(op.value, multi, lineIndent(text, elem.start), f);
    return { text: applySplices(text, [{ start: elem.value.start, end: elem.value.end, text: body }]), dropped: [] };
  }
  return removeFrom(text, cst, parent, index);
}

function insertInto(text: string, cst: Cst, c: Container, key: string | undefined, value: Json, f: Fmt): string {
  const close = c.end - 1;
  const render = (multi: boolean, indent: string): string =>
    (key === undefined ? '' : JSON.stringify(key) + f.colon) + serialize(value, multi, indent, f);
  const last = c.elems[c.elems.length - 1];
  if (!last) {
    const hasComments = cst.toks.some((t) => t.start > c.start && t.end <= close);
    const outer = lineIndent(text, c.start);
    const inner = outer + f.unit;
    if (hasComments) {
      const at = appendPoint(text, cst, c);
      return applySplices(text, [{ start: at, end: at, text: f.eol + inner + render(true, inner) }]);
    }
    // An empty container inside a one-line parent stays on that line (minified files stay minified).
    if (c.parent && onOneLine(text, c.parent.start, c.parent.end)) {
      const body = render(false, '');
      const padded = c.kind === 'object' && f.pad ? ` ${body} ` : body;
      return applySplices(text, [{ start: c.start + 1, end: close, text: padded }]);
    }
    return applySplices(text, [
      { start: c.start + 1, end: close, text: f.eol + inner + render(true, inner) + f.eol + outer },
    ]);
  }
  if (onOneLine(text, c.start, c.end)) {
    const sep = f.pad ? ' ' : '';
    if (last.comma < 0)
      return applySplices(text, [{ start: last.value.end, end: last.value.end, text: `,${sep}${render(false, '')}` }]);
    return applySplices(text, [{ start: last.comma + 1, end: last.comma + 1, text: `${sep}${render(false, '')},` }]);
  }
  const indent = siblingIndent(text, c, f);
  const at = appendPoint(text, cst, c);
  const splices: Splice[] = [];
  if (last.comma < 0) splices.push({ start: last.value.end, end: last.value.end, text: ',' });
  // A file that already ends members with trailing commas (JSONC) gets one on ours too.
  splices.push({ start: at, end: at, text: f.eol + indent + render(true, indent) + (last.comma >= 0 ? ',' : '') });
  return applySplices(text, splices);
}

function siblingIndent(text: string, c: Container, f: Fmt): string {
  for (let i = c.elems.length - 1; i >= 0; i--) {
    const e = c.elems[i]!;
    if (startsLine(text, e.start)) return lineIndent(text, e.start);
  }
  return lineIndent(text, c.start) + f.unit;
}

function removeFrom(text: string, cst: Cst, c: Container, index: number): { text: string; dropped: string[] } {
  const elem = c.elems[index]!;
  const n = c.elems.length;
  const close = c.end - 1;
  const elemEnd = elem.comma >= 0 ? elem.comma + 1 : elem.value.end;
  const commentsIn = (from: number, to: number): string[] =>
    cst.toks
      .filter((t) => t.kind === 'comment' && t.start >= from && t.end <= to)
      .map((t) => text.slice(t.start, t.end));
  if (n === 1) {
    const others = cst.toks.some(
      (t) => t.start > c.start && t.end <= close && (t.end <= elem.start || t.start >= elemEnd),
    );
    if (!others)
      return {
        text: applySplices(text, [{ start: c.start + 1, end: close, text: '' }]),
        dropped: commentsIn(c.start + 1, close),
      };
  }
  const start = lineGapStart(text, cst, elem.start);
  let end = elemEnd;
  // The first item of a one-line container also takes the space after its comma: `[a, b]` → `[b]`.
  if (index === 0 && n > 1 && onOneLine(text, start, end)) while (text[end] === ' ' || text[end] === '\t') end++;
  const splices: Splice[] = [{ start, end, text: '' }];
  // Ours was last without a trailing comma, so the comma before it was added for it.
  const prev = index === n - 1 && elem.comma < 0 ? c.elems[index - 1] : undefined;
  if (prev && prev.comma >= 0) splices.push({ start: prev.comma, end: prev.comma + 1, text: '' });
  return { text: applySplices(text, splices), dropped: commentsIn(start, end) };
}

// ───────────────────────────── value model ─────────────────────────────

export function isObj(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}
export function pathLabel(path: Path): string {
  return path.length === 0 ? 'the top level' : path.map(String).join('.');
}
export function clone<T extends Json>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}
export function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Parses JSONC into a plain value; a parse failure is the user's file being broken, not ours. */
export function parseValue(text: string): Json {
  // JSON.stringify drops comment-json's symbol-keyed comment records and leaves plain data.
  return JSON.parse(JSON.stringify(parseJsonc(text, null, true))) as Json;
}

/** A value that starts where a comma was due is the commonest slip: say so. */
function commaHint(text: string, line: number, column: number, why: string): string {
  if (!/^unexpected (token|string)/.test(why)) return '';
  const lines = text.split('\n');
  const before = `${lines.slice(0, line - 1).join('\n')}\n${(lines[line - 1] ?? '').slice(0, column - 1)}`.trimEnd();
  const prev = before.at(-1);
  return prev && !',{[:'.includes(prev) ? ' (a comma missing before it?)' : '';
}

/** The parse error as file, line and column, with the offending line and a caret (comment-json counts columns from
 * 0). */
export function jsonSyntaxError(text: string, err: unknown): FileFormatError {
  const e = err as { message?: string; line?: number; column?: number };
  const why = jsonReason(e.message ?? String(err));
  if (typeof e.line !== 'number' || typeof e.column !== 'number')
    return new FileFormatError(
      `not valid JSON (comments and trailing commas allowed): ${why}`,
      'Fix the syntax error, then run again.',
    );
  const line = e.line;
  const column = e.column + 1;
  return new FileFormatError(
    `line ${line}, column ${column}: not valid JSON (comments and trailing commas allowed): ${why}` +
      `${commaHint(text, line, column, why)}\n${excerpt(text, line, column)}`,
    `Fix the JSON at line ${line}, column ${column}, then run again.`,
  );
}

export function parseUserFile(body: string): JsonObject {
  let value: Json;
  try {
    value = parseValue(body);
  } catch (err) {
    throw jsonSyntaxError(body, err);
  }
  if (!isObj(value)) {
    throw new FileFormatError(
      `The top level is ${typeName(value)}; it should be an object.`,
      'Make the file a single JSON object: { … }.',
    );
  }
  return value;
}

export function applyModelOp(root: JsonObject, op: Op): void {
  const walk = (path: Path): Json =>
    path.reduce<Json>((node, seg) => (node as Record<string | number, Json>)[seg]!, root);
  if (op.kind === 'add') {
    const target = walk(op.path);
    if (Array.isArray(target)) target.push(clone(op.value));
    else (target as JsonObject)[op.key!] = clone(op.value);
    return;
  }
  const parent = walk(op.path.slice(0, -1));
  const last = op.path[op.path.length - 1]!;
  if (op.kind === 'set') (parent as Record<string | number, Json>)[last] = clone(op.value);
  else if (Array.isArray(parent)) parent.splice(last as number, 1);
  else delete (parent as JsonObject)[last as string];
}

export function comparePathsDesc(a: Path, b: Path): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return y - x;
    return String(y) < String(x) ? -1 : 1;
  }
  return b.length - a.length;
}

/** True when the container at `path` holds a comment: the user's words, so it is never collapsed. */
export type HasComment = (path: Path) => boolean;

export function commentProbe(body: string): HasComment {
  let cst: Cst;
  try {
    cst = parseCst(body);
  } catch {
    // Never collapse what cannot be scanned; applying the edit then fails into a conflict.
    return () => true;
  }
  return (path) => {
    const node = findCst(cst.root, path);
    return node !== undefined && cst.toks.some((t) => t.kind === 'comment' && t.start > node.start && t.end < node.end);
  };
}

// ───────────────────────────── apply + verify ─────────────────────────────

export function commentsOf(text: string): string[] {
  return lex(text)
    .filter((t) => t.kind === 'comment')
    .map((t) => text.slice(t.start, t.end));
}

/** True when every item of `need` (with multiplicity) is in `have`. */
function containsAll(have: string[], need: string[]): boolean {
  const counts = new Map<string, number>();
  for (const c of have) counts.set(c, (counts.get(c) ?? 0) + 1);
  for (const c of need) {
    const n = counts.get(c) ?? 0;
    if (n === 0) return false;
    counts.set(c, n - 1);
  }
  return true;
}
function without(list: string[], drop: string[]): string[] {
  const rest = [...list];
  for (const d of drop) {
    const i = rest.indexOf(d);
    if (i >= 0) rest.splice(i, 1);
  }
  return rest;
}

/** Applies the operations to text and value alike; null when the text does not come out as the value. */
export function applyAndVerify(
  body: string,
  model: JsonObject,
  ops: Op[],
): { text: string; model: JsonObject } | { problem: string } {
  let text = body;
  const expected = clone(model);
  const dropped: string[] = [];
  try {
    const fmt = detectFmt(body, parseCst(body));
    for (const op of ops) {
      const r = applyTextOp(text, op, fmt);
      text = r.text;
      dropped.push(...r.dropped);
      applyModelOp(expected, op);
    }
  } catch (err) {
    return {
      problem: `the file's layout could not be edited safely (${err instanceof Error ? err.message : String(err)})`,
    };
  }
  let actual: Json;
  try {
    actual = parseValue(text);
    parseCst(text);
  } catch {
    return { problem: 'the edited text would not parse' };
  }
  if (!same(actual, expected)) return { problem: 'the edited text would not hold the intended values' };
  if (!containsAll(commentsOf(text), without(commentsOf(body), dropped)))
    return { problem: 'the edit would lose a comment' };
  return { text, model: actual as JsonObject };
}
