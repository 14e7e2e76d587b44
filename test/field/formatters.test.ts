// What we write is already what prettier 3 gives (AGENTS.md block, the record, the JSON we merge into); where a
// formatter still changes our bytes (biome's tabs, either one over the guard file and plugins), --check compares
// meaning, so a reformat is not drift, a rerun changes nothing, and --remove still takes everything out.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths.ts';
import { fixtureRepo, readTree, requireCli, runCliAsync } from '../helpers/cli.ts';

beforeAll(requireCli);

const bin = (name: string) => join(repoRoot, 'node_modules', '.bin', name);

function repo(): string {
  const dir = fixtureRepo(null);
  for (const d of ['.claude', '.codex', '.cursor', '.gemini', '.opencode', '.kilo', '.cline']) {
    mkdirSync(join(dir, d));
    writeFileSync(join(dir, d, 'keep'), 'x\n');
  }
  writeFileSync(join(dir, 'AGENTS.md'), '# Rules\n\nSome text.\n');
  return dir;
}

function format(dir: string, args: string[]): void {
  const r = spawnSync(args[0] as string, args.slice(1), { cwd: dir, encoding: 'utf8' });
  expect(r.status, r.stdout + r.stderr).toBe(0);
}

describe('formatters over an installed repository', () => {
  it('prettier --check passes on AGENTS.md and the record right after install', async () => {
    const dir = repo();
    expect((await runCliAsync(['--yes'], { cwd: dir })).status).toBe(0);
    const r = spawnSync(bin('prettier'), ['--check', 'AGENTS.md', '.agents/loop-guard.json', '.claude/settings.json'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });

  for (const [name, args] of [
    ['prettier --write .', [bin('prettier'), '--write', '.']],
    ['biome format --write .', [bin('biome'), 'format', '--write', '.']],
  ] as const) {
    it(`${name}: --check green, rerun changes nothing, --remove gives the repository back`, async () => {
      const dir = repo();
      const original = readTree(dir);
      expect((await runCliAsync(['--yes'], { cwd: dir })).status).toBe(0);
      const installed = readTree(dir);
      format(dir, [...args]);
      const formatted = readTree(dir);
      // What we write is already prettier's output, so prettier changes nothing; biome's defaults differ (tabs,
      // quotes), so it really rewrites our files, and --check must still call them ours.
      if (name.startsWith('prettier')) expect(formatted).toEqual(installed);
      else expect(formatted).not.toEqual(installed);
      const check = await runCliAsync(['--check'], { cwd: dir });
      expect(check.status, check.stdout + check.stderr).toBe(0);
      const rerun = await runCliAsync(['--yes'], { cwd: dir });
      expect(rerun.stdout).toContain('Everything is up to date.');
      expect(readTree(dir)).toEqual(formatted);
      const removed = await runCliAsync(['--remove', '--yes'], { cwd: dir });
      expect(removed.status, removed.stdout + removed.stderr).toBe(0);
      expect(readTree(dir)).toEqual(original);
    }, 60_000);
  }

  it("prettier with the repo's own config (gemini-cli: proseWrap always, width 80) rewraps our block: not drift", async () => {
    const dir = repo();
    writeFileSync(join(dir, '.prettierrc.json'), '{ "proseWrap": "always", "printWidth": 80 }\n');
    expect((await runCliAsync(['--yes'], { cwd: dir })).status).toBe(0);
    const agents = readFileSync(join(dir, 'AGENTS.md'), 'utf8');
    format(dir, [bin('prettier'), '--write', '.']);
    expect(readFileSync(join(dir, 'AGENTS.md'), 'utf8')).not.toBe(agents);
    const check = await runCliAsync(['--check'], { cwd: dir });
    expect(check.status, check.stdout + check.stderr).toBe(0);
    const removed = await runCliAsync(['--remove', '--yes'], { cwd: dir });
    expect(removed.status, removed.stdout + removed.stderr).toBe(0);
    expect(readFileSync(join(dir, 'AGENTS.md'), 'utf8')).toBe('# Rules\n\nSome text.\n');
  }, 60_000);

  it('a core.autocrlf checkout (every file CRLF) is not drift', async () => {
    const dir = repo();
    expect((await runCliAsync(['--yes'], { cwd: dir })).status).toBe(0);
    for (const [p, text] of readTree(dir)) writeFileSync(join(dir, p), text.replace(/\r?\n/g, '\r\n'));
    const check = await runCliAsync(['--check'], { cwd: dir });
    expect(check.status, check.stdout + check.stderr).toBe(0);
  });

  it('with a prettier config: our generated files go in .prettierignore, prettier --check . passes, --remove restores', async () => {
    const dir = repo();
    writeFileSync(join(dir, '.prettierrc.json'), '{ "singleQuote": true }\n');
    const original = readTree(dir);
    const r = await runCliAsync(['--yes'], { cwd: dir });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('Prettier config found (.prettierrc.json)');
    expect(readFileSync(join(dir, '.prettierignore'), 'utf8')).toContain('/.agents/hooks/loop-guard.cjs');
    const check = spawnSync(bin('prettier'), ['--check', '.'], { cwd: dir, encoding: 'utf8' });
    expect(check.status, check.stdout + check.stderr).toBe(0);
    expect((await runCliAsync(['--check'], { cwd: dir })).status).toBe(0);
    const rerun = await runCliAsync(['--yes'], { cwd: dir });
    expect(rerun.stdout).toContain('Everything is up to date.');
    expect((await runCliAsync(['--remove', '--yes'], { cwd: dir })).status).toBe(0);
    expect(readTree(dir)).toEqual(original);
  }, 60_000);

  it('a real edit of the guard file is still drift', async () => {
    const dir = repo();
    expect((await runCliAsync(['--yes'], { cwd: dir })).status).toBe(0);
    const file = join(dir, '.agents/hooks/loop-guard.cjs');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/\bfunction\b/, 'function  x'));
    expect((await runCliAsync(['--check'], { cwd: dir })).status).toBe(1);
  });
});
