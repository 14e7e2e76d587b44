// .agents/ is shared (Codex and others keep skills/ there, Antigravity hooks.json, Goose plugins/): a .gitignore of the
// user's there gets our lines as a managed block instead of a conflict, and our paths stay clear of the others'.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { OUR_DIRS } from '../../src/scaffold/apply.ts';
import { intentsFor } from '../../src/scaffold/plan.ts';
import { AGENTS_GITIGNORE, MANIFEST_PATH } from '../../src/tools/markers.ts';
import { TOOL_NAMES } from '../../src/tools/index.ts';
import { fixtureRepo, readTree, requireCli, runCliAsync } from '../helpers/cli.ts';

beforeAll(requireCli);

describe('a shared .agents/', () => {
  it("the user's own .agents/.gitignore: our lines as a block, rerun stable, --remove gives it back", async () => {
    const dir = fixtureRepo(null);
    mkdirSync(join(dir, '.agents/skills/review'), { recursive: true });
    writeFileSync(join(dir, '.agents/.gitignore'), '# local scratch\n/tmp/\n');
    writeFileSync(join(dir, '.agents/skills/review/SKILL.md'), '---\nname: review\n---\n');
    writeFileSync(join(dir, '.agents/hooks.json'), '{"hooks": {}}\n');
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude/keep'), 'x\n');
    const original = readTree(dir);
    const r = await runCliAsync(['--yes'], { cwd: dir });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const text = readFileSync(join(dir, AGENTS_GITIGNORE), 'utf8');
    expect(text.startsWith('# local scratch\n/tmp/\n')).toBe(true);
    expect(text).toContain('# >>> loop-guard:begin');
    expect(text).toContain('/handoff.md');
    expect(readFileSync(join(dir, '.agents/hooks.json'), 'utf8')).toBe('{"hooks": {}}\n');
    const installed = readTree(dir);
    expect((await runCliAsync(['--check'], { cwd: dir })).status).toBe(0);
    const rerun = await runCliAsync(['--yes'], { cwd: dir });
    expect(rerun.stdout).toContain('Everything is up to date.');
    expect(readTree(dir)).toEqual(installed);
    expect((await runCliAsync(['--remove', '--yes'], { cwd: dir })).status).toBe(0);
    expect(readTree(dir)).toEqual(original);
  });

  it('nothing we write in .agents/ is a name other tools keep there', () => {
    const theirs = ['.agents/skills', '.agents/hooks.json', '.agents/plugins', '.agents/workflows', '.agents/rules'];
    const ours = [
      ...intentsFor(TOOL_NAMES).map((i) => i.path),
      MANIFEST_PATH,
      '.agents/handoff.md',
      '.agents/handoff.json',
      ...OUR_DIRS,
    ].filter((p) => p.startsWith('.agents/'));
    expect(ours.length).toBeGreaterThan(3);
    for (const p of ours) for (const t of theirs) expect(p === t || p.startsWith(`${t}/`), `${p} vs ${t}`).toBe(false);
  });
});
