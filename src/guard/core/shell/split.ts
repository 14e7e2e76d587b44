// A small, conservative shell splitter: enough of POSIX sh/bash syntax to find the simple commands in
// a command line, in one linear pass, never throwing.
import type { SimpleCommand } from './command.ts';
import { type Builder, MAX_DEPTH, newBuilder, PLAIN, Reader, type RedirKind } from './reader.ts';
import { shellScript, unwrap } from './wrappers.ts';

export { baseName, isDetached, type SimpleCommand } from './command.ts';

interface Group {
  start: number;
  listStart: number;
  pipedIn: boolean;
}

/** Split a command line into simple commands; on anything it cannot parse it returns its best effort. */
export function splitCommands(line: string): SimpleCommand[] {
  try {
    return new Parser(line, 0).parseList(null);
  } catch {
    return [];
  }
}

class Parser extends Reader {
  protected child(body: string): Reader {
    return new Parser(body, this.depth + 1);
  }

  /** Parse until `stop` (')' or '`') or the end; returns every simple command met, nested ones inline. */
  parseList(stop: ')' | '`' | null): SimpleCommand[] {
    const s = this.s;
    const out: SimpleCommand[] = [];
    const groups: Group[] = [];
    let cur = newBuilder();
    let word = '';
    let inWord = false;
    let wordQuoted = false;
    let redir: RedirKind | null = null;
    let listStart = 0;
    let pipedIn = false;
    // Commands before this index were already seen by a `disown`, so each disown only scans new ones.
    let disownFrom = 0;
    // The group that just closed, so a following |, & or redirection applies to all of it.
    let closed: [number, number] | null = null;

    const endWord = (): void => {
      if (!inWord) return;
      const w = word;
      const q = wordQuoted;
      word = '';
      inWord = false;
      wordQuoted = false;
      if (redir) {
        const kind = redir;
        redir = null;
        if (kind === 'out') this.markStdout(cur, out, closed);
        else if (kind === 'in') cur.stdinRedirected = true;
        else if (kind === 'heredoc' || kind === 'heredoc-strip') {
          cur.stdinRedirected = true;
          this.heredocs.push({ delim: w, strip: kind === 'heredoc-strip' });
        }
        return;
      }
      // Quoting matters here: `'{'` is a word, a bare `{` opens a group.
      if (!q && cur.words.length === 0 && w === '{') {
        groups.push({ start: out.length, listStart, pipedIn });
        listStart = out.length;
        closed = null;
        return;
      }
      if (!q && cur.words.length === 0 && w === '}' && groups.length > 0) {
        closeGroup();
        return;
      }
      closed = null;
      cur.words.push(w);
    };

    const endCommand = (): void => {
      endWord();
      redir = null;
      if (cur.words.length === 0) {
        cur = newBuilder();
        return;
      }
      const built = this.build(cur, pipedIn);
      pipedIn = false;
      cur = newBuilder();
      for (const c of built) out.push(c);
      const main = built[0]!;
      if (main.argv[0] === 'disown') {
        for (let k = disownFrom; k < out.length; k++) if (out[k]!.background) out[k]!.disowned = true;
        disownFrom = out.length;
      }
    };

    const closeGroup = (): void => {
      endCommand();
      const g = groups.pop();
      if (!g) return;
      if (g.pipedIn && out[g.start]) out[g.start]!.stdinRedirected = true;
      closed = [g.start, out.length];
      listStart = g.listStart;
    };

    // Ends the current pipeline element; `kind` says what separated it from the next.
    const separator = (kind: 'pipe' | 'list' | 'background'): void => {
      const before = out.length;
      const hadWords = cur.words.length > 0 || inWord;
      endCommand();
      if (kind === 'pipe') {
        if (hadWords && out.length > before) out[before]!.pipedOut = true;
        else if (closed) for (let k = closed[0]; k < closed[1]; k++) out[k]!.pipedOut = true;
        pipedIn = true;
      } else {
        if (kind === 'background') for (let k = listStart; k < out.length; k++) out[k]!.background = true;
        pipedIn = false;
        listStart = out.length;
      }
      closed = null;
    };

    const n = s.length;
    while (this.i < n) {
      const c = s[this.i]!;
      const next = s[this.i + 1];

      if (stop === '`' && c === '`') {
        this.i++;
        break;
      }
      if (c === ')' && (stop === ')' || groups.length > 0)) {
        this.i++;
        if (groups.length > 0) {
          closeGroup();
          continue;
        }
        break;
      }

      switch (c) {
        case ' ':
        case '\t':
        case '\r':
          endWord();
          this.i++;
          continue;
        case '\n':
          this.i++;
          separator('list');
          this.skipHeredocBodies();
          continue;
        case '\\':
          if (next === '\n') {
            this.i += 2;
          } else {
            word += next ?? '';
            inWord = true;
            wordQuoted = true;
            this.i += 2;
          }
          continue;
        case "'": {
          const end = s.indexOf("'", this.i + 1);
          const stopAt = end === -1 ? n : end;
          word += s.slice(this.i + 1, stopAt);
          inWord = true;
          wordQuoted = true;
          this.i = stopAt + 1;
          continue;
        }
        case '"': {
          this.i++;
          word += this.readDouble(out);
          inWord = true;
          wordQuoted = true;
          continue;
        }
        case '$': {
          if (next === "'") {
            this.i += 2;
            word += this.readAnsiC();
            inWord = true;
            wordQuoted = true;
          } else {
            word += this.readDollar(out);
            inWord = true;
          }
          continue;
        }
        case '`':
          word += this.readBackticks(out);
          inWord = true;
          continue;
        case '#':
          if (!inWord) {
            const nl = s.indexOf('\n', this.i);
            this.i = nl === -1 ? n : nl;
          } else {
            word += c;
            this.i++;
          }
          continue;
        case ';':
          separator('list');
          this.i += next === ';' || next === '&' ? 2 : 1;
          continue;
        case '&':
          if (next === '&') {
            endCommand();
            pipedIn = false;
            closed = null;
            this.i += 2;
          } else if (next === '>') {
            endWord();
            redir = 'out';
            this.i += s[this.i + 2] === '>' ? 3 : 2;
          } else {
            separator('background');
            this.i++;
          }
          continue;
        case '|':
          if (next === '|') {
            endCommand();
            pipedIn = false;
            closed = null;
            this.i += 2;
          } else {
            separator('pipe');
            this.i += next === '&' ? 2 : 1;
          }
          continue;
        case '<':
        case '>': {
          if (next === '(') {
            // Process substitution: its commands run with their output captured.
            this.i += 2;
            const start = this.i - 2;
            this.nested(out, ')');
            word += s.slice(start, this.i);
            inWord = true;
            continue;
          }
          // A word made only of digits right before the operator is the file descriptor.
          let fd = -1;
          if (inWord && !wordQuoted && /^\d{1,3}$/.test(word)) {
            fd = Number(word);
            word = '';
            inWord = false;
          } else {
            endWord();
          }
          redir = this.readRedirect(c, fd, cur);
          continue;
        }
        case '(':
          if (inWord) {
            // Array assignment or extended glob: keep the balanced text as part of the word.
            word += this.readBalanced();
            continue;
          }
          if (cur.words.length === 0) {
            if (next === '(') {
              // (( arithmetic )) runs nothing.
              this.readBalanced();
              continue;
            }
            this.i++;
            groups.push({ start: out.length, listStart, pipedIn });
            listStart = out.length;
            closed = null;
            continue;
          }
          // `name() {…}` function definitions: the parentheses carry nothing.
          this.i++;
          continue;
        case ')':
          // A stray closer (case patterns): treat as a separator.
          separator('list');
          this.i++;
          continue;
        default: {
          // Copy a run of ordinary characters at once rather than one by one.
          PLAIN.lastIndex = this.i;
          const run = PLAIN.exec(s);
          const text = run ? run[0] : c;
          word += text;
          inWord = true;
          this.i += text.length;
        }
      }
    }
    separator('list');
    while (groups.length > 0) closeGroup();
    return out;
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
