// Doctor tests: temp repos installed by the BUILT CLI, an isolated $HOME, $CODEX_HOME and git config, never the real ones.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { cliFile, guardFile, repoRoot } from './paths.ts';

export { cliFile, requireBuilt } from './paths.ts';
export const mainDir = repoRoot;
export const builtGuard = guardFile;
export const ALL_TOOLS = 'claude,codex,cursor,opencode';

const made: string[] = [];
// Registered while the importing test file is collected, so each file removes what it made.
afterAll(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

export function tempDir(prefix = 'lg-doctor-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export interface Sandbox {
  root: string;
  home: string;
  codexHome: string;
  tmp: string;
  env: Record<string, string>;
}

/** A git repo plus a home, a Codex home and a git config of its own; Codex trusts the repo unless told not to. */
export function sandbox(opts: { trust?: boolean } = {}): Sandbox {
  const base = tempDir();
  const root = join(base, 'repo');
  const home = join(base, 'home');
  const codexHome = join(base, 'codex');
  const tmp = join(base, 'tmp');
  for (const d of [root, home, codexHome, tmp]) mkdirSync(d, { recursive: true });
  const gitconfig = join(home, '.gitconfig');
  writeFileSync(gitconfig, '[user]\n\tname = t\n\temail = t@example.com\n');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    SHELL: '/bin/bash',
    CODEX_HOME: codexHome,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: gitconfig,
    TMPDIR: tmp,
    LANG: 'C.UTF-8',
  };
  const init = spawnSync('git', ['init', '-q', root], { env, encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`git init failed: ${init.stderr}`);
  if (opts.trust !== false)
    writeFileSync(join(codexHome, 'config.toml'), `[projects.${JSON.stringify(root)}]\ntrust_level = "trusted"\n`);
  return { root, home, codexHome, tmp, env };
}

export function runCli(
  args: string[],
  env: Record<string, string>,
): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cliFile, ...args], { env, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Install all four tools with the built CLI, the Cursor shell profile included (into the sandbox's $HOME). */
export function install(sb: Sandbox, tools = ALL_TOOLS): void {
  const r = runCli(['--yes', '--cwd', sb.root, '--tools', tools, '--shell-profile'], sb.env);
  if (r.status !== 0) throw new Error(`install failed (${r.status}): ${r.stderr}\n${r.stdout}`);
}

/** A copy of an installed sandbox, so each test can break its own. */
export function cloneSandbox(sb: Sandbox): Sandbox {
  const base = tempDir();
  cpSync(join(sb.root, '..'), base, { recursive: true, verbatimSymlinks: true });
  const root = join(base, 'repo');
  const home = join(base, 'home');
  const codexHome = join(base, 'codex');
  const tmp = join(base, 'tmp');
  const env = {
    ...sb.env,
    HOME: home,
    CODEX_HOME: codexHome,
    GIT_CONFIG_GLOBAL: join(home, '.gitconfig'),
    TMPDIR: tmp,
  };
  writeFileSync(join(codexHome, 'config.toml'), `[projects.${JSON.stringify(root)}]\ntrust_level = "trusted"\n`);
  return { root, home, codexHome, tmp, env };
}
