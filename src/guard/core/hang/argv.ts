// Argument helpers for the hang rules: look through runners (npx, uv run, python -m …) and read options and
// positionals.
import { baseName } from '../shell/split.ts';

// ---------------------------------------------------------------------------------------------
// Runners that start another program: look through them to the program itself.

const VALUE_OPTS_NPX = new Set(['-p', '--package', '-c', '--call', '-w', '--workspace']);
const VALUE_OPTS_UV = new Set([
  '--with',
  '--with-requirements',
  '--with-editable',
  '--python',
  '-p',
  '--project',
  '--directory',
  '--package',
  '--env-file',
  '--extra',
  '--group',
  '--index',
  '--from',
]);
const VALUE_OPTS_XARGS = new Set([
  '-a',
  '-d',
  '-E',
  '-I',
  '-L',
  '-n',
  '-P',
  '-s',
  '--arg-file',
  '--delimiter',
  '--max-lines',
  '--max-args',
  '--max-procs',
  '--max-chars',
  '--process-slot-var',
]);
const PYTHON = /^python(?:\d+(?:\.\d+)?)?$/;

/** Strip npx, pnpm exec, uv run, bundle exec, python -m … so the rules see the program that runs. */
export function resolveRunners(argv: string[]): string[] {
  let a = argv;
  for (let guard = 0; guard < 8; guard++) {
    const next = stripRunner(a);
    if (next === null || next === a || next.length === 0) return next ?? a;
    a = next;
  }
  return a;
}

function stripRunner(argv: string[]): string[] | null {
  const name = baseName(argv[0] ?? '');
  const sub = argv[1];
  switch (name) {
    case 'npx':
    case 'bunx':
    case 'pnpx':
      return withoutVersion(afterOptions(argv, 1, VALUE_OPTS_NPX));
    case 'npm':
      return sub === 'exec' || sub === 'x' ? withoutVersion(afterOptions(argv, 2, VALUE_OPTS_NPX)) : null;
    case 'pnpm':
    case 'yarn':
      return sub === 'exec' || sub === 'dlx' ? withoutVersion(afterOptions(argv, 2, VALUE_OPTS_NPX)) : null;
    case 'bun':
      return sub === 'x' ? withoutVersion(afterOptions(argv, 2, VALUE_OPTS_NPX)) : null;
    case 'uvx':
      return afterOptions(argv, 1, VALUE_OPTS_UV);
    case 'uv':
    case 'poetry':
    case 'pipenv':
    case 'pdm':
    case 'hatch':
    case 'rye':
      return sub === 'run' ? afterOptions(argv, 2, VALUE_OPTS_UV) : null;
    case 'bundle':
      return sub === 'exec' ? afterOptions(argv, 2, new Set()) : null;
    case 'xargs':
      // xargs runs its command on the words it reads: `find … | xargs vim` starts vim.
      return afterOptions(argv, 1, VALUE_OPTS_XARGS);
    case 'cross-env': {
      let k = 1;
      while (k < argv.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[k]!)) k++;
      return argv.slice(k);
    }
    default:
      break;
  }
  if (PYTHON.test(name)) {
    for (let k = 1; k < argv.length; k++) {
      const a = argv[k]!;
      if (a === '-m') return argv.slice(k + 1);
      if (a === '-X' || a === '-W') k++;
      else if (!a.startsWith('-')) return baseName(a) === 'manage.py' ? argv.slice(k) : null;
      else if (a === '-c') return null;
    }
  }
  return null;
}

/** The words after a runner's own options, starting at index `from`. */
export function afterOptions(argv: string[], from: number, valueOpts: ReadonlySet<string>): string[] {
  let k = from;
  while (k < argv.length) {
    const a = argv[k]!;
    if (a === '--') return argv.slice(k + 1);
    if (!a.startsWith('-')) break;
    k += valueOpts.has(a) ? 2 : 1;
  }
  return argv.slice(k);
}

/** `vite@5` → `vite`, `@scope/pkg@1` → `@scope/pkg`, so versioned package names still match. */
export function withoutVersion(argv: string[]): string[] {
  const first = argv[0];
  if (first === undefined) return argv;
  const at = first.indexOf('@', 1);
  return at === -1 ? argv : [first.slice(0, at), ...argv.slice(1)];
}

// ---------------------------------------------------------------------------------------------
// Small argument helpers.

/** Arguments before a `--` end-of-options marker. */
export function optionPart(args: readonly string[]): readonly string[] {
  const end = args.indexOf('--');
  return end === -1 ? args : args.slice(0, end);
}

export function hasAny(args: readonly string[], flags: readonly string[]): boolean {
  return optionPart(args).some((a) => flags.includes(a));
}

/** True if a long option is present as `--name` or `--name=…` (but not `--name=false`). */
export function hasLong(args: readonly string[], name: string): boolean {
  return optionPart(args).some((a) => a === name || (a.startsWith(name + '=') && a.slice(name.length + 1) !== 'false'));
}

/** True if a single-dash cluster like `-fn` contains `letter` before any letter that takes a value. */
export function inCluster(args: readonly string[], letter: string, valueLetters = ''): boolean {
  for (const a of optionPart(args)) {
    if (a.length < 2 || a[0] !== '-' || a[1] === '-' || !/^-[A-Za-z0-9]+$/.test(a)) continue;
    for (const ch of a.slice(1)) {
      if (ch === letter) return true;
      if (valueLetters.includes(ch)) break;
    }
  }
  return false;
}

/** Positional words, skipping the values of the given options. */
export function positionals(args: readonly string[], valueOpts: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    if (a === '--') {
      out.push(...args.slice(k + 1));
      break;
    }
    if (a.startsWith('-') && a !== '-') {
      if (valueOpts.has(a)) k++;
      continue;
    }
    out.push(a);
  }
  return out;
}

/** Options of npm/pnpm/yarn/bun that take a value. */
export const NPM_VALUE_OPTS = new Set([
  '--prefix',
  '-w',
  '--workspace',
  '--scope',
  '--registry',
  '--userconfig',
  '--cache',
  '--loglevel',
  '--init-author-name',
  '--init-author-email',
  '--init-author-url',
  '--init-license',
  '--init-version',
  '--init-module',
  '--cwd',
  '--filter',
  '-F',
  '-C',
  '--dir',
]);

/** The first value that is set, in order of precedence. */
export function firstSet(values: Array<string | undefined>): string | undefined {
  return values.find((v) => v !== undefined && v.trim() !== '');
}

/** A value built on the first call and kept: rule tables that most hook processes never reach cost them nothing. */
export function once<T>(build: () => T): () => T {
  let value: T | undefined;
  let built = false;
  return () => {
    if (!built) (value = build()), (built = true);
    return value as T;
  };
}

/** The options that only print help or a version and exit. */
export const HELP = ['--help', '-h', '--version', '-V', '-v'];

/** Some option starts with one of the prefixes (`--output=x` for `--output`). */
export const startsAny = (opts: readonly string[], prefixes: readonly string[]): boolean =>
  opts.some((o) => prefixes.some((p) => o === p || (p.startsWith('--') && o.startsWith(p + '='))));
