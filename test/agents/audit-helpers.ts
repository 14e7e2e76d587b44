// What both real-CLI audit suites share (audit-claude-codex-opencode.test.ts, audit-qwen-cline-kilo.test.ts): the two scripted sessions, where each CLI's files are found and kept, and the built CLI's `audit --json`.
import { cpSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { runProcess } from './runners/index.ts';
import { CLI_PATH } from './helpers.ts';

/** The looping session's command: a missing directory, the same failure every time. */
export const LOOP_CMD = 'echo ran >> ran.txt; ls /definitely-missing-dir';
/** The progress session's command: its output changes every run. */
export const PROGRESS_CMD = 'echo ran >> ran.txt; wc -l < ran.txt';

/** Every file below `dir` (or `dir` itself when it is a file; nothing when it is missing). */
export function listFiles(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return statSync(dir, { throwIfNoEntry: false })?.isFile() ? [dir] : [];
  }
  return entries.flatMap((e) => (statSync(join(dir, e)).isDirectory() ? listFiles(join(dir, e)) : [join(dir, e)]));
}

/** LOOP_GUARD_SAVE_TRANSCRIPTS=<dir>: copy the session files a CLI wrote into <dir>/<tool>/ (how the fixtures were made). */
export function saveTranscripts(tool: string, home: string, files: readonly string[], note: string): void {
  const saveTo = process.env.LOOP_GUARD_SAVE_TRANSCRIPTS;
  if (!saveTo) return;
  for (const f of files) {
    const dest = join(saveTo, tool, relative(home, f));
    mkdirSync(join(dest, '..'), { recursive: true });
    cpSync(f, dest);
  }
  console.log(`[audit] ${tool}: saved ${files.length} files; ${note}`);
}

/** The built CLI's `audit --json` in `repo`, with `home` as every CLI's home and data directory. */
export function runAudit(home: string, repo: string, extra: string[] = []) {
  return runProcess(process.execPath, [CLI_PATH, 'audit', '--json', ...extra], {
    cwd: repo,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      CLAUDE_CONFIG_DIR: join(home, '.claude'),
      CODEX_HOME: join(home, '.codex'),
      XDG_DATA_HOME: join(home, '.local/share'),
      XDG_STATE_HOME: join(home, '.local/state'),
      NO_COLOR: '1',
    },
    timeoutMs: 60_000,
  });
}
