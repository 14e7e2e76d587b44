// The default audit (this repository's sessions) when none ran here: where it looked, what is there for other
// projects, and the line to run; and --all ranking projects by the money their loops lost.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireCli, runCli } from '../helpers/cli.ts';
import { editLines, fixtureHome, homeEnv } from './fixtures.ts';

let home: string;
let cwd: string;
beforeAll(() => {
  requireCli();
  home = fixtureHome();
  cwd = mkdtempSync(join(tmpdir(), 'lg-audit-default-'));
});
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

describe('audit default scope (built CLI, real transcripts)', () => {
  it('no session here: the folders read per tool, the sessions elsewhere, and the exact --all / --since lines', () => {
    const r = runCli(['audit'], { cwd, env: homeEnv(home) });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('Folders read');
    expect(r.stdout).toMatch(/Claude Code +~\/\.claude\/projects +2 transcripts, 2 sessions of other projects/);
    expect(r.stdout).toMatch(/Codex +~\/\.codex\/sessions +2 transcripts/);
    expect(r.stdout).toMatch(/OpenCode +~\/\.local\/share\/opencode +1 database, 2 sessions of other projects/);
    expect(r.stdout).toContain('14 sessions of other projects are there');
    expect(r.stdout).toContain('\n  npx create-loop-guard audit --all\n');
    expect(r.stdout).toContain('\n  npx create-loop-guard audit --all --since 30d\n');
    const rep = JSON.parse(runCli(['audit', '--json'], { cwd, env: homeEnv(home) }).stdout);
    expect(rep.elsewhere.sessions).toBe(14);
    expect(rep.elsewhere.byTool).toMatchObject({ claude: 2, codex: 2, opencode: 2, gemini: 1, kilo: 2 });
    expect(rep.read.folders.map((f: { tool: string }) => f.tool)).toHaveLength(8);
    // The line it prints is the one that finds the loops.
    const all = JSON.parse(runCli(['audit', '--json', '--all'], { cwd, env: homeEnv(home) }).stdout);
    expect(all.loops).toHaveLength(6);
    expect(all.elsewhere).toBeNull();
  });

  it('a tool folder that is not there is said so', () => {
    const empty = mkdtempSync(join(tmpdir(), 'lg-audit-nohome-'));
    try {
      const r = runCli(['audit', '--all'], { cwd, env: homeEnv(empty) });
      expect(r.stdout).toMatch(/Claude Code +~\/\.claude\/projects +not there/);
      expect(r.stdout).toContain('No agent transcripts on this machine');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('--all ranks projects by money lost, not by tokens', () => {
    const h = fixtureHome();
    try {
      // The Codex loop session moved to another project, with 1,000 times the tokens of a model with no price:
      // more tokens, but no known money, so the priced Claude Code project ranks first.
      const dir = join(h, '.codex', 'sessions', '2026', '11', '30');
      const file = join(dir, readdirSync(dir).find((f) => f.includes('2789')) as string);
      editLines(file, (r) => {
        const text = JSON.stringify(r).replaceAll('/home/dev/loop', '/home/dev/tokens');
        const rec = JSON.parse(text);
        const last = rec.payload?.info?.last_token_usage;
        if (last) for (const k of Object.keys(last)) last[k] *= 1000;
        return [rec];
      });
      const rep = JSON.parse(runCli(['audit', '--json', '--all'], { cwd, env: homeEnv(h) }).stdout);
      const projects = rep.totals.byProject.map((p: { project: string }) => p.project);
      expect(
        rep.totals.byProject.find((p: { project: string }) => p.project === '/home/dev/tokens').tokens,
      ).toBeGreaterThan(rep.totals.byProject.find((p: { project: string }) => p.project === '/home/dev/loop').tokens);
      expect(projects.indexOf('/home/dev/loop')).toBeLessThan(projects.indexOf('/home/dev/tokens'));
      const text = runCli(['audit', '--all'], { cwd, env: homeEnv(h) }).stdout;
      expect(text).toContain('Projects, by money lost in loops');
    } finally {
      rmSync(h, { recursive: true, force: true });
    }
  });
});
