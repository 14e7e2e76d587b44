// Never hangs, never blows up: FIFOs and other non-files are refused without being opened, oversized configs are
// refused with the limit named, and an empty JSON config means {}.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_CONFIG_BYTES } from '../../src/scaffold/read-config.ts';
import { cliFile, requireBuilt } from '../helpers/paths.ts';
import { CI_ENV, runCli, sandbox } from '../helpers/sandbox.ts';

beforeAll(() => requireBuilt());

/** Run without blocking the worker, with a hard stop, so a hang fails the test instead of freezing it. */
function runBounded(
  args: string[],
  cwd: string,
  env: Record<string, string>,
  limitMs = 30_000,
): Promise<{ status: number | null; stdout: string; stderr: string; ms: number }> {
  const t = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliFile, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, ms: Date.now() - t });
    });
  });
}

describe('non-regular files', () => {
  it.each(['.claude/settings.json', 'CLAUDE.md', 'AGENTS.md'])(
    'a FIFO at %s: apply, --check and doctor all end; apply/check exit 2 naming it',
    async (rel) => {
      const b = sandbox({
        fill: (root) => {
          mkdirSync(join(root, '.claude'), { recursive: true });
          const fifo = spawnSync('mkfifo', [join(root, rel)]);
          if (fifo.status !== 0) throw new Error('mkfifo failed');
        },
        agentHome: false,
        env: CI_ENV,
      });
      for (const args of [
        ['--yes', '--tools', 'claude'],
        ['--check', '--tools', 'claude'],
      ]) {
        const r = await runBounded(args, b.root, b.env);
        expect(r.status, `${args[0]} ${r.stderr}`).toBe(2);
        expect(r.stderr).toContain(`${rel}: is a named pipe (FIFO)`);
      }
      const d = await runBounded(['doctor'], b.root, b.env, 60_000);
      expect(d.status).not.toBeNull();
    },
    120_000,
  );

  it('a directory where AGENTS.md goes: exit 2 naming AGENTS.md, nothing written, and no false "nothing written" elsewhere', () => {
    const b = sandbox({
      fill: (root) => {
        mkdirSync(join(root, '.claude'));
        writeFileSync(join(root, '.claude/settings.json'), '{}\n');
        mkdirSync(join(root, 'AGENTS.md'));
      },
      agentHome: false,
      env: CI_ENV,
    });
    const r = runCli(['--yes'], b.env, b.root);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('AGENTS.md: is a directory');
    expect(readFileSync(join(b.root, '.claude/settings.json'), 'utf8')).toBe('{}\n');
  });
});

describe('sizes', () => {
  it(`a settings.json over the cap (${MAX_CONFIG_BYTES} bytes): exit 2 naming the limit, quickly`, () => {
    const b = sandbox({
      fill: (root) => {
        mkdirSync(join(root, '.claude'));
        writeFileSync(join(root, '.claude/settings.json'), `{"x": "${'a'.repeat(MAX_CONFIG_BYTES)}"}\n`);
      },
      agentHome: false,
      env: CI_ENV,
    });
    const r = runCli(['--yes', '--tools', 'claude'], b.env, b.root);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/over the 4 MB limit for a config file/);
  });

  it('a settings.json just under the cap is edited', () => {
    const big = `{\n  "permissions": { "allow": [${Array.from({ length: 1000 }, (_, i) => JSON.stringify(`Bash(tool-${i} ${'x'.repeat(3000)})`)).join(',\n    ')}] }\n}\n`;
    expect(big.length).toBeLessThan(MAX_CONFIG_BYTES);
    const b = sandbox({
      fill: (root) => {
        mkdirSync(join(root, '.claude'));
        writeFileSync(join(root, '.claude/settings.json'), big);
      },
      agentHome: false,
      env: CI_ENV,
    });
    const t = Date.now();
    const r = runCli(['--yes', '--tools', 'claude'], b.env, b.root);
    console.log(`${big.length}-byte settings.json applied in ${Date.now() - t} ms`);
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(b.root, '.claude/settings.json'), 'utf8')).toContain('loop-guard');
  }, 60_000);

  it('an empty settings.json is {}: applied, and the result parses', () => {
    const b = sandbox({
      fill: (root) => {
        mkdirSync(join(root, '.claude'));
        writeFileSync(join(root, '.claude/settings.json'), '');
      },
      agentHome: false,
      env: CI_ENV,
    });
    const r = runCli(['--yes', '--tools', 'claude'], b.env, b.root);
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(join(b.root, '.claude/settings.json'), 'utf8'));
    expect(doc.hooks.PreToolUse).toBeDefined();
  });
});
