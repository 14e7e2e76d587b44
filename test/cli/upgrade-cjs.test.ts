// The switch of the installed guard from loop-guard.mjs to loop-guard.cjs: an install made before it is outdated
// (not drift), a rerun migrates it, a foreign loop-guard.mjs is reported and kept, --remove takes out both names.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureRepo, readTree, requireCli, runCli } from '../helpers/cli.ts';

beforeAll(requireCli);

const CJS = '.agents/hooks/loop-guard.cjs';
const MJS = '.agents/hooks/loop-guard.mjs';

/** A repository as an older version left it: the guard as .mjs, hook commands naming it, a manifest without hashes. */
function oldInstall(fixture = 'all'): string {
  const dir = fixtureRepo(fixture);
  expect(runCli(['--yes'], { cwd: dir }).status).toBe(0);
  const guard = readFileSync(join(dir, CJS), 'utf8').replace(
    /^\/\/ create-loop-guard v\S+/,
    '// create-loop-guard v0.0.9',
  );
  writeFileSync(join(dir, CJS), guard);
  renameSync(join(dir, CJS), join(dir, MJS));
  for (const f of ['.claude/settings.json', '.codex/hooks.json', '.cursor/hooks.json']) {
    if (existsSync(join(dir, f)))
      writeFileSync(join(dir, f), readFileSync(join(dir, f), 'utf8').replaceAll('loop-guard.cjs', 'loop-guard.mjs'));
  }
  const manifestFile = join(dir, '.agents/loop-guard.json');
  const m = JSON.parse(readFileSync(manifestFile, 'utf8'));
  m.version = '0.0.9';
  delete m.hashes;
  m.files[MJS] = m.files[CJS];
  delete m.files[CJS];
  writeFileSync(manifestFile, `${JSON.stringify(m, null, 2)}\n`);
  return dir;
}

describe('from loop-guard.mjs to loop-guard.cjs', () => {
  it('--check calls an old install outdated, not drift', () => {
    const dir = oldInstall();
    const r = runCli(['--check'], { cwd: dir, env: { GITHUB_ACTIONS: 'true' } });
    expect(r.status, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/outdated\s+\.agents\/hooks\/loop-guard\.mjs/);
    expect(r.stdout).toContain('Outdated: set up by v0.0.9');
    expect(r.stdout).not.toContain('::error');
  });

  it('a rerun removes our old file and points every hook entry at the new one', () => {
    const dir = oldInstall();
    const r = runCli(['--yes'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    const tree = readTree(dir);
    expect(tree.has(MJS)).toBe(false);
    expect(tree.has(CJS)).toBe(true);
    for (const [path, text] of tree)
      if (!path.startsWith('.agents/hooks/')) expect(text, path).not.toContain('loop-guard.mjs');
    expect(tree.get('.claude/settings.json')).toMatch(/\.agents\/hooks\/loop-guard\.cjs`;.*' _ claude # /);
    expect(runCli(['--check', '--strict'], { cwd: dir }).status).toBe(0);
  });

  it('a foreign loop-guard.mjs is reported and kept', () => {
    const dir = fixtureRepo('claude');
    mkdirSync(join(dir, '.agents/hooks'), { recursive: true });
    writeFileSync(join(dir, MJS), 'console.log("mine")\n');
    const r = runCli(['--yes'], { cwd: dir });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`${MJS} is not ours`);
    expect(readFileSync(join(dir, MJS), 'utf8')).toBe('console.log("mine")\n');
    expect(runCli(['--remove', '--yes'], { cwd: dir }).status).toBe(0);
    expect(readFileSync(join(dir, MJS), 'utf8')).toBe('console.log("mine")\n');
  });

  it('--remove takes out both names and every entry naming either', () => {
    const dir = oldInstall('claude');
    // Both files present (say, a half-finished manual upgrade).
    writeFileSync(join(dir, CJS), readFileSync(join(dir, MJS), 'utf8'));
    const r = runCli(['--remove', '--yes'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    const tree = readTree(dir);
    expect(tree.has(MJS)).toBe(false);
    expect(tree.has(CJS)).toBe(false);
    for (const [path, text] of tree) expect(text, path).not.toContain('.agents/hooks/loop-guard');
  });
});
