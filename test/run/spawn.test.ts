// A rung's logs are complete when its run settles: a rung that passes removes the step's folder right after
// (state.ts clearStep), and a log still being opened then failed the run (ENOTEMPTY, or an uncaught ENOENT).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runVerifier, startAgent } from '../../src/run/spawn.ts';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'lg-spawn-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('logs settle with the run', () => {
  it("the verifier's log holds its output when the promise settles, and its folder can go at once", async () => {
    const dir = tempDir();
    const logPath = join(dir, 'rung-1.verify.log');
    const r = await runVerifier('echo out; echo err >&2; exit 3', { cwd: dir, env: process.env, logPath });
    expect(r.exitCode).toBe(3);
    expect(readFileSync(logPath, 'utf8')).toBe(r.output);
    expect(r.output).toContain('out');
    rmSync(dir, { recursive: true });
  });

  it("the agent's log holds both streams when its run settles", async () => {
    const dir = tempDir();
    const logPath = join(dir, 'rung-1.agent.log');
    const lines: string[] = [];
    const p = startAgent('sh', ['-c', 'echo one; echo two >&2; echo three'], {
      cwd: dir,
      env: process.env,
      logPath,
      onLine: (l) => lines.push(l),
    });
    const end = await p.done;
    expect(end.exitCode).toBe(0);
    expect(lines).toEqual(['one', 'three']);
    expect(readFileSync(logPath, 'utf8').split('\n').sort()).toEqual(['', 'one', 'three', 'two']);
    rmSync(dir, { recursive: true });
  });
});
