// PowerShell (and cmd) commands that wait for a person or never exit: Read-Host, Get-Credential, pause, notepad,
// Get-Content -Wait, Wait-Event, $Host.UI.ReadLine(), …. PowerShell is recognised by its own syntax, not the payload
// (Codex on Windows sends PowerShell lines as `Bash`): these names and parameters mean nothing to a POSIX shell.
import { once } from './argv.ts';
import type { Finding, HangContext } from './types.ts';

/** One statement of a PowerShell line: its words (quotes removed) and whether it runs detached from the line. */
interface Statement {
  words: string[];
  /** The raw words, quotes kept: a quoted word is never a parameter. */
  quoted: boolean[];
  /** In a `Start-Job { … }` / `Start-ThreadJob` block or ended by PowerShell 7's `&`: it does not hold the line. */
  detached: boolean;
}

/** Cheap gate, so a POSIX line pays one regex test: every rule below needs one of these words. */
const GATE_RE = new RegExp(
  [
    'read-host|get-credential|pause|choice|notepad|wordpad|write\\.exe|readline|readkey|promptfor',
    '-wai|\\/wait|wait-|ping|out-gridview|ogv|out-host|\\boh\\b|show-command|enter-pssession|etsn',
    'pwsh|powershell|\\bcmd\\b|-verb',
  ].join('|'),
  'i',
);

/** The statements of a PowerShell line; never throws, best effort on syntax it does not follow. */
export function powershellStatements(line: string): Statement[] {
  const out: Statement[] = [];
  scan(line, 0, line.length, false, out, 0);
  return out;
}

const JOB_STARTERS = new Set(['start-job', 'sajb', 'start-threadjob', 'register-objectevent', 'register-engineevent']);

/** Splits line[from, to) into statements, recursing into (…), $(…), @(…) and {…}; returns where it stopped. */
function scan(s: string, from: number, to: number, detached: boolean, out: Statement[], depth: number): number {
  let cur: Statement = { words: [], quoted: [], detached };
  let word = '';
  let inWord = false;
  let quoted = false;
  const endWord = (): void => {
    if (inWord) cur.words.push(word), cur.quoted.push(quoted);
    word = '';
    inWord = false;
    quoted = false;
  };
  const endStatement = (): void => {
    endWord();
    if (cur.words.length > 0) out.push(cur);
    cur = { words: [], quoted: [], detached };
  };
  let i = from;
  while (i < to) {
    const c = s[i]!;
    if (c === '`') {
      // The escape character: a backtick before a line break continues the line.
      if (s[i + 1] !== '\n' && s[i + 1] !== '\r') (word += s[i + 1] ?? ''), (inWord = true);
      i += 2;
      continue;
    }
    if (c === "'" || c === '"') {
      const end = quoteEnd(s, i, to);
      word += s.slice(i + 1, end).replace(c === "'" ? /''/g : /`(.)/g, c === "'" ? "'" : '$1');
      inWord = true;
      quoted = true;
      i = end + 1;
      continue;
    }
    if (c === '@' && (s[i + 1] === "'" || s[i + 1] === '"') && /[\r\n]/.test(s[i + 2] ?? '')) {
      // A here-string: its text is data, never a command.
      const close = s.indexOf(`\n${s[i + 1]}@`, i + 2);
      i = close === -1 ? to : close + 3;
      word += '<here-string>';
      inWord = true;
      quoted = true;
      continue;
    }
    if (c === '#' && !inWord) {
      while (i < to && s[i] !== '\n') i++;
      continue;
    }
    if (c === '<' && s[i + 1] === '#') {
      const close = s.indexOf('#>', i + 2);
      i = close === -1 ? to : close + 2;
      continue;
    }
    const open = c === '(' || c === '{' || ((c === '$' || c === '@') && (s[i + 1] === '(' || s[i + 1] === '{'));
    if (open && depth < 8) {
      const start = c === '(' || c === '{' ? i : i + 1;
      const close = groupEnd(s, start, to);
      const head = (inWord ? word : (cur.words[cur.words.length - 1] ?? '')).toLowerCase();
      const job = detached || (s[start] === '{' && JOB_STARTERS.has(cur.words[0]?.toLowerCase() ?? ''));
      scan(s, start + 1, close, job, out, depth + 1);
      // The group is one argument of the statement around it (`Get-Content (Join-Path $d x.log) -Wait`).
      word += head.startsWith('$host') || head.startsWith('[console]') ? '()' : '(…)';
      inWord = true;
      i = close + 1;
      continue;
    }
    if (c === ';' || c === '\n' || c === '|' || c === '}' || c === ')') {
      endStatement();
      i += c === '|' && s[i + 1] === '|' ? 2 : 1;
      continue;
    }
    if (c === '&') {
      if (s[i + 1] === '&') {
        endStatement();
        i += 2;
        continue;
      }
      // `& cmd` calls; a trailing `&` (PowerShell 7) runs the pipeline as a background job.
      if (cur.words.length > 0 || inWord) {
        endWord();
        cur.detached = true;
        endStatement();
      } else cur.words.push('&'), cur.quoted.push(false);
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      endWord();
      i++;
      continue;
    }
    word += c;
    inWord = true;
    i++;
  }
  endStatement();
  return i;
}

/** Index of the quote closing the one at `at` ('' and `" escapes inside), or `to`. */
function quoteEnd(s: string, at: number, to: number): number {
  const q = s[at];
  for (let k = at + 1; k < to; k++) {
    if (q === '"' && s[k] === '`') k++;
    else if (s[k] === q) {
      if (s[k + 1] === q) k++;
      else return k;
    }
  }
  return to;
}

/** Index of the bracket closing the one at `at`, skipping quotes and nested groups, or `to`. */
function groupEnd(s: string, at: number, to: number): number {
  let level = 0;
  for (let k = at; k < to; k++) {
    const c = s[k];
    if (c === "'" || c === '"') k = quoteEnd(s, k, to);
    else if (c === '`') k++;
    else if (c === '(' || c === '{') level++;
    else if (c === ')' || c === '}') {
      level--;
      if (level === 0) return k;
    }
  }
  return to;
}

// ---------------------------------------------------------------------------------------------
// Names and parameters, case-insensitive as PowerShell is.

/** A command name as PowerShell resolves it: lower case, no folder, no .exe/.cmd/.bat/.com. */
function commandName(word: string): string {
  const base = word.slice(Math.max(word.lastIndexOf('/'), word.lastIndexOf('\\')) + 1).toLowerCase();
  return base.replace(/\.(?:exe|cmd|bat|com)$/, '');
}

/**
 * True when a parameter names `param`, abbreviated as PowerShell allows (at least `min` letters, so `-wa` — the
 * WarningAction alias — is not -Wait), and not switched off with `:$false`.
 */
function hasParam(st: Statement, param: string, min = 2): boolean {
  return st.words.some((w, k) => {
    if (st.quoted[k] || w[0] !== '-') return false;
    const [name = '', value] = w.slice(1).toLowerCase().split(':', 2);
    return name.length >= min && param.startsWith(name) && value !== '$false' && value !== '0';
  });
}

/** The words after the name, without the assignment in front (`$name = Read-Host …`) and the call operator. */
function commandWords(st: Statement): { name: string; args: string[]; quoted: boolean[] } | null {
  let k = 0;
  let w = st.words;
  if (w[0]?.startsWith('$') && /^(?:[-+%?*]|\/)?=$/.test(w[1] ?? '')) k = 2;
  else if (/^\$[\w:]+=./.test(w[0] ?? '')) w = [w[0]!.slice(w[0]!.indexOf('=') + 1), ...w.slice(1)];
  const called = w[k] === '&' || w[k] === '.';
  if (called) k++;
  // A quoted string in command position is a value PowerShell prints, unless the call operator runs it.
  if (k >= w.length || (st.quoted[k] && !called)) return null;
  return { name: commandName(w[k]!), args: w.slice(k + 1), quoted: st.quoted.slice(k + 1) };
}

// ---------------------------------------------------------------------------------------------
// The rules.

const prompt = (what: string, instead: string): Finding => ({
  rule: 'prompt',
  why: `${what} waits for someone to type an answer at the console, and nobody is at the agent's. ${instead}`,
});

const PASS_VALUE =
  'The value can be given on the line instead: a parameter, an environment variable (`$env:NAME`) or a file ' +
  '(`Get-Content answer.txt`).';

const EDITORS = once(() => new Set(['notepad', 'notepad++', 'wordpad', 'write', 'notepad2', 'notepad3']));
const GET_CONTENT = once(() => new Set(['get-content', 'gc', 'cat', 'type']));
const SHELLS = once(() => new Set(['powershell', 'pwsh', 'cmd']));

/** Members that read the console: $Host.UI.ReadLine(), $Host.UI.RawUI.ReadKey(), [Console]::ReadKey(), …. */
const CONSOLE_READ_RE =
  /\$host\.ui\.(?:rawui\.)?(?:readline|readlineassecurestring|readkey|promptforcredential|promptforchoice|prompt)\b|\[(?:system\.)?console\]::(?:readline|readkey|read)\b/i;

type Rule = (args: string[], st: Statement) => Finding | null;

const RULES = once(
  (): Record<string, Rule> => ({
    'read-host': (_args, st) =>
      prompt(
        hasParam(st, 'assecurestring', 2) || hasParam(st, 'maskinput', 2)
          ? 'Read-Host asking for a secret'
          : 'Read-Host',
        PASS_VALUE,
      ),
    'get-credential': () =>
      prompt(
        'Get-Credential',
        'A credential can be built without asking: `New-Object PSCredential($user, (ConvertTo-SecureString ' +
          '$env:PASSWORD -AsPlainText -Force))`, or the user can sign in first.',
      ),
    pause: () => prompt('pause', 'It can be left out: the command returns its output when it ends.'),
    choice: (args) =>
      args.some((a) => /^\/t/i.test(a)) && args.some((a) => /^\/d/i.test(a))
        ? null
        : prompt('choice', 'With `/t 5 /d Y` it picks the default itself; or the answer can be given on the line.'),
    'show-command': () => prompt('Show-Command', 'The command can be run directly with its parameters.'),
    'out-gridview': (_args, st) =>
      hasParam(st, 'wait', 1) || hasParam(st, 'passthru', 1) || hasParam(st, 'outputmode', 1)
        ? prompt(
            'Out-GridView with -Wait, -PassThru or -OutputMode',
            'Its rows print as text with `Format-Table -AutoSize` or `Out-String`.',
          )
        : null,
    'out-host': (_args, st) =>
      hasParam(st, 'paging', 1)
        ? {
            rule: 'pager',
            why: 'Out-Host -Paging waits for a key after each page. Without -Paging the output is returned whole.',
          }
        : null,
    'enter-pssession': () => ({
      rule: 'remote-shell',
      why:
        'Enter-PSSession opens an interactive remote prompt and waits for commands typed at it. `Invoke-Command ' +
        '-ComputerName host -ScriptBlock { … }` runs commands there and returns.',
    }),
  }),
);
const ALIASES: Record<string, string> = {
  ogv: 'out-gridview',
  oh: 'out-host',
  etsn: 'enter-pssession',
  shcm: 'show-command',
};

/** One statement's verdict. */
function statementFinding(st: Statement, ctx: HangContext, depth: number): Finding | null {
  const cw = st.detached ? null : commandWords(st);
  if (!cw) return null;
  const { name, args } = cw;
  const rule = RULES()[ALIASES[name] ?? name];
  const found = rule?.(args, st);
  if (found) return found;
  if (EDITORS().has(name) && args.every((a) => !/^\/?[?]$/.test(a))) {
    return {
      rule: 'editor',
      why:
        `${name} opens a window and waits for someone to save and close it. The file-editing tool, ` +
        '`Set-Content`, or `(Get-Content f) -replace "a","b" | Set-Content f` edits without one.',
    };
  }
  if (name === 'start-process' || name === 'saps' || name === 'start') return startProcess(st, name === 'start');
  if (SHELLS().has(name)) return shell(name, args, ctx, depth);
  if (st.detached || ctx.background || ctx.longRunsReturn) return null;
  if (GET_CONTENT().has(name) && hasParam(st, 'wait', 3)) {
    return {
      rule: 'follow',
      why:
        "Get-Content -Wait keeps reading the file for new lines and never returns (PowerShell's tail -f). " +
        '`Get-Content file -Tail 50` prints the last lines and returns; a wait for a line can be bounded: ' +
        '`$t=0; while (-not (Select-String -Quiet ready file) -and $t++ -lt 30) { Start-Sleep 2 }`.',
    };
  }
  if (name === 'wait-event' && !hasParam(st, 'timeout', 1)) {
    return {
      rule: 'endless',
      why: 'Wait-Event without -Timeout waits until an event arrives, which may be never. `Wait-Event -Timeout 30` returns.',
    };
  }
  if (name === 'ping' && args.some((a) => /^[-/]t$/i.test(a)) && !args.some((a) => /^[-/][cn]$/i.test(a))) {
    return { rule: 'endless', why: 'ping -t pings until it is stopped. `ping -n 4 host` sends four and returns.' };
  }
  return null;
}

/** Start-Process returns at once, unless -Wait holds it for a program that waits for a person. */
function startProcess(st: Statement, cmdStart: boolean): Finding | null {
  if (!hasParam(st, 'wait', 3) && !(cmdStart && st.words.some((w) => /^\/wait$/i.test(w)))) return null;
  const positional = st.words.slice(1).filter((w, k) => !/^[-/]/.test(w) || st.quoted[k + 1]);
  const program = commandName(paramValue(st, 'filepath') ?? positional[0] ?? '');
  const elevated = /^runas/i.test(paramValue(st, 'verb') ?? '');
  const shellOnly = SHELLS().has(program) && !paramValue(st, 'argumentlist') && positional.length < 2;
  if (!elevated && !EDITORS().has(program) && !shellOnly) return null;
  return prompt(
    elevated ? 'Start-Process -Verb RunAs -Wait (a UAC prompt)' : `Start-Process -Wait ${program}`,
    'Without -Wait it starts the program and returns; a program that runs unattended can be called directly.',
  );
}

/** The value after -name (abbreviated as PowerShell allows), or undefined. */
function paramValue(st: Statement, param: string): string | undefined {
  const k = st.words.findIndex(
    (w, j) => !st.quoted[j] && w.length > 2 && w[0] === '-' && param.startsWith(w.slice(1).toLowerCase()),
  );
  return k === -1 ? undefined : st.words[k + 1];
}

/** powershell/pwsh/cmd with nothing to run is an interactive prompt; with -Command or /c, the command is judged. */
function shell(name: string, args: string[], ctx: HangContext, depth: number): Finding | null {
  if (name === 'cmd') {
    // Git Bash writes cmd's switches with two slashes (`cmd //c`), so MSYS does not take them for paths.
    const k = args.findIndex((a) => /^\/\/?[ck]$/i.test(a));
    if (k !== -1 && /c$/i.test(args[k]!))
      return depth < 3 ? lineFinding(args.slice(k + 1).join(' '), ctx, depth + 1) : null;
    if (args.some((a) => /^\/\?$/.test(a))) return null;
    return repl('cmd with nothing to run (or /k)', '`cmd /c <command>` runs it and exits.');
  }
  const lower = args.map((a) => a.toLowerCase());
  if (lower.some((a) => /^-(?:noe|noexit)/.test(a)))
    return repl(`${name} -NoExit`, 'Without -NoExit it runs the command and exits.');
  const k = lower.findIndex((a) => /^-(?:c|co|com|comm|comma|comman|command|commandwithargs|cwa)$/.test(a));
  if (k !== -1) return depth < 3 ? lineFinding(args.slice(k + 1).join(' '), ctx, depth + 1) : null;
  const runs = lower.some(
    (a) => /^-(?:f|fi|fil|file|e|ec|enc|encodedcommand|v|ver|version|\?|h|help)$/.test(a) || !a.startsWith('-'),
  );
  return runs
    ? null
    : repl(`${name} with nothing to run`, `\`${name} -NoProfile -Command "<command>"\` runs it and exits.`);
}

const repl = (what: string, instead: string): Finding => ({
  rule: 'repl',
  why: `${what} starts an interactive prompt and waits for input typed at the keyboard. ${instead}`,
});

function lineFinding(line: string, ctx: HangContext, depth: number): Finding | null {
  if (!GATE_RE.test(line)) return null;
  // Quoted text is never run (a `$(…)` inside double quotes is, and is missed: the rule errs towards allowing).
  if (CONSOLE_READ_RE.test(line.replace(/'[^']*'|"(?:[^"`]|`.)*"/g, "''"))) {
    return prompt('Reading the console ($Host.UI / [Console]::Read…)', PASS_VALUE);
  }
  for (const st of powershellStatements(line)) {
    const found = statementFinding(st, ctx, depth);
    if (found) return found;
  }
  return null;
}

/** The PowerShell verdict on a whole command line, or null (then the POSIX rules judge it). */
export function powershellFinding(line: string, ctx: HangContext): Finding | null {
  // PowerShell has no `<<` (it is a parse error there): a heredoc makes the line POSIX, whatever its text says.
  if (POSIX_HEREDOC_RE.test(line)) return null;
  return lineFinding(line, ctx, 0);
}

/** A POSIX heredoc's start: `<<EOF`, `<<'EOF'`, `<<-"END"` (real: a commit message quoting `{{ cmd … }}`). */
const POSIX_HEREDOC_RE = /<<-?\s*['"]?[A-Za-z_]/;
