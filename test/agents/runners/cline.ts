// The Cline 3.0.65 runner: headless, offline (model = the mock on 127.0.0.1), isolated HOME, explicit env, hard timeout.
import { join } from 'node:path';
import {
  baseEnv,
  finish,
  makeHome,
  onlyEntry,
  requireBin,
  RUN_TIMEOUT_MS,
  runProcess,
  type AgentRun,
  type RunOptions,
} from './common.ts';
import { promptFor, type MockModelServer } from '../mock-server.ts';

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
  // headless in 3.0.65: the CLI switches to interactive mode and drops the prompt (see harness.test.ts).
  const args = ['--json', ...(opts.resumeSession ? ['--id', opts.resumeSession] : []), promptFor(opts.turn ?? 1)];
  const r = await runProcess(bin, args, { cwd: projectDir, env: clineEnv(home, opts), timeoutMs });
  return finish('cline', home, r, opts.resumeSession ?? onlyEntry(join(home, '.cline', 'data', 'sessions')));
}
