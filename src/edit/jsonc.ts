// Pure JSON/JSONC editor that adds and removes our hook and env entries in files users wrote by hand.
// Each change is a byte splice into the original text, so every byte we do not touch (comments,
// indentation, EOLs, BOM, trailing commas, key order) is kept; the same change is applied to the value
// comment-json parsed, and the text must re-parse to exactly that value or the edit becomes a conflict.
// Insertion and removal are exact inverses, which is what makes --remove give back the original bytes:
// - append to a multi-line container: a new line after its last token, indented like the last
//   sibling, with a comma after the previous value (or a trailing comma on ours, if theirs has one);
// - append to a one-line container (`[{ "a": 1 }]`, a minified file): on that same line;
// - fill an empty `{}`/`[]`: opened onto new lines, unless its parent is on one line;
// - remove: the element back to the previous token, plus the comma added for it; an emptied
//   container with only whitespace left in it collapses back to `{}`/`[]`.

import { parse as parseJsonc } from 'comment-json';
import { FileFormatError, detectEol, splitBom, type EditOutcome } from './splice.ts';

export interface HookEntrySpec {
  /** 'nested' = Claude Code / Codex shape: { hooks: { Event: [ { matcher?, hooks: [ { type:'command', command, timeout } ] } ] } }
   *  'flat'   = Cursor shape: { version: 1, hooks: { event: [ { command, matcher?, timeout } ] } } */
  style: 'nested' | 'flat';
  events: Array<{ event: string; matcher?: string }>;
  command: string; // the full hook command string
  timeout: number; // seconds
  /** Substring that identifies OUR entries in any command (e.g. '.agents/hooks/loop-guard'). */
  marker: string;
}

export interface EnvSpec {
  /** Key path of the env object, e.g. ['env'] for .claude/settings.json. */
  path: string[];
  /** The values we want. */
  values: Record<string, string>;
  /** Keys recorded as ours by an earlier run (we may update/remove them). */
  owned: string[];
  /** Replace a user's different value for one of our keys. */
  force: boolean;
}

export interface JsonEditResult {
  outcome: EditOutcome;
  /** env keys that are ours after this edit: the ones set now, plus owned ones still holding our value */
  setKeys: string[];
  /** keys whose user value was kept: { key, value } */
  kept: Array<{ key: string; value: string }>;
}

export interface MergeSpec {
  hooks?: HookEntrySpec;
  env?: EnvSpec;
  /** top-level keys to add only if absent, e.g. { version: 1 } for Cursor */
  ensureTop?: Record<string, unknown>;
}

export interface RemoveSpec {
  marker: string;
  ownedEnv?: { path: string[]; values: Record<string, string> };
  ensureTop?: Record<string, unknown>;
  /** Containers an earlier merge created (see createdContainers): only these are deleted once emptied. Without it, any container emptied by the removal goes. */
  created?: string[][];
}

/** Paths of the containers (hooks, hooks.<event>, the env path and its parents) that `after` has and `before` did not. */
export function createdContainers(before: string | null, after: string, spec: MergeSpec): string[][] {
  const has = (model: unknown, path: string[]): boolean => {
    let cur: unknown = model;
    for (const seg of path) {
      if (!cur || typeof cur !== 'object' || Array.isArray(cur) || !(seg in (cur as object))) return false;
      cur = (cur as Record<string, unknown>)[seg];
    }
    return true;
  };
  const parse = (text: string | null): unknown => (text === null || text.trim() === '' ? {} : parseUserFile(splitBom(text).rest));
  const b = parse(before);
  const a = parse(after);
  const candidates: string[][] = [];
  if (spec.hooks) {
    candidates.push(['hooks']);
    for (const e of spec.hooks.events) candidates.push(['hooks', e.event]);
  }
  if (spec.env) for (let i = 1; i <= spec.env.path.length; i++) candidates.push(spec.env.path.slice(0, i));
  return candidates.filter((path) => has(a, path) && !has(b, path));
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
type Path = Array<string | number>;
type Op =
  | { kind: 'set'; path: Path; value: Json }
  | { kind: 'add'; path: Path; key?: string; value: Json }
  | { kind: 'remove'; path: Path };

// ───────────────────────────── scanner ─────────────────────────────

type TokKind = '{' | '}' | '[' | ']' | ':' | ',' | 'str' | 'num' | 'lit' | 'comment';
interface Tok {
  kind: TokKind;
  start: number;
  end: number;
}
interface Container {
  kind: 'object' | 'array';
  start: number;
  /** Offset just past the closing bracket. */
  end: number;
  elems: Elem[];
  parent: Container | null;
}
interface Scalar {
  kind: 'scalar';
  start: number;
  end: number;
}
type CstNode = Container | Scalar;
interface Elem {
  key?: string;
  /** Offset of the key (members) or of the value (array items). */
  start: number;
  value: CstNode;
  /** Offset of the comma after this element, or -1. */
  comma: number;
}
interface Cst {
  root: Container;
  toks: Tok[];
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;

/** Tokens with offsets, comments included, because splices must land between them. */
function lex(text: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if ('{}[]:,'.includes(c)) {
      toks.push({ kind: c as TokKind, start: i, end: i + 1 });
      i++;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) throw new SyntaxError(`unterminated string at offset ${i}`);
      toks.push({ kind: 'str', start: i, end: j + 1 });
      i = j + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      let j = i + 2;
      while (j < text.length && text[j] !== '\n' && text[j] !== '\r') j++;
      toks.push({ kind: 'comment', start: i, end: j });
      i = j;
    } else if (c === '/' && text[i + 1] === '*') {
      const j = text.indexOf('*/', i + 2);
      if (j < 0) throw new SyntaxError(`unterminated comment at offset ${i}`);
      toks.push({ kind: 'comment', start: i, end: j + 2 });
      i = j + 2;
    } else {
      let m: RegExpExecArray | null = null;
      for (const [re, kind] of [[NUMBER, 'num'], [LITERAL, 'lit']] as const) {
        re.lastIndex = i;
        m = re.exec(text);
        if (m) {
          toks.push({ kind, start: i, end: i + m[0].length });
          i += m[0].length;
          break;
        }
      }
      if (!m) throw new SyntaxError(`unexpected character at offset ${i}`);
    }
  }
  return toks;
}

/** A concrete syntax tree of offsets only; values come from comment-json. */
function parseCst(text: string): Cst {
  const toks = lex(text);
  const sig = toks.filter((t) => t.kind !== 'comment');
  let p = 0;
  const fail = (): never => {
    throw new SyntaxError(`unexpected token at offset ${sig[p]?.start ?? text.length}`);
  };
  const value = (parent: Container | null): CstNode => {
    const t = sig[p] ?? fail();
    p++;
    if (t.kind === '{' || t.kind === '[') return container(t, parent);
    if (t.kind === 'str' || t.kind === 'num' || t.kind === 'lit') return { kind: 'scalar', start: t.start, end: t.end };
    p--;
    return fail();
  };
  const container = (open: Tok, parent: Container | null): Container => {
    const c: Container = { kind: open.kind === '{' ? 'object' : 'array', start: open.start, end: -1, elems: [], parent };
    const closeKind = c.kind === 'object' ? '}' : ']';
    for (;;) {
      const t = sig[p] ?? fail();
      if (t.kind === closeKind) {
        p++;
        c.end = t.end;
        return c;
      }
      let key: string | undefined;
      if (c.kind === 'object') {
        if (t.kind !== 'str') fail();
        key = JSON.parse(text.slice(t.start, t.end)) as string;
        p++;
        if (sig[p]?.kind !== ':') fail();
        p++;
      }
      const elem: Elem = { start: t.start, value: value(c), comma: -1 };
      if (key !== undefined) elem.key = key;
      c.elems.push(elem);
      const after = sig[p] ?? fail();
      if (after.kind === ',') {
        elem.comma = after.start;
        p++;
      } else if (after.kind !== closeKind) {
        fail();
      }
    }
  };
  const root = value(null);
  if (p !== sig.length) fail();
  if (root.kind !== 'object') throw new SyntaxError('the top level is not an object');
  return { root, toks };
}

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

interface Splice {
  start: number;
  end: number;
  text: string;
}

function applySplices(text: string, splices: Splice[]): string {
  // A stable ascending sort keeps same-offset insertions in the order they were pushed (comma first).
  const sorted = [...splices].sort((a, b) => a.start - b.start);
  let out = '';
  let pos = 0;
  for (const s of sorted) {
    out += text.slice(pos, s.start) + s.text;
    pos = Math.max(pos, s.end);
  }
  return out + text.slice(pos);
}

function findCst(root: Container, path: Path): CstNode | undefined {
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
  if (op.kind === 'add') return { text: insertInto(text, cst, containerAt(cst, op.path), op.key, op.value, f), dropped: [] };
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
    return applySplices(text, [{ start: c.start + 1, end: close, text: f.eol + inner + render(true, inner) + f.eol + outer }]);
  }
  if (onOneLine(text, c.start, c.end)) {
    const sep = f.pad ? ' ' : '';
    if (last.comma < 0) return applySplices(text, [{ start: last.value.end, end: last.value.end, text: `,${sep}${render(false, '')}` }]);
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
    cst.toks.filter((t) => t.kind === 'comment' && t.start >= from && t.end <= to).map((t) => text.slice(t.start, t.end));
  if (n === 1) {
    const others = cst.toks.some((t) => t.start > c.start && t.end <= close && (t.end <= elem.start || t.start >= elemEnd));
    if (!others) return { text: applySplices(text, [{ start: c.start + 1, end: close, text: '' }]), dropped: commentsIn(c.start + 1, close) };
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

function isObj(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}
function pathLabel(path: Path): string {
  return path.length === 0 ? 'the top level' : path.map(String).join('.');
}
function clone<T extends Json>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}
function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Parses JSONC into a plain value; a parse failure is the user's file being broken, not ours. */
function parseValue(text: string): Json {
  // JSON.stringify drops comment-json's symbol-keyed comment records and leaves plain data.
  return JSON.parse(JSON.stringify(parseJsonc(text, null, true))) as Json;
}

function parseUserFile(body: string): JsonObject {
  let value: Json;
  try {
    value = parseValue(body);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new FileFormatError(`Not valid JSON (comments and trailing commas allowed): ${why}`, 'Fix the syntax error, then run again.');
  }
  if (!isObj(value)) {
    throw new FileFormatError(`The top level is ${typeName(value)}; it should be an object.`, 'Make the file a single JSON object: { … }.');
  }
  return value;
}

function applyModelOp(root: JsonObject, op: Op): void {
  const walk = (path: Path): Json => path.reduce<Json>((node, seg) => (node as Record<string | number, Json>)[seg]!, root);
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

function comparePathsDesc(a: Path, b: Path): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return y - x;
    return String(y) < String(x) ? -1 : 1;
  }
  return b.length - a.length;
}

// ───────────────────────────── planning ─────────────────────────────

function isOurs(entry: unknown, marker: string): entry is JsonObject {
  return isObj(entry) && typeof entry.command === 'string' && entry.command.includes(marker);
}

/** A missing or catch-all matcher counts as "no matcher" for events that take none. */
function matcherFits(actual: Json | undefined, wanted: string | undefined): boolean {
  return wanted === undefined ? actual === undefined || actual === '' || actual === '*' : actual === wanted;
}

interface Plan {
  /** Key-level changes (set, add or drop a key) that shift no array index, applied first. */
  edits: Op[];
  /** Removals, applied next in descending path order so earlier indices stay valid. */
  removals: Op[];
  /** New members and array items, applied last, in order. */
  appends: Op[];
  notes: string[];
}

function setField(plan: Plan, path: Path, obj: JsonObject, key: string, value: Json): void {
  // Paths into existing entries carry array indices, so these must run before any removal shifts them.
  if (!(key in obj)) plan.edits.push({ kind: 'add', path, key, value });
  else if (!same(obj[key], value)) plan.edits.push({ kind: 'set', path: [...path, key], value });
}

function newEntry(spec: HookEntrySpec, matcher: string | undefined): JsonObject {
  if (spec.style === 'flat') {
    return matcher === undefined
      ? { command: spec.command, timeout: spec.timeout }
      : { command: spec.command, matcher, timeout: spec.timeout };
  }
  const hook: JsonObject = { type: 'command', command: spec.command, timeout: spec.timeout };
  return matcher === undefined ? { hooks: [hook] } : { matcher, hooks: [hook] };
}

/** True when the container at `path` holds a comment: the user's words, so it is never collapsed. */
type HasComment = (path: Path) => boolean;

function commentProbe(body: string): HasComment {
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

/** Removal of every entry of ours in one event's array; `emptied` when nothing of the user's is left in it. */
function planEventRemoval(arr: Json | undefined, path: Path, marker: string, hasComment: HasComment): { ops: Op[]; emptied: boolean } {
  if (!Array.isArray(arr)) return { ops: [], emptied: false };
  const ops: Op[] = [];
  let gone = 0;
  arr.forEach((el, gi) => {
    if (isObj(el) && Array.isArray(el.hooks)) {
      const hooks = el.hooks;
      const ours = hooks.flatMap((h, hi) => (isOurs(h, marker) ? [hi] : []));
      if (ours.length === 0) return;
      if (ours.length === hooks.length) {
        ops.push({ kind: 'remove', path: [...path, gi] });
        gone++;
      } else {
        for (const hi of ours) ops.push({ kind: 'remove', path: [...path, gi, 'hooks', hi] });
      }
    } else if (isOurs(el, marker)) {
      ops.push({ kind: 'remove', path: [...path, gi] });
      gone++;
    }
  });
  return { ops, emptied: arr.length > 0 && gone === arr.length && !hasComment(path) };
}

function planNestedEvent(plan: Plan, arr: Json[], path: Path, spec: HookEntrySpec, matcher: string | undefined): void {
  const hits: Array<{ gi: number; hi: number }> = [];
  arr.forEach((el, gi) => {
    if (isObj(el) && Array.isArray(el.hooks)) el.hooks.forEach((h, hi) => isOurs(h, spec.marker) && hits.push({ gi, hi }));
    // An entry of ours sitting directly in the event array is the wrong shape; it is replaced below.
    else if (isOurs(el, spec.marker)) plan.removals.push({ kind: 'remove', path: [...path, gi] });
  });
  const group = (gi: number): JsonObject => arr[gi] as JsonObject;
  const groupHooks = (gi: number): Json[] => group(gi).hooks as Json[];
  const oursOnly = (gi: number): boolean => groupHooks(gi).every((h) => isOurs(h, spec.marker));
  const fits = (gi: number): boolean => matcherFits(group(gi).matcher, matcher);
  const keeper =
    hits.find((h) => fits(h.gi) && oursOnly(h.gi)) ?? hits.find((h) => fits(h.gi)) ?? hits.find((h) => oursOnly(h.gi));
  if (keeper) {
    const entryPath = [...path, keeper.gi, 'hooks', keeper.hi];
    const entry = groupHooks(keeper.gi)[keeper.hi] as JsonObject;
    setField(plan, entryPath, entry, 'type', 'command');
    setField(plan, entryPath, entry, 'command', spec.command);
    setField(plan, entryPath, entry, 'timeout', spec.timeout);
    // Only a group holding nothing but ours gets its matcher fixed; a user's group is never changed.
    if (!fits(keeper.gi)) {
      if (matcher === undefined) plan.edits.push({ kind: 'remove', path: [...path, keeper.gi, 'matcher'] });
      else setField(plan, [...path, keeper.gi], group(keeper.gi), 'matcher', matcher);
    }
  }
  const extra = hits.filter((h) => h !== keeper);
  for (const gi of new Set(extra.map((h) => h.gi))) {
    if (gi !== keeper?.gi && oursOnly(gi)) plan.removals.push({ kind: 'remove', path: [...path, gi] });
    else for (const h of extra.filter((x) => x.gi === gi)) plan.removals.push({ kind: 'remove', path: [...path, gi, 'hooks', h.hi] });
  }
  // Ours goes in its own group even when the user has one with the same matcher: their group stays
  // byte-for-byte theirs, and --remove can take ours out without touching it.
  if (!keeper) plan.appends.push({ kind: 'add', path, value: newEntry(spec, matcher) });
}

function planFlatEvent(plan: Plan, arr: Json[], path: Path, spec: HookEntrySpec, matcher: string | undefined): void {
  const hits = arr.flatMap((el, i) => (isOurs(el, spec.marker) ? [i] : []));
  const keeper = hits.find((i) => matcherFits((arr[i] as JsonObject).matcher, matcher)) ?? hits[0];
  if (keeper !== undefined) {
    const entry = arr[keeper] as JsonObject;
    const entryPath = [...path, keeper];
    setField(plan, entryPath, entry, 'command', spec.command);
    if (matcher !== undefined) setField(plan, entryPath, entry, 'matcher', matcher);
    else if ('matcher' in entry) plan.edits.push({ kind: 'remove', path: [...entryPath, 'matcher'] });
    setField(plan, entryPath, entry, 'timeout', spec.timeout);
  } else {
    plan.appends.push({ kind: 'add', path, value: newEntry(spec, matcher) });
  }
  for (const i of hits) if (i !== keeper) plan.removals.push({ kind: 'remove', path: [...path, i] });
}

function planHooks(plan: Plan, root: JsonObject, spec: HookEntrySpec, hasComment: HasComment): void {
  const shape = spec.style === 'nested' ? 'hook groups ({ "matcher"?, "hooks": [ … ] })' : 'hook entries ({ "command", … })';
  if (!('hooks' in root)) {
    const hooks: JsonObject = {};
    for (const ev of spec.events) hooks[ev.event] = [newEntry(spec, ev.matcher)];
    plan.appends.push({ kind: 'add', path: [], key: 'hooks', value: hooks });
    return;
  }
  const hooks = root.hooks;
  if (!isObj(hooks)) {
    throw new FileFormatError(
      `\`hooks\` is ${typeName(hooks)}; it should be an object mapping event names to arrays of ${shape}.`,
      'Change "hooks" to an object such as { "PreToolUse": [ … ] }, or remove it.',
    );
  }
  const wanted = new Set(spec.events.map((e) => e.event));
  for (const ev of spec.events) {
    const arr = hooks[ev.event];
    if (arr === undefined) {
      plan.appends.push({ kind: 'add', path: ['hooks'], key: ev.event, value: [newEntry(spec, ev.matcher)] });
    } else if (!Array.isArray(arr)) {
      throw new FileFormatError(
        `\`hooks.${ev.event}\` is ${typeName(arr)}; it should be an array of ${shape}.`,
        `Change "hooks.${ev.event}" to an array: [ … ].`,
      );
    } else if (spec.style === 'nested') {
      planNestedEvent(plan, arr, ['hooks', ev.event], spec, ev.matcher);
    } else {
      planFlatEvent(plan, arr, ['hooks', ev.event], spec, ev.matcher);
    }
  }
  // Entries an earlier version put under events this version no longer uses are stale, so they go.
  for (const event of Object.keys(hooks)) {
    if (wanted.has(event)) continue;
    const r = planEventRemoval(hooks[event], ['hooks', event], spec.marker, hasComment);
    if (r.ops.length === 0) continue;
    plan.removals.push(...(r.emptied ? [{ kind: 'remove', path: ['hooks', event] } as Op] : r.ops));
    plan.notes.push(`Removed loop-guard's hook from hooks.${event}, which this version no longer uses.`);
  }
}

function planEnv(plan: Plan, root: JsonObject, spec: EnvSpec): { setKeys: string[]; kept: Array<{ key: string; value: string }> } {
  const setKeys: string[] = [];
  const kept: Array<{ key: string; value: string }> = [];
  const label = pathLabel(spec.path);
  let node: JsonObject = root;
  for (let i = 0; i < spec.path.length; i++) {
    const seg = spec.path[i]!;
    const next = node[seg];
    if (next === undefined) {
      let value: JsonObject = { ...spec.values };
      for (let j = spec.path.length - 1; j > i; j--) value = { [spec.path[j]!]: value };
      if (Object.keys(spec.values).length > 0) plan.appends.push({ kind: 'add', path: spec.path.slice(0, i), key: seg, value });
      return { setKeys: Object.keys(spec.values), kept };
    }
    if (!isObj(next)) {
      const where = pathLabel(spec.path.slice(0, i + 1));
      throw new FileFormatError(
        `\`${where}\` is ${typeName(next)}; it should be an object of environment variables (name → string).`,
        `Change "${where}" to an object such as { "GIT_PAGER": "cat" }, or remove it.`,
      );
    }
    node = next;
  }
  const owned = new Set(spec.owned);
  for (const [key, value] of Object.entries(spec.values)) {
    const current = node[key];
    if (current === undefined) {
      plan.appends.push({ kind: 'add', path: spec.path, key, value });
      setKeys.push(key);
    } else if (current === value) {
      if (owned.has(key)) setKeys.push(key);
    } else if (owned.has(key) || spec.force) {
      plan.edits.push({ kind: 'set', path: [...spec.path, key], value });
      setKeys.push(key);
      if (!owned.has(key)) plan.notes.push(`Replaced your ${label}.${key}=${JSON.stringify(current)} with ${JSON.stringify(value)} (--force).`);
    } else {
      const theirs = typeof current === 'string' ? current : JSON.stringify(current);
      kept.push({ key, value: theirs });
      plan.notes.push(`Kept your ${label}.${key}=${JSON.stringify(theirs)}; loop-guard would set ${JSON.stringify(value)} (use --force to replace it).`);
    }
  }
  // A key we set earlier but no longer want is ours to take back out.
  for (const key of spec.owned) {
    if (!(key in spec.values) && key in node) {
      plan.removals.push({ kind: 'remove', path: [...spec.path, key] });
      plan.notes.push(`Removed ${label}.${key}, which loop-guard set earlier and no longer needs.`);
    }
  }
  return { setKeys, kept };
}

// ───────────────────────────── apply + verify ─────────────────────────────

function commentsOf(text: string): string[] {
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
function applyAndVerify(body: string, model: JsonObject, ops: Op[]): { text: string; model: JsonObject } | { problem: string } {
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
    return { problem: `the file's layout could not be edited safely (${err instanceof Error ? err.message : String(err)})` };
  }
  let actual: Json;
  try {
    actual = parseValue(text);
    parseCst(text);
  } catch {
    return { problem: 'the edited text would not parse' };
  }
  if (!same(actual, expected)) return { problem: 'the edited text would not hold the intended values' };
  if (!containsAll(commentsOf(text), without(commentsOf(body), dropped))) return { problem: 'the edit would lose a comment' };
  return { text, model: actual as JsonObject };
}

/** Checks the merged value against the spec itself, independently of how the plan was made. */
function hooksProblem(model: JsonObject, spec: HookEntrySpec): string | null {
  const hooks = model.hooks;
  if (!isObj(hooks)) return 'no hooks object';
  const wanted = new Map(spec.events.map((e) => [e.event, e.matcher]));
  for (const [event, arr] of Object.entries(hooks)) {
    if (!Array.isArray(arr)) continue;
    const found: Array<{ entry: JsonObject; matcher: Json | undefined }> = [];
    for (const el of arr) {
      if (spec.style === 'flat' && isOurs(el, spec.marker)) found.push({ entry: el, matcher: el.matcher });
      if (spec.style === 'nested' && isObj(el) && Array.isArray(el.hooks)) {
        for (const h of el.hooks) if (isOurs(h, spec.marker)) found.push({ entry: h, matcher: el.matcher });
      }
    }
    if (!wanted.has(event)) {
      if (found.length > 0) return `a stale entry in hooks.${event}`;
      continue;
    }
    if (found.length !== 1) return `${found.length} entries in hooks.${event}`;
    const { entry, matcher } = found[0]!;
    if (entry.command !== spec.command || entry.timeout !== spec.timeout) return `a stale entry in hooks.${event}`;
    if (!matcherFits(matcher, wanted.get(event))) return `the wrong matcher in hooks.${event}`;
  }
  for (const event of wanted.keys()) if (!Array.isArray(hooks[event])) return `no hooks.${event}`;
  return null;
}

function snippet(spec: MergeSpec): string {
  const value: JsonObject = {};
  if (spec.ensureTop) Object.assign(value, clone(spec.ensureTop as JsonObject));
  if (spec.env) {
    let env: JsonObject = { ...spec.env.values };
    for (let j = spec.env.path.length - 1; j >= 0; j--) env = { [spec.env.path[j]!]: env };
    Object.assign(value, env);
  }
  if (spec.hooks) {
    const hooks: JsonObject = {};
    for (const ev of spec.hooks.events) hooks[ev.event] = [newEntry(spec.hooks, ev.matcher)];
    value.hooks = hooks;
  }
  return JSON.stringify(value, null, 2);
}

// ───────────────────────────── API ─────────────────────────────

/** Merge our hooks and env into `before` (null = file does not exist → create it with 2-space indent, LF, final newline). Throws FileFormatError if `before` does not parse as JSONC or its top level is not an object, or `hooks`/the event value/env has a wrong type (say which key and what it should be). */
export function mergeJson(before: string | null, spec: MergeSpec): JsonEditResult {
  const { bom, rest: body } = splitBom(before ?? '{}\n');
  const model = parseUserFile(body);
  const plan: Plan = { edits: [], removals: [], appends: [], notes: [] };
  for (const [key, value] of Object.entries(spec.ensureTop ?? {})) {
    if (!(key in model)) plan.appends.push({ kind: 'add', path: [], key, value: clone(value as Json) });
  }
  const env = spec.env ? planEnv(plan, model, spec.env) : { setKeys: [], kept: [] };
  if (spec.hooks) planHooks(plan, model, spec.hooks, commentProbe(body));
  const ops = [...plan.edits, ...[...plan.removals].sort((a, b) => comparePathsDesc(a.path, b.path)), ...plan.appends];
  const result = (outcome: EditOutcome): JsonEditResult => ({ outcome, setKeys: env.setKeys, kept: env.kept });
  if (ops.length === 0) return result({ status: 'unchanged', text: before ?? '', notes: plan.notes });

  const done = applyAndVerify(body, model, ops);
  const shape = 'problem' in done || !spec.hooks ? null : hooksProblem(done.model, spec.hooks);
  if ('problem' in done || shape !== null) {
    return result({
      status: 'conflict',
      reason: `Could not merge loop-guard's settings into this file: ${'problem' in done ? done.problem : `the result would have ${shape}`}.`,
      fix: `Merge this into the file by hand:\n${snippet(spec)}`,
    });
  }
  return result({ status: 'changed', text: bom + done.text, notes: plan.notes });
}

/** Take out everything ours: entries whose command contains marker (and a group/event/hooks object left empty only if it became empty because of us), env keys in `ownedEnv` whose value still equals ours. Returns { status:'unchanged' } when nothing is ours. `becameEmpty`: the result holds nothing but `ensureTop` values (and no comments), so a caller that created the file may delete it. */
export function removeFromJson(before: string, spec: RemoveSpec): { outcome: EditOutcome; becameEmpty: boolean } {
  const { bom, rest: body } = splitBom(before);
  const model = parseUserFile(body);
  const ops: Op[] = [];
  const hasComment = commentProbe(body);
  const hooks = model.hooks;
  if (isObj(hooks)) {
    const events = Object.keys(hooks);
    const perEvent = events.map((event) => ({ event, ...planEventRemoval(hooks[event], ['hooks', event], spec.marker, hasComment) }));
    // A container the user had before us stays, even empty, so --remove gives back exactly their file.
    const mayDrop = (path: string[]) => !spec.created || spec.created.some((c) => c.length === path.length && c.every((seg, i) => seg === path[i]));
    if (events.length > 0 && perEvent.every((r) => r.emptied) && !hasComment(['hooks']) && mayDrop(['hooks'])) ops.push({ kind: 'remove', path: ['hooks'] });
    else for (const r of perEvent) ops.push(...(r.emptied && mayDrop(['hooks', r.event]) ? [{ kind: 'remove', path: ['hooks', r.event] } as Op] : r.ops));
  }
  if (spec.ownedEnv) ops.push(...planEnvRemoval(model, spec.ownedEnv, hasComment, spec.created));
  if (ops.length === 0) return { outcome: { status: 'unchanged', text: before, notes: [] }, becameEmpty: false };

  ops.sort((a, b) => comparePathsDesc(a.path, b.path));
  const done = applyAndVerify(body, model, ops);
  if ('problem' in done) {
    return {
      outcome: {
        status: 'conflict',
        reason: `Could not take loop-guard's entries out of this file: ${done.problem}.`,
        fix: `Delete by hand every hook entry whose command contains "${spec.marker}"${spec.ownedEnv ? ` and the ${pathLabel(spec.ownedEnv.path)} keys ${Object.keys(spec.ownedEnv.values).join(', ')}` : ''}.`,
      },
      becameEmpty: false,
    };
  }
  const rest: JsonObject = { ...done.model };
  for (const [key, value] of Object.entries(spec.ensureTop ?? {})) if (same(rest[key], value)) delete rest[key];
  if (isObj(rest.hooks) && Object.keys(rest.hooks).length === 0) delete rest.hooks;
  const becameEmpty = Object.keys(rest).length === 0 && commentsOf(done.text).length === 0;
  return { outcome: { status: 'changed', text: bom + done.text, notes: [] }, becameEmpty };
}

function planEnvRemoval(model: JsonObject, owned: { path: string[]; values: Record<string, string> }, hasComment: HasComment, created?: string[][]): Op[] {
  const chain: JsonObject[] = [model];
  for (const seg of owned.path) {
    const next = chain[chain.length - 1]![seg];
    if (!isObj(next)) return [];
    chain.push(next);
  }
  const env = chain[chain.length - 1]!;
  const ours = Object.keys(env).filter((k) => k in owned.values && env[k] === owned.values[k]);
  if (ours.length === 0) return [];
  const mayDrop = (path: string[]) => !created || created.some((c) => c.length === path.length && c.every((seg, i) => seg === path[i]));
  if (ours.length < Object.keys(env).length || owned.path.length === 0 || hasComment(owned.path) || !mayDrop(owned.path)) {
    return ours.map((k) => ({ kind: 'remove', path: [...owned.path, k] }));
  }
  // The env object (and any parent holding only it) became empty because of us, so it goes too.
  let depth = owned.path.length;
  while (depth > 1 && Object.keys(chain[depth - 1]!).length === 1 && !hasComment(owned.path.slice(0, depth - 1)) && mayDrop(owned.path.slice(0, depth - 1))) depth--;
  return [{ kind: 'remove', path: owned.path.slice(0, depth) }];
}
