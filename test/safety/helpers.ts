// Shared by the safety suite: repos with an isolated HOME next to them, trees compared byte for byte.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { cliFile } from '../helpers/paths.ts';

const made: string[] = [];
afterAll(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A temp directory removed after the test file. */
export function scratch(prefix = 'lg-safety-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export interface Box {
  base: string;
  root: string;
  home: string;
  env: Record<string, string>;
}

/** A git repo at base/repo (optionally a copy of `fill`), with its own HOME at base/home. */
export function box(fill?: (root: string) => void, repoName = 'repo'): Box {
  const base = scratch();
  const root = join(base, repoName);
  const home = join(base, 'home');
  mkdirSync(root, { recursive: true });
  mkdirSync(home, { recursive: true });
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    CI: 'true',
    NO_COLOR: '1',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(home, '.gitconfig'),
  };
  const git = spawnSync('git', ['init', '-q', root], { env, encoding: 'utf8' });
  if (git.status !== 0) throw new Error(`git init failed: ${git.stderr}`);
  fill?.(root);
  return { base, root, home, env };
}

export function copyBox(b: Box): Box {
  const base = scratch();
  cpSync(b.base, base, { recursive: true, verbatimSymlinks: true });
  const root = join(base, 'repo');
  const home = join(base, 'home');
  return { base, root, home, env: { ...b.env, HOME: home, GIT_CONFIG_GLOBAL: join(home, '.gitconfig') } };
}

export interface Ran {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function cli(args: string[], cwd: string, env: Record<string, string>, extra: Record<string, string> = {}): Ran {
  const r = spawnSync(process.execPath, [cliFile, ...args], {
    cwd,
    env: { ...env, ...extra },
    encoding: 'utf8',
    input: '',
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}
