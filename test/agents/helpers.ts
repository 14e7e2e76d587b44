// Fixture repos for the real-agent scenarios: a fresh git repo with history, set up by the BUILT
// create-loop-guard CLI exactly as a user would run it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, runProcess } from './runners/index.ts';

// LOOP_GUARD_CLI may point at another build of the same CLI (e.g. one unpacked from the npm tarball).
export const CLI_PATH = process.env.LOOP_GUARD_CLI || join(repoRoot, 'dist', 'cli.mjs');
export const FIRST_COMMIT_SUBJECT = 'Initial commit of the loop-guard fixture';

/** Our own marker: every message the guard adds to a model's context starts with it. */
export const MARKER = 'loop-guard:';

function git(dir: string, ...args: string[]): string {
  // Explicit env: the developer's global git config (signing, hooks, templates) must not leak in.
  return execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, GIT_CONFIG_NOSYSTEM: '1', LANG: 'C.UTF-8' },
  });
}

/** A temp git repo with one commit, so `git log` has something to show. */
export function makeRepo(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'lg-e2e-repo-')));
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'Loop Guard Test');
  git(dir, 'config', 'user.email', 'loop-guard-test@example.invalid');
  git(dir, 'config', 'commit.gpgsign', 'false');
  writeFileSync(join(dir, 'README.md'), '# fixture\n');
  git(dir, 'add', 'README.md');
  git(dir, 'commit', '-q', '-m', FIRST_COMMIT_SUBJECT);
  return dir;
}

export function commitCount(dir: string): number {
  return Number(git(dir, 'rev-list', '--count', 'HEAD').trim());
}

/** Non-empty lines of a file in the repo; 0 when the file does not exist. */
export function lineCount(dir: string, file: string): number {
  const p = join(dir, file);
  if (!existsSync(p)) return 0;
  return readFileSync(p, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0).length;
}

/** Runs the built CLI non-interactively, as CI or a user with --yes would. Throws with its output on failure. */
export async function scaffold(
  dir: string,
  tools = 'claude,codex,opencode',
  expect = [
    '.agents/hooks/loop-guard.cjs',
    '.claude/settings.json',
    '.codex/hooks.json',
    '.opencode/plugins/loop-guard.js',
  ],
): Promise<string> {
  if (!existsSync(CLI_PATH))
    throw new Error(`${CLI_PATH} does not exist: run \`npm run build\` first (npm run test:agents does).`);
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'lg-e2e-scaffold-home-')));
  const r = await runProcess(process.execPath, [CLI_PATH, '--yes', '--cwd', dir, '--tools', tools], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CI: 'true', NO_COLOR: '1', LANG: 'C.UTF-8' },
    timeoutMs: 60_000,
  }).finally(() => rmSync(home, { recursive: true, force: true }));
  if (r.exitCode !== 0 || r.timedOut) {
    throw new Error(`create-loop-guard failed (exit ${r.exitCode}, timedOut=${r.timedOut}):\n${r.stdout}\n${r.stderr}`);
  }
  for (const f of expect) {
    if (!existsSync(join(dir, f)))
      throw new Error(`create-loop-guard exited 0 but did not write ${f}:\n${r.stdout}\n${r.stderr}`);
  }
  return r.stdout + r.stderr;
}
