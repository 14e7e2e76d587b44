// Pure: what a hook command line really runs. Splits it the way sh would (quotes, `$VAR`, the `$(git rev-parse …)`
// our Codex command uses), so doctor can tell "runs exactly our guard file" from "mentions its name", and can see the
// environment the command itself sets (`LOOP_GUARD_HANG=off node …`).
import { isAbsolute, resolve } from 'node:path';

export interface SimpleCommand {
  /** `NAME=value` words before the program, `env NAME=value`, and `export NAME=value` before it in the line. */
  assignments: Record<string, string>;
  words: string[];
}

/** Command substitutions we can resolve without running anything: the ones our own hook commands use. */
const KNOWN_SUBST: Record<string, 'root'> = {
  'git rev-parse --show-toplevel 2>/dev/null || pwd': 'root',
  'git rev-parse --show-toplevel': 'root',
  pwd: 'root',
};

/** Split a command line into simple commands of words; null when it uses syntax we cannot resolve statically. */
export function splitCommand(
  line: string,
  vars: Readonly<Record<string, string>>,
  root: string,
): SimpleCommand[] | null {
  const commands: string[][] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  const endWord = () => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (words.length) commands.push(words);
    words = [];
  };
  const expandVar = (i: number): { text: string; next: number } | null => {
    // at line[i] === '$'
    const rest = line.slice(i + 1);
    if (rest.startsWith('(')) {
      let depth = 0;
      for (let j = i + 1; j < line.length; j++) {
        if (line[j] === '(') depth++;
        else if (line[j] === ')' && --depth === 0) {
          const inner = line.slice(i + 2, j).trim();
          if (KNOWN_SUBST[inner] !== 'root') return null;
          return { text: root, next: j + 1 };
        }
      }
      return null;
    }
    const m = /^\{([A-Za-z_][A-Za-z0-9_]*)\}|^([A-Za-z_][A-Za-z0-9_]*)/.exec(rest);
    if (!m) return { text: '$', next: i + 1 };
    const name = (m[1] ?? m[2]) as string;
    return { text: vars[name] ?? '', next: i + 1 + m[0].length };
  };
  let i = 0;
  while (i < line.length) {
    const ch = line[i] as string;
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return null;
      word += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (ch === '"') {
      inWord = true;
      i++;
      for (;;) {
        if (i >= line.length) return null;
        const c = line[i] as string;
        if (c === '"') {
          i++;
          break;
        }
        if (c === '\\' && i + 1 < line.length && '$`"\\\n'.includes(line[i + 1] as string)) {
          word += line[i + 1];
          i += 2;
        } else if (c === '$') {
          const v = expandVar(i);
          if (!v) return null;
          word += v.text;
          i = v.next;
        } else if (c === '`') return null;
        else {
          word += c;
          i++;
        }
      }
    } else if (ch === '\\') {
      if (i + 1 < line.length && line[i + 1] !== '\n') {
        word += line[i + 1];
        inWord = true;
      }
      i += 2;
    } else if (ch === '$') {
      const v = expandVar(i);
      if (!v) return null;
      word += v.text;
      inWord = true;
      i = v.next;
    } else if (ch === '`') return null;
    else if (ch === ';' || ch === '&' || ch === '|' || ch === '\n' || ch === '(' || ch === ')') {
      endCommand();
      i++;
    } else if (ch === ' ' || ch === '\t') {
      endWord();
      i++;
    } else if (ch === '>' || ch === '<') {
      // A redirection: skip it and its target word (and an fd number right before it).
      if (/^\d+$/.test(word)) {
        word = '';
        inWord = false;
      }
      endWord();
      i++;
      while (line[i] === '>' || line[i] === '&' || line[i] === '<') i++;
      while (line[i] === ' ') i++;
      while (i < line.length && !' \t;&|\n'.includes(line[i] as string)) i++;
    } else {
      word += ch;
      inWord = true;
      i++;
    }
  }
  endCommand();
  const out: SimpleCommand[] = [];
  const exported: Record<string, string> = {};
  for (const w of commands) {
    const assignments: Record<string, string> = { ...exported };
    let k = 0;
    const isAssign = (s: string | undefined) => s !== undefined && /^[A-Za-z_][A-Za-z0-9_]*=/.test(s);
    const take = () => {
      while (isAssign(w[k])) {
        const s = w[k] as string;
        assignments[s.slice(0, s.indexOf('='))] = s.slice(s.indexOf('=') + 1);
        k++;
      }
    };
    take();
    if (w[k] === 'export') {
      k++;
      while (isAssign(w[k])) {
        const s = w[k] as string;
        exported[s.slice(0, s.indexOf('='))] = s.slice(s.indexOf('=') + 1);
        k++;
      }
      continue;
    }
    if (w[k] === 'env') {
      k++;
      take();
    }
    out.push({ assignments, words: w.slice(k) });
  }
  return out;
}

function isNode(word: string | undefined): boolean {
  if (!word) return false;
  const base = word.split('/').pop() ?? '';
  return /^node(js)?(\d+)?(\.exe)?$/.test(base);
}

export interface OurRun {
  /** The environment the command line itself gives our guard. */
  assignments: Record<string, string>;
}

/**
 * The simple command that runs exactly `guardAbs` with node, or null. `vars` are the tool's variables
 * (e.g. CLAUDE_PROJECT_DIR); relative paths resolve against the repository root, where the tools run hooks.
 */
export function runsOurFile(
  line: string,
  guardAbs: string,
  root: string,
  vars: Readonly<Record<string, string>>,
): OurRun | null {
  const cmds = splitCommand(line, vars, root);
  if (!cmds) return null;
  for (const c of cmds) {
    if (!isNode(c.words[0])) continue;
    // The script is the first argument that is not a node option.
    const script = c.words.slice(1).find((w) => !w.startsWith('-'));
    if (!script) continue;
    const abs = isAbsolute(script) ? resolve(script) : resolve(root, script);
    if (abs === guardAbs) return { assignments: c.assignments };
  }
  return null;
}
