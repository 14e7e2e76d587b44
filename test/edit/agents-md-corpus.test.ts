import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type BlockSpec, inspectBlock, removeBlock, upsertBlock } from '../../src/edit/md-block.ts';
import { ensureImportLine, hasImportLine, removeImportLine } from '../../src/edit/import-line.ts';

const dir = fileURLToPath(new URL('../fixtures/corpus/agents-md/', import.meta.url));
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.md'))
  .sort();

const spec: BlockSpec = {
  id: 'loop-guard',
  version: '0.1.0',
  style: 'markdown',
  body: [
    '## Repeated failures (loop-guard)',
    '',
    '- If a command fails twice with the same output, do not run it a third time unchanged: read the error, change the command or the code, or ask the user.',
    '- A hook warns when a command repeats with the same result and then blocks the next attempt; a block means change the approach, not retry.',
    '- Never wait on a pager, editor or prompt: use `git --no-pager`, `GIT_EDITOR=true` and non-interactive flags.',
  ].join('\n'),
};

function read(name: string): { bytes: Buffer; text: string } {
  const bytes = readFileSync(dir + name);
  return { bytes, text: bytes.toString('utf8') };
}

describe('agents-md corpus', () => {
  it('has the expected files', () => {
    expect(files.length).toBeGreaterThanOrEqual(13);
    expect(files).toContain('DiversioTeam__claude-plugins__CLAUDE.md');
    expect(files).toContain('syuhei176__agents-template__AGENTS.md');
  });

  describe.each(files)('%s', (name) => {
    const { bytes, text } = read(name);

    it.each(['end', 'start'] as const)(
      'managed block (%s): content kept, rerun unchanged, remove restores bytes',
      (position) => {
        expect(inspectBlock(text, spec).state).toBe('absent');
        const out = upsertBlock(text, spec, { force: false, position });
        expect(out.status).toBe('changed');
        if (out.status !== 'changed') return;
        if (position === 'end') expect(out.text.startsWith(text)).toBe(true);
        else expect(out.text.endsWith(text)).toBe(true);
        expect(inspectBlock(out.text, spec)).toEqual({ state: 'current', version: '0.1.0' });
        expect(upsertBlock(out.text, spec, { force: false, position })).toEqual({
          status: 'unchanged',
          text: out.text,
          notes: [],
        });
        const removed = removeBlock(out.text, spec, { force: false });
        expect(removed.becameEmpty).toBe(false);
        expect(removed.outcome.status).toBe('changed');
        if (removed.outcome.status !== 'changed') return;
        expect(Buffer.from(removed.outcome.text, 'utf8').equals(bytes)).toBe(true);
      },
    );
  });

  describe.each(files.filter((f) => f.endsWith('CLAUDE.md')))('%s', (name) => {
    const { bytes, text } = read(name);

    it('import line: ensure + remove round trip', () => {
      const out = ensureImportLine(text, '@AGENTS.md');
      if (hasImportLine(text, '@AGENTS.md')) {
        expect(out).toEqual({ status: 'unchanged', text, notes: [], added: false });
        return;
      }
      expect(out.status).toBe('changed');
      if (out.status !== 'changed') return;
      expect(out.text).toBe(`@AGENTS.md\n\n${text}`);
      expect(ensureImportLine(out.text, '@AGENTS.md').status).toBe('unchanged');
      const removed = removeImportLine(out.text, '@AGENTS.md');
      expect(removed.outcome.status).toBe('changed');
      if (removed.outcome.status !== 'changed') return;
      expect(Buffer.from(removed.outcome.text, 'utf8').equals(bytes)).toBe(true);
    });
  });

  it('DiversioTeam CLAUDE.md already imports @AGENTS.md on its first line', () => {
    const { text } = read('DiversioTeam__claude-plugins__CLAUDE.md');
    expect(hasImportLine(text, '@AGENTS.md')).toBe(true);
    expect(ensureImportLine(text, '@AGENTS.md')).toEqual({ status: 'unchanged', text, notes: [], added: false });
  });

  it('sotayamashita CLAUDE.md mentions @AGENTS.md only inline: an explicit line is added, with a note', () => {
    const { text } = read('sotayamashita__claude-code-statusline__CLAUDE.md');
    expect(hasImportLine(text, '@AGENTS.md')).toBe(false);
    const out = ensureImportLine(text, '@AGENTS.md');
    expect(out.status).toBe('changed');
    if (out.status !== 'changed') return;
    expect(out.notes[0]).toMatch(/inline \(lines 3, 7, 11, 14, 18\)/);
  });

  it("pydantic-ai CLAUDE.md's @decorators in code fences are not imports", () => {
    expect(hasImportLine(read('pydantic__pydantic-ai__CLAUDE.md').text, '@AGENTS.md')).toBe(false);
  });

  it('syuhei176 AGENTS.md: the SPEC block of another tool is kept byte for byte', () => {
    const { text } = read('syuhei176__agents-template__AGENTS.md');
    const specBlock = text.slice(
      text.indexOf('<!-- SPEC:START -->'),
      text.indexOf('<!-- SPEC:END -->') + '<!-- SPEC:END -->'.length,
    );
    expect(specBlock.length).toBeGreaterThan(40);
    const out = upsertBlock(text, spec, { force: false });
    expect(out.status === 'changed' && out.text.includes(specBlock)).toBe(true);
    if (out.status !== 'changed') return;
    expect(out.text.indexOf('<!-- SPEC:END -->')).toBeLessThan(out.text.indexOf('<!-- loop-guard:begin'));
  });
});
