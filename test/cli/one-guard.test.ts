// One guard file for every tool: an install made when the OpenCode, Kilo and Cline plugins carried their own copies of
// the guard is outdated (not drift), a rerun turns them into loaders and deletes Cline's copy, and --remove takes out
// the old name too. And the .gitattributes block that marks the guard file generated: created, merged, checked, removed.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { withOwnedHeader } from '../../src/edit/owned-file.ts';
import { fixtureRepo, readTree, requireCli, runCli } from '../helpers/cli.ts';

beforeAll(requireCli);

const TOOLS = ['--tools', 'opencode,kilo,cline'];
const OLD_CLINE_GUARD = '.agents/hooks/loop-guard-cline.cjs';
const PLUGINS = ['.opencode/plugins/loop-guard.js', '.kilo/plugins/loop-guard.js'];
/** Stand-ins for the old bundled files: ours (our header, an older version), with a body that is not a loader. */
const oldBundle = (what: string) =>
  withOwnedHeader(`// ${what}: the whole guard, bundled\nexport const LoopGuard = async () => ({});\n`, '//', '0.0.9');

/** A repository as a version with bundled plugins left it. */
function oldInstall(): string {
  const dir = fixtureRepo(null);
  expect(runCli(['--yes', ...TOOLS], { cwd: dir }).status).toBe(0);
  for (const p of PLUGINS) writeFileSync(join(dir, p), oldBundle(p));
  writeFileSync(join(dir, OLD_CLINE_GUARD), oldBundle('cline').replace('export const', 'module.exports ='));
  const manifestFile = join(dir, '.agents/loop-guard.json');
  const m = JSON.parse(readFileSync(manifestFile, 'utf8'));
  m.version = '0.0.9';
  delete m.hashes;
  m.files[OLD_CLINE_GUARD] = { created: true };
  writeFileSync(manifestFile, `${JSON.stringify(m, null, 2)}\n`);
  return dir;
}

describe('from bundled plugins to loaders of the one guard file', () => {
  it('--check calls the old install outdated, not drift', () => {
    const r = runCli(['--check'], { cwd: oldInstall(), env: { GITHUB_ACTIONS: 'true' } });
    expect(r.status, r.stdout).toBe(0);
    expect(r.stdout).toContain('Outdated: set up by v0.0.9');
    expect(r.stdout).not.toContain('::error');
  });

  it('a rerun writes the loaders and deletes the old Cline copy; then --check --strict is clean', () => {
    const dir = oldInstall();
    const r = runCli(['--yes'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    const tree = readTree(dir);
    expect(tree.has(OLD_CLINE_GUARD)).toBe(false);
    for (const p of PLUGINS) expect(tree.get(p), p).toContain('.opencodePlugin(');
    expect(tree.get('.cline/plugins/loop-guard.js')).toContain('.clinePlugin()');
    expect(Object.keys(JSON.parse(tree.get('.agents/loop-guard.json') as string).files)).not.toContain(OLD_CLINE_GUARD);
    expect(runCli(['--check', '--strict'], { cwd: dir }).status).toBe(0);
  });

  it('--remove takes out the old Cline copy too', () => {
    const dir = oldInstall();
    const r = runCli(['--remove', '--yes'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(join(dir, OLD_CLINE_GUARD))).toBe(false);
    expect(existsSync(join(dir, '.agents/hooks/loop-guard.cjs'))).toBe(false);
  });
});

describe('.gitattributes marks the guard file generated and keeps it LF', () => {
  const LINE = '/.agents/hooks/loop-guard.cjs linguist-generated text eol=lf';

  it('absent: created with our block; --check clean; --remove deletes it', () => {
    const dir = fixtureRepo(null);
    expect(runCli(['--yes', '--tools', 'claude'], { cwd: dir }).status).toBe(0);
    const text = readFileSync(join(dir, '.gitattributes'), 'utf8');
    expect(text.split('\n')).toContain(LINE);
    expect(text).toMatch(/^# >>> loop-guard:begin v=\S+ sha=/);
    expect(runCli(['--check'], { cwd: dir }).status).toBe(0);
    expect(runCli(['--remove', '--yes'], { cwd: dir }).status).toBe(0);
    expect(existsSync(join(dir, '.gitattributes'))).toBe(false);
  });

  it("the user's .gitattributes keeps every line; --remove gives it back byte for byte", () => {
    const dir = fixtureRepo(null);
    const mine = '# mine\n*.png binary\n*.sh text eol=lf\n';
    writeFileSync(join(dir, '.gitattributes'), mine);
    expect(runCli(['--yes', '--tools', 'codex'], { cwd: dir }).status).toBe(0);
    const text = readFileSync(join(dir, '.gitattributes'), 'utf8');
    expect(text.startsWith(mine)).toBe(true);
    expect(text.split('\n')).toContain(LINE);
    expect(runCli(['--remove', '--yes'], { cwd: dir }).status).toBe(0);
    expect(readFileSync(join(dir, '.gitattributes'), 'utf8')).toBe(mine);
  });

  it('--check reports an edited block, and writes nothing', () => {
    const dir = fixtureRepo(null);
    expect(runCli(['--yes', '--tools', 'claude'], { cwd: dir }).status).toBe(0);
    const file = join(dir, '.gitattributes');
    const edited = readFileSync(file, 'utf8').replace(`${LINE}\n`, '');
    writeFileSync(file, edited);
    const r = runCli(['--check'], { cwd: dir, env: { GITHUB_ACTIONS: 'true' } });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('.gitattributes');
    expect(readFileSync(file, 'utf8')).toBe(edited);
  });
});
