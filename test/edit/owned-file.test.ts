import { describe, expect, it } from 'vitest';
import { ownedHeaderLine, planOwnedFile, readOwnedHeader, withOwnedHeader } from '../../src/edit/owned-file.ts';

const JS_V1 = withOwnedHeader('export const x = 1;\n', '//', '0.1.0');
const JS_V2 = withOwnedHeader('export const x = 2;\n', '//', '0.2.0');
const HOOK = withOwnedHeader('#!/usr/bin/env node\nconsole.log(1);\n', '//', '0.1.0');

describe('header line', () => {
  it('exact format for both comment styles', () => {
    expect(ownedHeaderLine('//', '0.1.0')).toBe(
      '// create-loop-guard v0.1.0 - generated file; edits are replaced on upgrade (rerun npx create-loop-guard)',
    );
    expect(ownedHeaderLine('#', '1.2.3-rc.1')).toBe(
      '# create-loop-guard v1.2.3-rc.1 - generated file; edits are replaced on upgrade (rerun npx create-loop-guard)',
    );
    expect(() => ownedHeaderLine('#', '1 2')).toThrow();
  });

  it('withOwnedHeader puts it first, or after a shebang', () => {
    expect(JS_V1).toBe(`${ownedHeaderLine('//', '0.1.0')}\nexport const x = 1;\n`);
    expect(HOOK).toBe(`#!/usr/bin/env node\n${ownedHeaderLine('//', '0.1.0')}\nconsole.log(1);\n`);
    expect(withOwnedHeader('#!/bin/sh', '#', '0.1.0')).toBe(`#!/bin/sh\n${ownedHeaderLine('#', '0.1.0')}\n`);
  });
});

describe('readOwnedHeader', () => {
  const cases: [string, string, string | null][] = [
    ['JS header', JS_V1, '0.1.0'],
    ['shell header', withOwnedHeader('export A=1\n', '#', '0.3.0'), '0.3.0'],
    ['after a shebang', HOOK, '0.1.0'],
    ['CRLF', JS_V1.replace(/\n/g, '\r\n'), '0.1.0'],
    ['BOM', `\uFEFF${JS_V1}`, '0.1.0'],
    ['older, shorter wording', '// create-loop-guard v0.0.1\n', '0.0.1'],
    ['header only, no newline', '# create-loop-guard v0.1.0', '0.1.0'],
    ['someone else’s file', '// my own hook\nconsole.log(1);\n', null],
    ['mentions us in prose', '// inspired by create-loop-guard v0.1.0\n', null],
    ['header on line 3', '// a\n// b\n// create-loop-guard v0.1.0\n', null],
    ['header on line 2 without shebang', '// a\n// create-loop-guard v0.1.0\n', null],
    ['no version', '// create-loop-guard\n', null],
    ['empty', '', null],
  ];
  it.each(cases)('%s', (_name, text, version) => {
    expect(readOwnedHeader(text)).toEqual(version === null ? null : { product: 'create-loop-guard', version });
  });
});

describe('planOwnedFile', () => {
  it('null → create', () => {
    expect(planOwnedFile(null, JS_V1, { force: false })).toEqual({ status: 'changed', text: JS_V1, notes: [] });
  });

  it('ours, same content → unchanged (idempotent)', () => {
    expect(planOwnedFile(JS_V1, JS_V1, { force: false })).toEqual({ status: 'unchanged', text: JS_V1, notes: [] });
  });

  it('ours, older → upgraded', () => {
    expect(planOwnedFile(JS_V1, JS_V2, { force: false })).toEqual({
      status: 'changed',
      text: JS_V2,
      notes: ['Replaced v0.1.0 with v0.2.0.'],
    });
  });

  it('ours, newer → replaced with a downgrade note', () => {
    const out = planOwnedFile(JS_V2, JS_V1, { force: false });
    expect(out.status === 'changed' && out.notes[0]).toMatch(/downgrade/);
  });

  it('ours, same version, hand-edited → replaced with a note', () => {
    const out = planOwnedFile(JS_V1.replace('1;', '3;'), JS_V1, { force: false });
    expect(out).toMatchObject({ status: 'changed', text: JS_V1 });
    expect(out.status === 'changed' && out.notes[0]).toMatch(/differed/);
  });

  it('ours with CRLF line endings (a core.autocrlf checkout) → unchanged: git gives it LF again on commit', () => {
    const crlf = HOOK.replace(/\n/g, '\r\n');
    expect(planOwnedFile(crlf, HOOK, { force: false })).toEqual({ status: 'unchanged', text: crlf, notes: [] });
  });

  it('not ours → conflict with reason and fix; --force overwrites', () => {
    const theirs = '#!/usr/bin/env node\n// my own guard\n';
    const out = planOwnedFile(theirs, HOOK, { force: false });
    expect(out).toEqual({
      status: 'conflict',
      reason: 'A file of the same name exists without the create-loop-guard header, so it is not ours to replace.',
      fix: 'Move it away (or merge what you need into your own file elsewhere) and rerun, or rerun with --force to overwrite it.',
    });
    const forced = planOwnedFile(theirs, HOOK, { force: true });
    expect(forced).toMatchObject({ status: 'changed', text: HOOK });
    expect(forced.status === 'changed' && forced.notes[0]).toMatch(/--force/);
  });

  it('an empty file of the same name is replaced without force', () => {
    expect(planOwnedFile('\n', JS_V1, { force: false })).toMatchObject({ status: 'changed', text: JS_V1 });
  });

  it('desired text without our header is a bug, not a plan', () => {
    expect(() => planOwnedFile(null, 'console.log(1)\n', { force: false })).toThrow(/header/);
  });
});
