// Run the BUILT CLI against a temp copy of a fixture repo, and read the result back as a tree.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import { cliFile, nodeBin, repoRoot, requireFiles } from './paths.ts';

export { cliFile } from './paths.ts';
export const fixturesDir = join(repoRoot, 'test', 'fixtures', 'repos');

export function requireCli(): void {
  requireFiles([cliFile]);
}

/** A temp git repository holding a copy of the fixture. */
export function fixtureRepo(name: string | null): string {
  const dir = mkdtempSync(join(tmpdir(), `lg-repo-${name ?? 'blank'}-`));
  if (name) cpSync(join(fixturesDir, name), dir, { recursive: true });
  const git = spawnSync('git', ['init', '-q'], { cwd: dir, encoding: 'utf8' });
  if (git.status !== 0) throw new Error(`git init failed: ${git.stderr}`);
  return dir;
}

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** A HOME next to the repository, never the repository itself (the CLI refuses to treat $HOME as a project). */
export function homeFor(cwd: string): string {
  const home = `${cwd.replace(/\/+$/, '')}.home`;
  mkdirSync(home, { recursive: true });
  return home;
}

function cliEnv(opts: { cwd: string; env?: Record<string, string> }): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: opts.env?.HOME ?? homeFor(opts.cwd),
    CI: 'true',
    NO_COLOR: '1',
    ...opts.env,
  };
}

/** No TTY and no stdin, like CI: the CLI must never wait. */
export function runCli(args: string[], opts: { cwd: string; env?: Record<string, string> }): CliRun {
  const env = cliEnv(opts);
  const r = spawnSync(nodeBin, [cliFile, ...args], {
    cwd: opts.cwd,
    env,
    encoding: 'utf8',
    input: '',
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** runCli without blocking the test worker, so independent repos can run side by side. */
export function runCliAsync(args: string[], opts: { cwd: string; env?: Record<string, string> }): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(nodeBin, [cliFile, ...args], {
      cwd: opts.cwd,
      env: cliEnv(opts),
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end();
  });
}

/** Every file under dir (but .git) → content, sorted; modes of executable files noted. */
export function readTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      if (name === '.git') continue;
      const abs = join(d, name);
      const st = statSync(abs);
      if (st.isDirectory()) walk(abs);
      else out.set(relative(dir, abs), readFileSync(abs, 'utf8'));
    }
  };
  walk(dir);
  return out;
}

export function modeOf(dir: string, rel: string): number {
  return statSync(join(dir, rel)).mode & 0o777;
}

/** A readable dump of a tree for file snapshots; the guard file's body is elided (it has its own tests); the plugin
 * loaders are shown whole (they are small and reviewed like any other file we write). */
export function dumpTree(tree: Map<string, string>): string {
  const parts: string[] = [];
  for (const [path, content] of tree) {
    let shown = content;
    if (path === '.agents/hooks/loop-guard.cjs' || path === '.agents/hooks/loop-guard.mjs') {
      shown = `${content.split('\n')[0]}\n… (built file; its own tests cover the body)\n`;
    }
    // The manifest's hashes of the built files change with every guard build; theirs are not what this snapshot is about.
    if (path === '.agents/loop-guard.json')
      shown = shown.replace(/("\.agents\/hooks\/loop-guard\.cjs"): "[0-9a-f]{16}"/g, '$1: "<hash of the built file>"');
    parts.push(`=== ${path}\n${shown.replace(/\r/g, '␍')}`);
  }
  return `${parts.join('\n')}\n`;
}

/** Stable output: temp paths and the version replaced. */
export function scrub(text: string, dir: string): string {
  return (
    text
      .split(dir)
      .join('<repo>')
      .replace(/\/tmp\/lg-[\w-]+/g, '<tmp>')
      .replace(/@@ our file, (?:replaced: )?\d+(?: → \d+)? lines/g, '@@ our file, <n> lines')
      // Our built files grow with every guard change; their sizes are not what an output snapshot is about.
      .replace(/\(\d+ lines, ours\)/g, '(<n> lines, ours)')
      .replace(/ sha=[0-9a-f]{12}/g, ' sha=<sha>')
  );
}

/** A rerun after an install changes no byte and says so, and `--check` passes: what every install test asks next. */
export async function expectStableRerun(dir: string, installed: Map<string, string>): Promise<void> {
  const rerun = await runCliAsync(['--yes'], { cwd: dir });
  expect(rerun.status, rerun.stdout + rerun.stderr).toBe(0);
  expect(rerun.stdout).toContain('Everything is up to date.');
  expect(readTree(dir)).toEqual(installed);
  const check = await runCliAsync(['--check'], { cwd: dir });
  expect(check.status, check.stdout + check.stderr).toBe(0);
}
