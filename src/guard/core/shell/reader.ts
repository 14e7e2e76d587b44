// The reading half of the shell splitter: quoted strings, $…, backticks, redirections and heredoc bodies, one
// linear pass over the line; split.ts builds simple commands from what it reads.
import type { SimpleCommand } from './command.ts';

// Nesting deeper than this is treated as opaque text, which bounds recursion on hostile input.
export const MAX_DEPTH = 24;

export const PLAIN = /[^\s\\'"$`#;&|<>()]+/y;

export interface Builder {
  words: string[];
  stdoutToFile: boolean;
  stdinRedirected: boolean;
}

export type RedirKind = 'out' | 'in' | 'other' | 'heredoc' | 'heredoc-strip';

export function newBuilder(): Builder {
  return { words: [], stdoutToFile: false, stdinRedirected: false };
}

/** The cursor over the line and the readers that advance it; parseList (split.ts) drives them. */
export abstract class Reader {
  protected i = 0;
  protected readonly heredocs: Array<{ delim: string; strip: boolean }> = [];

  constructor(
    protected readonly s: string,
    protected depth: number,
  ) {}

  /** Parse until `stop` (')' or '`') or the end; returns every simple command met, nested ones inline. */
  abstract parseList(stop: ')' | '`' | null): SimpleCommand[];

  /** A parser for a body read here (a backtick substitution), one level deeper. */
  protected abstract child(body: string): Reader;

  /** Parse a nested $(…), `…` or <(…) body and add its commands as captured, nested commands. */
  protected nested(out: SimpleCommand[], stop: ')' | '`'): void {
    if (this.depth >= MAX_DEPTH) {
      this.i = this.skipTo(stop);
      return;
    }
    this.depth++;
    try {
      for (const c of this.parseList(stop)) {
        c.nested = true;
        c.pipedOut = true;
        out.push(c);
      }
    } finally {
      this.depth--;
    }
  }

  /** Without parsing, find the end of an over-deep nested body by counting brackets. */
  protected skipTo(stop: ')' | '`'): number {
    const s = this.s;
    let d = 0;
    for (let k = this.i; k < s.length; k++) {
      const c = s[k];
      if (c === '\\') k++;
      else if (stop === '`' && c === '`') return k + 1;
      else if (c === '(') d++;
      else if (c === ')' && stop === ')') {
        if (d === 0) return k + 1;
        d--;
      }
    }
    return s.length;
  }

  /** Read a "…" string starting after the opening quote; substitutions inside are parsed as nested commands. */
  protected readDouble(out: SimpleCommand[]): string {
    const s = this.s;
    let text = '';
    while (this.i < s.length) {
      const c = s[this.i]!;
      if (c === '"') {
        this.i++;
        return text;
      }
      if (c === '\\') {
        const nx = s[this.i + 1];
        if (nx === '\n') {
          this.i += 2;
        } else if (nx === '$' || nx === '`' || nx === '"' || nx === '\\') {
          text += nx;
          this.i += 2;
        } else {
          text += c;
          this.i++;
        }
      } else if (c === '$') {
        text += this.readDollar(out);
      } else if (c === '`') {
        text += this.readBackticks(out);
      } else {
        text += c;
        this.i++;
      }
    }
    return text;
  }

  /** Read $'…' (ANSI-C quoting) after the opening quote; escapes are kept as the escaped character. */
  protected readAnsiC(): string {
    const s = this.s;
    let text = '';
    while (this.i < s.length) {
      const c = s[this.i]!;
      if (c === "'") {
        this.i++;
        return text;
      }
      if (c === '\\') {
        const nx = s[this.i + 1] ?? '';
        text += nx === 'n' ? '\n' : nx === 't' ? '\t' : nx;
        this.i += 2;
      } else {
        text += c;
        this.i++;
      }
    }
    return text;
  }

  /** Read a $-expansion at this.i and return its source text; command substitutions are parsed. */
  protected readDollar(out: SimpleCommand[]): string {
    const s = this.s;
    const start = this.i;
    const nx = s[this.i + 1];
    if (nx === '(' && s[this.i + 2] === '(') {
      this.i++;
      this.readBalanced();
      return s.slice(start, this.i);
    }
    if (nx === '(') {
      this.i += 2;
      this.nested(out, ')');
      return s.slice(start, this.i);
    }
    if (nx === '{') {
      let d = 0;
      for (let k = this.i + 1; k < s.length; k++) {
        const c = s[k];
        if (c === '\\') k++;
        else if (c === '{') d++;
        else if (c === '}' && --d === 0) {
          this.i = k + 1;
          return s.slice(start, this.i);
        }
      }
      this.i = s.length;
      return s.slice(start);
    }
    this.i++;
    return '$';
  }

  /** Read `…` at this.i; its body (with \` unescaped) is parsed separately as nested commands. */
  protected readBackticks(out: SimpleCommand[]): string {
    const s = this.s;
    const start = this.i;
    let k = this.i + 1;
    let body = '';
    while (k < s.length && s[k] !== '`') {
      if (s[k] === '\\' && k + 1 < s.length) {
        const nx = s[k + 1]!;
        body += nx === '`' || nx === '\\' || nx === '$' ? nx : '\\' + nx;
        k += 2;
      } else {
        body += s[k];
        k++;
      }
    }
    this.i = Math.min(k + 1, s.length);
    if (this.depth < MAX_DEPTH) {
      for (const c of this.child(body).parseList(null)) {
        c.nested = true;
        c.pipedOut = true;
        out.push(c);
      }
    }
    return s.slice(start, this.i);
  }

  /** Read a balanced (…) run at this.i (quotes respected) and return its text. */
  protected readBalanced(): string {
    const s = this.s;
    const start = this.i;
    let d = 0;
    let k = this.i;
    for (; k < s.length; k++) {
      const c = s[k];
      if (c === '\\') k++;
      else if (c === "'") {
        const e = s.indexOf("'", k + 1);
        k = e === -1 ? s.length : e;
      } else if (c === '(') d++;
      else if (c === ')' && --d === 0) break;
    }
    this.i = Math.min(k + 1, s.length);
    return s.slice(start, this.i);
  }

  /** Consume a redirection operator starting at this.i; returns what its target word means. */
  protected readRedirect(c: '<' | '>', fd: number, cur: Builder): RedirKind | null {
    const s = this.s;
    const nx = s[this.i + 1];
    if (c === '<') {
      if (nx === '<' && s[this.i + 2] === '<') {
        this.i += 3;
        cur.stdinRedirected = true;
        return 'other';
      }
      if (nx === '<') {
        const strip = s[this.i + 2] === '-';
        this.i += strip ? 3 : 2;
        return strip ? 'heredoc-strip' : 'heredoc';
      }
      if (nx === '&') {
        this.i += 2;
        return 'other';
      }
      this.i += nx === '>' ? 2 : 1;
      return fd <= 0 ? 'in' : 'other';
    }
    // '>' forms: >, >>, >|, >&
    if (nx === '&') {
      this.i += 2;
      // `>&2` duplicates a descriptor; `>& file` (csh style) sends both streams to a file.
      const m = /^\s*(\d+|-)(?![^\s;&|<>()])/.exec(s.slice(this.i, this.i + 12));
      if (m) {
        this.i += m[0].length;
        return null;
      }
      return fd <= 1 ? 'out' : 'other';
    }
    this.i += nx === '>' || nx === '|' ? 2 : 1;
    return fd === -1 || fd === 1 ? 'out' : 'other';
  }

  /** Record a stdout redirection; right after a group, it applies to every command in the group. */
  protected markStdout(cur: Builder, out: SimpleCommand[], closed: [number, number] | null): void {
    if (cur.words.length === 0 && closed) {
      for (let k = closed[0]; k < closed[1]; k++) out[k]!.stdoutToFile = true;
    }
    cur.stdoutToFile = true;
  }

  /** Skip heredoc bodies that start after the newline just consumed. */
  protected skipHeredocBodies(): void {
    const s = this.s;
    while (this.heredocs.length > 0) {
      const { delim, strip } = this.heredocs.shift()!;
      for (;;) {
        if (this.i >= s.length) return;
        const nl = s.indexOf('\n', this.i);
        const end = nl === -1 ? s.length : nl;
        let text = s.slice(this.i, end);
        if (text.endsWith('\r')) text = text.slice(0, -1);
        if (strip) text = text.replace(/^\t+/, '');
        this.i = nl === -1 ? s.length : nl + 1;
        if (text === delim) break;
      }
    }
  }
}
