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

  // smartik's .gitattributes ends without a newline: a block appended after its last line takes nothing out.
  it('a last line without its newline, appended after, is not shown as taken out; a newline alone is the change', () => {
    const before = '*.ico binary\n*.svg binary';
    const after = `${before}\n\n# >>> loop-guard:begin >>>\n/.agents/hooks/loop-guard.cjs eol=lf\n# <<< loop-guard:end <<<`;
    const text = compactDiff(change({ path: '.gitattributes', before, after }), c, '.gitattributes');
    expect(text.split('\n')[0]).toBe('  .gitattributes  4 lines added in 1 place');
    expect(text).not.toContain('-*.svg binary');
    const nl = compactDiff(change({ path: 'x', before, after: `${before}\n` }), c, 'x');
    expect(nl.split('\n')[0]).toBe('  x  1 line added, 1 line taken out in 1 place');
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

  it('a changed long line (inline TOML) fits 80 columns and shows where it changed, from the same column, with …', () => {
    const head = 'set = { FOO = "bar", SOMETHING_VERY_LONG_NAME_HERE = "a very long value that goes on and on and on"';
    const before = `[shell_environment_policy]\n${head} }\n`;
    const after = `[shell_environment_policy]\n${head}, GIT_PAGER = "cat", PAGER = "cat" }\n`;
    const lines = compactDiff(change({ path: '.codex/config.toml', before, after }), c, '.codex/config.toml').split(
      '\n',
    );
    const minus = lines.find((l) => l.trimStart().startsWith('-')) ?? '';
    const plus = lines.find((l) => /^ +2 \+/.test(l)) ?? '';
    for (const l of lines) expect(Array.from(l).length).toBeLessThanOrEqual(80);
    // Not the head of both lines (which are the same): the end of the one, the added keys of the other.
    expect(minus).not.toEqual(plus.replace(/^( +)2/, '$1 '));
    expect(minus).toMatch(/-….*and on" }$/);
    expect(plus).toMatch(/\+….*and on", GIT_PAGER = "cat", PAGER = "cat" }$/);
    expect(minus.indexOf('and on"')).toBe(plus.indexOf('and on"'));
    // A terminal's own width: 60 columns.
    const narrow = compactDiff(change({ path: 'c.toml', before, after }), c, 'c.toml', 60).split('\n');
    for (const l of narrow) expect(Array.from(l).length).toBeLessThanOrEqual(60);
    expect(narrow.join('\n')).toContain('GIT_PAGER');
  });

  it("a CRLF file's \\r, and other control characters, are shown, never sent to the terminal", () => {
    const before = '{\r\n  "a": 1\r\n}\r\n';
    const after = '{\r\n  "a": 1,\r\n  "b": "x\u001b[2Jy\tz"\r\n}\r\n';
    const text = compactDiff(change({ path: 's.json', before, after }), c, 's.json');
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(text.split('\n')).toEqual([
      '  s.json  2 lines added, 1 line taken out in 1 place',
      '      -  "a": 1␍',
      '    2 +  "a": 1,␍  … 1 more',
      '',
    ]);
    const b = compactDiff(
      change({ path: 's.json', before: '{}\r\n', after: '{}\r\n"x\u001b[2Jy\tz"\r\n' }),
      c,
      's.json',
    );
    expect(b).toContain('    2 +"x␛[2Jy  z"␍\n');
  });

  it('the AGENTS.md block we add is shown line by line (its blank lines left out), not only its first line', () => {
    const block = [
      '',
      '<!-- loop-guard:begin v=0.1.0 sha=0123456789ab (managed by create-loop-guard: edit outside this block) -->',
      '',
      '## When a command keeps failing',
      '',
      '- If a command fails the same way twice, stop and work out why.',
      '- Never run a command a third time unchanged.',
      '',
      '<!-- loop-guard:end -->',
    ].join('\n');
    const text = compactDiff(
      change({ path: 'AGENTS.md', before: '# Project\n', after: `# Project\n${block}\n` }),
      c,
      'AGENTS.md',
    );
    expect(text.split('\n')).toEqual([
      '  AGENTS.md  9 lines added in 1 place',
      '    2 +<!-- loop-guard:begin v=0.1.0 sha=0123456789ab (managed by create-loop-g…',
      '      +## When a command keeps failing',
      '      +- If a command fails the same way twice, stop and work out why.',
      '      +- Never run a command a third time unchanged.',
      '      +<!-- loop-guard:end -->',
      '',
    ]);
  });

  it('with a height, the file list stays whole and the diffs get the rows left, the rest counted for --diff', () => {
    const files = Array.from({ length: 4 }, (_, i) =>
      change({ path: `f${i}.json`, before: '{}\n', after: `{}\n${'x\n'.repeat(1)}` }),
    );
    const agents = change({
      path: 'AGENTS.md',
      before: '# P\n',
      after: `# P\n<!-- loop-guard:begin v=1 -->\n${Array.from({ length: 8 }, (_, i) => `- rule ${i}`).join('\n')}\n<!-- loop-guard:end -->\n`,
    });
    const input = { changes: [...files, agents], tense: 'will' as const, full: false };
    const whole = previewReport(input, c);
    expect(whole).toContain('- rule 7');
    const rows = (t: string) => t.replace(/\n$/, '').split('\n').length;
    // Files: 6 rows, a blank, then 8 rows for the files' diffs.
    const fitted = previewReport({ ...input, rows: 15 }, c);
    expect(rows(fitted)).toBe(15);
    expect(fitted).toContain('Files:\n  update     f0.json');
    expect(fitted).toContain('  update     AGENTS.md');
    expect(fitted).not.toContain('- rule 7');
    expect(fitted).toMatch(/\n {2}… \d+ more lines: run with --diff to see every line\n$/);
    // Every file's heading comes before the lines under the first ones.
    expect(fitted).toContain('  f3.json  1 line added in 1 place');
    // No room at all: one line that says where the rest is.
    const none = previewReport({ ...input, rows: 8 }, c);
    expect(none).toMatch(/\nYour files: \d+ lines of changes; run with --diff to see them\n$/);
    // A terminal's width: the file list's words are cut to fit it, the size kept.
    const long = change({
      path: 'CLAUDE.md',
      action: 'create',
      before: null,
      after: 'a\n',
      reason: 'the stop rule, as a managed block (adds ~279 tokens to every Claude Code session)',
    });
    const narrow = previewReport({ changes: [long], tense: 'will', full: false, columns: 60, fitFiles: true }, c);
    expect(narrow).toContain('  create     CLAUDE.md  the stop rule, as a manage… (1 line)\n');
    for (const l of narrow.split('\n')) expect(Array.from(l).length).toBeLessThanOrEqual(60);
  });
});
