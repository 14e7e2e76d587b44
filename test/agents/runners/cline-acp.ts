// Cline 3.0.65 driven over the Agent Client Protocol (`cline --acp`: JSON-RPC on stdio), the one headless way it
// takes a second user prompt in the same session (`--id` resume forces its interactive mode). Used for the
// "new user turn" scenario. What it needs was found by running it: ACP asks for `authenticate` unless
// CLINE_API_KEY is set, and then uses CLINE_PROVIDER (else the Cline cloud provider); every tool call asks the
// client for permission (ACP turns auto-approve off), which this client grants.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { baseEnv, makeHome, requireBin, runProcess, type AgentRun } from './common.ts';
import { promptFor, type MockModelServer } from '../mock-server.ts';
import { CLINE_SLOW_HOST } from './cline.ts';

interface RpcMessage {
  id?: number;
  method?: string;
  params?: { options?: Array<{ optionId?: string; kind?: string }> };
  result?: unknown;
  error?: unknown;
}

/** Runs `turns` user prompts (by marker number) in ONE Cline session over ACP; one AgentRun per process, stop reasons per prompt. */
export async function runClineAcp(
  projectDir: string,
  server: MockModelServer,
  turns: number[],
  timeoutMs = 120_000,
): Promise<AgentRun & { stopReasons: unknown[] }> {
  const bin = requireBin('cline');
  const home = makeHome('cline');
  const env = {
    ...baseEnv(home),
    ...CLINE_SLOW_HOST,
    CLINE_SESSION_BACKEND_MODE: 'local',
    CLINE_API_KEY: 'dummy',
    CLINE_PROVIDER: 'openai-compatible',
  };
  const auth = await runProcess(
    bin,
    ['auth', '-p', 'openai', '-k', 'dummy', '-m', 'mock-model', '-b', `${server.baseUrl}/v1`],
    { cwd: home, env, timeoutMs: 60_000 },
  );
  const started = Date.now();
  const base = { agent: 'cline' as const, home, sessionId: null, signal: null, durationMs: 0 };
  if (auth.exitCode !== 0)
    return {
      ...base,
      stdout: auth.stdout,
      stderr: `[runner] cline auth failed\n${auth.stderr}`,
      exitCode: auth.exitCode,
      timedOut: false,
      stopReasons: [],
    };

  // Its own process group, killed whole at the end: nothing may outlive the test.
  const child = spawn(bin, ['--acp'], { cwd: projectDir, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  let buffer = '';
  const waiting = new Map<number, (m: RpcMessage) => void>();
  child.stderr.on('data', (d: Buffer) => {
    stderr += String(d);
  });
  child.stdout.on('data', (d: Buffer) => {
    stdout += String(d);
    buffer += String(d);
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      let m: RpcMessage;
      try {
        m = JSON.parse(line) as RpcMessage;
      } catch {
        continue;
      }
      if (m.id !== undefined && m.method === 'session/request_permission') {
        const allow =
          m.params?.options?.find((o) => o.kind === 'allow_once') ??
          m.params?.options?.find((o) => /allow/.test(o.kind ?? ''));
        child.stdin.write(
          `${JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { outcome: { outcome: 'selected', optionId: allow?.optionId } } })}\n`,
        );
      } else if (m.id !== undefined && !m.method) waiting.get(m.id)?.(m);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let next = 0;
  const call = (method: string, params: unknown) =>
    new Promise<RpcMessage>((resolve) => {
      const id = ++next;
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  let timedOut = false;
  const deadline = new Promise<'timeout'>((resolve) =>
    setTimeout(() => {
      timedOut = true;
      resolve('timeout');
    }, timeoutMs).unref(),
  );
  const stopReasons: unknown[] = [];
  let sessionId: string | null = null;
  try {
    const steps = async () => {
      await call('initialize', {
        protocolVersion: 1,
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      });
      const created = await call('session/new', { cwd: projectDir, mcpServers: [] });
      sessionId = (created.result as { sessionId?: string } | undefined)?.sessionId ?? null;
      if (!sessionId) throw new Error(`session/new failed: ${JSON.stringify(created)}`);
      for (const turn of turns) {
        const r = await call('session/prompt', { sessionId, prompt: [{ type: 'text', text: promptFor(turn) }] });
        stopReasons.push(r.error ?? (r.result as { stopReason?: unknown } | undefined)?.stopReason);
      }
    };
    await Promise.race([steps(), deadline]);
  } finally {
    try {
      process.kill(-(child.pid ?? 0), 'SIGKILL');
    } catch {
      // already gone
    }
  }
  const code = await exited;
  return {
    ...base,
    sessionId,
    stdout,
    stderr: `${stderr}\n[acp log] ${join(home, '.cline', 'data', 'logs', 'cline.log')}`,
    exitCode: timedOut ? null : (code ?? 0),
    timedOut,
    durationMs: Date.now() - started,
    stopReasons,
  };
}
