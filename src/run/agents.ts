// How `run` drives each agent headless: its program, the flags of one unattended run, its model option, its own caps
// (turns, dollars) and the shape of its structured output. Data per tool; docs/run.md cites the source of each.
import type { SessionFileFormat } from './session-meter.ts';
import { clineConfiguredModel, keepClineModel } from './cline-model.ts';
import type { StreamFormat } from './streams.ts';

export interface RunArgs {
  prompt: string;
  /** The model to run (rung 3's smaller model); undefined = the tool's own default. */
  model?: string | undefined;
  /** The rung's turn cap, where the tool has one. */
  turns?: number | null | undefined;
  /** The rung's share of the budget in dollars, where the tool can cap itself. */
  budgetUsd?: number | null | undefined;
  /** Continue this session (rung 1, retry with the reason); undefined = a fresh session. */
  resume?: string | undefined;
  /** The id to give a fresh session, for tools that take one (Claude Code's --session-id). */
  sessionId?: string | undefined;
  /** The user's own flags after `--` (permissions, sandbox, provider): passed through untouched. */
  extra: readonly string[];
}

export interface AgentRecord {
  label: string;
  /** The program on PATH. */
  bin: string;
  args(a: RunArgs): string[];
  stream: StreamFormat;
  /** True when a fresh session's id is ours to choose (so rung 1 can resume it even if the stream never names it). */
  choosesSessionId: boolean;
  /** True when `resume` is honoured headless; otherwise rung 1 runs a fresh session with the reason in its prompt. */
  resumes: boolean;
  /** True when the tool stops itself at a dollar cap (then our own meter is only the backup). */
  capsDollars: boolean;
  /** True when the tool stops itself after `turns` turns. */
  capsTurns: boolean;
  /** True when the tool has a model option at all (else rung 3 keeps the tool's model and says so). */
  hasModel: boolean;
  /** False when its structured output carries no token usage: its money is unknown, so a budget cannot hold. */
  reportsTokens: boolean;
  /** Where the model is named when it is set outside the argv (for pricing a stream that never names it). */
  modelEnv?: string;
  /** The session file the tool appends a record to per model request, read while it runs (session-meter.ts). */
  sessionFile?: SessionFileFormat;
  /** The model the tool's own settings file names, read before a rung when neither the argv nor the env does. */
  configuredModel?: (
    env: Record<string, string | undefined>,
    extra: readonly string[],
    cwd: string,
  ) => string | undefined;
  /**
   * The tool saves a model passed in the argv as its default: before a rung where `run` passes one, this returns what
   * puts the user's default back after the rung.
   */
  keepsModel?: (
    env: Record<string, string | undefined>,
    extra: readonly string[],
    cwd: string,
    passed: string,
  ) => (() => void) | undefined;
}

const opt = (flag: string, v: string | number | null | undefined): string[] =>
  v === undefined || v === null || v === '' ? [] : [flag, String(v)];

/** OpenCode's record; Kilo, its fork, differs only in name. */
const opencodeLike = {
  label: 'OpenCode',
  bin: 'opencode',
  args: (a) => [
    'run',
    '--format',
    'json',
    ...opt('--model', a.model),
    ...opt('--session', a.resume),
    ...a.extra,
    a.prompt,
  ],
  stream: 'opencode-events',
  choosesSessionId: false,
  resumes: true,
  capsDollars: false,
  capsTurns: false,
  hasModel: true,
  reportsTokens: true,
} as const satisfies AgentRecord;

export const AGENTS = {
  claude: {
    label: 'Claude Code',
    bin: 'claude',
    // -p prints and exits; stream-json needs --verbose; the caps are Claude Code's own (--max-turns, --max-budget-usd).
    args: (a) => [
      '-p',
      a.prompt,
      '--output-format',
      'stream-json',
      '--verbose',
      ...opt('--model', a.model),
      ...opt('--max-turns', a.turns),
      ...opt('--max-budget-usd', a.budgetUsd === null || a.budgetUsd === undefined ? null : a.budgetUsd.toFixed(6)),
      ...(a.resume ? ['--resume', a.resume] : opt('--session-id', a.sessionId)),
      ...a.extra,
    ],
    stream: 'claude-stream',
    choosesSessionId: true,
    resumes: true,
    capsDollars: true,
    capsTurns: true,
    hasModel: true,
    reportsTokens: true,
  },
  codex: {
    label: 'Codex',
    bin: 'codex',
    // `exec resume <id> <prompt>` continues a thread; options go after the subcommand words, the prompt last.
    args: (a) =>
      a.resume
        ? ['exec', 'resume', '--json', ...a.extra, a.resume, a.prompt]
        : ['exec', '--json', ...opt('--model', a.model), ...a.extra, a.prompt],
    stream: 'codex-events',
    sessionFile: 'codex-rollout',
    choosesSessionId: false,
    resumes: true,
    capsDollars: false,
    capsTurns: false,
    hasModel: true,
    reportsTokens: true,
  },
  opencode: opencodeLike,
  // Kilo is an OpenCode fork: the same `run` subcommand and JSON events.
  kilo: { ...opencodeLike, label: 'Kilo', bin: 'kilo' },
  gemini: {
    label: 'Gemini CLI',
    bin: 'gemini',
    // --resume takes "latest" or an index, not an id: rung 1 runs fresh with the reason instead.
    args: (a) => ['-p', a.prompt, '-o', 'stream-json', ...opt('-m', a.model), ...a.extra],
    stream: 'gemini-stream',
    sessionFile: 'gemini-chat',
    choosesSessionId: false,
    resumes: false,
    capsDollars: false,
    capsTurns: false,
    hasModel: true,
    reportsTokens: true,
  },
  qwen: {
    label: 'Qwen Code',
    bin: 'qwen',
    args: (a) => [
      '-p',
      a.prompt,
      '-o',
      'stream-json',
      ...opt('-m', a.model),
      ...opt('--max-session-turns', a.turns),
      ...opt('--resume', a.resume),
      ...a.extra,
    ],
    stream: 'claude-stream',
    choosesSessionId: false,
    resumes: true,
    capsDollars: false,
    capsTurns: true,
    hasModel: true,
    reportsTokens: true,
    modelEnv: 'OPENAI_MODEL',
  },
  copilot: {
    label: 'Copilot CLI',
    bin: 'copilot',
    args: (a) => [
      '-p',
      a.prompt,
      '--output-format',
      'json',
      ...opt('--model', a.model),
      ...(a.resume ? [`--resume=${a.resume}`] : []),
      ...a.extra,
    ],
    stream: 'copilot-json',
    choosesSessionId: false,
    resumes: true,
    capsDollars: false,
    capsTurns: false,
    hasModel: true,
    // 1.0.102's JSON writer drops `assistant.usage`; its `result` has premium requests only (streams.ts).
    reportsTokens: false,
    modelEnv: 'COPILOT_MODEL',
  },
  cline: {
    label: 'Cline',
    bin: 'cline',
    // A resume (--id) is not headless in Cline 3.0: it switches to interactive mode, so rung 1 runs fresh.
    args: (a) => ['--json', ...opt('-m', a.model), ...a.extra, a.prompt],
    stream: 'cline-json',
    choosesSessionId: false,
    resumes: false,
    capsDollars: false,
    capsTurns: false,
    hasModel: true,
    reportsTokens: true,
    // Its events name the model only at the end: the one `cline auth -m` (or a run's -m) left on disk prices them.
    configuredModel: clineConfiguredModel,
    // Cline saves a run's -m as the provider's model: rung 3's smaller model must not become the user's default.
    keepsModel: keepClineModel,
  },
} as const satisfies Record<string, AgentRecord>;

export type RunAgentName = keyof typeof AGENTS;
export const RUN_AGENTS = Object.keys(AGENTS) as RunAgentName[];

/** One tool's record, seen through the common shape (optional fields and all). */
export function agentRecord(name: RunAgentName): AgentRecord {
  return AGENTS[name];
}

/** The model options the tools share (`--model X`, `-m X`, `--model=X`) and Codex's `-c model=X` override. */
const MODEL_FLAG = /^(?:--model|-m)$/;
const MODEL_INLINE = /^--model=(.+)$/;
const MODEL_CONFIG = /^model=["']?([^"']+)["']?$/;

/** The model the user chose in their own flags after `--`, if any (it names the model for pricing). */
export function userModel(extra: readonly string[]): string | undefined {
  for (let i = 0; i < extra.length; i++) {
    const a = extra[i] as string;
    if (MODEL_FLAG.test(a)) return extra[i + 1];
    const inline = MODEL_INLINE.exec(a);
    if (inline) return inline[1];
    if ((a === '-c' || a === '--config') && MODEL_CONFIG.test(extra[i + 1] ?? ''))
      return MODEL_CONFIG.exec(extra[i + 1] ?? '')?.[1];
  }
  return undefined;
}

/** The user's flags without their model choice: the smallest-step rung's smaller model replaces it. */
export function withoutModel(extra: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < extra.length; i++) {
    const a = extra[i] as string;
    if (MODEL_FLAG.test(a)) i++;
    else if ((a === '-c' || a === '--config') && MODEL_CONFIG.test(extra[i + 1] ?? '')) i++;
    else if (!MODEL_INLINE.test(a)) out.push(a);
  }
  return out;
}
