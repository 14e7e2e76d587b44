// Never write what git ignores without saying so: a rule in the repository's .gitignore gets a managed, recorded,
// removable negation block (a fresh clone of the committed install has the guard); a personal rule (global excludes,
// .git/info/exclude) refuses with exit 1 naming file:line:pattern, and --force writes anyway.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { GUARD_PATH, MANIFEST_PATH } from '../../src/tools/markers.ts';
import { fixtureRepo, homeFor, readTree, requireCli, runCliAsync } from '../helpers/cli.ts';

beforeAll(requireCli);

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: homeFor(cwd) },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

function repo(gitignore: string): string {
  const dir = fixtureRepo(null);
  writeFileSync(join(dir, '.gitignore'), gitignore);
  mkdirSync(join(dir, '.claude'));
  writeFileSync(join(dir, '.claude/keep'), 'x\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'init');
  return dir;
}

describe('targets git ignores', () => {
  // pydantic/pydantic-ai's .gitignore has `.agents/*`; others ignore the whole folder or every JSON file.
  for (const rules of ['node_modules\n.agents/*\n', '.agents/\n', '.claude/\n*.json\n!package.json\n']) {
    it(`a repository rule (${JSON.stringify(rules)}): a negation block, a fresh clone has working hooks, --remove restores`, async () => {
      const dir = repo(rules);
      const original = readTree(dir);
      const apply = await runCliAsync(['--yes'], { cwd: dir });
      expect(apply.status, apply.stdout + apply.stderr).toBe(0);
      expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toContain('# >>> loop-guard-unignore:begin');
      expect(JSON.parse(readFileSync(join(dir, MANIFEST_PATH), 'utf8')).files['.gitignore']).toEqual({
        ignoreBlock: true,
      });
      // Nothing we wrote is ignored any more, and the user's other ignored paths still are.
      const ours = [GUARD_PATH, MANIFEST_PATH, '.agents/.gitignore', '.claude/settings.json', 'AGENTS.md', 'CLAUDE.md'];
      expect(spawnSync('git', ['check-ignore', ...ours], { cwd: dir, encoding: 'utf8' }).stdout).toBe('');
      expect(spawnSync('git', ['check-ignore', '.agents/skills/x.md'], { cwd: dir }).status).toBe(
        rules.includes('.agents') ? 0 : 1,
      );
      const installed = readTree(dir);
      const check = await runCliAsync(['--check'], { cwd: dir });
      expect(check.status, check.stdout + check.stderr).toBe(0);
      const rerun = await runCliAsync(['--yes'], { cwd: dir });
      expect(rerun.stdout).toContain('Everything is up to date.');
      expect(readTree(dir)).toEqual(installed);

      git(dir, 'add', '-A');
      git(dir, 'commit', '-qm', 'loop-guard');
      const clone = join(mkdtempSync(join(tmpdir(), 'lg-clone-')), 'c');
      git(dir, 'clone', '-q', dir, clone);
      expect(existsSync(join(clone, GUARD_PATH))).toBe(true);
      // Committed, the block is still needed and still ours: --check is green here and in the clone.
      for (const where of [dir, clone]) {
        const c = await runCliAsync(['--check'], { cwd: where });
        expect(c.status, c.stdout + c.stderr).toBe(0);
      }
      const hook = spawnSync('node', [join(clone, GUARD_PATH), 'claude'], {
        cwd: clone,
        input: JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt: 'hi', cwd: clone, session_id: 's' }),
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: homeFor(clone), CLAUDE_PROJECT_DIR: clone },
      });
      expect(hook.status).toBe(0);

      const removed = await runCliAsync(['--remove', '--yes'], { cwd: dir });
      expect(removed.status, removed.stdout + removed.stderr).toBe(0);
      expect(readTree(dir)).toEqual(original);
    });
  }

  it("a folder's contents ignored with the user's own negation after it (astral-sh/uv): only what we add is let in", async () => {
    const dir = fixtureRepo(null);
    writeFileSync(join(dir, '.gitignore'), '.codex/*\n!.codex/hooks.json\n');
    mkdirSync(join(dir, '.codex'));
    writeFileSync(join(dir, '.codex/hooks.json'), '{"hooks": {}}\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'init');
    const r = await runCliAsync(['--yes'], { cwd: dir });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const block = readFileSync(join(dir, '.gitignore'), 'utf8');
    expect(block).toContain('!/.codex/config.toml');
    expect(block).not.toContain('/.codex/*\n');
    expect(spawnSync('git', ['check-ignore', '.codex/config.toml', '.codex/hooks.json'], { cwd: dir }).status).toBe(1);
    expect(spawnSync('git', ['check-ignore', '.codex/other.json'], { cwd: dir }).status).toBe(0);
  });

  it('--check is red when our negation block was taken out', async () => {
    const dir = repo('.agents/*\n');
    expect((await runCliAsync(['--yes'], { cwd: dir })).status).toBe(0);
    writeFileSync(join(dir, '.gitignore'), '.agents/*\n');
    const check = await runCliAsync(['--check'], { cwd: dir });
    expect(check.status).toBe(1);
    expect(check.stdout).toContain('.gitignore');
  });

  it('a personal rule (the global excludes file): exit 1 naming file:line:pattern, nothing written; --force writes', async () => {
    const dir = repo('node_modules\n');
    const home = homeFor(dir);
    mkdirSync(join(home, '.config/git'), { recursive: true });
    writeFileSync(join(home, '.config/git/ignore'), '*.log\n.agents/\n');
    const before = readTree(dir);
    const r = await runCliAsync(['--yes'], { cwd: dir });
    expect(r.status, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain(`${join(home, '.config/git/ignore')}:2:.agents/`);
    expect(r.stderr).toContain('--force');
    expect(readTree(dir)).toEqual(before);
    const check = await runCliAsync(['--check'], { cwd: dir });
    expect(check.status).toBe(1);
    const forced = await runCliAsync(['--yes', '--force'], { cwd: dir });
    expect(forced.status, forced.stdout + forced.stderr).toBe(0);
    expect(forced.stdout).toContain('git add -f');
    expect(existsSync(join(dir, GUARD_PATH))).toBe(true);
  });

  it('a rule in .git/info/exclude is personal too', async () => {
    const dir = repo('node_modules\n');
    writeFileSync(join(dir, '.git/info/exclude'), 'CLAUDE.md\n');
    const r = await runCliAsync(['--yes'], { cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('.git/info/exclude:1:CLAUDE.md');
  });
});
