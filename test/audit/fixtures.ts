// The real transcripts in test/fixtures/transcripts, laid out as a HOME the way each CLI keeps them.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../helpers/guard.ts';

export const transcripts = join(repoRoot, 'test', 'fixtures', 'transcripts');
export const LOOP_CMD = 'echo ran >> ran.txt; ls /definitely-missing-dir';
export const PROGRESS_CMD = 'echo ran >> ran.txt; wc -l < ran.txt';

/** A temp HOME holding every fixture transcript where its CLI would have written it. */
export function fixtureHome(opts: { wal?: boolean } = {}): string {
  const home = mkdtempSync(join(tmpdir(), 'lg-audit-home-'));
  cpSync(join(transcripts, 'claude'), join(home, '.claude'), { recursive: true });
  cpSync(join(transcripts, 'codex'), join(home, '.codex'), { recursive: true });
  mkdirSync(join(home, '.local', 'share'), { recursive: true });
  cpSync(join(transcripts, opts.wal ? 'opencode-wal' : 'opencode'), join(home, '.local', 'share', 'opencode'), {
    recursive: true,
  });
  cpSync(join(transcripts, 'gemini'), join(home, '.gemini'), { recursive: true });
  cpSync(join(transcripts, 'copilot'), join(home, '.copilot'), { recursive: true });
  cpSync(join(transcripts, 'qwen'), home, { recursive: true });
  cpSync(join(transcripts, 'cline'), home, { recursive: true });
  cpSync(join(transcripts, 'kilo'), join(home, '.local', 'share', 'kilo'), { recursive: true });
  return home;
}

/** The environment a child gets: this HOME only, never the real one. */
export function homeEnv(home: string): Record<string, string> {
  return {
    HOME: home,
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    CODEX_HOME: join(home, '.codex'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    COPILOT_HOME: join(home, '.copilot'),
  };
}

/** The real Claude Code session that loops (6 identical `ls` failures), inside a fixture HOME. */
export function claudeLoopFile(home: string): string {
  return join(home, '.claude', 'projects', '-home-dev-loop', '23de7ca1-4800-4e2f-a018-a131f1951a9d.jsonl');
}

/** Rewrites a JSONL transcript line by line (a real session with one thing changed, for a case the runs did not make). */
export function editLines(file: string, edit: (rec: Record<string, unknown>, i: number) => unknown[]): void {
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const out = lines.flatMap((l, i) => edit(JSON.parse(l) as Record<string, unknown>, i).map((r) => JSON.stringify(r)));
  writeFileSync(file, `${out.join('\n')}\n`);
}
