// argv → options → run → exit code. Nothing else lives here.
import { homedir } from 'node:os';
import { parseArgs } from 'node:util';
import { VERSION } from './assets.ts';
import { lazyPrompter } from './scaffold/prompt/index.ts';
import { EXIT } from './exit-codes.ts';
import type { Options } from './scaffold/run.ts';

const HELP = `create-loop-guard v${VERSION}
Stop coding agents (Claude Code, Codex, Cursor, OpenCode) from running the same failing command again and again.

Usage: npx create-loop-guard [doctor | audit] [options]

Run it in a repository: it finds the agent tools you use, shows the changes as a diff, and writes them
after you confirm. Rerun to upgrade; use --check in CI to catch drift.

Options:
  -y, --yes            apply without asking (needed when there is no terminal, e.g. in CI)
      --dry-run        show what would change; write nothing
      --check          exit 1 if the repository differs from what would be written; never writes
      --remove         take out everything create-loop-guard added, leave the rest as it was
      --tools <list>   use these tools instead of detecting them: claude,codex,cursor,opencode
      --cwd <dir>      work on this directory (default: the current one; its git root is used)
      --no-git         with --cwd: accept a directory that is not in a git repository
      --force          replace hand-edited managed blocks, foreign files in our place, and your own
                       values for our environment keys
      --shell-profile  also add Cursor's agent environment to your shell profile in $HOME
      --json           print the plan and the result as JSON (never prompts)
  -h, --help           show this help
  -v, --version        print the version

Commands:
  doctor               check that the guard is installed, wired and working in this repo (read-only)
  audit                the loops in your agents' past sessions on this machine, what they cost, and what the
                       guard would have saved (read-only, local). Options: --all (every project), --since 30d,
                       --tool claude,codex,opencode,gemini,copilot, --limit 5, --json, --redact

Exit codes: 0 done or nothing to do · 1 drift, declined or conflicts · 2 usage error or unreadable file
`;

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        yes: { type: 'boolean', short: 'y' },
        'dry-run': { type: 'boolean' },
        check: { type: 'boolean' },
        remove: { type: 'boolean' },
        tools: { type: 'string' },
        cwd: { type: 'string' },
        'no-git': { type: 'boolean' },
        force: { type: 'boolean' },
        'shell-profile': { type: 'boolean' },
        json: { type: 'boolean' },
        all: { type: 'boolean' },
        since: { type: 'string' },
        tool: { type: 'string' },
        limit: { type: 'string' },
        redact: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (err) {
    process.stderr.write(`create-loop-guard: ${(err as Error).message}\nRun with --help for usage.\n`);
    return EXIT.error;
  }
  const v = parsed.values;
  if (v.help) {
    process.stdout.write(HELP);
    return EXIT.ok;
  }
  if (v.version) {
    process.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  const [command, ...rest] = parsed.positionals;
  const known = command === 'doctor' || command === 'audit';
  if (rest.length || (command !== undefined && !known)) {
    process.stderr.write(`create-loop-guard: unexpected argument ${JSON.stringify(known ? rest[0] : command)}. Run with --help for usage.\n`);
    return EXIT.error;
  }
  const auditOnly = (['all', 'since', 'tool', 'limit', 'redact'] as const).filter((k) => v[k] !== undefined);
  if (command !== 'audit' && auditOnly.length) {
    process.stderr.write(`create-loop-guard: --${auditOnly[0]} belongs to the audit command (npx create-loop-guard audit --${auditOnly[0]} …).\n`);
    return EXIT.error;
  }
  if (v.check && v.remove) {
    process.stderr.write('create-loop-guard: --check and --remove cannot be combined.\n');
    return EXIT.error;
  }
  const io = {
    cwd: process.cwd(),
    env: process.env,
    home: homedir(),
    stdinIsTTY: process.stdin.isTTY === true,
    stdoutIsTTY: process.stdout.isTTY === true,
    out: (s: string) => process.stdout.write(s),
    err: (s: string) => process.stderr.write(s),
    prompter: lazyPrompter,
  };
  if (command === 'audit') {
    const { audit } = await import('./audit/audit.ts');
    const a = { all: v.all === true, json: v.json === true, redact: v.redact === true, ...(v.cwd ? { cwd: v.cwd } : {}) };
    return audit({ ...a, ...(v.since !== undefined ? { since: v.since } : {}), ...(v.tool !== undefined ? { tool: v.tool } : {}), ...(v.limit !== undefined ? { limit: v.limit } : {}) }, io);
  }
  if (command === 'doctor') {
    const { doctor } = await import('./doctor/index.ts');
    return doctor({ json: v.json === true, ...(v.cwd ? { cwd: v.cwd } : {}) }, io);
  }
  const opts: Options = {
    mode: v.check ? 'check' : v.remove ? 'remove' : 'apply',
    yes: v.yes === true,
    dryRun: v['dry-run'] === true,
    force: v.force === true,
    json: v.json === true,
    shellProfile: v['shell-profile'] === true,
    ...(v.cwd !== undefined ? { cwd: v.cwd } : {}),
    ...(v['no-git'] ? { noGit: true } : {}),
    ...(v.tools !== undefined ? { tools: v.tools } : {}),
  };
  const { run } = await import('./scaffold/run.ts');
  return run(opts, io);
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
