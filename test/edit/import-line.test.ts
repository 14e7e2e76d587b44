import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ensureImportLine, findInlineImports, hasImportLine, removeImportLine } from '../../src/edit/import-line.ts';

const IMP = '@AGENTS.md';

describe('hasImportLine', () => {
  const cases: [string, string, boolean][] = [
    ['first line', '@AGENTS.md\n\n# T\n', true],
    ['later line', '# T\n\n@AGENTS.md\n', true],
    ['./ form', '@./AGENTS.md\n', true],
    ['followed by prose', '@AGENTS.md (shared rules)\n', true],
    ['up to 3 spaces of indent', '   @AGENTS.md\n', true],
    ['CRLF', '# T\r\n@AGENTS.md\r\n', true],
    ['after a BOM', '\uFEFF@AGENTS.md\n', true],
    ['4-space indent is code', '    @AGENTS.md\n', false],
    ['inside a ``` fence', '```\n@AGENTS.md\n```\n', false],
    ['inside a ~~~ fence', '~~~md\n@AGENTS.md\n~~~\n', false],
    ['inline in prose', 'See @AGENTS.md for rules.\n', false],
    ['list item', '- @AGENTS.md\n', false],
    ['code span', '`@AGENTS.md`\n', false],
    ['other file', '@AGENTS.md.bak\n@docs/AGENTS.md\n', false],
    ['empty', '', false],
  ];
  it.each(cases)('%s', (_name, text, expected) => {
    expect(hasImportLine(text, IMP)).toBe(expected);
  });

  it('rejects an import line that is not one @token', () => {
    expect(() => hasImportLine('x', 'AGENTS.md')).toThrow();
    expect(() => hasImportLine('x', '@a b')).toThrow();
  });
});

describe('findInlineImports', () => {
  it('finds prose mentions outside fences and code spans, not line-start imports', () => {
    const text = [
      '@AGENTS.md',
      'See @AGENTS.md.',
      '`@AGENTS.md` is the syntax',
      '```',
      'x @AGENTS.md',
      '```',
      '- rules: @./AGENTS.md',
      'email me@AGENTS.md',
    ].join('\n');
    expect(findInlineImports(text, IMP)).toEqual([2, 7]);
  });
});

describe('ensureImportLine / removeImportLine', () => {
  it('null → just the line', () => {
    expect(ensureImportLine(null, IMP)).toEqual({ status: 'changed', text: '@AGENTS.md\n', notes: [], added: true });
  });

  const cases: [string, string, string][] = [
    ['empty file', '', '@AGENTS.md\n'],
    ['LF', '# T\n', '@AGENTS.md\n\n# T\n'],
    ['LF, no final newline', '# T', '@AGENTS.md\n\n# T'],
    ['CRLF', '# T\r\nx\r\n', '@AGENTS.md\r\n\r\n# T\r\nx\r\n'],
    ['CRLF, no final newline', '# T\r\nx', '@AGENTS.md\r\n\r\n# T\r\nx'],
    ['BOM', '\uFEFF# T\n', '\uFEFF@AGENTS.md\n\n# T\n'],
    ['BOM only', '\uFEFF', '\uFEFF@AGENTS.md\n'],
    ['leading blank line', '\n# T\n', '@AGENTS.md\n\n\n# T\n'],
    ['import only inside a fence', '```\n@AGENTS.md\n```\n', '@AGENTS.md\n\n```\n@AGENTS.md\n```\n'],
    ['starts with a fence', '```sh\nmake\n```\n', '@AGENTS.md\n\n```sh\nmake\n```\n'],
  ];
  it.each(cases)('%s: prepends, and remove gives back the exact bytes', (_name, before, after) => {
    const out = ensureImportLine(before, IMP);
    expect(out).toMatchObject({ status: 'changed', text: after, added: true });
    expect(hasImportLine(after, IMP)).toBe(true);
    expect(ensureImportLine(after, IMP)).toEqual({ status: 'unchanged', text: after, notes: [], added: false });
    const removed = removeImportLine(after, IMP);
    expect(removed.outcome).toEqual({ status: 'changed', text: before, notes: [] });
    expect(removed.becameEmpty).toBe(before.replace(/^\uFEFF/, '') === '');
  });

  it('already present → unchanged', () => {
    for (const text of ['@AGENTS.md\n', '# T\n\n@./AGENTS.md\n', '# T\r\n@AGENTS.md']) {
      expect(ensureImportLine(text, IMP)).toEqual({ status: 'unchanged', text, notes: [], added: false });
    }
  });

  it('an inline mention does not count, but is noted', () => {
    const text = '# T\n\nRead @AGENTS.md first.\n';
    const out = ensureImportLine(text, IMP);
    expect(out.status).toBe('changed');
    if (out.status !== 'changed') return;
    expect(out.text).toBe(`@AGENTS.md\n\n${text}`);
    expect(out.notes).toHaveLength(1);
    expect(out.notes[0]).toMatch(/inline \(line 3\)/);
  });

  it('removeImportLine leaves a file without our line at the top alone', () => {
    for (const text of ['# T\n\n@AGENTS.md\n', '', '@AGENTS.md.bak\n', '@./AGENTS.md\n']) {
      expect(removeImportLine(text, IMP)).toEqual({
        outcome: { status: 'unchanged', text, notes: [] },
        becameEmpty: false,
      });
    }
  });

  it('null round trip: created file → removed → empty', () => {
    const created = ensureImportLine(null, IMP);
    expect(created.status).toBe('changed');
    if (created.status !== 'changed') return;
    expect(removeImportLine(created.text, IMP)).toEqual({
      outcome: { status: 'changed', text: '', notes: [] },
      becameEmpty: true,
    });
  });
});

describe('property: ensure/remove import line round-trips', () => {
  const piece = fc.constantFrom('a', ' ', '\n', '\r\n', '```', '@AGENTS.md', '@x', '    ');
  const text = fc
    .tuple(fc.boolean(), fc.array(piece, { maxLength: 12 }))
    .map(([bom, parts]) => (bom ? '\uFEFF' : '') + parts.join(''));
  it('ensure then remove gives back the bytes whenever a line was added', () => {
    fc.assert(
      fc.property(text, (before) => {
        const out = ensureImportLine(before, IMP);
        expect(out.status).not.toBe('conflict');
        if (out.status !== 'changed') {
          expect(hasImportLine(before, IMP)).toBe(true);
          return;
        }
        expect(hasImportLine(out.text, IMP)).toBe(true);
        expect(ensureImportLine(out.text, IMP).status).toBe('unchanged');
        expect(removeImportLine(out.text, IMP).outcome).toEqual({ status: 'changed', text: before, notes: [] });
      }),
      { numRuns: 400 },
    );
  });
});
