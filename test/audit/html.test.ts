// The HTML report as a file: self-contained (no script, no font, no address to fetch), sane in size on a loop of
// 1,159 calls (one path, not a node per call), written where asked or to the default name, and its path printed.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireCli, runCli } from '../helpers/cli.ts';
import { claudeLoopFile, editLines, fixtureHome, homeEnv } from './fixtures.ts';

let home: string;
let cwd: string;
beforeAll(() => {
  requireCli();
  home = fixtureHome();
  cwd = mkdtempSync(join(tmpdir(), 'lg-audit-html-file-'));
});
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

describe('audit --html (built CLI, real transcripts)', () => {
  it('--html alone writes loop-guard-audit.html here and prints its path; the page fetches nothing', () => {
    const r = runCli(['audit', '--all', '--html'], { cwd, env: homeEnv(home) });
    expect(r.status, r.stderr).toBe(0);
    const file = join(cwd, 'loop-guard-audit.html');
    expect(r.stdout).toContain(`HTML report: ${file}`);
    const html = readFileSync(file, 'utf8');
    expect(html).not.toMatch(/<script|<link|@import|url\(|<img|<iframe/i);
    expect(html).not.toMatch(/(src|href)=/i);
    expect(html).toContain("default-src 'none'");
    expect((html.match(/<svg class="timeline"/g) ?? []).length).toBe(6);
  });

  it('with --json the JSON stays alone on stdout and the path goes to stderr', () => {
    const file = join(cwd, 'both.html');
    const r = runCli(['audit', '--all', '--json', '--html', file], { cwd, env: homeEnv(home) });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).loops).toHaveLength(6);
    expect(r.stderr).toContain(`HTML report: ${file}`);
    expect(existsSync(file)).toBe(true);
  });

  it('a loop of 1,159 calls is one path: the page stays small', () => {
    const h = fixtureHome();
    try {
      // The real session's 6th call and result repeated 1,153 more times, 5 s apart: 1,159 identical failures.
      const pair: Record<string, unknown>[] = [];
      editLines(claudeLoopFile(h), (r, i) => {
        if (i === 50 || i === 51) pair.push(r);
        if (i !== 51) return [r];
        const t0 = Date.parse(String(r.timestamp));
        const more = [];
        for (let k = 1; k <= 1153; k++) {
          const at = new Date(t0 + k * 5000).toISOString();
          for (const p of pair) {
            const rec = JSON.parse(JSON.stringify(p).replaceAll('_t1_s6', `_t1_x${k}`));
            rec.timestamp = at;
            if (rec.message?.id) rec.message.id = `${rec.message.id}_${k}`;
            rec.uuid = `${rec.uuid}-${k}`;
            more.push(rec);
          }
        }
        return [r, ...more];
      });
      const file = join(cwd, 'big.html');
      const r = runCli(['audit', '--all', '--tool', 'claude', '--html', file], { cwd, env: homeEnv(h) });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain('×1159 identical');
      const html = readFileSync(file, 'utf8');
      expect((html.match(/<path /g) ?? []).length).toBe(1);
      expect((html.match(/M[\d.]+ 14v18/g) ?? []).length).toBe(1159);
      // Elements in the page: a few hundred, not thousands.
      expect((html.match(/<[a-z]/g) ?? []).length).toBeLessThan(400);
      expect(statSync(file).size).toBeLessThan(60_000);
    } finally {
      rmSync(h, { recursive: true, force: true });
    }
  });

  it('an unwritable --html path: exit 2 naming it', () => {
    const file = join(cwd, 'no-such-dir', 'x.html');
    const r = runCli(['audit', '--all', '--html', file], { cwd, env: homeEnv(home) });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(file);
  });
});
