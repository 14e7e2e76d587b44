// The Claude Code runner: headless, offline (model = the mock on 127.0.0.1), isolated HOME, explicit env, hard timeout.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { baseEnv, finish, makeHome, type AgentRun, type RunOptions, runAgentCli } from './common.ts';
import { promptFor, turnMarker, type MockModelServer } from '../mock-server.ts';

/** Pre-seeded onboarding state, in both places Claude may look, so -p never stops at first-run setup. */
export function seedClaudeHome(home: string): string {
  const configDir = join(home, '.claude');
  mkdirSync(configDir, { recursive: true });
  const seed = JSON.stringify({ hasCompletedOnboarding: true, bypassPermissionsModeAccepted: true });
  for (const p of [join(home, '.claude.json'), join(configDir, '.claude.json')])
    if (!existsSync(p)) writeFileSync(p, seed);
  return configDir;
}

/** Claude Code's environment against the mock (run-env.ts gives the same to `create-loop-guard run`). */
export function claudeEnv(home: string, server: MockModelServer, opts: RunOptions = {}): Record<string, string> {
  return {
    ...baseEnv(home, opts),
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    ANTHROPIC_BASE_URL: server.baseUrl,
    ANTHROPIC_API_KEY: 'dummy',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
  };
}

export async function runClaude(projectDir: string, server: MockModelServer, opts: RunOptions = {}): Promise<AgentRun> {
  const home = opts.home ?? makeHome('claude');
  seedClaudeHome(home);
  const sessionId = opts.resumeSession ?? randomUUID();
  const env = claudeEnv(home, server, opts);
  // --allowedTools Bash instead of --dangerously-skip-permissions: the latter is refused when running as root (CI).
  const args = [
    '-p',
    opts.promptPrefix ? `${opts.promptPrefix} ${turnMarker(opts.turn ?? 1)}` : promptFor(opts.turn ?? 1),
    '--output-format',
    'stream-json',
    '--verbose',
    '--allowedTools',
    'Bash',
    '--model',
    'claude-sonnet-4-5',
    ...(opts.resumeSession ? ['--resume', opts.resumeSession] : ['--session-id', sessionId]),
  ];
  const r = await runAgentCli('claude', projectDir, args, env, opts);
  return finish('claude', home, r, sessionId);
}
