// The terminal report's lines on the real transcripts: no loop of one, no bar for nothing, counted nouns, a project
// for every session, and redaction markers whole. Each case is a real session, edited only where the case needs it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requireCli, runCli } from '../helpers/cli.ts';
import { claudeLoopFile, editLines, fixtureHome, homeEnv } from './fixtures.ts';

let home: string;
const cwd = mkdtempSync(join(tmpdir(), 'lg-audit-lines-'));
beforeAll(() => requireCli());
afterEach(() => rmSync(home, { recursive: true, force: true }));

const audit = (args: string[]) => runCli(['audit', ...args], { cwd, env: homeEnv(home) });

describe('audit report lines (built CLI, real transcripts)', () => {
  it('a call after the loop whose result differs is not a second loop of one', () => {
    home = fixtureHome();
    // After the 6th identical failure (lines 50-51: the call, its result) the agent runs the command a 7th time and it
    // prints something else: the guard, still refusing, would have stepped in, but no second loop began.
    const lines: Record<string, unknown>[] = [];
    editLines(claudeLoopFile(home), (r, i) => {
      if (i === 50 || i === 51) lines.push(r);
      if (i !== 51) return [r];
      const again = (x: Record<string, unknown>) =>
        JSON.parse(
          JSON.stringify(x).replaceAll('_t1_s6', '_t1_s7').replaceAll('No such file or directory', 'Permission denied'),
        );
      return [r, ...lines.map(again)];
    });
    const r = audit(['--json', '--all', '--tool', 'claude']);
    expect(r.status, r.stderr).toBe(0);
    const rep = JSON.parse(r.stdout) as { loops: Array<{ repeats: number }> };
    expect(rep.loops.map((l) => l.repeats)).toEqual([6]);
    const text = audit(['--all', '--tool', 'claude']).stdout;
    expect(text).toContain('×6 identical');
    expect(text).not.toContain('×1 identical');
    expect(text).toMatch(/^ {2}Loops +1 /m);
  });

  it('a day whose loops recorded no usage draws no bar', () => {
    home = fixtureHome();
    // The Claude Code session a day earlier and with its usage records gone (a transcript that does not record
    // tokens); the Codex session keeps its usage on its own day.
    editLines(claudeLoopFile(home), (r) => {
      const m = r.message as Record<string, unknown> | undefined;
      if (m && typeof m === 'object') delete m.usage;
      return [JSON.parse(JSON.stringify(r).replaceAll('2026-11-30T', '2026-11-29T'))];
    });
    const text = audit(['--all', '--tool', 'claude,codex']).stdout;
    const day = (d: string) => text.split('\n').find((l) => l.startsWith(`  ${d}`)) ?? '';
    expect(day('2026-11-30'), text).toContain('█');
    expect(day('2026-11-29'), text).toContain('not recorded');
    expect(day('2026-11-29')).not.toContain('█');
  });

  it('counted nouns agree with their number', () => {
    home = fixtureHome();
    const text = audit(['--all', '--tool', 'gemini']).stdout;
    expect(text).toContain('1 session,');
    expect(text).toContain('Read 1 transcript ');
    expect(text).not.toMatch(/\b1 (sessions|transcripts|loops|requests)\b/);
  });

  it('a session that recorded no working directory is "no project recorded", not "(unknown)"', () => {
    home = fixtureHome();
    editLines(claudeLoopFile(home), (r) => {
      delete r.cwd;
      return [r];
    });
    const text = audit(['--all', '--tool', 'claude']).stdout;
    expect(text).toContain('no project recorded');
    expect(text).not.toContain('(unknown)');
  });

  it('--redact keeps its markers whole', () => {
    home = fixtureHome();
    const text = audit(['--all', '--redact']).stdout;
    expect(text).toContain('session <session-1>');
    expect(text).toContain('<project-1>');
    expect(text.split('<').length).toBe(text.split('>').length);
    expect(text).not.toContain('/home/dev');
  });
});
