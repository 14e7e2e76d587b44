// One run at a time per repository: concurrent applies serialize and both tools end up recorded; a dead owner's lock is taken over.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readTree } from '../helpers/cli.ts';
import { cliFile, requireBuilt } from '../helpers/paths.ts';
import { CI_ENV, runCli, sandbox, type Sandbox } from '../helpers/sandbox.ts';

beforeAll(() => requireBuilt());

function runAsync(b: Sandbox, args: string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliFile, ...args], {
      cwd: b.root,
      env: b.env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

describe('concurrent runs', () => {
  it('20 trials of `--tools claude` and `--tools codex` at once: both recorded, --remove gives back the original', async () => {
    const started = Date.now();
    for (let trial = 0; trial < 20; trial++) {
      const b = sandbox({ agentHome: false, env: CI_ENV });
      const before = readTree(b.root);
      const [a, c] = await Promise.all([
        runAsync(b, ['--yes', '--tools', 'claude']),
        runAsync(b, ['--yes', '--tools', 'codex']),
      ]);
      expect(a.status, a.stderr).toBe(0);
      expect(c.status, c.stderr).toBe(0);
      const manifest = JSON.parse(readFileSync(join(b.root, '.agents/loop-guard.json'), 'utf8'));
      expect(manifest.tools, `trial ${trial}`).toEqual(['claude', 'codex']);
      expect(existsSync(join(b.root, '.loop-guard.lock'))).toBe(false);
      expect(existsSync(join(b.root, '.git', 'loop-guard.lock'))).toBe(false);
      const r = runCli(['--remove', '--yes'], b.env, b.root);
      expect(r.status, r.stderr).toBe(0);
      expect(readTree(b.root), `trial ${trial}`).toEqual(before);
    }
    console.log(`20 concurrent trials in ${Date.now() - started} ms`);
  }, 300_000);

  it('a lock left by a dead run is taken over: in .git, and in the working tree where versions before kept it', () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    for (const place of ['.git/loop-guard.lock', '.loop-guard.lock']) {
      const b = sandbox({ agentHome: false, env: CI_ENV });
      writeFileSync(join(b.root, place), `${dead.stdout}\n`);
      const r = runCli(['--yes', '--tools', 'claude'], b.env, b.root);
      expect(r.status, `${place}: ${r.stderr}`).toBe(0);
      expect(existsSync(join(b.root, place)), place).toBe(false);
      expect(existsSync(join(b.root, '.git', 'loop-guard.lock')), place).toBe(false);
    }
  });

  it('a live run holding the lock in .git is waited for, and the message names .git/loop-guard.lock', () => {
    const b = sandbox({ agentHome: false, env: CI_ENV });
    writeFileSync(join(b.root, '.git', 'loop-guard.lock'), `${process.pid}\n`);
    const r = runCli(['--yes', '--tools', 'claude'], { ...b.env, LOOP_GUARD_TEST_LOCK_WAIT_MS: '200' }, b.root);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`another create-loop-guard run (pid ${process.pid})`);
    expect(r.stderr).toContain('delete .git/loop-guard.lock');
    expect(existsSync(join(b.root, '.agents'))).toBe(false);
  });

  it('a directory not under git (--no-git) keeps the lock in itself', () => {
    const b = sandbox({ agentHome: false, env: CI_ENV });
    rmSync(join(b.root, '.git'), { recursive: true, force: true });
    writeFileSync(join(b.root, '.loop-guard.lock'), `${process.pid}\n`);
    const r = runCli(
      ['--yes', '--tools', 'claude', '--cwd', b.root, '--no-git'],
      { ...b.env, LOOP_GUARD_TEST_LOCK_WAIT_MS: '200' },
      b.root,
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('delete .loop-guard.lock');
  });

  it('an empty lock file (a run killed between creating and writing it) is stale after a moment', () => {
    const b = sandbox({ agentHome: false, env: CI_ENV });
    const lock = join(b.root, '.loop-guard.lock');
    writeFileSync(lock, '');
    spawnSync('touch', ['-d', '1 minute ago', lock]);
    const r = runCli(['--yes', '--tools', 'claude'], b.env, b.root);
    expect(r.status, r.stderr).toBe(0);
  });
});
