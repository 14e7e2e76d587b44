// What `create-loop-guard run` needs to drive a real CLI against the scripted model: the environment (isolated HOME,
// the mock as the provider) and the user's own flags after `--` (permissions, sandbox). The same setup as the
// runners in runners/<tool>.ts, without running the CLI: `run` does that.
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { MockModelServer } from './mock-server.ts';
import { baseEnv, makeHome, requireBin } from './runners/index.ts';

export type RunAgentName = 'claude' | 'codex';
export const RUN_SUITE_AGENTS: RunAgentName[] = ['claude', 'codex'];

export interface RunSetup {
  env: Record<string, string>;
  extra: string[];
  home: string;
  /** The model the tool runs by default (what rung 3 must replace). */
  defaultModel: string;
}

export function runSetup(agent: RunAgentName, repo: string, server: MockModelServer): RunSetup {
  const home = makeHome(agent);
  // `run` finds the agent on PATH, as a user's shell would.
  const path = `${dirname(requireBin(agent))}:${process.env.PATH ?? '/usr/bin:/bin'}`;
  if (agent === 'claude') {
    const configDir = join(home, '.claude');
    mkdirSync(configDir, { recursive: true });
    const seed = JSON.stringify({ hasCompletedOnboarding: true, bypassPermissionsModeAccepted: true });
    for (const p of [join(home, '.claude.json'), join(configDir, '.claude.json')])
      if (!existsSync(p)) writeFileSync(p, seed);
    return {
      home,
      defaultModel: 'claude-sonnet-4-5',
      env: {
        ...baseEnv(home),
        PATH: path,
        CLAUDE_CONFIG_DIR: configDir,
        ANTHROPIC_BASE_URL: server.baseUrl,
        ANTHROPIC_API_KEY: 'dummy',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_ERROR_REPORTING: '1',
      },
      extra: ['--allowedTools', 'Bash', '--model', 'claude-sonnet-4-5'],
    };
  }
  const codexHome = join(home, '.codex');
  mkdirSync(codexHome, { recursive: true });
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
      `base_url = ${JSON.stringify(`${server.baseUrl}/v1`)}`,
      'env_key = "MOCK_API_KEY"',
      'wire_api = "responses"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
      `[projects.${JSON.stringify(realpathSync(repo))}]`,
      'trust_level = "trusted"',
      '',
    ].join('\n'),
  );
  return {
    home,
    defaultModel: 'mock-model',
    env: { ...baseEnv(home), PATH: path, CODEX_HOME: codexHome, MOCK_API_KEY: 'dummy' },
    // -c model=…: the same model as config.toml, named in the argv so `run` can price it.
    extra: [
      '--skip-git-repo-check',
      '--dangerously-bypass-approvals-and-sandbox',
      '--dangerously-bypass-hook-trust',
      '-c',
      'model="mock-model"',
    ],
  };
}
