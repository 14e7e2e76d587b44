// Runners for the real agent CLIs: each run is headless, offline (model = our mock on 127.0.0.1),
// isolated (temp HOME and config dirs, an explicit env that inherits only PATH) and bounded (hard
// timeout that kills the whole process group).
import { randomUUID } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { repoRoot } from '../../helpers/paths.ts';
import { type ProcResult, runProcess } from '../../helpers/process.ts';
import { promptFor, startMockServer, type MockModelServer } from '../mock-server.ts';
import { runMoreAgent } from './more.ts';

/** The first three, which the product wires today (scenarios.test.ts). */
export type FirstAgentName = 'claude' | 'codex' | 'opencode';
export const AGENT_NAMES: FirstAgentName[] = ['claude', 'codex', 'opencode'];
/** The five of issue 15 (runners in more-agents.ts), in order of reach. */
export type MoreAgentName = 'gemini' | 'copilot' | 'qwen' | 'cline' | 'kilo';
export const MORE_AGENT_NAMES: MoreAgentName[] = ['gemini', 'copilot', 'qwen', 'cline', 'kilo'];
export type AgentName = FirstAgentName | MoreAgentName;

export { repoRoot } from '../../helpers/paths.ts';
export { type ProcResult, runProcess } from '../../helpers/process.ts';
export const agentsDir = resolve(process.env.LOOP_GUARD_AGENTS_DIR || join(repoRoot, '.cache', 'agents'));

export const RUN_TIMEOUT_MS = Number(process.env.LOOP_GUARD_AGENT_TIMEOUT_MS || 180_000);

export interface AgentStatus {
  ok: boolean;
  bin: string | null;
  /** The CLI's npm prefix (Copilot keeps its unpacked runtime there). */
  prefix: string | null;
  version: string;
  /** Why the CLI can't be used; shown verbatim in the failing test. */
  reason: string | null;
}

/** Reads what scripts/install-agents.mjs recorded; a missing file or binary is a reason, never a silent skip. */
export function agentStatus(name: AgentName): AgentStatus {
  const statusPath = join(agentsDir, 'status.json');
  const hint = 'run `node scripts/install-agents.mjs` first';
  if (!existsSync(statusPath))
    return { ok: false, bin: null, prefix: null, version: '?', reason: `${statusPath} not found: ${hint}` };
  let status: {
    agents?: Record<string, { ok?: boolean; bin?: string; prefix?: string; version?: string; reason?: string | null }>;
  };
  try {
    status = JSON.parse(readFileSync(statusPath, 'utf8'));
  } catch (err) {
    return {
      ok: false,
      bin: null,
      prefix: null,
      version: '?',
      reason: `${statusPath} is unreadable (${String(err)}): ${hint}`,
    };
  }
  const s = status.agents?.[name];
  if (!s)
    return { ok: false, bin: null, prefix: null, version: '?', reason: `${name} is not in ${statusPath}: ${hint}` };
  const version = s.version ?? '?';
  if (!s.ok || !s.bin)
    return {
      ok: false,
      bin: null,
      prefix: null,
      version,
      reason: `${name} ${version} failed to install: ${s.reason ?? 'no reason recorded'}`,
    };
  if (!existsSync(s.bin)) return { ok: false, bin: null, prefix: null, version, reason: `${s.bin} is gone: ${hint}` };
  return { ok: true, bin: s.bin, prefix: s.prefix ?? null, version, reason: null };
}

export interface AgentRun extends ProcResult {
  agent: AgentName;
  /** The isolated HOME this run used; pass it back in to resume the session. */
  home: string;
  /** Session/thread id to resume (from our flag or the CLI's JSON events), if known. */
  sessionId: string | null;
}

export interface RunOptions {
  /** Reuse an isolated HOME (needed to resume a session); default: a fresh one. */
  home?: string;
  /** Which prompt marker to send; the mock's script is indexed by it. */
  turn?: number;
  /** Continue this session instead of starting a new one. */
  resumeSession?: string;
  timeoutMs?: number;
  /** LOOP_GUARD_* settings for this run only (see baseEnv). */
  guardEnv?: Record<string, string>;
}

export function makeHome(agent: AgentName): string {
  const home = realpathSync(mkdtempSync(join(tmpdir(), `lg-${agent}-home-`)));
  for (const d of ['.config', '.local/share', '.local/state', '.cache', 'tmp'])
    mkdirSync(join(home, d), { recursive: true });
  return home;
}

/** The only env an agent gets: PATH from the parent (node + git), everything else explicit. */
/** LOOP_GUARD_* settings every agent run gets (scenarios set and clear it around a run). */
export const guardSettingsEnv: Record<string, string> = {};

/** `opts.guardEnv`: this run's own LOOP_GUARD_* settings (concurrent scenarios cannot share the global above). */
export function baseEnv(home: string, opts: { guardEnv?: Record<string, string> } = {}): Record<string, string> {
  return {
    ...guardSettingsEnv,
    ...opts.guardEnv,
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    USER: 'loopguard',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    // The CLIs' own temp files (sockets, cwd trackers) stay inside this run's HOME and go away with it.
    TMPDIR: join(home, 'tmp'),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_STATE_HOME: join(home, '.local/state'),
    XDG_CACHE_HOME: join(home, '.cache'),
  };
}

export function requireBin(agent: AgentName): string {
  const s = agentStatus(agent);
  if (!s.ok || !s.bin) throw new Error(`${agent} is not available: ${s.reason}`);
  return s.bin;
}

export function finish(agent: AgentName, home: string, r: ProcResult, sessionId: string | null): AgentRun {
  return { agent, home, sessionId, ...r };
}

/** Every JSON line of a JSONL stdout that parses; the others (banners, warnings) are skipped. */
export function jsonLines(stdout: string): unknown[] {
  return stdout.split('\n').flatMap((line) => {
    const t = line.trim();
    if (!t.startsWith('{')) return [];
    try {
      return [JSON.parse(t) as unknown];
    } catch {
      return [];
    }
  });
}

// --- Claude Code ----------------------------------------------------------------------------------

export async function runClaude(projectDir: string, server: MockModelServer, opts: RunOptions = {}): Promise<AgentRun> {
  const bin = requireBin('claude');
  const home = opts.home ?? makeHome('claude');
  const configDir = join(home, '.claude');
  mkdirSync(configDir, { recursive: true });
  // Pre-seeded onboarding state, in both places Claude may look, so -p never stops at first-run setup.
  const seed = JSON.stringify({ hasCompletedOnboarding: true, bypassPermissionsModeAccepted: true });
  for (const p of [join(home, '.claude.json'), join(configDir, '.claude.json')])
    if (!existsSync(p)) writeFileSync(p, seed);
  const sessionId = opts.resumeSession ?? randomUUID();
  const env = {
    ...baseEnv(home, opts),
    CLAUDE_CONFIG_DIR: configDir,
    ANTHROPIC_BASE_URL: server.baseUrl,
    ANTHROPIC_API_KEY: 'dummy',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
  };
  // --allowedTools Bash instead of --dangerously-skip-permissions: the latter is refused when running as root (CI).
  const args = [
    '-p',
    promptFor(opts.turn ?? 1),
    '--output-format',
    'stream-json',
    '--verbose',
    '--allowedTools',
    'Bash',
    '--model',
    'claude-sonnet-4-5',
    ...(opts.resumeSession ? ['--resume', opts.resumeSession] : ['--session-id', sessionId]),
  ];
  const r = await runProcess(bin, args, { cwd: projectDir, env, timeoutMs: opts.timeoutMs ?? RUN_TIMEOUT_MS });
  return finish('claude', home, r, sessionId);
}

// --- Codex ------------------------------------------------------------------------------------------

function tomlString(s: string): string {
  return JSON.stringify(s);
}

export async function runCodex(projectDir: string, server: MockModelServer, opts: RunOptions = {}): Promise<AgentRun> {
  const bin = requireBin('codex');
  const home = opts.home ?? makeHome('codex');
  const codexHome = join(home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  // The provider must live in CODEX_HOME: Codex strips model_provider(s) from project-level config layers.
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      'model = "mock-model"',
      'model_provider = "mock"',
      'approval_policy = "never"',
      'sandbox_mode = "danger-full-access"',
      '',
      '[model_providers.mock]',
      'name = "Mock"',
      `base_url = ${tomlString(`${server.baseUrl}/v1`)}`,
      'env_key = "MOCK_API_KEY"',
      'wire_api = "responses"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
      // Trusted, so the project's .codex/ layer (hooks.json, config.toml) is loaded at all.
      `[projects.${tomlString(realpathSync(projectDir))}]`,
      'trust_level = "trusted"',
      '',
    ].join('\n'),
  );
  const env = { ...baseEnv(home, opts), CODEX_HOME: codexHome, MOCK_API_KEY: 'dummy' };
  const common = [
    '--skip-git-repo-check',
    '--json',
    '--dangerously-bypass-approvals-and-sandbox',
    // Hooks are skipped silently until a human trusts them in the TUI; this flag is the headless equivalent.
    '--dangerously-bypass-hook-trust',
  ];
  const prompt = promptFor(opts.turn ?? 1);
  // `exec resume` has no --color flag; plain `exec` does.
  const args = opts.resumeSession
    ? ['exec', 'resume', ...common, opts.resumeSession, prompt]
    : ['exec', ...common, '--color', 'never', prompt];
  const r = await runProcess(bin, args, { cwd: projectDir, env, timeoutMs: opts.timeoutMs ?? RUN_TIMEOUT_MS });
  let sessionId: string | null = opts.resumeSession ?? null;
  for (const ev of jsonLines(r.stdout)) {
    const e = ev as { type?: string; thread_id?: string };
    if (e.type === 'thread.started' && typeof e.thread_id === 'string') sessionId = e.thread_id;
  }
  return finish('codex', home, r, sessionId);
}

// --- OpenCode ----------------------------------------------------------------------------------------

/** The mock provider, handed to OpenCode through OPENCODE_CONFIG_CONTENT so the project's files stay the scaffolder's. */
export function openCodeConfig(server: MockModelServer): Record<string, unknown> {
  return {
    model: 'mock/mock-model',
    small_model: 'mock/mock-model',
    autoupdate: false,
    share: 'disabled',
    // No per-step git snapshots of the project: undo support the test never uses, about a second per step here.
    snapshot: false,
    permission: { bash: 'allow', edit: 'allow', webfetch: 'allow', external_directory: 'allow' },
    provider: {
      mock: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Mock',
        options: { baseURL: `${server.baseUrl}/v1`, apiKey: 'dummy' },
        models: { 'mock-model': { name: 'Mock Model', tool_call: true, limit: { context: 100_000, output: 4_096 } } },
      },
    },
  };
}

function openCodeEnv(home: string, server: MockModelServer, opts: RunOptions = {}): Record<string, string> {
  return {
    ...baseEnv(home, opts),
    OPENCODE_CONFIG_CONTENT: JSON.stringify(openCodeConfig(server)),
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
  };
}

/** What OpenCode installs at its first start when a project has a `.opencode/` dir (about +10 s per cold run). */
const OPENCODE_PROJECT_DEPS = ['package.json', 'package-lock.json', '.gitignore', 'node_modules'];

/**
 * A warmed copy of the two dirs OpenCode fills with `npm install @opencode-ai/plugin` on first start:
 * `$XDG_CONFIG_HOME/opencode` and `<project>/.opencode`. Made once by a throwaway run and kept in the
 * agents cache (keyed by OpenCode's version, since the plugin package is pinned to it).
 * Returns null if warming failed: runs then stay correct, only slower.
 */
export async function openCodeWarmTemplate(): Promise<{ configDir: string; projectDir: string } | null> {
  const status = agentStatus('opencode');
  if (!status.ok) return null;
  const template = join(agentsDir, `opencode-${status.version}-warm`);
  const result = { configDir: join(template, 'config'), projectDir: join(template, 'project') };
  if (existsSync(join(template, 'ready'))) return result;

  const server = await startMockServer({ turns: [{ commands: [], finalText: 'warm' }] });
  const home = makeHome('opencode');
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'lg-opencode-warm-')));
  try {
    mkdirSync(join(project, '.opencode', 'plugins'), { recursive: true });
    // Any local plugin makes OpenCode install its plugin SDK into both config dirs.
    writeFileSync(join(project, '.opencode', 'plugins', 'warmup.js'), 'export const Warmup = async () => ({});\n');
    await runProcess('git', ['init', '-q'], { cwd: project, env: baseEnv(home), timeoutMs: 30_000 });
    const run = await runOpenCode(project, server, { home, seed: false });
    const sdk = (dir: string) => join(dir, 'node_modules', '@opencode-ai', 'plugin', 'package.json');
    if (
      run.exitCode !== 0 ||
      !existsSync(sdk(join(home, '.config', 'opencode'))) ||
      !existsSync(sdk(join(project, '.opencode')))
    ) {
      console.warn(
        `[agents] OpenCode warm-up did not produce its plugin SDK; OpenCode runs will be slower.\n${describeRun(run, server)}`,
      );
      return null;
    }
    // Built in a temp dir and renamed into place, so an interrupted warm-up never leaves a half template.
    const staging = `${template}.tmp-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    cpSync(join(home, '.config', 'opencode'), join(staging, 'config'), { recursive: true, verbatimSymlinks: true });
    for (const f of OPENCODE_PROJECT_DEPS) {
      const src = join(project, '.opencode', f);
      if (existsSync(src)) cpSync(src, join(staging, 'project', f), { recursive: true, verbatimSymlinks: true });
    }
    writeFileSync(join(staging, 'ready'), `${new Date().toISOString()}\n`);
    rmSync(template, { recursive: true, force: true });
    renameSync(staging, template);
    return result;
  } finally {
    await server.close();
    removeDir(home);
    removeDir(project);
  }
}

/**
 * Puts a warmed dependency dir in place: small files copied, node_modules symlinked to the template
 * (thousands of files: copying and deleting them per run cost more than the install it saves).
 */
function seedDeps(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const f of readdirSync(from)) {
    const dest = join(to, f);
    if (existsSync(dest)) continue;
    if (f === 'node_modules') symlinkSync(join(from, f), dest, 'dir');
    else cpSync(join(from, f), dest, { recursive: true, verbatimSymlinks: true });
  }
}

export async function runOpenCode(
  projectDir: string,
  server: MockModelServer,
  opts: RunOptions & { seed?: boolean } = {},
): Promise<AgentRun> {
  const bin = requireBin('opencode');
  const fresh = !opts.home;
  const home = opts.home ?? makeHome('opencode');
  if (opts.seed !== false) {
    const warm = await openCodeWarmTemplate();
    if (warm && fresh) seedDeps(warm.configDir, join(home, '.config', 'opencode'));
    // Only where the scaffolder left no .opencode/package.json of its own: never overwrite project files.
    if (
      warm &&
      existsSync(join(projectDir, '.opencode')) &&
      !existsSync(join(projectDir, '.opencode', 'package.json'))
    ) {
      seedDeps(warm.projectDir, join(projectDir, '.opencode'));
    }
  }
  const args = [
    'run',
    '--print-logs',
    '--format',
    'json',
    ...(opts.resumeSession ? ['--session', opts.resumeSession] : []),
    promptFor(opts.turn ?? 1),
  ];
  const r = await runProcess(bin, args, {
    cwd: projectDir,
    env: openCodeEnv(home, server, opts),
    timeoutMs: opts.timeoutMs ?? RUN_TIMEOUT_MS,
  });
  let sessionId: string | null = opts.resumeSession ?? null;
  for (const ev of jsonLines(r.stdout)) {
    const e = ev as { sessionID?: unknown; part?: { sessionID?: unknown } };
    const id = e.sessionID ?? e.part?.sessionID;
    if (!sessionId && typeof id === 'string') sessionId = id;
  }
  return finish('opencode', home, r, sessionId);
}

export function runAgent(
  agent: AgentName,
  projectDir: string,
  server: MockModelServer,
  opts: RunOptions = {},
): Promise<AgentRun> {
  if (agent === 'claude') return runClaude(projectDir, server, opts);
  if (agent === 'codex') return runCodex(projectDir, server, opts);
  if (agent === 'opencode') return runOpenCode(projectDir, server, opts);
  return runMoreAgent(agent, projectDir, server, opts);
}

/** A readable digest of a run for assertion messages. */
export function describeRun(run: AgentRun, server?: MockModelServer): string {
  // Long JSON event lines are clipped so a failure message stays readable.
  const tail = (s: string, n: number) =>
    s
      .trim()
      .split('\n')
      .slice(-n)
      .map((l) => (l.length > 400 ? `${l.slice(0, 400)}…` : l))
      .join('\n');
  return [
    `${run.agent}: exit=${run.exitCode} signal=${run.signal} timedOut=${run.timedOut} ${Math.round(run.durationMs / 100) / 10}s`,
    `--- stdout (tail)\n${tail(run.stdout, 15)}`,
    `--- stderr (tail)\n${tail(run.stderr, 25)}`,
    ...(server
      ? [
          `--- model requests\n${server.requests.map((r) => `#${r.seq} ${r.method} ${r.url} [${r.kind} t=${r.turn} done=${r.stepsDone}] -> ${r.reply}`).join('\n')}`,
          `--- server problems\n${server.problems.join('\n') || '(none)'}`,
        ]
      : []),
  ].join('\n');
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
