// The Codex runner: headless, offline (model = the mock on 127.0.0.1), isolated HOME, explicit env, hard timeout.
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseEnv, finish, jsonLines, makeHome, type AgentRun, type RunOptions, runAgentCli } from './common.ts';
import { promptFor, type MockModelServer } from '../mock-server.ts';

function tomlString(s: string): string {
  return JSON.stringify(s);
}

export async function runCodex(projectDir: string, server: MockModelServer, opts: RunOptions = {}): Promise<AgentRun> {
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
  const r = await runAgentCli('codex', projectDir, args, env, opts);
  let sessionId: string | null = opts.resumeSession ?? null;
  for (const ev of jsonLines(r.stdout)) {
    const e = ev as { type?: string; thread_id?: string };
    if (e.type === 'thread.started' && typeof e.thread_id === 'string') sessionId = e.thread_id;
  }
  return finish('codex', home, r, sessionId);
}
