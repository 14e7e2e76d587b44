// What every real-agent runner shares (runners/<tool>.ts use it): each run is headless, offline (model = our mock on
// 127.0.0.1), isolated (temp HOME and config dirs, an explicit env that inherits only PATH) and bounded (hard timeout
// that kills the whole process group).
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { repoRoot } from '../../helpers/paths.ts';
import { type ProcResult, runProcess } from '../../helpers/process.ts';
import type { MockModelServer } from '../mock-server.ts';

/** The agent CLIs the real-agent suites drive, in two groups (the first three have the most scenarios). */
export type FirstAgentName = 'claude' | 'codex' | 'opencode';
export const AGENT_NAMES: FirstAgentName[] = ['claude', 'codex', 'opencode'];
/** The other five, in order of reach. */
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
  /** Text sent before the marker instead of the usual instruction (e.g. Claude Code's `/goal <condition>`). */
  promptPrefix?: string;
  /** Continue this session instead of starting a new one. */
  resumeSession?: string | undefined;
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

/** Runs `agent`'s installed CLI in `projectDir` under the run's hard timeout (a missing CLI throws with the reason). */
export function runAgentCli(
  agent: AgentName,
  projectDir: string,
  args: string[],
  env: Record<string, string>,
  opts: RunOptions,
): Promise<ProcResult> {
  return runProcess(requireBin(agent), args, { cwd: projectDir, env, timeoutMs: opts.timeoutMs ?? RUN_TIMEOUT_MS });
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

export function mergeJson(path: string, extra: Record<string, unknown>): void {
  let current: Record<string, unknown> = {};
  if (existsSync(path)) current = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `${JSON.stringify({ ...current, ...extra }, null, 2)}\n`);
}

/** The first string value of `key` in any JSON line of stdout (session ids in the CLIs' event streams). */
export function firstString(stdout: string, key: string): string | null {
  for (const ev of jsonLines(stdout)) {
    const v = (ev as Record<string, unknown>)[key];
    if (typeof v === 'string' && v) return v;
  }
  return null;
}

/** The one session folder a fresh HOME holds after its first run (Copilot and Cline keep one per session). */
export function onlyEntry(dir: string): string | null {
  if (!existsSync(dir)) return null;
  const ids = readdirSync(dir);
  return ids.length === 1 ? (ids[0] ?? null) : null;
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
