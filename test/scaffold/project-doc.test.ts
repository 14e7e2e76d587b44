// Codex reads one instructions file a folder: AGENTS.override.md, else AGENTS.md, else the first existing name of
// `project_doc_fallback_filenames` (developers.openai.com/codex/guides/agents-md). The plan says, in words, what a
// new AGENTS.md changes in that choice.
import { describe, expect, it } from 'vitest';
import { docNote, docNotes, fallbackDoc, fallbackNames } from '../../src/scaffold/project-doc.ts';
import { TOOLS } from '../../src/tools/index.ts';

const KEY = 'project_doc_fallback_filenames';
const has =
  (...paths: string[]) =>
  (p: string) =>
    paths.includes(p);

describe('what an install changes in the file Codex reads', () => {
  it('reads the fallback names from the first config that sets them (the project, then the user)', () => {
    const user = { path: '~/.codex/config.toml', text: `${KEY} = ["TEAM.md"]\n` };
    expect(fallbackNames(KEY, [{ path: '.codex/config.toml', text: `${KEY} = ["CLAUDE.md"]\n` }, user])).toEqual({
      names: ['CLAUDE.md'],
      from: '.codex/config.toml',
    });
    expect(fallbackNames(KEY, [{ path: '.codex/config.toml', text: 'model = "o3"\n' }, user])).toEqual({
      names: ['TEAM.md'],
      from: '~/.codex/config.toml',
    });
    expect(fallbackNames(KEY, [{ path: '.codex/config.toml', text: `${KEY} = "x"\n[broken` }])).toBeNull();
  });

  it('a fallback file Codex reads today, and no AGENTS.md: the note names the file, the setting and the way out', () => {
    const note = docNote('Codex', KEY, has('CLAUDE.md'), {
      names: ['TEAM.md', 'CLAUDE.md'],
      from: '.codex/config.toml',
    });
    expect(note).toContain('Codex reads CLAUDE.md today (project_doc_fallback_filenames in .codex/config.toml)');
    expect(note).toContain('the stop rule reaches Codex and CLAUDE.md no longer does');
  });

  it('nothing to say with an AGENTS.md already there, or no fallback file present', () => {
    const fallback = { names: ['CLAUDE.md'], from: '.codex/config.toml' };
    expect(docNote('Codex', KEY, has('AGENTS.md', 'CLAUDE.md'), fallback)).toBeNull();
    expect(docNote('Codex', KEY, has('README.md'), fallback)).toBeNull();
    expect(docNote('Codex', KEY, has('CLAUDE.md'), null)).toBeNull();
  });

  it('an AGENTS.override.md: Codex reads it instead of AGENTS.md, so the note says the stop rule misses it', () => {
    expect(docNote('Codex', KEY, has('AGENTS.override.md', 'AGENTS.md'), null)).toContain(
      'the stop rule does not reach Codex here',
    );
  });

  it("only a tool whose record has a fallback list gets a note (Codex's record, from the docs)", () => {
    const read = (c: { path: string }) => ({
      shown: c.path,
      text: c.path === '.codex/config.toml' ? `${KEY} = ["CLAUDE.md"]\n` : null,
    });
    expect(docNotes([TOOLS.claude, TOOLS.cursor], has('CLAUDE.md'), read)).toEqual([]);
    expect(docNotes([TOOLS.codex], has('CLAUDE.md'), read)).toHaveLength(1);
  });
});

describe("the stop rule in Codex's fallback file instead of a new AGENTS.md", () => {
  const files =
    (tree: Record<string, string>) =>
    (p: string): string | null =>
      tree[p] ?? null;
  const config = { '.codex/config.toml': `${KEY} = ["TEAM.md", "CLAUDE.md"]\n` };

  it('goes in the first existing fallback file the repository config names, with the words for the plan', () => {
    const doc = fallbackDoc([TOOLS.codex], files({ ...config, 'CLAUDE.md': '# Rules\n' }));
    expect(doc?.path).toBe('CLAUDE.md');
    expect(doc?.note).toContain('Codex reads CLAUDE.md (project_doc_fallback_filenames in .codex/config.toml)');
    expect(fallbackDoc([TOOLS.codex], files({ ...config, 'TEAM.md': 'x\n', 'CLAUDE.md': 'y\n' }))?.path).toBe(
      'TEAM.md',
    );
  });

  it('beside tools that read a file of their own (Claude Code, Gemini CLI), still the fallback file', () => {
    const read = files({ ...config, 'CLAUDE.md': '# Rules\n' });
    expect(fallbackDoc([TOOLS.codex, TOOLS.claude, TOOLS.gemini], read)?.path).toBe('CLAUDE.md');
  });

  it('AGENTS.md as before when another chosen tool reads AGENTS.md itself (Cursor, OpenCode)', () => {
    const read = files({ ...config, 'CLAUDE.md': '# Rules\n' });
    expect(fallbackDoc([TOOLS.codex, TOOLS.cursor], read)).toBeNull();
    expect(fallbackDoc([TOOLS.codex, TOOLS.opencode], read)).toBeNull();
  });

  it('AGENTS.md as before with an AGENTS.md or an override there, no fallback file present, or no repository config', () => {
    expect(fallbackDoc([TOOLS.codex], files({ ...config, 'CLAUDE.md': 'x\n', 'AGENTS.md': 'y\n' }))).toBeNull();
    expect(
      fallbackDoc([TOOLS.codex], files({ ...config, 'CLAUDE.md': 'x\n', 'AGENTS.override.md': 'y\n' })),
    ).toBeNull();
    expect(fallbackDoc([TOOLS.codex], files({ ...config, 'README.md': 'x\n' }))).toBeNull();
    // A user's own ~/.codex/config.toml is personal: the repository's teammates' Codex would not read the file.
    expect(
      fallbackDoc([TOOLS.codex], files({ '~/.codex/config.toml': `${KEY} = ["CLAUDE.md"]\n`, 'CLAUDE.md': 'x\n' })),
    ).toBeNull();
  });
});
