// The --check contract across our own releases: the same source built as two versions (into temp folders), each
// checking what the other set up. Outdated (untouched output of another version) is a notice and exit 0; drift
// (our part edited, removed, missing, or a tool not set up) is exit 1; --strict fails on both.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureRepo, homeFor, readTree } from '../helpers/cli.ts';
import { nodeBin, repoRoot } from '../helpers/paths.ts';

const OLD = '0.1.0';
const NEW = '0.2.0';
let base = '';
const cliOf = (v: string) => join(base, v, 'dist', 'cli.mjs');

function buildAt(version: string): void {
  const dir = join(base, version);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'create-loop-guard', version, type: 'module' }));
  const r = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'build.mjs')], {
    env: { ...process.env, LOOP_GUARD_BUILD_VERSION: version, LOOP_GUARD_BUILD_DIST: join(dir, 'dist') },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`build ${version} failed: ${r.stderr}`);
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'lg-versions-'));
  buildAt(OLD);
  buildAt(NEW);
}, 120_000);
afterAll(() => rmSync(base, { recursive: true, force: true }));

function run(version: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync(nodeBin, [cliOf(version), ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: homeFor(cwd), CI: 'true', NO_COLOR: '1', ...env },
    encoding: 'utf8',
    input: '',
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function setUpWith(version: string): string {
  const dir = fixtureRepo('all');
  const r = run(version, ['--yes'], dir);
  expect(r.status, r.stderr).toBe(0);
  return dir;
}

describe('--check across versions', () => {
  it.each([
    [OLD, NEW],
    [NEW, OLD],
  ])(
    'set up by v%s, checked by v%s: outdated, exit 0 with one notice naming both; --strict exit 1; nothing written',
    (installed, checker) => {
      const dir = setUpWith(installed);
      const before = readTree(dir);
      const r = run(checker, ['--check'], dir, { GITHUB_ACTIONS: 'true' });
      expect(r.status, r.stdout).toBe(0);
      const notice = r.stdout.split('\n').filter((l) => l.startsWith('Outdated:'));
      expect(notice).toHaveLength(1);
      expect(notice[0]).toContain(`set up by v${installed}; this is v${checker}`);
      expect(r.stdout).not.toContain('::error');
      expect(r.stdout).not.toMatch(/^\s*drift /m);
      // Read-only wording: nothing claims a file was changed.
      expect(r.stdout).not.toMatch(/\b(Replaced|Upgraded|Wrote|Removed)\b/);

      const strict = run(checker, ['--check', '--strict'], dir);
      expect(strict.status).toBe(1);
      expect(strict.stdout).toContain('--strict');

      const json = JSON.parse(run(checker, ['--check', '--json'], dir).stdout);
      expect(json.exitCode).toBe(0);
      expect(json.result).toBe('outdated');
      expect(json.messages).toContainEqual(expect.objectContaining({ level: 'warn', code: 'outdated' }));
      expect(readTree(dir)).toEqual(before);

      // After the upgrade the checker is in sync.
      expect(run(checker, ['--yes'], dir).status).toBe(0);
      const after = run(checker, ['--check', '--strict'], dir);
      expect(after.status).toBe(0);
      expect(after.stdout).toContain('In sync');
    },
  );

  const guard = '.agents/hooks/loop-guard.cjs';
  it.each<[string, (dir: string) => void]>([
    [
      'our hook entry edited',
      (d) => edit(d, '.claude/settings.json', (t) => t.replace('"timeout": 10', '"timeout": 99')),
    ],
    // Our env value changed by the user is theirs now, not drift (test/field/user-values.test.ts).
    ['the guard file edited', (d) => edit(d, guard, (t) => `${t}\n// mine\n`)],
    ['the guard file removed', (d) => rmSync(join(d, guard))],
    ['the Codex env key removed', (d) => edit(d, '.codex/config.toml', (t) => t.replace(/^GIT_EDITOR = .*\r?\n/m, ''))],
    ['the stop rule edited', (d) => edit(d, 'AGENTS.md', (t) => t.replace('stop and work out why', 'keep trying'))],
    [
      'the ownership record edited',
      (d) => edit(d, '.agents/loop-guard.json', (t) => t.replace('"created": true', '"created": false')),
    ],
  ])(
    'tampering (%s) is drift for the newer version: exit 1 with an annotation, even without --strict',
    (_name, tamper) => {
      const dir = setUpWith(OLD);
      tamper(dir);
      const r = run(NEW, ['--check'], dir, { GITHUB_ACTIONS: 'true' });
      expect(r.status, r.stdout).toBe(1);
      expect(r.stdout).toMatch(/^Drift: /m);
      expect(r.stdout).toMatch(/^::error file=/m);
    },
  );

  it('the user editing their own part of a shared file is not drift', () => {
    const dir = setUpWith(OLD);
    edit(dir, '.claude/settings.json', (t) =>
      t.replace('"allow": ["Bash(git status)"]', '"allow": ["Bash(git status)", "Bash(npm test)"]'),
    );
    edit(dir, 'AGENTS.md', (t) => `${t}\nMore notes of ours.\n`);
    const r = run(NEW, ['--check'], dir);
    expect(r.stdout).toContain('Outdated:');
    expect(r.status).toBe(0);
  });

  it('a tool added to the repository after set-up is drift', () => {
    const dir = fixtureRepo('claude');
    expect(run(OLD, ['--yes'], dir).status).toBe(0);
    mkdirSync(join(dir, '.cursor'));
    for (const v of [OLD, NEW]) {
      const r = run(v, ['--check'], dir);
      expect(r.status).toBe(1);
      expect(r.stdout).toContain('Cursor is in this repository (.cursor/) but not set up');
    }
  });
});

function edit(dir: string, rel: string, fn: (text: string) => string): void {
  const file = join(dir, rel);
  const before = readFileSync(file, 'utf8');
  const after = fn(before);
  if (after === before) throw new Error(`the edit of ${rel} changed nothing`);
  writeFileSync(file, after);
}
