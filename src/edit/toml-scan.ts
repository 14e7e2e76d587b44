// A TOML line scanner for splicing into files users wrote: headers, key/value pairs and comments with their
// offsets (it knows multi-line strings), line-exact insertion and removal, and quoting. smol-toml parses and verifies;
// this file knows the format only; which table and keys to touch is the caller's business.
import { parse, TomlError } from 'smol-toml';
import { FileFormatError } from './outcome.ts';
import type { Splice } from './splice.ts';
import { excerpt } from './excerpt.ts';

export type Table = Record<string, unknown>;

export const PARSE_OPTIONS = { integersAsBigInt: 'asNeeded' } as const;

/** smol-toml meets the line's end inside a string never closed and calls the newline a control character: say so. */
export function tomlReason(text: string, what: string, at: { line: number; column: number }): string {
  const line = text.split(/\r?\n/)[at.line - 1] ?? '';
  return /^control characters are not allowed in strings/.test(what) && at.column > line.length
    ? 'unterminated string: it needs its closing quote on this line'
    : what;
}

export function parseOrThrow(text: string): Table {
  try {
    return parse(text, PARSE_OPTIONS) as Table;
  } catch (err) {
    if (err instanceof TomlError) {
      const what = tomlReason(text, err.message.split('\n')[0]!.replace(/^Invalid TOML document: /, ''), err);
      throw new FileFormatError(
        `line ${err.line}, column ${err.column}: ${what}\n${excerpt(text, err.line, err.column)}`,
        `Fix the TOML at line ${err.line}, column ${err.column}, then run again.`,
      );
    }
    throw err;
  }
}

export function isTable(v: unknown): v is Table {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

/** `s` as a TOML basic string: quoted, with double quotes, backslashes and control characters escaped. */
export function quote(s: string): string {
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

export function renderKey(k: string): string {
  return /^[A-Za-z0-9_-]+$/.test(k) ? k : quote(k);
}

export function samePath(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export function deepEqual(a: unknown, b: unknown): boolean {
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

export interface Section {
  /** Index into scan.headers. */
  header: number;
  /** Offset where the next header starts (or the end of the text). */
  end: number;
}

export function section(scan: Scan, header: number): Section {
  const next = scan.headers[header + 1];
  return { header, end: next === undefined ? scan.text.length : next.start };
}

/** After which line new key lines go, and how to indent and space them like their neighbours. */
export function insertionPoint(scan: Scan, sec: Section): { after: number; indent: string; sep: string } {
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

export function separatorOf(text: string, e: Entry): string {
  const sep = text.slice(e.keyEnd, e.valueStart);
  return /^[ \t]*=[ \t]*$/.test(sep) ? sep : ' = ';
}

export function isBlank(scan: Scan, line: number): boolean {
  const l = scan.lines[line]!;
  return scan.text.slice(l.start, l.end).trim() === '';
}

/** New lines after line `after` (-1: at the start); a last line without EOL stays without one. */
export function insertAfterLine(scan: Scan, after: number, lines: string[], eol: string): Splice {
  if (after < 0) return { start: 0, end: 0, text: lines.map((l) => l + eol).join('') };
  const l = scan.lines[after]!;
  if (l.next === l.end) return { start: l.end, end: l.end, text: lines.map((x) => eol + x).join('') };
  return { start: l.next, end: l.next, text: lines.map((x) => x + eol).join('') };
}

/** The exact inverse of insertAfterLine: drop whole lines, and the EOL a dropped last line lacked. */
export function removeLines(scan: Scan, drop: Set<number>): string {
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

// ---------------------------------------------------------------------------------------------------
// The scanner: finds headers, key/value pairs and comments with their offsets in already-valid TOML.

export interface ScanLine {
  start: number;
  /** End of the content, before the EOL. */
  end: number;
  /** Start of the next line (equals `end` for a last line without EOL). */
  next: number;
}

export interface Entry {
  path: string[];
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
  value: Inline | { kind: 'other' };
}

export interface Inline {
  kind: 'inline';
  /** Offset of `{`. */
  open: number;
  /** Offset just after `}`. */
  close: number;
  entries: Entry[];
  trailingComma: number | null;
}

export interface Pair extends Entry {
  /** Index of the header whose table holds the pair, -1 for the root table. */
  table: number;
}

export interface Header {
  array: boolean;
  path: string[];
  start: number;
}

export interface Scan {
  text: string;
  lines: ScanLine[];
  headers: Header[];
  pairs: Pair[];
  comments: number[];
  lineOf(offset: number): number;
}

export function scanToml(text: string): Scan {
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
  const simple: Record<string, string> = {
    b: '\b',
    t: '\t',
    n: '\n',
    f: '\f',
    r: '\r',
    e: '\x1b',
    '"': '"',
    '\\': '\\',
  };
  return raw.replace(/\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|x[0-9A-Fa-f]{2}|.)/g, (_, esc: string) => {
    if (esc.length > 1) return String.fromCodePoint(parseInt(esc.slice(1), 16));
    return simple[esc] ?? esc;
  });
}
