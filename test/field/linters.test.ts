// The field's stand-in for pre-commit's standard hooks (pre-commit is Python, not installed here): each rule fails
// on the file shape its hook rejects, and the guard as built passes them all.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths.ts';
import { loadLayouts } from './layout.ts';
import { preCommitHooksOf, preCommitRules } from './linters.ts';

const ALL = {
  ids: [
    'trailing-whitespace',
    'end-of-file-fixer',
    'mixed-line-ending',
    'check-added-large-files',
    'check-executables-have-shebangs',
  ],
  maxKb: 500,
};

describe("pre-commit-hooks' rules in the field step", () => {
  it('reads the hooks a layout lists (pg-textsearch: pre-commit-hooks v4.5.0, --maxkb=500)', () => {
    const layout = loadLayouts().find((l) => l.name === 'pg-textsearch');
    expect(layout && preCommitHooksOf(layout)).toEqual({
      ids: ['trailing-whitespace', 'end-of-file-fixer', 'check-yaml', 'check-added-large-files'],
      maxKb: 500,
    });
  });

  it('each rule fails on what its hook rejects', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lg-precommit-'));
    writeFileSync(join(dir, 'exec.cjs'), 'x\n');
    chmodSync(join(dir, 'exec.cjs'), 0o755);
    writeFileSync(join(dir, 'eof'), 'x');
    writeFileSync(join(dir, 'blank'), 'x\n\n');
    writeFileSync(join(dir, 'ws'), 'x \n');
    writeFileSync(join(dir, 'mixed'), 'a\r\nb\n');
    writeFileSync(join(dir, 'big'), `${'x'.repeat(501 * 1024)}\n`);
    const said = preCommitRules(dir, ALL, ['exec.cjs', 'eof', 'blank', 'ws', 'mixed', 'big']) ?? '';
    for (const line of [
      'check-executables-have-shebangs: exec.cjs',
      'end-of-file-fixer: eof: no final newline',
      'end-of-file-fixer: blank: blank lines at the end',
      'trailing-whitespace: ws',
      'mixed-line-ending: mixed',
      'check-added-large-files: big',
    ])
      expect(said).toContain(line);
  });

  it('the guard as built passes them all', () => {
    expect(preCommitRules(join(repoRoot, 'dist'), ALL, ['loop-guard.cjs'])).toBeNull();
  });
});
