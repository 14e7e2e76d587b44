// ESLint with type information fails to parse a file outside the TypeScript project, and no comment in the file can
// stop that: the install finds such a config (through the local modules it loads) and says which ignore to add. The
// layered shape is 108yen/task-orchestrator-mcp's at b337913 (MIT): eslint.config.ts imports ./.eslint, whose
// language-option.ts sets `parserOptions: { …, project }`; its `eslint .` failed on our guard file with "Parsing
// error: "parserOptions.project" has been provided for @typescript-eslint/parser", and passed with the ignore added.
import { describe, expect, it } from 'vitest';
import { typedLint, typedLintNotice } from '../../src/scaffold/eslint-notice.ts';
import { GUARD_PATH } from '../../src/tools/markers.ts';
import { fixtureRepo, readTree, requireCli, runCli } from '../helpers/cli.ts';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const reader = (files: Record<string, string>) => (p: string) => files[p] ?? null;

const LAYERED = {
  'eslint.config.ts': [
    'import tseslint from "typescript-eslint"',
    'import { baseConfig, languageOptionFactory } from "./.eslint"',
    'const ignoresConfig = { ignores: ["dist/**", "node_modules/**"] }',
    'export default tseslint.config(ignoresConfig, languageOptionFactory("./tsconfig.json"), baseConfig)',
    '',
  ].join('\n'),
  '.eslint/index.ts': 'export * from "./base"\nexport * from "./language-option"\n',
  '.eslint/base.ts': 'export const baseConfig = { files: ["**/*.cjs"], rules: {} }\n',
  '.eslint/language-option.ts': [
    'export const languageOptionFactory = (project = true) => ({',
    '  files: ["**/*.js", "**/*.cjs"],',
    '  languageOptions: { parserOptions: { ecmaVersion: 10, sourceType: "module", project } },',
    '})',
    '',
  ].join('\n'),
};

describe('typedLint', () => {
  it('follows the config into the local modules it loads and finds the parser options there', () => {
    expect(typedLint(reader(LAYERED), [GUARD_PATH])).toEqual({
      config: 'eslint.config.ts',
      where: '.eslint/language-option.ts',
      reached: [GUARD_PATH],
    });
  });

  it.each([
    ['projectService', 'export default [{ languageOptions: { parserOptions: { projectService: true } } }];\n'],
    ['a type-checked preset', 'export default tseslint.config(tseslint.configs.recommendedTypeChecked);\n'],
    [
      'project in the config',
      'export default [{ languageOptions: { parserOptions: { project: "./tsconfig.json" } } }];\n',
    ],
  ])('finds %s in the config itself', (_what, text) => {
    expect(typedLint(reader({ 'eslint.config.mjs': text }), [GUARD_PATH])?.where).toBe('eslint.config.mjs');
  });

  it('says nothing for a config without type information, or with none at all', () => {
    const plain =
      'import js from "@eslint/js";\nexport default [{ files: ["**/*.cjs"], ...js.configs.recommended }];\n';
    expect(typedLint(reader({ 'eslint.config.js': plain }), [GUARD_PATH])).toBeNull();
    expect(typedLint(reader({}), [GUARD_PATH])).toBeNull();
  });

  it("says nothing once the config names the generated files' folders, wherever it does", () => {
    const ignored = { ...LAYERED, '.eslint/base.ts': 'export const baseConfig = { ignores: [".agents/**"] }\n' };
    expect(typedLint(reader(ignored), [GUARD_PATH])).toBeNull();
    const some = typedLint(reader(ignored), [GUARD_PATH, '.opencode/plugins/loop-guard.js']);
    expect(some?.reached).toEqual(['.opencode/plugins/loop-guard.js']);
  });

  it('reads no module outside the repository and stops at a cycle', () => {
    const files = {
      'eslint.config.js': 'import a from "../outside/eslint.js";\nimport b from "./a.js";\n',
      'a.js': 'import c from "./eslint.config.js";\n',
    };
    const asked: string[] = [];
    expect(typedLint((p) => (asked.push(p), reader(files)(p)), [GUARD_PATH])).toBeNull();
    expect(asked.some((p) => p.includes('outside'))).toBe(false);
  });

  it('the notice names the files and the ignore to add', () => {
    const text = typedLintNotice({ config: 'eslint.config.ts', where: '.eslint/x.ts', reached: [GUARD_PATH] });
    expect(text).toContain('(set in .eslint/x.ts)');
    expect(text).toContain(`{ ignores: ["${GUARD_PATH}"] }`);
  });
});

describe('the install says it', () => {
  it('before the plan, and not once the ignore is there', () => {
    requireCli();
    const dir = fixtureRepo(null);
    for (const [p, text] of Object.entries({ ...LAYERED, '.gemini/settings.json': '{}\n' })) {
      mkdirSync(join(dir, p, '..'), { recursive: true });
      writeFileSync(join(dir, p), text);
    }
    const r = runCli(['--yes', '--tools', 'gemini'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      'ESLint config eslint.config.ts parses with type information (set in .eslint/language-option.ts)',
    );
    expect(r.stdout).toContain(`{ ignores: ["${GUARD_PATH}"] }`);
    expect(r.stdout).toContain(
      `- ESLint: add "${GUARD_PATH}" to the ignores of eslint.config.ts before you commit, if`,
    );
    expect(readTree(dir).get('eslint.config.ts')).toBe(LAYERED['eslint.config.ts']);
    const config = LAYERED['eslint.config.ts'].replace('"dist/**"', `"dist/**", "${GUARD_PATH}"`);
    writeFileSync(join(dir, 'eslint.config.ts'), config);
    expect(runCli(['--yes'], { cwd: dir }).stdout).not.toContain('ESLint config');
  });
});
