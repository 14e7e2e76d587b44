// A repository whose Codex config sets project_doc_fallback_filenames (Codex reads CLAUDE.md there, having no
// AGENTS.md). With the repository's own config and no chosen tool that needs AGENTS.md, the stop rule goes in CLAUDE.md
// and no AGENTS.md is made (it would take CLAUDE.md's place for Codex). A user's own config ($CODEX_HOME/config.toml)
// is personal: there AGENTS.md is created as before and the plan says in words that CLAUDE.md stops reaching Codex.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureRepo, homeFor, requireCli, runCliAsync } from '../helpers/cli.ts';

beforeAll(requireCli);

const KEY = 'project_doc_fallback_filenames';

function repo(projectConfig: string): string {
  const dir = fixtureRepo(null);
  mkdirSync(join(dir, '.codex'));
  writeFileSync(join(dir, '.codex/config.toml'), projectConfig);
  writeFileSync(join(dir, 'CLAUDE.md'), '# Team rules\n\nUse pnpm.\n');
  return dir;
}

describe('Codex with project_doc_fallback_filenames', () => {
  it("in the project's .codex/config.toml: CLAUDE.md carries the one block for Codex and Claude, no AGENTS.md", async () => {
    const dir = repo(`${KEY} = ["CLAUDE.md"]\n`);
    const r = await runCliAsync(['--yes'], { cwd: dir });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`Codex reads CLAUDE.md (${KEY} in .codex/config.toml) because there is no AGENTS.md`);
    expect(existsSync(join(dir, 'AGENTS.md'))).toBe(false);
    const claude = readFileSync(join(dir, 'CLAUDE.md'), 'utf8');
    // CLAUDE.md is evidence of Claude Code too: it keeps the team's text and gets one stop-rule block.
    expect(claude).toMatch(/^# Team rules\n\nUse pnpm\.\n/);
    expect(claude.match(/<!-- loop-guard:begin/g)).toHaveLength(1);
    expect(claude).toMatch(/refus/i);
    const rerun = await runCliAsync(['--yes'], { cwd: dir });
    expect(rerun.stdout).toContain('Everything is up to date.');
  }, 60_000);

  it("in the user's config under $CODEX_HOME: the same note, naming that file", async () => {
    const dir = repo('model = "o3"\n');
    const codexHome = join(homeFor(dir), 'codex-home');
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(join(codexHome, 'config.toml'), `${KEY} = ["TEAM.md", "CLAUDE.md"]\n`);
    const r = await runCliAsync(['--dry-run'], { cwd: dir, env: { CODEX_HOME: codexHome } });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`Codex reads CLAUDE.md today (${KEY} in $CODEX_HOME/config.toml)`);
  }, 60_000);

  it('with an AGENTS.md already there, Codex reads it before any fallback: no note', async () => {
    const dir = repo(`${KEY} = ["CLAUDE.md"]\n`);
    writeFileSync(join(dir, 'AGENTS.md'), '# Agents\n');
    const r = await runCliAsync(['--dry-run'], { cwd: dir });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).not.toContain('Codex reads CLAUDE.md today');
  }, 60_000);
});
