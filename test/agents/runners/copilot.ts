// The GitHub Copilot CLI 1.0.102 runner: headless, offline (model = the mock on 127.0.0.1), isolated HOME, explicit env, hard timeout.
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  agentStatus,
  baseEnv,
  finish,
  firstString,
  makeHome,
  onlyEntry,
  type AgentRun,
  type RunOptions,
  runAgentCli,
} from './common.ts';
import { promptFor, type MockModelServer } from '../mock-server.ts';
import { parse as parseJsonc, stringify as stringifyJsonc } from 'comment-json';

/**
 * Repo hooks (.github/hooks/*.json) load only in a trusted folder; this is the persisted form of trust.
 * Copilot rewrites config.json with `//` comments after a run, hence comment-json.
 */
export function trustCopilotFolder(home: string, projectDir: string): void {
  const repo = realpathSync(projectDir);
  const config = join(home, '.copilot', 'config.json');
  const current = (existsSync(config) ? parseJsonc(readFileSync(config, 'utf8')) : {}) as { trustedFolders?: string[] };
  if ((current.trustedFolders ?? []).includes(repo)) return;
  mkdirSync(join(home, '.copilot'), { recursive: true });
  writeFileSync(
    config,
    `${stringifyJsonc({ ...current, trustedFolders: [...(current.trustedFolders ?? []), repo] }, null, 2)}\n`,
  );
}

/** Copilot CLI's environment against the mock (run-env.ts gives the same to `create-loop-guard run`). */
export function copilotEnv(home: string, server: MockModelServer, opts: RunOptions = {}): Record<string, string> {
  const status = agentStatus('copilot');
  return {
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
}

export async function runCopilot(
  projectDir: string,
  server: MockModelServer,
  opts: RunOptions = {},
): Promise<AgentRun> {
  const home = opts.home ?? makeHome('copilot');
  trustCopilotFolder(home, projectDir);
  const env = copilotEnv(home, server, opts);
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
  const r = await runAgentCli('copilot', projectDir, args, env, opts);
  // The final {"type":"result"} event names the session.
  return finish(
    'copilot',
    home,
    r,
    opts.resumeSession ?? firstString(r.stdout, 'sessionId') ?? onlyEntry(join(home, '.copilot', 'session-state')),
  );
}
