// A small, conservative shell splitter: enough of POSIX sh/bash syntax to find the simple commands in
// a command line, in one linear pass, never throwing.
import type { SimpleCommand } from './command.ts';
import { type Builder, MAX_DEPTH, newBuilder, PLAIN, Reader, type RedirKind } from './reader.ts';
import { shellScript, unwrap } from './wrappers.ts';
import { BLANKS, PLAIN_LINE } from './plain-line.ts';

export { baseName, isDetached, type SimpleCommand } from './command.ts';

interface Group {
  start: number;
  listStart: number;
  pipedIn: boolean;
}

/** What one parseList call has read so far. */
interface ListState {
  out: SimpleCommand[];
  groups: Group[];
  cur: Builder;
  word: string;
  inWord: boolean;
  wordQuoted: boolean;
  redir: RedirKind | null;
  listStart: number;
  pipedIn: boolean;
  /** Commands before this index were already seen by a `disown`, so each disown only scans new ones. */
  disownFrom: number;
  /** The group that just closed, so a following |, & or redirection applies to all of it. */
  closed: [number, number] | null;
}

function newListState(): ListState {
  return {
    out: [],
    groups: [],
    cur: newBuilder(),
    word: '',
    inWord: false,
    wordQuoted: false,
    redir: null,
    listStart: 0,
    pipedIn: false,
    disownFrom: 0,
    closed: null,
  };
}

/** A `{` or `(` opens a group: what follows it until its closer is one list. */
function openGroup(l: ListState): void {
  l.groups.push({ start: l.out.length, listStart: l.listStart, pipedIn: l.pipedIn });
  l.listStart = l.out.length;
  l.closed = null;
}

/**
 * Split a command line into simple commands; on anything it cannot parse it returns its best effort. The answer is
 * shared with the next callers who ask about the same line (the hang rules, then writesState), so it is only read.
 */
export function splitCommands(line: string): SimpleCommand[] {
  for (const [seen, commands] of lastSplits) if (seen === line) return commands;
  const commands = PLAIN_LINE.test(line) ? read(line, (p) => p.plainWords()) : parseCommands(line);
  lastSplits.unshift([line, commands]);
  if (lastSplits.length > 4) lastSplits.pop();
  return commands;
}
const lastSplits: Array<[string, SimpleCommand[]]> = [];

/** splitCommands without the plain-line shortcut (for the test that proves the two agree). */
export function parseCommands(line: string): SimpleCommand[] {
  return read(line, (p) => p.parseList(null));
}

function read(line: string, how: (p: Parser) => SimpleCommand[]): SimpleCommand[] {
  try {
    return how(new Parser(line, 0));
  } catch {
    return [];
  }
}

class Parser extends Reader {
  protected child(body: string): Reader {
    return new Parser(body, this.depth + 1);
  }

  /** A plain line's one command (PLAIN_LINE): its words as parseList would end them, built as it builds them. */
  plainWords(): SimpleCommand[] {
    const b = newBuilder();
    for (const word of this.s.split(BLANKS)) if (word !== '') b.words.push(word);
    return b.words.length === 0 ? [] : this.build(b, false);
  }

  /** Parse until `stop` (')' or '`') or the end; returns every simple command met, nested ones inline. */
  parseList(stop: ')' | '`' | null): SimpleCommand[] {
    const s = this.s;
    const l = newListState();
    const n = s.length;
    while (this.i < n) {
      const c = s[this.i]!;
      if (stop === '`' && c === '`') {
        this.i++;
        break;
      }
      if (c === ')' && (stop === ')' || l.groups.length > 0)) {
        this.i++;
        if (l.groups.length > 0) {
          this.closeGroup(l);
          continue;
        }
        break;
      }
      this.step(l, c, s[this.i + 1]);
    }
    this.separator(l, 'list');
    while (l.groups.length > 0) this.closeGroup(l);
    return l.out;
  }

  /** What starts at `c`, by that character. */
  private step(l: ListState, c: string, next: string | undefined): void {
    switch (c) {
      case ' ':
      case '\t':
      case '\r':
        this.endWord(l);
        this.i++;
        return;
      case '\n':
        this.i++;
        this.separator(l, 'list');
        this.skipHeredocBodies();
        return;
      case '\\':
      case "'":
      case '"':
      case '$':
      case '`':
        this.quoted(l, c, next);
        return;
      case '#':
        if (!l.inWord) {
          const nl = this.s.indexOf('\n', this.i);
          this.i = nl === -1 ? this.s.length : nl;
        } else {
          l.word += c;
          this.i++;
        }
        return;
      case ';':
      case '&':
      case '|':
        this.operator(l, c, next);
        return;
      case '<':
      case '>':
        this.redirection(l, c, next);
        return;
      case '(':
        this.paren(l, next);
        return;
      case ')':
        // A stray closer (case patterns): treat as a separator.
        this.separator(l, 'list');
        this.i++;
        return;
      default: {
        // Copy a run of ordinary characters at once rather than one by one.
        PLAIN.lastIndex = this.i;
        const run = PLAIN.exec(this.s);
        const text = run ? run[0] : c;
        l.word += text;
        l.inWord = true;
        this.i += text.length;
      }
    }
  }

  /** `\`, quotes, `$x`, backticks: the word's text. */
  private quoted(l: ListState, c: string, next: string | undefined): void {
    const s = this.s;
    if (c === '\\') {
      // A line continuation adds nothing.
      if (next === '\n') {
        this.i += 2;
        return;
      }
      l.word += next ?? '';
      l.wordQuoted = true;
      this.i += 2;
    } else if (c === "'") {
      const end = s.indexOf("'", this.i + 1);
      const stopAt = end === -1 ? s.length : end;
      l.word += s.slice(this.i + 1, stopAt);
      l.wordQuoted = true;
      this.i = stopAt + 1;
    } else if (c === '"') {
      this.i++;
      l.word += this.readDouble(l.out);
      l.wordQuoted = true;
    } else if (c === '$' && next === "'") {
      this.i += 2;
      l.word += this.readAnsiC();
      l.wordQuoted = true;
    } else if (c === '$') {
      l.word += this.readDollar(l.out);
    } else {
      l.word += this.readBackticks(l.out);
    }
    l.inWord = true;
  }

  /** `;` `&` `&&` `&>` `|` `||` `|&` */
  private operator(l: ListState, c: string, next: string | undefined): void {
    if (c === ';') {
      this.separator(l, 'list');
      this.i += next === ';' || next === '&' ? 2 : 1;
    } else if (next === c) {
      // && and ||: the next command starts a pipeline of its own.
      this.endCommand(l);
      l.pipedIn = false;
      l.closed = null;
      this.i += 2;
    } else if (c === '&' && next === '>') {
      this.endWord(l);
      l.redir = 'out';
      this.i += this.s[this.i + 2] === '>' ? 3 : 2;
    } else if (c === '&') {
      this.separator(l, 'background');
      this.i++;
    } else {
      this.separator(l, 'pipe');
      this.i += next === '&' ? 2 : 1;
    }
  }

  /** `<` or `>`: a redirection or `<(…)`. */
  private redirection(l: ListState, c: '<' | '>', next: string | undefined): void {
    if (next === '(') {
      // Process substitution: its commands run with their output captured.
      this.i += 2;
      const start = this.i - 2;
      this.nested(l.out, ')');
      l.word += this.s.slice(start, this.i);
      l.inWord = true;
      return;
    }
    // A word made only of digits right before the operator is the file descriptor.
    let fd = -1;
    if (l.inWord && !l.wordQuoted && /^\d{1,3}$/.test(l.word)) {
      fd = Number(l.word);
      l.word = '';
      l.inWord = false;
    } else {
      this.endWord(l);
    }
    l.redir = this.readRedirect(c, fd, l.cur);
  }

  /** `(`: a group, `((`, `f()` or word text. */
  private paren(l: ListState, next: string | undefined): void {
    if (l.inWord) {
      // Array assignment or extended glob: keep the balanced text as part of the word.
      l.word += this.readBalanced();
      return;
    }
    if (l.cur.words.length === 0) {
      if (next === '(') {
        // (( arithmetic )) runs nothing.
        this.readBalanced();
        return;
      }
      this.i++;
      openGroup(l);
      return;
    }
    // `name() {…}` function definitions: the parentheses carry nothing.
    this.i++;
  }

  /** The word ends: a target, `{`, `}` or a word. */
  private endWord(l: ListState): void {
    if (!l.inWord) return;
    const w = l.word;
    const q = l.wordQuoted;
    l.word = '';
    l.inWord = false;
    l.wordQuoted = false;
    if (l.redir) {
      const kind = l.redir;
      l.redir = null;
      if (kind === 'out') this.markStdout(l.cur, l.out, l.closed);
      else if (kind === 'in') l.cur.stdinRedirected = true;
      else if (kind === 'heredoc' || kind === 'heredoc-strip') {
        l.cur.stdinRedirected = true;
        this.heredocs.push({ delim: w, strip: kind === 'heredoc-strip' });
      }
      return;
    }
    // Quoting matters here: `'{'` is a word, a bare `{` opens a group.
    if (!q && l.cur.words.length === 0 && w === '{') {
      openGroup(l);
      return;
    }
    if (!q && l.cur.words.length === 0 && w === '}' && l.groups.length > 0) {
      this.closeGroup(l);
      return;
    }
    l.closed = null;
    l.cur.words.push(w);
  }

  /** The command ends (and a `disown` acts). */
  private endCommand(l: ListState): void {
    this.endWord(l);
    l.redir = null;
    if (l.cur.words.length === 0) {
      l.cur = newBuilder();
      return;
    }
    const built = this.build(l.cur, l.pipedIn);
    l.pipedIn = false;
    l.cur = newBuilder();
    for (const c of built) l.out.push(c);
    const main = built[0]!;
    if (main.argv[0] === 'disown') {
      for (let k = l.disownFrom; k < l.out.length; k++) if (l.out[k]!.background) l.out[k]!.disowned = true;
      l.disownFrom = l.out.length;
    }
  }

  /** The innermost group ends. */
  private closeGroup(l: ListState): void {
    this.endCommand(l);
    const g = l.groups.pop();
    if (!g) return;
    if (g.pipedIn && l.out[g.start]) l.out[g.start]!.stdinRedirected = true;
    l.closed = [g.start, l.out.length];
    l.listStart = g.listStart;
  }

  /** A pipeline element ends; `kind` says how. */
  private separator(l: ListState, kind: 'pipe' | 'list' | 'background'): void {
    const out = l.out;
    const before = out.length;
    const hadWords = l.cur.words.length > 0 || l.inWord;
    this.endCommand(l);
    if (kind === 'pipe') {
      if (hadWords && out.length > before) out[before]!.pipedOut = true;
      else if (l.closed) for (let k = l.closed[0]; k < l.closed[1]; k++) out[k]!.pipedOut = true;
      l.pipedIn = true;
    } else {
      if (kind === 'background') for (let k = l.listStart; k < out.length; k++) out[k]!.background = true;
      l.pipedIn = false;
      l.listStart = out.length;
    }
    l.closed = null;
  }

  /** Turn collected words into a SimpleCommand, plus any commands inside a `sh -c '…'` string. */
  private build(b: Builder, pipedIn: boolean): SimpleCommand[] {
    const { argv, wrappers, env } = unwrap(b.words);
    const cmd: SimpleCommand = {
      argv,
      background: false,
      wrappers,
      env,
      stdoutToFile: b.stdoutToFile,
      pipedOut: false,
      stdinRedirected: b.stdinRedirected || pipedIn,
      disowned: false,
      nested: false,
    };
    const result = [cmd];
    const script = shellScript(argv);
    if (script !== null && this.depth < MAX_DEPTH) {
      for (const inner of new Parser(script, this.depth + 1).parseList(null)) {
        inner.nested = true;
        inner.wrappers = [...wrappers, ...inner.wrappers];
        for (const [k, v] of env) if (!inner.env.has(k)) inner.env.set(k, v);
        inner.stdoutToFile ||= cmd.stdoutToFile;
        result.push(inner);
      }
    }
    return result;
  }
}
