// A biome that may not honour `biome-ignore-all format` (before 2.4, or unpinned) gets our entries in its config's
// files.includes: a recorded change that the real biome reads, `--check` calls in sync, a rerun leaves alone and
// `--remove` takes out byte for byte; `--no-biome-edit` leaves the config alone, prints the entries, and sticks.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureRepo, readTree, requireCli, runCliAsync } from '../helpers/cli.ts';
import { repoRoot } from '../helpers/paths.ts';

beforeAll(requireCli);

const biome = join(repoRoot, 'node_modules', '.bin', 'biome');
const CONFIG =
  '{\n  // the team\'s style\n  "files": { "ignoreUnknown": true },\n  "formatter": { "indentStyle": "space" }\n}\n';

function repo(pin: string, config = CONFIG): string {
  const dir = fixtureRepo(null);
  for (const d of ['.claude', '.opencode']) {
    mkdirSync(join(dir, d));
    writeFileSync(join(dir, d, 'keep'), 'x\n');
  }
  writeFileSync(join(dir, 'biome.jsonc'), config);
  writeFileSync(join(dir, 'package.json'), `{ "devDependencies": { "@biomejs/biome": "${pin}" } }\n`);
  return dir;
}
const run = (args: string[], cwd: string) =>
  spawnSync(biome, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

describe('the biome config edit, end to end', () => {
  it('biome ^2.0: files.includes gets our files, biome check passes, --check green, --remove byte for byte', async () => {
    const dir = repo('^2.0.6');
    const original = readTree(dir);
    const r = await runCliAsync(['--yes'], { cwd: dir });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('files.includes in biome.jsonc gets "!.agents/hooks/loop-guard.cjs"');
    const config = readFileSync(join(dir, 'biome.jsonc'), 'utf8');
    expect(config).toContain('"!.opencode/plugins/loop-guard.js"');
    expect(config).toContain("// the team's style");
    // The real biome reads the edited config, and its own format check finds nothing to change in it.
    const check = run(['check', '--error-on-warnings', 'biome.jsonc', '.agents', '.opencode', '.claude'], dir);
    expect(check.status, check.stdout + check.stderr).toBe(0);
    const record = JSON.parse(readFileSync(join(dir, '.agents/loop-guard.json'), 'utf8'));
    expect(record.files['biome.jsonc'].formatterEntries).toEqual([
      '!.agents/hooks/loop-guard.cjs',
      '!.opencode/plugins/loop-guard.js',
    ]);
    expect((await runCliAsync(['--check'], { cwd: dir })).status).toBe(0);
    expect((await runCliAsync(['--yes'], { cwd: dir })).stdout).toContain('Everything is up to date.');
    const removed = await runCliAsync(['--remove', '--yes'], { cwd: dir });
    expect(removed.status, removed.stdout + removed.stderr).toBe(0);
    expect(readTree(dir)).toEqual(original);
  }, 60_000);

  // Without the record, the layout of a `files` object we split cannot be known, so the config here has none (the
  // common case: smartik's root biome.json); with a record, test 1 shows the split undone.
  it('after biome format --write . the config is still ours to take out, and a lost record finds our entries', async () => {
    const dir = repo('^2.0.6', '{\n  "formatter": { "indentStyle": "space" }\n}\n');
    const original = readTree(dir);
    expect((await runCliAsync(['--yes'], { cwd: dir })).status).toBe(0);
    expect(run(['format', '--write', '.'], dir).status).toBe(0);
    expect((await runCliAsync(['--check'], { cwd: dir })).status).toBe(0);
    rmSync(join(dir, '.agents/loop-guard.json'));
    expect((await runCliAsync(['--yes'], { cwd: dir })).status).toBe(0);
    const removed = await runCliAsync(['--remove', '--yes'], { cwd: dir });
    expect(removed.status, removed.stdout + removed.stderr).toBe(0);
    expect(readFileSync(join(dir, 'biome.jsonc'), 'utf8')).toBe(original.get('biome.jsonc'));
  }, 60_000);

  it('--no-biome-edit: the config is left alone, the entries are printed, and the choice sticks for --check', async () => {
    const dir = repo('^2.0.6');
    const r = await runCliAsync(['--yes', '--no-biome-edit'], { cwd: dir });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('add to "files.includes" in biome.jsonc');
    expect(r.stdout).toContain('"!.agents/hooks/loop-guard.cjs", "!.opencode/plugins/loop-guard.js"');
    expect(readFileSync(join(dir, 'biome.jsonc'), 'utf8')).toBe(CONFIG);
    expect(JSON.parse(readFileSync(join(dir, '.agents/loop-guard.json'), 'utf8')).biomeEdit).toBe(false);
    expect((await runCliAsync(['--check'], { cwd: dir })).status).toBe(0);
    expect((await runCliAsync(['--yes'], { cwd: dir })).stdout).toContain('Everything is up to date.');
    expect(readFileSync(join(dir, 'biome.jsonc'), 'utf8')).toBe(CONFIG);
    // --biome-edit takes the refusal back.
    expect((await runCliAsync(['--yes', '--biome-edit'], { cwd: dir })).status).toBe(0);
    expect(readFileSync(join(dir, 'biome.jsonc'), 'utf8')).toContain('"!.agents/hooks/loop-guard.cjs"');
  }, 60_000);

  it('--remove --tools opencode, then a rerun: the loader entry goes, and --remove still gives the bytes back', async () => {
    const dir = repo('^2.0.6');
    const original = readTree(dir);
    expect((await runCliAsync(['--yes'], { cwd: dir })).status).toBe(0);
    expect((await runCliAsync(['--remove', '--tools', 'opencode', '--yes'], { cwd: dir })).status).toBe(0);
    expect((await runCliAsync(['--yes'], { cwd: dir })).status).toBe(0);
    const config = readFileSync(join(dir, 'biome.jsonc'), 'utf8');
    expect(config).toContain('"!.agents/hooks/loop-guard.cjs"');
    expect(config).not.toContain('.opencode/plugins/loop-guard.js');
    expect((await runCliAsync(['--check'], { cwd: dir })).status).toBe(0);
    expect((await runCliAsync(['--remove', '--yes'], { cwd: dir })).status).toBe(0);
    expect(readFileSync(join(dir, 'biome.jsonc'), 'utf8')).toBe(original.get('biome.jsonc'));
  }, 60_000);

  // A list written in the root config replaces the one it extends (measured with biome 2.6.8): the edit would widen
  // what biome checks, so the config is left alone and the notice names the file whose list to add to.
  it('a config that takes files.includes from one it extends is left alone; biome checks what it checked', async () => {
    const dir = repo('^2.0.6', '{ "root": true, "extends": ["./shared/base.json"] }\n');
    mkdirSync(join(dir, 'shared'));
    writeFileSync(join(dir, 'shared', 'base.json'), '{ "files": { "includes": ["src/**"] } }\n');
    mkdirSync(join(dir, 'other'));
    writeFileSync(join(dir, 'other', 'b.js'), 'const b  =  1\n');
    const before = run(['format', '.'], dir);
    const r = await runCliAsync(['--yes'], { cwd: dir });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'biome.jsonc'), 'utf8')).toBe(
      '{ "root": true, "extends": ["./shared/base.json"] }\n',
    );
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(
      'biome.jsonc takes "files.includes" from ./shared/base.json, and a list written in biome.jsonc would replace that one',
    );
    // Still only what the team's list names: other/b.js is not formatted before or after.
    const after = run(['format', '.'], dir);
    expect(before.stdout + before.stderr).not.toContain('other/b.js');
    expect(after.stdout + after.stderr).not.toContain('other/b.js');
    expect((await runCliAsync(['--check'], { cwd: dir })).status).toBe(0);
  }, 60_000);

  it('biome 2.6 pinned: the markers are enough, the config is not touched', async () => {
    const dir = repo('^2.6.8');
    const r = await runCliAsync(['--yes'], { cwd: dir });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('leaves them alone');
    expect(readFileSync(join(dir, 'biome.jsonc'), 'utf8')).toBe(CONFIG);
  }, 60_000);
});
