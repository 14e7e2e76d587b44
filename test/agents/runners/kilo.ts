// The Kilo CLI 7.7.7 runner: headless, offline (model = the mock on 127.0.0.1), isolated HOME, explicit env, hard timeout.
import { baseEnv, finish, jsonLines, makeHome, type AgentRun, type RunOptions, runAgentCli } from './common.ts';
import { promptFor, type MockModelServer } from '../mock-server.ts';
import { openCodeConfig } from './opencode.ts';

/** The mock provider in OpenCode's config shape (Kilo is an OpenCode fork), passed by env so the repo stays untouched. */
export function kiloConfig(server: MockModelServer): Record<string, unknown> {
  return openCodeConfig(server);
}

/** Kilo's environment against the mock; `config` replaces the runner's provider config (run-env.ts adds a model). */
export function kiloEnv(
  home: string,
  server: MockModelServer,
  opts: RunOptions = {},
  config: Record<string, unknown> = kiloConfig(server),
): Record<string, string> {
  return {
    ...baseEnv(home, opts),
    KILO_CONFIG_CONTENT: JSON.stringify(config),
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
}

export async function runKilo(projectDir: string, server: MockModelServer, opts: RunOptions = {}): Promise<AgentRun> {
  const home = opts.home ?? makeHome('kilo');
  const env = kiloEnv(home, server, opts);
  const args = [
    'run',
    '--print-logs',
    '--format',
    'json',
    '--auto',
    ...(opts.resumeSession ? ['--session', opts.resumeSession] : []),
    promptFor(opts.turn ?? 1),
  ];
  const r = await runAgentCli('kilo', projectDir, args, env, opts);
  let sessionId: string | null = opts.resumeSession ?? null;
  for (const ev of jsonLines(r.stdout)) {
    const e = ev as { sessionID?: unknown; part?: { sessionID?: unknown } };
    const id = e.sessionID ?? e.part?.sessionID;
    if (!sessionId && typeof id === 'string') sessionId = id;
  }
  return finish('kilo', home, r, sessionId);
}
