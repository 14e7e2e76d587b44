// --remove --tools X takes out X's setup only (files another set-up tool needs stay, the record is updated and keeps
// X out of later runs), and --check --tools X judges X's files only.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { GUARD_PATH, MANIFEST_PATH } from '../../src/tools/markers.ts';
import { fixtureRepo, readTree, requireCli, runCliAsync } from '../helpers/cli.ts';

beforeAll(requireCli);

function repo(): string {
  const dir = fixtureRepo(null);
  for (const d of ['.claude', '.cursor']) {
    mkdirSync(join(dir, d));
    writeFileSync(join(dir, d, 'keep'), 'x\n');
  }
  writeFileSync(join(dir, 'AGENTS.md'), '# Rules\n');
  return dir;
}

describe('one tool at a time', () => {
  it('--remove --tools cursor: Cursor files go, Claude keeps the guard, AGENTS.md and its record', async () => {
    const dir = repo();
    const original = readTree(dir);
    expect((await runCliAsync(['--yes'], { cwd: dir })).status).toBe(0);
    const r = await runCliAsync(['--remove', '--tools', 'cursor', '--yes'], { cwd: dir });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(existsSync(join(dir, '.cursor/hooks.json'))).toBe(false);
    expect(existsSync(join(dir, '.cursor/loop-guard-env.sh'))).toBe(false);
    expect(existsSync(join(dir, GUARD_PATH))).toBe(true);
    expect(readFileSync(join(dir, 'AGENTS.md'), 'utf8')).toContain('loop-guard:begin');
    expect(readFileSync(join(dir, '.claude/settings.json'), 'utf8')).toContain('.agents/hooks/loop-guard');
    const record = JSON.parse(readFileSync(join(dir, MANIFEST_PATH), 'utf8'));
    expect(record.tools).toEqual(['claude']);
    expect(Object.keys(record.files).some((p) => p.startsWith('.cursor/'))).toBe(false);
    // The choice holds: a plain rerun does not put Cursor back, and --check is green.
    const rerun = await runCliAsync(['--yes'], { cwd: dir });
    expect(rerun.stdout).toContain('Everything is up to date.');
    expect((await runCliAsync(['--check'], { cwd: dir })).status).toBe(0);
    // Naming it again sets it up again; then a full --remove gives the repository back byte for byte.
    expect((await runCliAsync(['--yes', '--tools', 'cursor'], { cwd: dir })).status).toBe(0);
    expect(existsSync(join(dir, '.cursor/hooks.json'))).toBe(true);
    expect((await runCliAsync(['--remove', '--yes'], { cwd: dir })).status).toBe(0);
    expect(readTree(dir)).toEqual(original);
  });

  it('--check --tools X looks at X only', async () => {
    const dir = repo();
    expect((await runCliAsync(['--yes'], { cwd: dir })).status).toBe(0);
    writeFileSync(join(dir, '.cursor/hooks.json'), '{"version": 1}\n');
    const claude = await runCliAsync(['--check', '--tools', 'claude'], { cwd: dir });
    expect(claude.status, claude.stdout).toBe(0);
    expect(claude.stdout).not.toContain('.cursor/hooks.json');
    const cursor = await runCliAsync(['--check', '--tools', 'cursor'], { cwd: dir });
    expect(cursor.status).toBe(1);
    expect(cursor.stdout).toContain('.cursor/hooks.json');
  });
});
