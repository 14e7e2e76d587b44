// Wrappers in front of a program (sudo, env, nohup, timeout, …) and `sh -c` scripts: what runs underneath.
import { baseName } from './command.ts';

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash']);
// Reserved words that may precede a command without changing what runs.
const PREFIX_WORDS = new Set(['!', 'if', 'then', 'else', 'elif', 'do', 'while', 'until']);

/** The script of `sh -c 'script'` / `bash -lc "…"` / `eval …`, or null. */
export function shellScript(argv: string[]): string | null {
  const name = argv[0];
  if (name === undefined) return null;
  if (name === 'eval') return argv.slice(1).join(' ');
  if (!SHELLS.has(baseName(name))) return null;
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k]!;
    if (a === '--' || !a.startsWith('-')) return null;
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(a)) return argv[k + 1] ?? null;
    if (a === '-o' || a === '+o') k++;
  }
  return null;
}

export interface Unwrapped {
  argv: string[];
  wrappers: string[];
  env: Map<string, string>;
}

/** Options (per wrapper) that take the next word as their value. */
const WRAPPER_VALUE_OPTS: Record<string, ReadonlySet<string>> = {
  sudo: new Set(['-u', '-g', '-p', '-C', '-D', '-r', '-t', '-U', '-R', '-T', '-h']),
  doas: new Set(['-u', '-C']),
  env: new Set(['-u', '-C', '-S', '--unset', '--chdir', '--split-string']),
  exec: new Set(['-a']),
  nice: new Set(['-n', '--adjustment']),
  ionice: new Set(['-c', '-n', '-p', '-P', '-u', '--class', '--classdata']),
  timeout: new Set(['-s', '-k', '--signal', '--kill-after']),
  stdbuf: new Set(['-i', '-o', '-e', '--input', '--output', '--error']),
  setsid: new Set(),
  nohup: new Set(),
  time: new Set(['-f', '-o', '--format', '--output']),
  command: new Set(),
  builtin: new Set(),
  chronic: new Set(),
  unbuffer: new Set(),
};

/** Strip leading assignments, reserved words and wrappers, recording what was stripped. */
export function unwrap(words: string[]): Unwrapped {
  const wrappers: string[] = [];
  const env = new Map<string, string>();
  let k = 0;
  const n = words.length;
  const takeAssignments = (): void => {
    while (k < n && ASSIGNMENT.test(words[k]!)) {
      const w = words[k]!;
      const eq = w.indexOf('=');
      env.set(w.slice(0, eq).replace(/\+$/, ''), w.slice(eq + 1));
      k++;
    }
  };
  for (let guard = 0; guard < 64 && k < n; guard++) {
    takeAssignments();
    if (k >= n) break;
    const w = words[k]!;
    if (PREFIX_WORDS.has(w)) {
      k++;
      continue;
    }
    const name = baseName(w);
    const valueOpts = WRAPPER_VALUE_OPTS[name];
    if (!valueOpts) break;
    // `command -v x` and `command -V x` look a name up rather than run it.
    if (name === 'command' && (words[k + 1] === '-v' || words[k + 1] === '-V')) break;
    wrappers.push(name);
    k++;
    // Options of the wrapper.
    while (k < n) {
      const a = words[k]!;
      if (a === '--') {
        k++;
        break;
      }
      if (name === 'env' && ASSIGNMENT.test(a)) {
        takeAssignments();
        continue;
      }
      if (!a.startsWith('-') || a === '-') break;
      // `nice -5 cmd` sets the niceness inline.
      k++;
      if (valueOpts.has(a)) k++;
    }
    if (name === 'timeout' && k < n) k++; // the duration
  }
  return { argv: words.slice(k), wrappers, env };
}
