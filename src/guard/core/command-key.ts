// One key for the rewordings of a command that cannot change what runs: `2>&1`, trimming pipes, comments,
// `|| true` fallbacks, output-only env prefixes, package-manager aliases. Messages still quote the command as written.
//
// A small tokenizer of its own (not shell/split.ts, which answers "which programs run" and drops the operators):
// the key needs the operators and the words' quoting. Anything it does not understand (command substitution,
// heredocs, subshells, brace groups) leaves the command as written, whitespace-normalized.
import { BLANKS, PLAIN_LINE } from './shell/plain-line.ts';

/** The canonical text of a command, and the literal lines its dropped `|| echo …` fallbacks print. */
export interface CommandShape {
  key: string;
  /** Text that a dropped `|| echo …` / `|| printf …` fallback prints, so the result can ignore it too. */
  fallbackOutputs: string[];
}

interface Word {
  t: 'word';
  /** the text as written, quotes included */
  raw: string;
  /** the text after quote removal */
  value: string;
  /** a `$` outside single quotes: the value expands, so the raw form is the key */
  expands: boolean;
}
interface Op {
  t: 'op';
  op: string;
}
interface Redir {
  t: 'redir';
  /** the operator with its fd, e.g. `2>&`, `>`, `&>` */
  op: string;
  target: Word;
}
type Token = Word | Op | Redir;

/** Thrown inside the tokenizer for syntax it leaves alone; caught by commandShape. */
class Opaque extends Error {}

// What ends a word is what the shell splits on (blanks, newlines, operators; \r for a CRLF line): a non-ASCII space
// such as U+00A0 is part of the word, as in sh and shell/split.ts.
const WORD_END = /[ \t\n\r;&|<>()]/;
// The audit keys thousands of commands, mostly in code V8 has not optimized yet: a table read per character, not a
// regex run. Both tables are built from the patterns they stand for, so they cannot disagree with them.
const ASCII = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));
const ENDS_WORD = Uint8Array.from(ASCII, (c) => (WORD_END.test(c) ? 1 : 0));
/** Characters a word takes as they are: not its end, no quote, no escape, no expansion, nothing opaque. */
const PLAIN = Uint8Array.from(ASCII, (c) => (WORD_END.test(c) || '`{}\'"\\$'.includes(c) ? 0 : 1));

const endsWord = (code: number): boolean => code < 128 && ENDS_WORD[code] === 1;

function tokenize(s: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = s.length;
  while (i < n) {
    const c = s[i]!;
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (c === '\\' && s[i + 1] === '\n') {
      i += 2;
      continue;
    }
    if (c === '\n' || c === '\r') {
      out.push({ t: 'op', op: ';' });
      i++;
      continue;
    }
    // A comment starts only where a word would start.
    if (c === '#') {
      while (i < n && s[i] !== '\n') i++;
      continue;
    }
    if (c === '(' || c === ')' || c === '`' || c === '{' || c === '}') throw new Opaque();
    if (c === '|' || c === '&' || c === ';') {
      const two = s.slice(i, i + 2);
      if (two === '&>') {
        const op = s[i + 2] === '>' ? '&>>' : '&>';
        out.push(readTarget(op, s, (i0) => (i = i0), i + op.length));
        continue;
      }
      const op = two === '||' || two === '&&' || two === '|&' || two === ';;' ? two : c;
      if (op === ';;') throw new Opaque();
      out.push({ t: 'op', op });
      i += op.length;
      continue;
    }
    // PowerShell's `*>` redirects every stream, as `&>` does in bash.
    if (
      c === '<' ||
      c === '>' ||
      (c >= '0' && c <= '9' && /^\d+[<>]/.test(s.slice(i, i + 4))) ||
      (c === '*' && s[i + 1] === '>')
    ) {
      let j = c === '*' ? i + 1 : i;
      while (/\d/.test(s[j]!)) j++;
      const m = /^(?:>>|>&|>\||<&|<>|<<|>|<)/.exec(s.slice(j, j + 2));
      if (!m || m[0] === '<<') throw new Opaque();
      j += m[0].length;
      const op = s.slice(i, j);
      out.push(readTarget(op, s, (i0) => (i = i0), j));
      continue;
    }
    const [word, next] = readWord(s, i);
    out.push(word);
    i = next;
  }
  return out;
}

function readTarget(op: string, s: string, setI: (i: number) => void, from: number): Redir {
  let i = from;
  while (s[i] === ' ' || s[i] === '\t') i++;
  const [target, next] = readWord(s, i);
  if (target.raw === '') throw new Opaque();
  setI(next);
  return { t: 'redir', op, target };
}

function readWord(s: string, start: number): [Word, number] {
  let i = start;
  let value = '';
  let expands = false;
  while (i < s.length && !endsWord(s.charCodeAt(i))) {
    // A run of plain characters is taken in one slice.
    let j = i;
    while (j < s.length && s.charCodeAt(j) < 128 && PLAIN[s.charCodeAt(j)] === 1) j++;
    if (j > i) {
      value += s.slice(i, j);
      i = j;
      continue;
    }
    const c = s[i]!;
    if (c === '`' || c === '{' || c === '}') throw new Opaque();
    if (c === "'") {
      const end = s.indexOf("'", i + 1);
      if (end === -1) throw new Opaque();
      value += s.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      i++;
      while (i < s.length && s[i] !== '"') {
        if (s[i] === '`' || (s[i] === '$' && s[i + 1] === '(')) throw new Opaque();
        if (s[i] === '$') expands = true;
        if (s[i] === '\\' && i + 1 < s.length && '"\\$`\n'.includes(s[i + 1]!)) i++;
        value += s[i];
        i++;
      }
      if (i >= s.length) throw new Opaque();
      i++;
    } else if (c === '\\') {
      // Escaping a letter or digit means nothing to sh, so a backslash before one is a Windows path's (C:\a\b).
      value += /[\w.]/.test(s[i + 1] ?? '') ? `\\${s[i + 1]}` : (s[i + 1] ?? '');
      i += 2;
    } else {
      if (c === '$') {
        if (s[i + 1] === '(') throw new Opaque();
        expands = true;
      }
      value += c;
      i++;
    }
  }
  return [{ t: 'word', raw: s.slice(start, i), value, expands }, i];
}

// ---------------------------------------------------------------------------------------------------------------

/** Env prefixes that change how output looks or where it goes, never which program runs or what it does. */
const OUTPUT_ONLY_ENV = new Set([
  'CI',
  'FORCE_COLOR',
  'NO_COLOR',
  'CLICOLOR',
  'CLICOLOR_FORCE',
  'TERM',
  'COLUMNS',
  'LINES',
  'PAGER',
  'GIT_PAGER',
  'MANPAGER',
  'PYTHONUNBUFFERED',
  'PYTHONDONTWRITEBYTECODE',
  'PYTHONIOENCODING',
  'NODE_NO_WARNINGS',
  'NPM_CONFIG_COLOR',
  'NPM_CONFIG_PROGRESS',
  'NPM_CONFIG_FUND',
  'NPM_CONFIG_AUDIT',
  'NPM_CONFIG_UPDATE_NOTIFIER',
  'NO_UPDATE_NOTIFIER',
  'GIT_TERMINAL_PROMPT',
  'DEBIAN_FRONTEND',
]);
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/;

/** Package-manager subcommands that are another spelling of `run <script>`. */
const PM_ALIASES: Record<string, Record<string, string>> = {
  npm: {
    t: 'test',
    tst: 'test',
    test: 'test',
    start: 'start',
    stop: 'stop',
    'run-script': '',
    rum: '',
    urn: '',
    run: '',
  },
  pnpm: { t: 'test', tst: 'test', test: 'test', start: 'start', 'run-script': '', run: '' },
  yarn: { test: 'test', start: 'start', run: '' },
  // `bun test` is bun's own test runner, not the "test" script, so only start is an alias.
  bun: { start: 'start', run: '' },
};

const COUNT = /^(?:-n|--lines|-c|--bytes)$/;
const COUNT_JOINED = /^(?:-\d+|-[nc][+-]?\d+|--(?:lines|bytes)=[+-]?\d+)$/;
const NUMBER = /^[+-]?\d+[kKmMbB]?$/;

/** `tail -N`, `head -n N`, `cat`, `grep -v PATTERN`: a view of the output, not part of what runs. */
function isTrimmer(argv: Word[]): boolean {
  const name = argv[0]?.value;
  const args = argv.slice(1).map((w) => w.value);
  if (name && /^[A-Za-z-]+$/.test(name) && isPowerShellView(name.toLowerCase(), args)) return true;
  if (name === 'cat') return args.length === 0;
  if (name === 'head' || name === 'tail') {
    for (let k = 0; k < args.length; k++) {
      const a = args[k]!;
      if (COUNT_JOINED.test(a) || a === '-q') continue;
      if (COUNT.test(a) && NUMBER.test(args[k + 1] ?? '')) {
        k++;
        continue;
      }
      return false; // a file, -f/-F (never returns), or an option we do not know
    }
    return true;
  }
  if (name === 'grep' || name === 'egrep' || name === 'fgrep') {
    let invert = false;
    let patterns = 0;
    for (let k = 0; k < args.length; k++) {
      const a = args[k]!;
      if (a === '-e') {
        patterns++;
        k++;
      } else if (/^-[vivEFwx]+$/.test(a) && a !== '-') {
        if (a.includes('v')) invert = true;
      } else if (a === '--invert-match') invert = true;
      else if (!a.startsWith('-') && patterns === 0) patterns++;
      else return false;
    }
    return invert && patterns > 0;
  }
  return false;
}

/** PowerShell's `tail -N` and friends, case-insensitive and abbreviated as PowerShell allows. */
const PS_VIEWS: Record<string, (args: string[]) => boolean> = {
  // Select-Object -Last 20 / -First 20 (its first positional is -Property, so only the named forms count)
  'select-object': (args) =>
    pairs(args, (p, v) => /^-(?:l(?:a(?:st?)?)?|f(?:i(?:r(?:st?)?)?)?)$/.test(p) && NUMBER.test(v)),
  'out-string': (args) =>
    args.every(
      (a, k) =>
        /^-(?:s|st|str|stre|strea|stream)$/i.test(a) ||
        /^-w/i.test(a) ||
        (NUMBER.test(a) && /^-w/i.test(args[k - 1] ?? '')),
    ),
  'out-host': (args) => args.length === 0,
  'out-default': (args) => args.length === 0,
  'out-null': (args) => args.length === 0,
  // Select-String -NotMatch PATTERN hides lines, as grep -v does
  'select-string': (args) => {
    const lower = args.map((a) => a.toLowerCase());
    const rest = lower.filter((a) => !/^-(?:n|no|not|notm|notma|notmat|notmatc|notmatch)$/.test(a));
    return (
      rest.length < lower.length &&
      (rest.length === 1 ? !rest[0]!.startsWith('-') : /^-p/.test(rest[0] ?? '') && rest.length === 2)
    );
  },
};
PS_VIEWS.select = PS_VIEWS['select-object']!;
PS_VIEWS.sls = PS_VIEWS['select-string']!;

function isPowerShellView(name: string, args: string[]): boolean {
  return Object.hasOwn(PS_VIEWS, name) && PS_VIEWS[name]!(args);
}

/** True when args are one or more `-name value` pairs, each accepted by `ok` (`-Last:20` too). */
function pairs(args: string[], ok: (param: string, value: string) => boolean): boolean {
  const flat = args.flatMap((a) =>
    /^-\w+:./.test(a) ? [a.slice(0, a.indexOf(':')), a.slice(a.indexOf(':') + 1)] : [a],
  );
  if (flat.length === 0 || flat.length % 2 !== 0) return false;
  for (let k = 0; k < flat.length; k += 2) if (!ok(flat[k]!.toLowerCase(), flat[k + 1]!)) return false;
  return true;
}

/** `true`, `:`, `exit 0`, `echo …`, `printf …`: a fallback that only hides the exit status. */
function fallbackPrints(argv: Word[]): string | null | false {
  const name = argv[0]?.value;
  if (argv.some((w) => w.expands)) return false;
  if (name === 'true' || name === ':') return argv.length === 1 ? null : false;
  if (name === 'exit') return argv.length <= 2 ? null : false;
  if (name === 'echo') {
    const args = argv.slice(1).map((w) => w.value);
    if (args[0]?.startsWith('-')) return false;
    return args.join(' ');
  }
  return false;
}

interface Cmd {
  words: Word[];
  redirs: Redir[];
}

function renderWord(w: Word): string {
  if (w.expands) return w.raw;
  // Quoting that cannot change the value is not part of the key: "ready", 'ready' and ready are one word.
  return /^[\w@%+=:,./-]+$/.test(w.value) ? w.value : `'${w.value.replace(/'/g, `'\\''`)}'`;
}

function canonicalCmd(cmd: Cmd): string {
  let words = cmd.words;
  while (words.length > 1) {
    const m = ASSIGNMENT.exec(words[0]!.value);
    if (!m || !OUTPUT_ONLY_ENV.has(m[1]!)) break;
    words = words.slice(1);
  }
  const parts = words.map(renderWord);
  let p = 0;
  while (p < words.length - 1 && ASSIGNMENT.test(words[p]!.value)) p++;
  const pm = PM_ALIASES[parts[p] ?? ''];
  const sub = parts[p + 1];
  if (pm && sub !== undefined && Object.hasOwn(pm, sub)) {
    const script = pm[sub];
    parts.splice(p + 1, 1, ...(script ? ['run', script] : ['run']));
  }
  for (const r of cmd.redirs) {
    const to = r.target.value;
    // Duplicating a descriptor (2>&1) or discarding to /dev/null changes what is shown, never what runs.
    if (/&$/.test(r.op) && /^(?:\d+|-)$/.test(to)) continue;
    if ((to === '/dev/null' || r.target.raw.toLowerCase() === '$null') && !r.op.startsWith('<')) continue;
    parts.push(`${r.op}${renderWord(r.target)}`);
  }
  return parts.join(' ');
}

/** The canonical key text of a command line; see the module comment for what it drops. A plain line's tokens are
 * its words as written (half the commands an audit keys). */
export function commandShape(command: string): CommandShape {
  if (!PLAIN_LINE.test(command)) return shapeByTokens(command);
  const words: Word[] = [];
  for (const w of command.split(BLANKS)) if (w !== '') words.push({ t: 'word', raw: w, value: w, expands: false });
  return { key: words.length ? canonicalCmd({ words, redirs: [] }) : flatten(command), fallbackOutputs: [] };
}

/** The command as written, whitespace-normalized: the key of what the tokenizer leaves alone. */
const flatten = (command: string): string => command.trim().replace(/\s+/g, ' ');

/** commandShape without the plain-line shortcut (for the test that proves the two agree). */
export function shapeByTokens(command: string): CommandShape {
  // Made only when it becomes the key.
  const flat = (): string => flatten(command);
  let tokens: Token[];
  try {
    tokens = tokenize(command);
  } catch {
    return { key: flat(), fallbackOutputs: [] };
  }
  // A list of pipelines joined by ; && || & and newlines; each pipeline a list of commands joined by | or |&.
  const list: Array<{ pipe: Cmd[]; op: string }> = [];
  let pipe: Cmd[] = [];
  let cur: Cmd = { words: [], redirs: [] };
  const endCmd = (): void => {
    if (cur.words.length || cur.redirs.length) pipe.push(cur);
    cur = { words: [], redirs: [] };
  };
  for (const tok of tokens) {
    if (tok.t === 'word') cur.words.push(tok);
    else if (tok.t === 'redir') cur.redirs.push(tok);
    else if (tok.op === '|' || tok.op === '|&') endCmd();
    else {
      endCmd();
      if (pipe.length) list.push({ pipe, op: tok.op });
      else if (list.length && tok.op !== ';') list[list.length - 1]!.op = tok.op;
      pipe = [];
    }
  }
  endCmd();
  if (pipe.length) list.push({ pipe, op: ';' });
  if (list.length === 0) return { key: flat(), fallbackOutputs: [] };

  const fallbackOutputs: string[] = [];
  // Only a fallback at the very end: `a || true && b` runs b when a fails, so there the fallback matters.
  while (list.length > 1 && list[list.length - 2]!.op === '||') {
    const last = list[list.length - 1]!;
    if (last.pipe.length !== 1 || last.pipe[0]!.redirs.length) break;
    const printed = fallbackPrints(last.pipe[0]!.words);
    if (printed === false) break;
    if (printed) fallbackOutputs.push(printed);
    list.pop();
    list[list.length - 1]!.op = ';';
  }
  const parts: string[] = [];
  list.forEach(({ pipe: p, op }, k) => {
    const stages = p.slice();
    while (stages.length > 1 && isTrimmer(stages[stages.length - 1]!.words)) stages.pop();
    parts.push(stages.map(canonicalCmd).join(' | '));
    if (k < list.length - 1 || op === '&') parts.push(op === ';' ? ';' : op);
  });
  const key = parts.join(' ').replace(/ ;/g, ';');
  return { key: key || flat(), fallbackOutputs };
}
