// `create-loop-guard run …` argv → the run's options, or a usage error naming the fix. Nothing is run here.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { didYouMean } from '../report/suggest.ts';
import { agentRecord, RUN_AGENTS, type RunAgentName } from './agents.ts';
import { BUDGET_ENV, parseBudget } from './budget.ts';

export interface RunOptions {
  agent: RunAgentName;
  task: string;
  verify: string;
  budgetUsd: number | null;
  /** Each rung's wall-clock limit for its agent, in seconds; null: none (`--rung-timeout 0`). */
  rungTimeoutS: number | null;
  /** The verifier's wall-clock limit, in seconds; null: none (`--verify-timeout 0`). */
  verifyTimeoutS: number | null;
  step?: string;
  json: boolean;
  prices?: string;
  cwd?: string;
  /** The user's own agent flags, after `--`. */
  extra: string[];
}

/**
 * A budget for a tool whose output carries no token usage is refused, not warned about: an unattended run would
 * believe it capped while nothing could stop the agent at its share.
 */
function budgetCannotHold(agent: RunAgentName, fromEnv: boolean): string | null {
  const rec = agentRecord(agent);
  if (rec.reportsTokens) return null;
  const given = fromEnv ? BUDGET_ENV : '--budget';
  return (
    `${given}: ${rec.label}'s JSON output carries no token usage, so run cannot price its requests and a budget ` +
    `cannot hold. Run it without a budget (${fromEnv ? `unset ${BUDGET_ENV}` : 'drop --budget'}), and bound it ` +
    'with --rung-timeout instead.'
  );
}

/** An unattended run's default limit per rung: far above a healthy rung, low enough that a hung one is noticed. */
export const DEFAULT_RUNG_TIMEOUT_S = 1800;
/** The verifier's default limit: a test suite's run, not an agent's; four of them stay far inside a CI job's hours. */
export const DEFAULT_VERIFY_TIMEOUT_S = 600;

/** A limit in seconds (a decimal is fine), 0 for none; a string is the usage error. */
function parseSeconds(flag: string, text: string | undefined, fallback: number): number | null | string {
  if (text === undefined) return fallback;
  if (!/^\d+(\.\d+)?$/.test(text.trim()))
    return `${flag} ${text}: not a number of seconds. Write e.g. ${flag} ${fallback}, or 0 for no limit.`;
  const s = Number(text);
  return s === 0 ? null : s;
}

/** `--rung-timeout`: seconds, 0 for no limit; a string is the usage error. */
export function parseRungTimeout(text: string | undefined): number | null | string {
  return parseSeconds('--rung-timeout', text, DEFAULT_RUNG_TIMEOUT_S);
}

export const RUN_HELP = `Usage: npx create-loop-guard run --agent <tool> --task <text | @file> --verify "<command>" [options] [-- <agent flags>]

Runs a coding agent headless on the task, then the verifier; exit 0 when the verifier passes. On a failure it
classifies the verifier's output (and the agent's own end: its budget, an auth error, the loop guard's hand-off):
a failure no retry can fix (401/403, connection refused, a missing program, an exhausted budget) halts at once;
any other climbs the recovery ladder, one rung per failure, each changing a condition:
  rung 0  attempt            the task as given                                      share 0.25
  rung 1  retry with reason  the verifier's objection as the instruction            share 0.15
  rung 2  fresh context      a new session + the state file of approaches rejected  share 0.25
  rung 3  smallest step      the smallest change, on the smaller model, few turns   share 0.35
  rung 4  hand off           ESCALATED<TAB>step<TAB>reason in .agents/run/escalated.tsv, exit 4
The table is .agents/recovery.txt when the repository has one (the defaults above otherwise).

Options:
      --agent <tool>     ${RUN_AGENTS.join(', ')}
      --task <text>      the task, or @path to read it from a file
      --verify <cmd>     the shell command that decides (exit 0 = done)
      --budget <USD>     the run's budget, split by the rungs' shares (or ${BUDGET_ENV}); refused with
                         --agent copilot (exit 2): its JSON carries no token usage, so bound it with --rung-timeout
      --rung-timeout <s> end a rung's agent (its whole process group) after this many seconds; the rung counts as
                         failed and the run climbs (default ${DEFAULT_RUNG_TIMEOUT_S}, 30 minutes; 0: no limit)
      --verify-timeout <s>
                         end the verifier (its whole process group) after this many seconds; the rung counts
                         as failed and the run climbs (default ${DEFAULT_VERIFY_TIMEOUT_S}, 10 minutes; 0: no limit)
      --step <name>      the step's name: its failures are counted across runs (default: from task and verifier)
      --prices <file>    your own price list (the shape of \`audit --prices\`), tried before the built-in one
      --cwd <dir>        the repository to work in (default: the current directory)
      --json             one JSON line per rung on stdout (the text lines stay on stderr)
      --print-table      print the default recovery table, documented, and exit: the file to start your own from
                         (npx create-loop-guard run --print-table > .agents/recovery.txt)
  -h, --help             show this help
  -- <flags>            passed to the agent as they are (permissions, sandbox, provider flags)

Each rung prints one line on stderr. State lives in .agents/run/<step>/ (ignored by git): a second run of the
same step continues the climb, a passing verifier clears it. The agent runs with LOOP_GUARD_RUN_ID set, so the
guard counts repeats across the rungs' sessions.

Exit codes: 0 the verifier passed · 2 usage error or a broken recovery table · 4 halted or handed off
`;

const OPTIONS = {
  agent: { type: 'string' },
  task: { type: 'string' },
  verify: { type: 'string' },
  budget: { type: 'string' },
  'rung-timeout': { type: 'string' },
  'verify-timeout': { type: 'string' },
  step: { type: 'string' },
  prices: { type: 'string' },
  cwd: { type: 'string' },
  json: { type: 'boolean' },
  'print-table': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export type Parsed = { help: true } | { printTable: true } | { error: string } | { options: RunOptions };

export function parseRunArgs(argv: readonly string[], env: Record<string, string | undefined>, cwd: string): Parsed {
  const dash = argv.indexOf('--');
  const own = dash === -1 ? [...argv] : argv.slice(0, dash);
  const extra = dash === -1 ? [] : argv.slice(dash + 1);
  let v: Record<string, string | boolean | undefined>;
  try {
    const p = parseArgs({ args: own, options: OPTIONS, strict: true, allowPositionals: false });
    v = p.values;
  } catch (err) {
    const m = /'(--?[\w-]+)'/.exec(String((err as Error).message));
    const name = m?.[1]?.replace(/^-+/, '') ?? '';
    const known = name in OPTIONS;
    return {
      error: known
        ? `--${name} needs a value.`
        : m
          ? `unknown option ${m[1]}.${didYouMean(name, Object.keys(OPTIONS), '--')} Agent flags go after --.`
          : `${(err as Error).message.split('\n')[0]} Agent flags go after --.`,
    };
  }
  if (v.help) return { help: true };
  if (v['print-table']) return { printTable: true };
  const agent = v.agent as string | undefined;
  if (!agent) return { error: `run needs --agent (${RUN_AGENTS.join(', ')}).` };
  if (!(RUN_AGENTS as string[]).includes(agent))
    return {
      error: `--agent ${agent}: not a tool run can drive.${didYouMean(agent, RUN_AGENTS)} Tools: ${RUN_AGENTS.join(', ')}.`,
    };
  let task = v.task as string | undefined;
  if (!task?.trim()) return { error: 'run needs --task "<what to do>" (or --task @file).' };
  if (task.startsWith('@')) {
    const file = resolve(v.cwd ? resolve(cwd, String(v.cwd)) : cwd, task.slice(1));
    try {
      task = readFileSync(file, 'utf8');
    } catch {
      return { error: `--task ${task}: cannot read ${file}.` };
    }
    if (!task.trim()) return { error: `--task ${v.task}: the file is empty.` };
  }
  const verify = v.verify as string | undefined;
  if (!verify?.trim()) return { error: 'run needs --verify "<command>" (exit 0 means the task is done).' };
  const budget = parseBudget((v.budget as string | undefined) ?? env[BUDGET_ENV]);
  if (typeof budget === 'object')
    return { error: v.budget === undefined ? `${BUDGET_ENV}: ${budget.error}` : budget.error };
  const unmetered = budget === undefined ? null : budgetCannotHold(agent as RunAgentName, v.budget === undefined);
  if (unmetered) return { error: unmetered };
  const rungTimeoutS = parseRungTimeout(v['rung-timeout'] as string | undefined);
  if (typeof rungTimeoutS === 'string') return { error: rungTimeoutS };
  const verifyTimeoutS = parseSeconds(
    '--verify-timeout',
    v['verify-timeout'] as string | undefined,
    DEFAULT_VERIFY_TIMEOUT_S,
  );
  if (typeof verifyTimeoutS === 'string') return { error: verifyTimeoutS };
  return {
    options: {
      agent: agent as RunAgentName,
      task,
      verify,
      budgetUsd: budget ?? null,
      rungTimeoutS,
      verifyTimeoutS,
      json: v.json === true,
      extra,
      ...(v.step !== undefined ? { step: String(v.step) } : {}),
      ...(v.prices !== undefined ? { prices: String(v.prices) } : {}),
      ...(v.cwd !== undefined ? { cwd: String(v.cwd) } : {}),
    },
  };
}
