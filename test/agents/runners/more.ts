// Runners for the five CLIs of issue 15 (Gemini CLI, GitHub Copilot CLI, Qwen Code, Cline, Kilo), in the
// same mould as agents.ts: headless, offline (model = our mock on 127.0.0.1), isolated HOME, explicit env,
// hard timeout that kills the process group. What each needs (auth, trust, flags) was found by running
// them; the reasons are in the comments.
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseJsonc, stringify as stringifyJsonc } from 'comment-json';
import {
  agentStatus,
  baseEnv,
  finish,
  jsonLines,
  makeHome,
  openCodeConfig,
  requireBin,
  RUN_TIMEOUT_MS,
  runProcess,
  type AgentRun,
  type MoreAgentName,
  type RunOptions,
} from './common.ts';
import { promptFor, type MockModelServer } from '../mock-server.ts';

/** Merges `extra` into a JSON settings file (created if missing), top-level keys only. */
function mergeJson(path: string, extra: Record<string, unknown>): void {
  let current: Record<string, unknown> = {};
  if (existsSync(path)) current = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `${JSON.stringify({ ...current, ...extra }, null, 2)}\n`);
}

/** The first string value of `key` in any JSON line of stdout (session ids in the CLIs' event streams). */
function firstString(stdout: string, key: string): string | null {
  for (const ev of jsonLines(stdout)) {
    const v = (ev as Record<string, unknown>)[key];
    if (typeof v === 'string' && v) return v;
  }
  return null;
}

// --- Gemini CLI 0.61 -------------------------------------------------------------------------------

export async function runGemini(projectDir: string, server: MockModelServer, opts: RunOptions = {}): Promise<AgentRun> {
  const bin = requireBin('gemini');
  const home = opts.home ?? makeHome('gemini');
  const repo = realpathSync(projectDir);
  mergeJson(join(home, '.gemini', 'settings.json'), {
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    // GOOGLE_GEMINI_BASE_URL alone selects auth type "gateway", which -p rejects (exit 41); this keeps the URL.
    security: { auth: { selectedType: 'gemini-api-key' } },
  });
  // Folder trust is on by default: an untrusted folder exits 55, and --skip-trust silently drops project
  // hooks. A trustedFolders.json entry is what a user's "trust this folder" writes.
  mergeJson(join(home, '.gemini', 'trustedFolders.json'), { [repo]: 'TRUST_FOLDER' });
  const env = { ...baseEnv(home, opts), GOOGLE_GEMINI_BASE_URL: server.baseUrl, GEMINI_API_KEY: 'dummy' };
  // --yolo: without it headless mode offers only read-only tools (no run_shell_command).
  const args = [
    '-p',
    promptFor(opts.turn ?? 1),
    '--yolo',
    '-o',
    'stream-json',
    '-m',
    'gemini-2.5-pro',
    ...(opts.resumeSession ? ['--resume', 'latest'] : []),
  ];
  const r = await runProcess(bin, args, { cwd: projectDir, env, timeoutMs: opts.timeoutMs ?? RUN_TIMEOUT_MS });
  return finish('gemini', home, r, opts.resumeSession ?? firstString(r.stdout, 'session_id'));
}

// --- Qwen Code 0.24 --------------------------------------------------------------------------------

export async function runQwen(projectDir: string, server: MockModelServer, opts: RunOptions = {}): Promise<AgentRun> {
  const bin = requireBin('qwen');
  const home = opts.home ?? makeHome('qwen');
  mergeJson(join(home, '.qwen', 'settings.json'), {
    general: { enableAutoUpdate: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    // Its background memory agent sends its own requests offering run_shell_command after a resumed turn.
    memory: { enableManagedAutoMemory: false },
  });
  // The three OPENAI_* together select auth type "openai"; folder trust is off by default in 0.24.
  const env = {
    ...baseEnv(home, opts),
    OPENAI_BASE_URL: `${server.baseUrl}/v1`,
    OPENAI_API_KEY: 'dummy',
    OPENAI_MODEL: 'mock-model',
    QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
  };
  const args = [
    '-p',
    promptFor(opts.turn ?? 1),
    '--yolo',
    '-o',
    'stream-json',
    ...(opts.resumeSession ? ['--continue'] : []),
  ];
  const r = await runProcess(bin, args, { cwd: projectDir, env, timeoutMs: opts.timeoutMs ?? RUN_TIMEOUT_MS });
  return finish('qwen', home, r, opts.resumeSession ?? firstString(r.stdout, 'session_id'));
}

// --- GitHub Copilot CLI 1.0.102 ---------------------------------------------------------------------

export async function runCopilot(
  projectDir: string,
  server: MockModelServer,
  opts: RunOptions = {},
): Promise<AgentRun> {
  const bin = requireBin('copilot');
  const status = agentStatus('copilot');
  const home = opts.home ?? makeHome('copilot');
  const repo = realpathSync(projectDir);
  // Repo hooks (.github/hooks/*.json) load only in a trusted folder; this is the persisted form of trust.
  // Copilot rewrites config.json with `//` comments after a run, hence comment-json.
  const config = join(home, '.copilot', 'config.json');
  const current = (existsSync(config) ? parseJsonc(readFileSync(config, 'utf8')) : {}) as { trustedFolders?: string[] };
  if (!(current.trustedFolders ?? []).includes(repo)) {
    mkdirSync(join(home, '.copilot'), { recursive: true });
    writeFileSync(
      config,
      `${stringifyJsonc({ ...current, trustedFolders: [...(current.trustedFolders ?? []), repo] }, null, 2)}\n`,
    );
  }
  const env = {
    ...baseEnv(home, opts),
    // The SEA binary unpacks ~235 MB of runtime on first start; install-agents.mjs did that into its prefix.
    ...(status.prefix ? { COPILOT_PKG_CACHE_HOME: join(status.prefix, 'node_modules', '.copilot-pkg-cache') } : {}),
    // BYOK is the only offline route: no GitHub auth, telemetry, MCP server or update check.
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: `${server.baseUrl}/v1`,
    COPILOT_PROVIDER_API_KEY: 'dummy',
    COPILOT_MODEL: 'mock-model',
    COPILOT_AUTO_UPDATE: 'false',
  };
  // --allow-all: --allow-all-tools alone still refuses paths outside the project.
  const args = [
    '-p',
    promptFor(opts.turn ?? 1),
    '--allow-all',
    '--output-format',
    'json',
    '--no-auto-update',
    '--log-dir',
    join(home, 'copilot-logs'),
    ...(opts.resumeSession ? [`--resume=${opts.resumeSession}`] : []),
  ];
  const r = await runProcess(bin, args, { cwd: projectDir, env, timeoutMs: opts.timeoutMs ?? RUN_TIMEOUT_MS });
  // The final {"type":"result"} event names the session.
  return finish(
    'copilot',
    home,
    r,
    opts.resumeSession ?? firstString(r.stdout, 'sessionId') ?? onlyEntry(join(home, '.copilot', 'session-state')),
  );
}

/** The one session folder a fresh HOME holds after its first run (Copilot and Cline keep one per session). */
function onlyEntry(dir: string): string | null {
  if (!existsSync(dir)) return null;
  const ids = readdirSync(dir);
  return ids.length === 1 ? (ids[0] ?? null) : null;
}

// --- Cline 3.0.65 -----------------------------------------------------------------------------------

/**
 * Cline gives its plugin process 4 s to start and import the plugins, then runs without any. At a load average of
 * 20+ on 2 cores its own start (jiti and Babel) sometimes took longer; this is the variable Cline offers slow hosts.
 */
export const CLINE_SLOW_HOST = { CLINE_PLUGIN_IMPORT_TIMEOUT_MS: '20000' };

function clineEnv(home: string, opts: RunOptions = {}): Record<string, string> {
  // local: the default backend ("auto") starts a `cline --cline-hub-daemon` that outlives the run.
  return { ...baseEnv(home, opts), CLINE_SESSION_BACKEND_MODE: 'local', ...CLINE_SLOW_HOST };
}

export async function runCline(projectDir: string, server: MockModelServer, opts: RunOptions = {}): Promise<AgentRun> {
  const bin = requireBin('cline');
  const home = opts.home ?? makeHome('cline');
  const timeoutMs = opts.timeoutMs ?? RUN_TIMEOUT_MS;
  // A hand-written providers.json (without updatedAt) is ignored and Cline falls back to its own cloud
  // provider, so the provider is set the way a user does: `cline auth`.
  const auth = await runProcess(
    bin,
    ['auth', '-p', 'openai', '-k', 'dummy', '-m', 'mock-model', '-b', `${server.baseUrl}/v1`],
    { cwd: home, env: clineEnv(home), timeoutMs: 60_000 },
  );
  if (auth.exitCode !== 0 || auth.timedOut) {
    return finish(
      'cline',
      home,
      { ...auth, stderr: `[runner] cline auth failed\n${auth.stdout}\n${auth.stderr}` },
      null,
    );
  }
  // --json needs the prompt as an argument; auto-approve is on by default. A resume (--id) cannot run
  // headless in 3.0.65: the CLI switches to interactive mode and drops the prompt (see more-agents.test.ts).
  const args = ['--json', ...(opts.resumeSession ? ['--id', opts.resumeSession] : []), promptFor(opts.turn ?? 1)];
  const r = await runProcess(bin, args, { cwd: projectDir, env: clineEnv(home, opts), timeoutMs });
  return finish('cline', home, r, opts.resumeSession ?? onlyEntry(join(home, '.cline', 'data', 'sessions')));
}

// --- Kilo CLI 7.7.7 ---------------------------------------------------------------------------------

/** The mock provider in OpenCode's config shape (Kilo is an OpenCode fork), passed by env so the repo stays untouched. */
export function kiloConfig(server: MockModelServer): Record<string, unknown> {
  return openCodeConfig(server);
}

export async function runKilo(projectDir: string, server: MockModelServer, opts: RunOptions = {}): Promise<AgentRun> {
  const bin = requireBin('kilo');
  const home = opts.home ?? makeHome('kilo');
  const env = {
    ...baseEnv(home, opts),
    KILO_CONFIG_CONTENT: JSON.stringify(kiloConfig(server)),
    // KILO_NO_DAEMON: `kilo run` must not attach to (or leave) a background server.
    KILO_NO_DAEMON: '1',
    KILO_DISABLE_MODELS_FETCH: '1',
    KILO_DISABLE_AUTOUPDATE: '1',
    KILO_DISABLE_LSP_DOWNLOAD: '1',
    KILO_DISABLE_DEFAULT_PLUGINS: '1',
    KILO_DISABLE_SHARE: '1',
    KILO_TELEMETRY_LEVEL: 'off',
    KILO_DISABLE_SESSION_INGEST: '1',
    KILO_DISABLE_CODEBASE_INDEXING: '1',
  };
  const args = [
    'run',
    '--print-logs',
    '--format',
    'json',
    '--auto',
    ...(opts.resumeSession ? ['--session', opts.resumeSession] : []),
    promptFor(opts.turn ?? 1),
  ];
  const r = await runProcess(bin, args, { cwd: projectDir, env, timeoutMs: opts.timeoutMs ?? RUN_TIMEOUT_MS });
  let sessionId: string | null = opts.resumeSession ?? null;
  for (const ev of jsonLines(r.stdout)) {
    const e = ev as { sessionID?: unknown; part?: { sessionID?: unknown } };
    const id = e.sessionID ?? e.part?.sessionID;
    if (!sessionId && typeof id === 'string') sessionId = id;
  }
  return finish('kilo', home, r, sessionId);
}

export function runMoreAgent(
  agent: MoreAgentName,
  projectDir: string,
  server: MockModelServer,
  opts: RunOptions = {},
): Promise<AgentRun> {
  if (agent === 'gemini') return runGemini(projectDir, server, opts);
  if (agent === 'qwen') return runQwen(projectDir, server, opts);
  if (agent === 'copilot') return runCopilot(projectDir, server, opts);
  if (agent === 'cline') return runCline(projectDir, server, opts);
  return runKilo(projectDir, server, opts);
}

/**
 * Processes still alive whose environment carries this run's HOME: anything a CLI left behind (Cline's hub
 * daemon starts in its own session, so killing the run's process group does not reach it). Linux only.
 */
export function processesUsingHome(home: string): Array<{ pid: number; cmd: string }> {
  if (!existsSync('/proc')) return [];
  const found: Array<{ pid: number; cmd: string }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
      if (!environ.includes(`HOME=${home}`)) continue;
      found.push({
        pid: Number(entry),
        cmd: readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim(),
      });
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** Ends what processesUsingHome found (by pid, never by name), so one leaky run cannot poison the next. */
export function killProcesses(procs: Array<{ pid: number }>): void {
  for (const p of procs) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
