// Detection says how sure it is: a tool's own config folder or hook file installs; weak evidence alone
// (.github/copilot-instructions.md, which IDE Copilot reads; .kilocode/, the VS Code extension's folder) is listed as
// "also possible" with the --tools line that adds it, and nothing is written for it.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureRepo, requireCli, runCliAsync } from '../helpers/cli.ts';

beforeAll(requireCli);

function repoWith(files: Record<string, string>): string {
  const dir = fixtureRepo(null);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

describe('detection confidence', () => {
  it.each([
    ['copilot', '.github/copilot-instructions.md', '.github/hooks/loop-guard.json'],
    ['kilo', '.kilocode/rules/style.md', '.kilo/plugins/loop-guard.js'],
  ])('%s from %s alone: also possible, with the --tools line; nothing written for it', async (tool, weak, ours) => {
    const dir = repoWith({ [weak]: '# x\n', '.claude/keep': 'x\n' });
    const r = await runCliAsync(['--yes'], { cwd: dir });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('Also possible, not set up');
    expect(r.stdout).toContain(`--tools claude,${tool}`);
    expect(existsSync(join(dir, ours))).toBe(false);
    const added = await runCliAsync(['--yes', '--tools', `claude,${tool}`], { cwd: dir });
    expect(added.status).toBe(0);
    expect(existsSync(join(dir, ours))).toBe(true);
  });

  it('weak evidence only: the no-tools message names it and its --tools', async () => {
    const dir = repoWith({ '.github/copilot-instructions.md': '# x\n' });
    const r = await runCliAsync(['--yes'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('Also possible: GitHub Copilot CLI');
    expect(r.stderr).toContain('--tools copilot');
  });

  it('strong evidence (.github/hooks/) installs Copilot CLI', async () => {
    const dir = repoWith({ '.github/hooks/other.json': '{"version": 1, "hooks": {}}\n' });
    const r = await runCliAsync(['--yes'], { cwd: dir });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(existsSync(join(dir, '.github/hooks/loop-guard.json'))).toBe(true);
  });
});
