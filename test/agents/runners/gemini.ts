// The Gemini CLI 0.61 runner: headless, offline (model = the mock on 127.0.0.1), isolated HOME, explicit env, hard timeout.
import { realpathSync } from 'node:fs';
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

export async function runGemini(projectDir: string, server: MockModelServer, opts: RunOptions = {}): Promise<AgentRun> {
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
  const r = await runAgentCli('gemini', projectDir, args, env, opts);
  return finish('gemini', home, r, opts.resumeSession ?? firstString(r.stdout, 'session_id'));
}
