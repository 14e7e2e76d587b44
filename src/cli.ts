// argv → options → run → exit code. Nothing else lives here.
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { VERSION } from './assets.ts';
import { lazyPrompter } from './scaffold/prompt/index.ts';
import { EXIT } from './exit-codes.ts';
import type { Options } from './scaffold/run.ts';
import { didYouMean } from './report/suggest.ts';
import { pipeSafeWriter } from './report/write.ts';
import { AUDIT_TOOLS } from './audit/discover.ts';
import { parseToolArg, toolListError } from './scaffold/tool-list.ts';
import { TOOL_NAMES, TOOLS, type ToolName } from './tools/index.ts';

/** Words filled into lines of at most `width` characters (the first starts at column `indent.length`, or at 0 when
 *  `hang` is false), each line after the first indented by `indent`. */
function fill(text: string, width: number, indent: string, hang = false): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const used = line.length + (lines.length === 0 && hang ? indent.length : 0);
    if (line && used + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}

const PAD = ' '.repeat(23);
const HELP =
  `create-loop-guard v${VERSION}
` +
  `${fill(`Stop coding agents (${TOOL_NAMES.map((t) => TOOLS[t].label).join(', ')}) from running the same failing command again and again.`, 104, '')}` +
  `

Usage: npx create-loop-guard [doctor | audit | run | help] [options]

Run it in a repository: it finds ` +
  `the agent tools you use, shows a short plan of the changes, and writes
them after you confirm. ` +
  `Rerun to upgrade; use --check in CI to catch drift.

Options:
  -y, --yes            apply without ` +
  `asking (needed when there is no terminal, e.g. in CI)
      --dry-run        show what would ` +
  `change; write nothing
      --check          in CI: exit 1 on drift (our files or entries edited, ` +
  `removed or missing, or a tool
                       in the repo not set up); set up by another ` +
  `version and untouched is only a notice
      --strict         with --check: also exit 1 when it was ` +
  `set up by another version; with doctor:
                       also exit 1 when steps are left on ` +
  `this machine
      --remove         take out everything create-loop-guard added, leave the rest as ` +
  `it was
      --tools <list>   use these tools instead of detecting them (or all):
                  ` +
  `     ${TOOL_NAMES.join(',')}
                       (with doctor: check only these; with audit: ` +
  `read only their transcripts)
      --cwd <dir>      work on this directory (default: the current ` +
  `one; its git root is used)
      --no-git         with --cwd: accept a directory that is not in a ` +
  `git repository
      --force          replace hand-edited managed blocks, foreign files in our ` +
  `place, and your own
                       values for our environment keys
      --shell-profile  ` +
  `also add Cursor's agent environment to your shell profile in $HOME
      --no-biome-edit  leave biome.json alone (print the entries to add); ` +
  `--biome-edit undoes it
      --json           print the ` +
  `plan and the result as JSON (never prompts)
      --diff           show every line of every change, ` +
  `not the short plan (alias --verbose); with
                       --check: the diff of each drift
  ` +
  `-h, --help           show this help
  -v, --version        print the version

Commands:
  doctor    ` +
  `           ` +
  `${fill('check that the guard is installed, wired and working in this repo (read-only); exit 1 when something is broken, 0 when only steps on this machine are left. Options: --tools, --json, --strict (1 while a step is left)', 104, PAD, true)}` +
  `
  audit                ` +
  `${fill(`the loops in your agents' past sessions on this machine, what they cost, and what the guard would have saved (read-only, local). Options: --all (every project), --since 30d, --tools ${AUDIT_TOOLS.join(',')}, --limit 5, --json, --redact, --html [FILE] (a page to look at and share), --prices FILE (your own price list)`, 104, PAD, true)}` +
  `
  run                  ` +
  `${fill('run an agent headless on a task until a verifier passes, climbing a recovery ladder on failures (retry with the reason, fresh context, smallest step on a smaller model, hand off) with a budget per rung; exit 4 when it halts or hands off. See run --help', 104, PAD, true)}` +
  `

Exit codes: 0 done or nothing to do · 1 drift, declined or conflicts · 2 usage error or ` +
  `unreadable file · 4 run halted or handed off
`;

const OPTIONS = {
  yes: { type: 'boolean', short: 'y' },
  'dry-run': { type: 'boolean' },
  check: { type: 'boolean' },
  strict: { type: 'boolean' },
  remove: { type: 'boolean' },
  tools: { type: 'string' },
  cwd: { type: 'string' },
  'no-git': { type: 'boolean' },
  'biome-edit': { type: 'boolean' },
  'no-biome-edit': { type: 'boolean' },
  force: { type: 'boolean' },
  'shell-profile': { type: 'boolean' },
  json: { type: 'boolean' },
  diff: { type: 'boolean' },
  verbose: { type: 'boolean' },
  all: { type: 'boolean' },
  since: { type: 'string' },
  /** audit's older spelling of --tools. */
  tool: { type: 'string' },
  limit: { type: 'string' },
  redact: { type: 'boolean' },
  html: { type: 'string' },
  prices: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

/** `--html` takes an optional file: alone (or before another option) it is `--html=` (the default file). */
function htmlValue(argv: readonly string[]): string[] {
  return argv.map((tok, i) =>
    tok === '--html' && (argv[i + 1] === undefined || argv[i + 1]?.startsWith('-')) ? '--html=' : tok,
  );
}

/** Our own wording for what parseArgs rejects (its text quotes oddly and names no alternative). */
function argError(argv: readonly string[]): string {
  const longs = Object.keys(OPTIONS);
  const shorts = Object.entries(OPTIONS).flatMap(([name, o]) => ('short' in o ? [[o.short, name] as const] : []));
  for (const tok of argv) {
    if (tok === '--') break;
    if (tok.startsWith('--')) {
      const name = tok.slice(2).split('=')[0] ?? '';
      const spec = (OPTIONS as Record<string, { type: string }>)[name];
      if (!spec) return `unknown option --${name}.${didYouMean(name, longs, '--')}`;
      if (
        spec.type === 'string' &&
        !tok.includes('=') &&
        (argv[argv.indexOf(tok) + 1] === undefined || argv[argv.indexOf(tok) + 1]!.startsWith('-'))
      )
        return `--${name} needs a value (e.g. --${name} ${name === 'cwd' ? 'path/to/repo' : name === 'tools' ? 'claude,codex' : '…'}).`;
      if (spec.type === 'boolean' && tok.includes('=')) return `--${name} takes no value.`;
    } else if (/^-[^-]/.test(tok)) {
      for (const ch of tok.slice(1))
        if (!shorts.some(([s]) => s === ch))
          return `unknown option -${ch}.${didYouMean(
            ch,
            shorts.map(([s]) => s),
            '-',
          )}`;
    }
  }
  return 'could not read the arguments.';
}

/** `exists`: true when anything is at `path`; otherwise true only for a directory. */
function isDirectory(path: string, exists = false): boolean {
  try {
    const st = statSync(path);
    return exists || st.isDirectory();
  } catch {
    return false;
  }
}

/** A usage error found before any command runs: on stderr, and under --json also as the report's one message. */
function usageError(argv: readonly string[], text: string): number {
  process.stderr.write(`create-loop-guard: ${text}\n`);
  if (argv.includes('--json')) {
    const report = {
      version: VERSION,
      result: 'usage-error',
      exitCode: EXIT.error,
      messages: [{ level: 'error', code: 'usage', text }],
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  }
  return EXIT.error;
}

async function runSubcommand(args: string[]): Promise<number> {
  const { runCommand } = await import('./run/index.ts');
  const io = { out: pipeSafeWriter(process.stdout), err: pipeSafeWriter(process.stderr) };
  return runCommand(args, { cwd: process.cwd(), env: process.env, ...io });
}

/** The terminal's width and height when stdout is one, for the preview to fit. */
function terminalSize(): { columns?: number; rows?: number } {
  const { isTTY, columns, rows } = process.stdout;
  return isTTY ? { ...(columns ? { columns } : {}), ...(rows ? { rows } : {}) } : {};
}

type ParsedArgs = ReturnType<
  typeof parseArgs<{ args: string[]; allowPositionals: true; strict: true; options: typeof OPTIONS }>
>;

export async function main(argv: string[]): Promise<number> {
  // `run` has options of its own (and the agent's after --): it reads its argv itself.
  if (argv[0] === 'run') return runSubcommand(argv.slice(1));
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs({
      args: htmlValue(argv),
      allowPositionals: true,
      strict: true,
      options: OPTIONS,
    });
  } catch {
    return usageError(argv, `${argError(argv)} Run with --help for usage.`);
  }
  const v = parsed.values;
  const [command, ...rest] = parsed.positionals;
  if (v.help) {
    process.stdout.write(HELP);
    return EXIT.ok;
  }
  if (v.version) {
    process.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  if (command === 'help') {
    process.stdout.write(HELP);
    return EXIT.ok;
  }
  const misuse = misuseOf(argv, v, command, rest);
  if (misuse !== undefined) return misuse;
  // audit and doctor read --tools here; the installer reads it with the plan (it also names the tools it found).
  const toolsArg = v.tools ?? v.tool;
  let only: ToolName[] | undefined;
  if ((command === 'audit' || command === 'doctor') && toolsArg !== undefined) {
    const r = parseToolArg(toolsArg);
    if (r.unknown.length || !r.tools.length) return usageError(argv, toolListError(toolsArg, r));
    // `all` for audit is every tool it has a reader for.
    only =
      command === 'audit' && toolsArg.split(',').some((t) => t.trim().toLowerCase() === 'all') ? undefined : r.tools;
  }
  if (v.check && v.remove) {
    process.stderr.write('create-loop-guard: --check and --remove cannot be combined.\n');
    return EXIT.error;
  }
  return dispatch(command, v, only);
}

/** The exit code of a combination of words and options that does not go together (with its message said), or
 * undefined. */
function misuseOf(argv: string[], v: Values, command: string | undefined, rest: string[]): number | undefined {
  const known = command === 'doctor' || command === 'audit';
  if (rest.length || (command !== undefined && !known)) {
    const word = (known ? rest[0] : command) ?? '';
    process.stderr.write(
      `create-loop-guard: unexpected argument ${JSON.stringify(word)}.` +
        `${known ? '' : didYouMean(word, ['doctor', 'audit', 'help'])} Run with --help for usage.\n`,
    );
    return EXIT.error;
  }
  const auditOnly = (['all', 'since', 'tool', 'limit', 'redact', 'html', 'prices'] as const).filter(
    (k) => v[k] !== undefined,
  );
  if (command !== 'audit' && auditOnly.length) {
    process.stderr.write(
      `create-loop-guard: --${auditOnly[0]} belongs to the audit command (npx create-loop-guard audit --${auditOnly[0]} …).\n`,
    );
    return EXIT.error;
  }
  if (v.strict && !v.check && command !== 'doctor') {
    process.stderr.write(
      'create-loop-guard: --strict goes with --check or doctor (npx create-loop-guard --check --strict).\n',
    );
    return EXIT.error;
  }
  // audit's --cwd names a project in the transcripts, which need not exist here any more.
  if (command !== 'audit' && v.cwd !== undefined && !isDirectory(resolve(v.cwd))) {
    return usageError(
      argv,
      `--cwd ${v.cwd}: ${isDirectory(resolve(v.cwd), true) ? 'not a directory' : 'the directory does not exist'}.`,
    );
  }
  return undefined;
}

/** Runs the command (audit, doctor, or the installer) with this process's terminal as its io. */
async function dispatch(command: string | undefined, v: Values, only: ToolName[] | undefined): Promise<number> {
  const io = {
    cwd: process.cwd(),
    env: process.env,
    home: homedir(),
    stdinIsTTY: process.stdin.isTTY === true,
    stdoutIsTTY: process.stdout.isTTY === true,
    ...terminalSize(),
    stderrIsTTY: process.stderr.isTTY === true,
    out: pipeSafeWriter(process.stdout),
    err: pipeSafeWriter(process.stderr),
    prompter: lazyPrompter,
  };
  if (command === 'audit') {
    const { audit } = await import('./audit/audit.ts');
    return audit(
      {
        all: v.all === true,
        json: v.json === true,
        redact: v.redact === true,
        ...(v.cwd ? { cwd: v.cwd } : {}),
        ...(v.since !== undefined ? { since: v.since } : {}),
        ...(only ? { tools: only } : {}),
        ...(v.limit !== undefined ? { limit: v.limit } : {}),
        ...(v.html !== undefined ? { html: v.html } : {}),
        ...(v.prices !== undefined ? { prices: v.prices } : {}),
      },
      io,
    );
  }
  if (command === 'doctor') {
    const { doctor } = await import('./doctor/index.ts');
    return doctor(
      {
        json: v.json === true,
        strict: v.strict === true,
        ...(v.cwd ? { cwd: v.cwd } : {}),
        ...(only ? { tools: only } : {}),
      },
      io,
    );
  }
  const { run } = await import('./scaffold/run.ts');
  return run(installOptions(v), io);
}

// A reader that closes early (`--dry-run | head -1`) is not an error: the rest of the output is dropped, and the run
// (which may be mid-apply) still finishes.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`create-loop-guard: unexpected error: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exitCode = EXIT.error;
  },
);

/** The flags as parseArgs gives them. */
type Values = ReturnType<
  typeof parseArgs<{ args: string[]; allowPositionals: true; strict: true; options: typeof OPTIONS }>
>['values'];

/** The install run's options from the parsed flags. */
function installOptions(v: Values): Options {
  return {
    mode: v.check ? 'check' : v.remove ? 'remove' : 'apply',
    yes: v.yes === true,
    dryRun: v['dry-run'] === true,
    force: v.force === true,
    json: v.json === true,
    shellProfile: v['shell-profile'] === true,
    strict: v.strict === true,
    diff: v.diff === true || v.verbose === true,
    ...(v.cwd !== undefined ? { cwd: v.cwd } : {}),
    ...(v['no-git'] ? { noGit: true } : {}),
    ...(v.tools !== undefined ? { tools: v.tools } : {}),
    ...(v['no-biome-edit'] ? { biomeEdit: false } : v['biome-edit'] ? { biomeEdit: true } : {}),
  };
}
