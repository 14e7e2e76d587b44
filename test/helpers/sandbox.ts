// The one temp-repo helper: a git repo with an isolated $HOME, $CODEX_HOME and git config next to it, never the real
// ones; removed after the test file. Doctor tests install into it with the BUILT CLI; safety tests compare its trees.
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

/** A temp directory removed after the test file. */
export function tempDir(prefix = 'lg-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export interface Sandbox {
  /** Holds repo (root), home, codex and tmp; cloneSandbox copies it whole. */
  base: string;
  root: string;
  home: string;
  codexHome: string;
  tmp: string;
  env: Record<string, string>;
}

export interface SandboxOptions {
  /** Codex trusts the repo in $CODEX_HOME/config.toml (default true). */
  trust?: boolean;
  /** Fills the fresh repo before the test sees it. */
  fill?: (root: string) => void;
  /** The repo folder's name under base (default 'repo'). */
  repoName?: string;
  /** Set $CODEX_HOME to base/codex and $SHELL to bash (default true); false leaves both unset, as on a bare CI. */
  agentHome?: boolean;
  /** More variables (e.g. CI=true for a run with no terminal). */
  env?: Record<string, string>;
}

/** A git repo at base/<repoName> with its own home, Codex home, temp dir and git config. */
export function sandbox(opts: SandboxOptions = {}): Sandbox {
  const base = tempDir();
  const paths = layout(base, opts.repoName);
  for (const d of [paths.root, paths.home, paths.codexHome, paths.tmp]) mkdirSync(d, { recursive: true });
  writeFileSync(join(paths.home, '.gitconfig'), '[user]\n\tname = t\n\temail = t@example.com\n');
  const agentHome = opts.agentHome !== false;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    ...opts.env,
    ...(agentHome ? { SHELL: '/bin/bash' } : {}),
    ...homeEnv(paths, agentHome),
    GIT_CONFIG_NOSYSTEM: '1',
    LANG: 'C.UTF-8',
  };
  const init = spawnSync('git', ['init', '-q', paths.root], { env, encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`git init failed: ${init.stderr}`);
  if (agentHome && opts.trust !== false) trust(paths);
  opts.fill?.(paths.root);
  return { base, ...paths, env };
}

/** A copy of a sandbox (installed or not), so each test can break its own. */
export function cloneSandbox(sb: Sandbox): Sandbox {
  const base = tempDir();
  cpSync(sb.base, base, { recursive: true, verbatimSymlinks: true });
  const paths = layout(base, sb.root.slice(sb.base.length + 1));
  const agentHome = sb.env.CODEX_HOME !== undefined;
  const env = { ...sb.env, ...homeEnv(paths, agentHome) };
  if (agentHome) trust(paths);
  return { base, ...paths, env };
}

function layout(base: string, repoName = 'repo') {
  return {
    root: join(base, repoName),
    home: join(base, 'home'),
    codexHome: join(base, 'codex'),
    tmp: join(base, 'tmp'),
  };
}

function homeEnv(p: ReturnType<typeof layout>, agentHome: boolean): Record<string, string> {
  return {
    HOME: p.home,
    GIT_CONFIG_GLOBAL: join(p.home, '.gitconfig'),
    TMPDIR: p.tmp,
    ...(agentHome ? { CODEX_HOME: p.codexHome } : {}),
  };
}

function trust(p: ReturnType<typeof layout>): void {
  writeFileSync(join(p.codexHome, 'config.toml'), `[projects.${JSON.stringify(p.root)}]\ntrust_level = "trusted"\n`);
}

export interface Ran {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The built CLI in `cwd` (the process's own when omitted), stdin empty. */
export function runCli(args: string[], env: Record<string, string>, cwd?: string): Ran {
  const r = spawnSync(process.execPath, [cliFile, ...args], {
    cwd,
    env,
    encoding: 'utf8',
    input: '',
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** Install all four tools with the built CLI, the Cursor shell profile included (into the sandbox's $HOME). */
export function install(sb: Sandbox, tools = ALL_TOOLS): void {
  const r = runCli(['--yes', '--cwd', sb.root, '--tools', tools, '--shell-profile'], sb.env);
  if (r.status !== 0) throw new Error(`install failed (${r.status}): ${r.stderr}\n${r.stdout}`);
}

/** The environment of a run with no terminal (CI sets it), plain text. */
export const CI_ENV = { CI: 'true', NO_COLOR: '1' };
