// The Qwen Code 0.24 runner: headless, offline (model = the mock on 127.0.0.1), isolated HOME, explicit env, hard timeout.
import { join } from 'node:path';
import {
  baseEnv,
  finish,
  firstString,
  makeHome,
  mergeJson,
  type AgentRun,
  type RunOptions,
  runAgentCli,
} from './common.ts';
import { promptFor, type MockModelServer } from '../mock-server.ts';

export async function runQwen(projectDir: string, server: MockModelServer, opts: RunOptions = {}): Promise<AgentRun> {
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
  const r = await runAgentCli('qwen', projectDir, args, env, opts);
  return finish('qwen', home, r, opts.resumeSession ?? firstString(r.stdout, 'session_id'));
}
