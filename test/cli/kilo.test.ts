// Kilo CLI through the built CLI: detected by its own files (never by opencode.json, which is OpenCode's), installed
// as one owned plugin file in .kilo/plugins/ next to the user's kilo.json (untouched), rerun is a no-op, --check is
// clean and catches an edited plugin, a foreign file of that name is a conflict, --remove gives the tree back byte for
// byte; doctor loads and replays the installed plugin.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../src/assets.ts';
import { runChecks } from '../../src/doctor/checks.ts';
import { readOwnedHeader, withOwnedHeader } from '../../src/edit/owned-file.ts';
import { KILO_PLUGIN } from '../../src/tools/kilo.ts';
import { OPENCODE_PLUGIN } from '../../src/tools/opencode.ts';
import { expectStableRerun, fixtureRepo, readTree, requireCli, runCliAsync } from '../helpers/cli.ts';
import { install, sandbox } from '../helpers/doctor.ts';
import { repoRoot } from '../helpers/paths.ts';

beforeAll(requireCli);

const USER_CONFIG = '{\n  // my model\n  "model": "anthropic/claude-sonnet-4",\n  "permission": { "bash": "ask" }\n}\n';
const shipped = () => withOwnedHeader(readFileSync(join(repoRoot, 'dist', 'kilo-plugin.js'), 'utf8'), '//', VERSION);

/** A repo with the given files. */
function repoWith(files: Record<string, string>): string {
  const dir = fixtureRepo(null);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

describe.concurrent('kilo', () => {
  it.for([
    ['kilo.json', { 'kilo.json': USER_CONFIG }],
    ['.kilocode/plugins/ (the legacy folder, with CLI plugins)', { '.kilocode/plugins/mine.js': 'export {};\n' }],
    ['.kilo/', { '.kilo/command/ship.md': 'Ship it.\n' }],
  ] as const)(
    'detected by %s; installed, rerun no-op, --check clean then catches an edit, --remove restores',
    async ([, files], { expect }) => {
      const dir = repoWith(files);
      try {
        const before = readTree(dir);
        const apply = await runCliAsync(['--yes'], { cwd: dir });
        expect(apply.status, apply.stdout + apply.stderr).toBe(0);
        expect(apply.stdout).toMatch(/^ {2}Kilo CLI /m);
        expect(apply.stdout, 'Kilo alone: OpenCode is not detected from Kilo files').not.toMatch(/^ {2}OpenCode /m);
        const installed = readTree(dir);
        expect(installed.get(KILO_PLUGIN)).toBe(shipped());
        expect(installed.has(OPENCODE_PLUGIN)).toBe(false);
        expect(installed.get('AGENTS.md'), 'the stop rule: Kilo reads AGENTS.md itself').toMatch(/loop-guard/);
        for (const [rel, text] of Object.entries(files)) expect(installed.get(rel), `${rel} is untouched`).toBe(text);

        await expectStableRerun(dir, installed);

        writeFileSync(join(dir, KILO_PLUGIN), `${shipped()}// mine\n`);
        const drift = await runCliAsync(['--check'], { cwd: dir });
        expect(drift.status, drift.stdout + drift.stderr).toBe(1);
        expect(drift.stdout).toContain(KILO_PLUGIN);
        writeFileSync(join(dir, KILO_PLUGIN), shipped());

        const removed = await runCliAsync(['--remove', '--yes'], { cwd: dir });
        expect(removed.status, removed.stdout + removed.stderr).toBe(0);
        expect(readTree(dir)).toEqual(before);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('opencode.json alone is OpenCode, not Kilo (Kilo reads it too, but it is not evidence of Kilo)', async ({
    expect,
  }) => {
    const dir = repoWith({ 'opencode.json': '{}\n' });
    try {
      const apply = await runCliAsync(['--yes'], { cwd: dir });
      expect(apply.status, apply.stdout + apply.stderr).toBe(0);
      expect(apply.stdout).not.toMatch(/^ {2}Kilo CLI /m);
      expect(readTree(dir).has(KILO_PLUGIN)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a foreign .kilo/plugins/loop-guard.js is a conflict: exit 1, nothing written', async ({ expect }) => {
    const dir = repoWith({ [KILO_PLUGIN]: 'export const Mine = async () => ({});\n' });
    try {
      const before = readTree(dir);
      const apply = await runCliAsync(['--yes', '--tools', 'kilo'], { cwd: dir });
      expect(apply.status, apply.stdout + apply.stderr).toBe(1);
      expect(apply.stdout).toContain(KILO_PLUGIN);
      expect(readTree(dir)).toEqual(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('doctor on a Kilo install', () => {
  it('loads the installed plugin, replays a loop through it, checks the shell env; an edited plugin fails kilo.plugin', async () => {
    const sb = sandbox();
    install(sb, 'kilo');
    const doctor = () => runChecks({ root: sb.root, env: sb.env, home: sb.home, version: VERSION });
    const r = await doctor();
    expect(r.groups.map((g) => g.name)).toEqual(['repo', 'kilo']);
    const kilo = r.groups[1]!.checks;
    expect(kilo.map((c) => c.id)).toEqual(['kilo.plugin', 'kilo.load', 'kilo.git']);
    expect(
      kilo.filter((c) => !c.ok),
      JSON.stringify(kilo, null, 2),
    ).toEqual([]);
    expect(kilo[1]?.message).toContain('refused the 5th attempt');
    expect(readOwnedHeader(readFileSync(join(sb.root, KILO_PLUGIN), 'utf8'))?.version).toBe(VERSION);

    writeFileSync(
      join(sb.root, KILO_PLUGIN),
      readFileSync(join(sb.root, KILO_PLUGIN), 'utf8').replace('"kilo"', '"opencode"'),
    );
    const broken = (await doctor()).groups[1]!.checks.find((c) => c.id === 'kilo.plugin');
    expect(broken).toMatchObject({ ok: false });
    expect(broken?.message).toContain('differs from the plugin');
  }, 60_000);
});
