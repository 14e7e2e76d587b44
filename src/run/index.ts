// `npx create-loop-guard run`: the options, the recovery table (or the defaults), the price list, then the climb.
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { PriceFileError } from '../audit/prices.ts';
import { gitRootOf } from '../guard/git-root.ts';
import { parseRunArgs, RUN_HELP } from './args.ts';
import { RUN_AGENTS } from './agents.ts';
import { makePricer } from './budget.ts';
import { climb, EXIT_RUN, type RunIO } from './ladder.ts';
import { DEFAULT_POLICY, defaultTableText, parsePolicy, type Policy, TABLE_PATH, TableError } from './policy.ts';

/** The repository's recovery table, or the defaults when it has none. */
export function loadPolicy(root: string): Policy {
  const file = join(root, TABLE_PATH);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return DEFAULT_POLICY;
    throw new TableError(
      TABLE_PATH,
      1,
      1,
      `cannot be read (${(err as Error).message}).`,
      'Make it a readable file, or delete it to use the defaults.',
    );
  }
  return parsePolicy(TABLE_PATH, text, RUN_AGENTS);
}

export async function runCommand(argv: readonly string[], io: RunIO & { cwd: string }): Promise<number> {
  const parsed = parseRunArgs(argv, io.env, io.cwd);
  if ('help' in parsed) {
    io.out(RUN_HELP);
    return EXIT_RUN.passed;
  }
  if ('printTable' in parsed) {
    io.out(defaultTableText(RUN_AGENTS));
    return EXIT_RUN.passed;
  }
  if ('error' in parsed) {
    io.err(`create-loop-guard run: ${parsed.error} Run \`npx create-loop-guard run --help\` for usage.\n`);
    return EXIT_RUN.usage;
  }
  const opts = parsed.options;
  const dir = opts.cwd ? (isAbsolute(opts.cwd) ? opts.cwd : resolve(io.cwd, opts.cwd)) : io.cwd;
  try {
    if (!statSync(dir).isDirectory()) throw new Error('not a directory');
  } catch {
    io.err(`create-loop-guard run: --cwd ${opts.cwd}: not a directory.\n`);
    return EXIT_RUN.usage;
  }
  const root = gitRootOf(dir) ?? dir;
  let policy: Policy;
  let price: Awaited<ReturnType<typeof makePricer>>;
  const pricesFile = opts.prices === undefined ? undefined : resolve(io.cwd, opts.prices);
  try {
    policy = loadPolicy(root);
    price = await makePricer(pricesFile);
  } catch (err) {
    if (err instanceof TableError || err instanceof PriceFileError) {
      io.err(`create-loop-guard run: ${err.message}\n`);
      return EXIT_RUN.usage;
    }
    // The price file missing or unreadable (a directory, no permission): said as audit says it, not a stack trace.
    const code = (err as NodeJS.ErrnoException).code;
    if (pricesFile !== undefined && typeof code === 'string') {
      io.err(`create-loop-guard run: --prices ${pricesFile}: cannot read it (${code}).\n`);
      return EXIT_RUN.usage;
    }
    throw err;
  }
  return climb(opts, policy, price, root, io);
}
