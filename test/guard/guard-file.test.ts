// The BUILT dist/loop-guard.cjs as a reviewer meets it: a header that says what it is and how to check it, readable
// lines, the modules' own header comments, a loader part prettier leaves as it is, a source map, and, when required
// by a plugin loader, the plugins' exports without running the hook.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as prettier from 'prettier';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, requireFiles } from '../helpers/paths.ts';

const file = join(repoRoot, 'dist', 'loop-guard.cjs');
const version = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version as string;
beforeAll(() => requireFiles([file]));
const text = () => readFileSync(file, 'utf8');

describe('the guard file', () => {
  it('says what it is, which version, how it was built and how to verify it', () => {
    const head = text().slice(0, text().indexOf('"use strict"'));
    expect(head.split('\n')[0]).toMatch(new RegExp(`^// create-loop-guard v${version.replaceAll('.', '\\.')} - `));
    expect(head).toContain('How it is built: esbuild bundles the TypeScript in src/guard/');
    expect(head).toContain(`\`npx create-loop-guard@${version} doctor\` compares this file byte for byte`);
    expect(head).toContain('dist/loop-guard-source/');
  });

  it('is readable: no line over 210 characters, many lines, names and module header comments kept', () => {
    const lines = text().split('\n');
    expect(lines.filter((l) => l.length > 210)).toEqual([]);
    // Unminified: thousands of lines, and the source's names.
    expect(lines.length).toBeGreaterThan(5000);
    expect(text()).toContain('function normalizeOutput(');
    expect(text()).toContain('function decide(event, settings, facts, store, look');
    // Each module is named, followed by its header comment (here: the one hash module's).
    expect(text()).toMatch(/\/\/ src\/guard\/core\/hash\.ts\n\/\/ The one string hash of the guard/);
    // No esbuild annotations, no minified runs.
    expect(text()).not.toContain('@__PURE__');
  });

  it('is what prettier prints with its default options (the body is inside a comment, which it leaves alone)', async () => {
    expect(await prettier.check(text(), { parser: 'babel' })).toBe(true);
  });

  it('ships the TypeScript it was built from beside it (dist/loop-guard-source/, the paths under src/)', () => {
    for (const rel of ['src/guard/loader.ts', 'src/guard/entry.ts', 'src/guard/core/decide.ts', 'src/tools/env.ts'])
      expect(readFileSync(join(repoRoot, 'dist', 'loop-guard-source', rel.slice(4)), 'utf8'), rel).toBe(
        readFileSync(join(repoRoot, rel), 'utf8'),
      );
  });

  it('required (as the plugin loaders do), it exports the plugins and runs no hook', () => {
    const r = spawnSync(
      process.execPath,
      [
        '-e',
        `const g = require(${JSON.stringify(file)}); console.log(JSON.stringify([Object.keys(g).sort(), typeof g.opencodePlugin('kilo'), Object.keys(g.clinePlugin().hooks).sort()]));`,
      ],
      { input: '{"hook_event_name":"PreToolUse"}', encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      ['clinePlugin', 'main', 'opencodePlugin'],
      'function',
      ['afterTool', 'beforeRun', 'beforeTool'],
    ]);
  });
});
