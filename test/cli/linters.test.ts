// A repository's own lint and spell checks pass over the code we write, without a config change: the guard file and
// the plugin loaders carry the markers biome, eslint and cspell honour in the file itself (docs/guard-file.md,
// "Linters"). Each tool is the real one (dev dependencies); each check is shown to fail on the same files without
// the markers, so a green run means the markers did it. pre-commit is Python: its five standard hooks run when
// LOOP_GUARD_PRE_COMMIT (the pre-commit binary) and LOOP_GUARD_PRE_COMMIT_HOOKS (a clone of pre-commit/pre-commit-hooks)
// are set, and the rules they check are asserted here either way.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { GUARD_PATH } from '../../src/tools/markers.ts';
import { fixtureRepo, requireCli, runCli } from '../helpers/cli.ts';
import { repoRoot } from '../helpers/paths.ts';

/** The code files `--tools all` writes: the ones a `**\/*.{js,cjs}` lint glob takes. */
const CODE = [
  GUARD_PATH,
  '.opencode/plugins/loop-guard.js',
  '.kilo/plugins/loop-guard.js',
  '.cline/plugins/loop-guard.js',
];
const MARKER = /^(\/\/ biome-ignore-all .*|\/\* eslint-disable \*\/|\/\/ cspell:disable)\n/gm;
const bin = (name: string) => join(repoRoot, 'node_modules', '.bin', name);
const run = (cmd: string, args: string[], cwd: string) =>
  spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, NO_COLOR: '1' } });
const said = (r: ReturnType<typeof run>) => `exit ${r.status}\n${r.stdout}${r.stderr}`.slice(0, 4000);

/** biome configs a repository may have: biome's defaults (tabs), and a strict one unlike our style. */
const BIOME_CONFIGS = {
  default: {},
  strict: {
    formatter: { indentStyle: 'space', indentWidth: 4, lineWidth: 80 },
    javascript: { formatter: { quoteStyle: 'single', semicolons: 'asNeeded' } },
    linter: { rules: { style: { useBlockStatements: 'error', useTemplate: 'error' }, suspicious: { noVar: 'error' } } },
  },
};
/** eslint's flat config over every .js and .cjs file, with the recommended rules. */
const ESLINT_CONFIG = `import js from ${JSON.stringify(join(repoRoot, 'node_modules', '@eslint', 'js', 'src', 'index.js'))};
export default [{ files: ["**/*.{js,cjs}"], ...js.configs.recommended }];
`;

let dir = '';
let unmarked = '';
beforeAll(() => {
  requireCli();
  dir = fixtureRepo(null);
  const r = runCli(['--yes', '--tools', 'all'], { cwd: dir });
  expect(r.status, r.stderr).toBe(0);
  // The same install with the markers taken out: what each check says without them.
  unmarked = fixtureRepo(null);
  expect(runCli(['--yes', '--tools', 'all'], { cwd: unmarked }).status).toBe(0);
  for (const f of CODE) {
    const p = join(unmarked, f);
    const text = readFileSync(p, 'utf8');
    expect(text.match(MARKER)?.length, f).toBe(4);
    writeFileSync(p, text.replace(MARKER, ''));
  }
}, 120_000);

describe.each(Object.entries(BIOME_CONFIGS))('biome check --error-on-warnings, %s config', (_name, config) => {
  it('passes over the code we write, and fails on it without the markers', () => {
    for (const d of [dir, unmarked]) writeFileSync(join(d, 'biome.json'), `${JSON.stringify(config)}\n`);
    const ok = run(bin('biome'), ['check', '--error-on-warnings', ...CODE], dir);
    expect(ok.status, said(ok)).toBe(0);
    expect(ok.stdout + ok.stderr).toMatch(/Checked 4 files/);
    const bad = run(bin('biome'), ['check', '--error-on-warnings', ...CODE], unmarked);
    expect(bad.status, said(bad)).not.toBe(0);
    expect(bad.stdout + bad.stderr).toContain(GUARD_PATH);
  });
});

describe('eslint, a flat config over **/*.{js,cjs} with the recommended rules', () => {
  it('finds our files and reports nothing; without the markers, errors in each', () => {
    const results = (d: string) => {
      writeFileSync(join(d, 'eslint.config.mjs'), ESLINT_CONFIG);
      const r = run(bin('eslint'), ['--format', 'json', '--max-warnings', '0', '.'], d);
      const out = JSON.parse(r.stdout) as { filePath: string; errorCount: number; warningCount: number }[];
      return { status: r.status, files: new Map(out.map((f) => [f.filePath.slice(d.length + 1), f])) };
    };
    const ok = results(dir);
    for (const f of CODE) expect(ok.files.get(f), f).toMatchObject({ errorCount: 0, warningCount: 0 });
    expect(ok.status).toBe(0);
    const bad = results(unmarked);
    expect(bad.status).not.toBe(0);
    expect(bad.files.get(GUARD_PATH)?.errorCount).toBeGreaterThan(0);
  });
});

describe('cspell', () => {
  it('finds no unknown word in the code we write; without the markers, many in the guard', () => {
    const ok = run(bin('cspell'), ['--no-progress', '--no-summary', '--dot', ...CODE], dir);
    expect(ok.status, said(ok)).toBe(0);
    // Without the markers, the guard's first 1,000 lines alone (cspell takes a minute over the whole file).
    const head = join(unmarked, '.agents', 'hooks', 'head.cjs');
    writeFileSync(head, `${readFileSync(join(unmarked, GUARD_PATH), 'utf8').split('\n').slice(0, 1000).join('\n')}\n`);
    const bad = run(bin('cspell'), ['--no-progress', '--dot', head], unmarked);
    expect(bad.status).not.toBe(0);
    expect((bad.stdout.match(/Unknown word/g) ?? []).length).toBeGreaterThan(10);
  }, 120_000);
});

describe("pre-commit's standard hooks", () => {
  const HOOKS = [
    'check-executables-have-shebangs',
    'end-of-file-fixer',
    'trailing-whitespace',
    'mixed-line-ending',
    'check-added-large-files',
  ];
  it('hold for every file we write: no exec bit, one final newline, no trailing blanks, LF only, under 500 KB', () => {
    for (const f of CODE) {
      const text = readFileSync(join(dir, f), 'latin1');
      expect(statSync(join(dir, f)).mode & 0o111, `${f} is executable`).toBe(0);
      expect(text.endsWith('\n') && !text.endsWith('\n\n'), `${f} ends with one newline`).toBe(true);
      expect(text.match(/[ \t]+$/m)?.[0], `${f} has trailing whitespace`).toBeUndefined();
      expect(text.includes('\r'), `${f} has CR`).toBe(false);
      expect(Buffer.byteLength(text) / 1024, f).toBeLessThan(500);
    }
  });

  const preCommit = process.env.LOOP_GUARD_PRE_COMMIT;
  const hooksRepo = process.env.LOOP_GUARD_PRE_COMMIT_HOOKS;
  (preCommit && hooksRepo ? it : it.skip)(
    'pass when pre-commit runs them over the installed repository',
    { timeout: 300_000 },
    () => {
      const config = [
        'repos:',
        `  - repo: ${hooksRepo}`,
        `    rev: ${process.env.LOOP_GUARD_PRE_COMMIT_HOOKS_REV ?? 'v6.0.0'}`,
        '    hooks:',
        ...HOOKS.map((h) => `      - id: ${h}`),
        '',
      ].join('\n');
      writeFileSync(join(dir, '.pre-commit-config.yaml'), config);
      expect(run('git', ['add', '-A'], dir).status).toBe(0);
      const r = run(preCommit as string, ['run', '--all-files'], dir);
      expect(r.status, said(r)).toBe(0);
      // Each hook ran and passed (the shebang check says Skipped: no file is executable, which is the point).
      expect(r.stdout.match(/(Passed|Skipped)$/gm)?.length, r.stdout).toBe(HOOKS.length);
      expect(r.stdout).toMatch(/executables have shebangs\.+\(no files to check\)Skipped/);
    },
  );
});
