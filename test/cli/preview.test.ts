// The preview's renderer, fed plan data directly: the tool column, home paths, the compact diff, extra sections.
import { describe, expect, it } from 'vitest';
import { palette } from '../../src/report/colors.ts';
import { compactDiff, unifiedDiff } from '../../src/report/diff.ts';
import { previewReport, toolsReport } from '../../src/report/summary.ts';
import type { FileChange } from '../../src/scaffold/plan.ts';

const c = palette(false);
const change = (over: Partial<FileChange>): FileChange => ({
  path: 'x',
  action: 'update',
  before: '',
  after: '',
  reason: 'hooks',
  notes: [],
  ...over,
});

describe('the preview', () => {
  it('the tool column fits its longest name ("GitHub Copilot CLI" does not run into its evidence)', () => {
    const text = toolsReport(
      [
        { name: 'claude', evidence: ['.claude/'] },
        { name: 'copilot', evidence: ['.github/hooks/'] },
      ],
      c,
    );
    expect(text).toBe('Agent tools:\n  Claude Code         .claude/\n  GitHub Copilot CLI  .github/hooks/\n');
  });

  it('a file in $HOME is shown as ~/…, and its diff header has no "b//home"', () => {
    const bashrc = change({ path: '/home/me/.bashrc', home: true, before: '# mine\n', after: '# mine\nexport A=1\n' });
    expect(unifiedDiff(bashrc)).toContain('+++ /home/me/.bashrc\n');
    expect(unifiedDiff(bashrc)).not.toContain('b//');
    expect(unifiedDiff(bashrc, '~/.bashrc')).toMatch(/^--- ~\/\.bashrc\n\+\+\+ ~\/\.bashrc\n/m);
    const text = previewReport({ changes: [], tense: 'will', full: false, home: '/home/me', deferred: bashrc }, c);
    expect(text).toMatch(/^ {2}ask last {3}~\/\.bashrc {2}hooks: asked separately, default No$/m);
    expect(text).toContain('  ~/.bashrc  1 line added in 1 place\n');
  });

  it("the compact diff of a user's file: one line per place, lines taken out shown, the rest counted", () => {
    const before = '{\n  "a": 1\n}\n';
    const after = `{\n  "a": 1,\n${Array.from({ length: 30 }, (_, i) => `  "k${i}": ${i},`).join('\n')}\n  "z": 0\n}\n`;
    const text = compactDiff(change({ path: 'cfg.json', before, after }), c, 'cfg.json');
    expect(text.split('\n')).toEqual([
      '  cfg.json  32 lines added, 1 line taken out in 1 place',
      '      -  "a": 1',
      '    2 +  "a": 1,  … 31 more',
      '',
    ]);
  });

  it("our own new files are one line each, with purpose and size; only the user's files get a diff", () => {
    const text = previewReport(
      {
        changes: [
          change({
            path: '.agents/hooks/loop-guard.cjs',
            action: 'create',
            before: null,
            after: 'a\nb\n',
            reason: 'add',
            generated: true,
          }),
          change({
            path: '.claude/settings.json',
            before: '{}\n',
            after: '{\n  "env": {}\n}\n',
            reason: 'hooks and environment',
          }),
        ],
        tense: 'will',
        full: false,
      },
      c,
    );
    expect(text).toContain('  create     .agents/hooks/loop-guard.cjs  the guard every hook runs (2 lines, ours)\n');
    expect(text).toContain(
      '  update     .claude/settings.json         hooks that run the guard, and the environment (+3 −1 lines)\n',
    );
    expect(text).not.toContain('loop-guard.cjs  2 lines');
    expect(text).toContain(
      'Your files (only what changes; --diff shows every line):\n  .claude/settings.json  3 lines added',
    );
  });

  it('sections other parts of the plan add slot in under their title; empty ones are left out', () => {
    const text = previewReport(
      {
        changes: [change({ path: 'AGENTS.md', before: 'x\n', after: 'x\ny\n', reason: 'stop rule' })],
        tense: 'would',
        full: false,
        sections: [
          { title: 'Left alone:', lines: ['.claude/settings.json is ignored by git'] },
          { title: 'Empty:', lines: [] },
        ],
      },
      c,
    );
    expect(text).toContain('\nLeft alone:\n  .claude/settings.json is ignored by git\n');
    expect(text).not.toContain('Empty:');
  });
});
