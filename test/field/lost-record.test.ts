// A lost record (.agents/loop-guard.json deleted): our entries are recognised by their marks (the hook path, block
// markers, file headers, our env values beside our hooks), so a rerun records them again and --remove takes out
// everything we wrote and nothing the user wrote; --check says what to run.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST_PATH } from '../../src/tools/markers.ts';
import { fixtureRepo, readTree, requireCli, runCliAsync } from '../helpers/cli.ts';

beforeAll(requireCli);

function repo(): string {
  const dir = fixtureRepo(null);
  for (const d of ['.claude', '.codex', '.gemini', '.github/hooks']) {
    mkdirSync(join(dir, d), { recursive: true });
    writeFileSync(join(dir, d, 'keep'), 'x\n');
  }
  writeFileSync(join(dir, '.claude/settings.json'), '{\n  "env": { "FOO": "1" }\n}\n');
  return dir;
}

describe('a lost record', () => {
  it("the user's own files stay: a long .codex/config.toml with our values, a CLAUDE.md that is only @AGENTS.md", async () => {
    const dir = fixtureRepo(null);
    const config = '# mine\nmodel = "gpt-5"\n';
    mkdirSync(join(dir, '.codex'));
    writeFileSync(join(dir, '.codex/config.toml'), config);
    writeFileSync(join(dir, 'CLAUDE.md'), '@AGENTS.md\n');
    writeFileSync(join(dir, 'AGENTS.md'), '# Rules\n');
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude/keep'), 'x\n');
    const original = readTree(dir);
    expect((await runCliAsync(['--yes'], { cwd: dir })).status).toBe(0);
    rmSync(join(dir, MANIFEST_PATH));
    expect((await runCliAsync(['--yes'], { cwd: dir })).status).toBe(0);
    const removed = await runCliAsync(['--remove', '--yes'], { cwd: dir });
    expect(removed.status, removed.stdout + removed.stderr).toBe(0);
    expect(readTree(dir)).toEqual(original);
  });

  it('a negation block in a nested .gitignore is found again and taken out', async () => {
    const dir = fixtureRepo(null);
    mkdirSync(join(dir, '.opencode'));
    writeFileSync(join(dir, '.opencode/.gitignore'), 'node_modules\n*\n!.gitignore\n');
    const original = readTree(dir);
    expect((await runCliAsync(['--yes'], { cwd: dir })).status).toBe(0);
    expect(readTree(dir).get('.opencode/.gitignore')).toContain('loop-guard-unignore:begin');
    rmSync(join(dir, MANIFEST_PATH));
    expect((await runCliAsync(['--yes'], { cwd: dir })).status).toBe(0);
    expect((await runCliAsync(['--remove', '--yes'], { cwd: dir })).status).toBe(0);
    expect(readTree(dir)).toEqual(original);
  });

  for (const rerunFirst of [true, false]) {
    it(`${rerunFirst ? 'rerun, then ' : ''}--remove gives back the repository byte for byte`, async () => {
      const dir = repo();
      const original = readTree(dir);
      expect((await runCliAsync(['--yes'], { cwd: dir })).status).toBe(0);
      const installed = readTree(dir);
      rmSync(join(dir, MANIFEST_PATH));
      const check = await runCliAsync(['--check'], { cwd: dir });
      expect(check.status).toBe(1);
      expect(check.stdout).toContain('is missing; run npx create-loop-guard --yes to rebuild it');
      if (rerunFirst) {
        const rerun = await runCliAsync(['--yes'], { cwd: dir });
        expect(rerun.status, rerun.stdout + rerun.stderr).toBe(0);
        expect(rerun.stdout).toContain('rebuilt what create-loop-guard owns');
        // The same record as the install wrote, but for the hashes it cannot know: the files are as they were.
        const tree = readTree(dir);
        for (const [p, text] of installed) if (p !== MANIFEST_PATH) expect(tree.get(p), p).toBe(text);
        expect((await runCliAsync(['--check'], { cwd: dir })).status).toBe(0);
      }
      const removed = await runCliAsync(['--remove', '--yes'], { cwd: dir });
      expect(removed.status, removed.stdout + removed.stderr).toBe(0);
      // The CLAUDE.md and GEMINI.md we created hold only our block, which carries our markers: without the record
      // they are still ours, and go.
      expect(readTree(dir)).toEqual(original);
    });
  }
});
