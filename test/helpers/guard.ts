// Run the BUILT guard file the way an agent tool does: payload on stdin, tool name as the argument.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { guardFile, type Json, nodeBin, requireFiles } from './paths.ts';

export {
  esmGuardFile,
  fixturesDir,
  guardFile,
  nodeBin,
  type Json,
  loadPayload,
  payloadsDir,
  repoRoot,
} from './paths.ts';

export function requireBuilt(): void {
  requireFiles([guardFile]);
}

export function freshStateDir(): string {
  return mkdtempSync(join(tmpdir(), 'lg-state-'));
}

/**
 * A minimal environment, so the developer's own LOOP_GUARD_* or CURSOR_* variables cannot leak into tests. A hand-off
 * note goes to the state dir, so a payload whose cwd is this checkout never writes into it.
 */
export function guardEnv(stateDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LOOP_GUARD_STATE_DIR: stateDir,
    LOOP_GUARD_HANDOFF_DIR: stateDir,
    ...extra,
  };
}

export interface GuardRun {
  stdout: string;
  stderr: string;
  status: number | null;
}

export function runGuardSync(tool: string | undefined, payload: Json | string, env: Record<string, string>): GuardRun {
  const input = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const args = tool === undefined ? [guardFile] : [guardFile, tool];
  const r = spawnSync(nodeBin, args, { input, env, encoding: 'utf8' });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

/** `start`: the payload is written only when it settles, so processes already started get their input together. */
export function runGuardAsync(
  tool: string,
  payload: Json,
  env: Record<string, string>,
  start: Promise<unknown> = Promise.resolve(),
): Promise<GuardRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(nodeBin, [guardFile, tool], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ stdout, stderr, status }));
    void start.then(() => child.stdin.end(JSON.stringify(payload)));
  });
}
