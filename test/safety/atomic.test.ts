// All or nothing: an apply or remove killed (SIGKILL) at every file-system step, then any next run, leaves the
// repository either exactly as before or exactly as a completed run would, with no temp file, lock or journal left.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readTree } from '../helpers/cli.ts';
import { cliFile, requireBuilt } from '../helpers/paths.ts';
import { CI_ENV, cloneSandbox, runCli, sandbox, type Sandbox } from '../helpers/sandbox.ts';
import { mkdirSync, writeFileSync } from 'node:fs';

const TOOLS = ['--tools', 'claude,codex,cursor,opencode'];

function seeded(): Sandbox {
  return sandbox({
    fill: (root) => {
      mkdirSync(join(root, '.claude'));
      writeFileSync(
        join(root, '.claude/settings.json'),
        '{\n  // mine\n  "permissions": { "allow": ["Bash(ls)"] }\n}\n',
      );
      writeFileSync(join(root, 'AGENTS.md'), '# Project rules\n\nUse pnpm.\n');
      writeFileSync(join(root, 'CLAUDE.md'), '# Claude\n');
    },
    agentHome: false,
    env: CI_ENV,
  });
}

let original: Sandbox;
let before: Map<string, string>;
let applied: Map<string, string>;
beforeAll(() => {
  requireBuilt();
  original = seeded();
  before = readTree(original.root);
  const done = cloneSandbox(original);
  const r = runCli(['--yes', ...TOOLS], done.env, done.root);
  if (r.status !== 0) throw new Error(r.stderr);
  applied = readTree(done.root);
}, 60_000);

const same = (a: Map<string, string>, b: Map<string, string>) => JSON.stringify([...a]) === JSON.stringify([...b]);

/** Kill at step n; then a --check run recovers. Returns whether the kill happened, and the tree after recovery. */
function killAt(
  from: Sandbox,
  args: string[],
  n: number,
): { killed: boolean; tree: Map<string, string>; recoverOut: string } {
  const r = runCli(args, { ...from.env, LOOP_GUARD_TEST_KILL_AT: String(n) }, from.root);
  const killed = r.signal === 'SIGKILL';
  if (!killed) expect(r.status, r.stderr).toBe(0);
  const rec = runCli(['--check', ...TOOLS], from.env, from.root);
  expect(rec.status === 0 || rec.status === 1, rec.stderr).toBe(true);
  return { killed, tree: readTree(from.root), recoverOut: rec.stdout };
}

describe('kill at every step', () => {
  it('apply: each kill is rolled back (byte-identical) or forward (complete), never in between', () => {
    let steps = 0;
    let back = 0;
    let forward = 0;
    for (let n = 1; n < 200; n++) {
      const b = cloneSandbox(original);
      const { killed, tree } = killAt(b, ['--yes', ...TOOLS], n);
      if (!killed) break;
      steps = n;
      if (same(tree, before)) back++;
      else if (same(tree, applied)) forward++;
      else expect(tree, `kill at step ${n} left a mixed tree`).toEqual(applied);
    }
    console.log(`apply: ${steps} kill points, ${back} rolled back, ${forward} rolled forward`);
    expect(steps).toBeGreaterThan(10);
    expect(back).toBeGreaterThan(0);
    expect(forward).toBeGreaterThan(0);
  }, 300_000);

  it('remove: each kill leaves the installed tree or the original, byte for byte', () => {
    const installed = cloneSandbox(original);
    expect(runCli(['--yes', ...TOOLS], installed.env, installed.root).status).toBe(0);
    let steps = 0;
    for (let n = 1; n < 200; n++) {
      const b = cloneSandbox(installed);
      const r = runCli(['--remove', '--yes'], { ...b.env, LOOP_GUARD_TEST_KILL_AT: String(n) }, b.root);
      if (r.signal !== 'SIGKILL') {
        expect(r.status, r.stderr).toBe(0);
        break;
      }
      steps = n;
      runCli(['--dry-run'], b.env, b.root);
      const tree = readTree(b.root);
      expect(same(tree, before) || same(tree, applied), `kill at step ${n}`).toBe(true);
    }
    console.log(`remove: ${steps} kill points`);
    expect(steps).toBeGreaterThan(3);
  }, 300_000);

  it('a rerun after a kill in staging completes the install and leaves no temp file', () => {
    const b = cloneSandbox(original);
    expect(runCli(['--yes', ...TOOLS], { ...b.env, LOOP_GUARD_TEST_KILL_AT: '12' }, b.root).signal).toBe('SIGKILL');
    const names = () => readdirSync(b.root, { recursive: true }).map(String);
    expect(names().some((n) => n.endsWith('.tmp'))).toBe(true);
    const r = runCli(['--yes', ...TOOLS], b.env, b.root);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/interrupted/);
    expect(names().filter((n) => n.endsWith('.tmp') || n.includes('loop-guard.lock') || n.includes('journal'))).toEqual(
      [],
    );
    expect(readTree(b.root)).toEqual(applied);
  }, 60_000);
});

describe('random kills', () => {
  it('30 applies killed at a random moment: each recovers to before or complete', async () => {
    let killedCount = 0;
    for (let i = 0; i < 30; i++) {
      const b = cloneSandbox(original);
      const child = spawn(process.execPath, [cliFile, '--yes', ...TOOLS], { cwd: b.root, env: b.env, stdio: 'ignore' });
      const delay = 50 + Math.floor(Math.random() * 750);
      const exited = await new Promise<NodeJS.Signals | null>((resolve) => {
        const t = setTimeout(() => child.kill('SIGKILL'), delay);
        child.on('exit', (_code, signal) => {
          clearTimeout(t);
          resolve(signal);
        });
      });
      if (exited === 'SIGKILL') killedCount++;
      runCli(['--check', ...TOOLS], b.env, b.root);
      const tree = readTree(b.root);
      expect(same(tree, before) || same(tree, applied), `trial ${i} (kill after ${delay} ms)`).toBe(true);
    }
    console.log(`random kills: ${killedCount}/30 runs were killed before they finished`);
  }, 300_000);
});
