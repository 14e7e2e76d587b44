// repo.agents-md / claude.import / codex.instructions.
import { describe, expect, it } from 'vitest';
import { agentsBlockCheck, importCheck, instructionsBudgetCheck } from '../../src/doctor/instructions.ts';
import { blockEndOffset } from '../../src/edit/md-block.ts';

type ImportFile = Parameters<typeof importCheck>[3][number];
const claudeImport = (files: ImportFile[]) => importCheck('claude', 'Claude Code', '@AGENTS.md', files);
const codexBudget = (docs: Parameters<typeof instructionsBudgetCheck>[3], end: number | null, budget: number) =>
  instructionsBudgetCheck(
    'codex',
    'Codex',
    { key: 'project_doc_max_bytes', configPath: '.codex/config.toml' },
    docs,
    end,
    budget,
  );
import { type BlockSpec, upsertBlock } from '../../src/edit/md-block.ts';

const spec: BlockSpec = {
  id: 'loop-guard',
  version: '0.1.0',
  body: '## When a command keeps failing\n\n- stop.',
  style: 'markdown',
};
const withBlock = (before: string | null, s = spec) => {
  const o = upsertBlock(before, s, { force: false });
  if (o.status === 'conflict') throw new Error(o.reason);
  return o.text;
};

describe('agentsBlockCheck (repo.agents-md)', () => {
  it('passes with the current block', () =>
    expect(agentsBlockCheck(withBlock('# Proj\n'), spec)).toMatchObject({ id: 'repo.agents-md', ok: true }));
  it('fails when AGENTS.md is missing', () => expect(agentsBlockCheck(null, spec).message).toContain('does not exist'));
  it('fails when the block was deleted', () => {
    const c = agentsBlockCheck('# Proj\n', spec);
    expect(c.ok).toBe(false);
    expect(c.message).toBe('AGENTS.md has no loop-guard block, so agents never read the stop rule');
  });
  it('fails when the block is from another version', () => {
    const c = agentsBlockCheck(withBlock(null, { ...spec, version: '0.0.9' }), spec);
    expect(c.ok).toBe(false);
    expect(c.message).toContain('v0.0.9; this is v0.1.0');
  });
  it('fails when the block was edited by hand', () => {
    const c = agentsBlockCheck(withBlock(null).replace('- stop.', '- keep going.'), spec);
    expect(c.ok).toBe(false);
    expect(c.message).toContain('edited by hand');
    expect(c.fix).toContain('--force');
  });
  it('fails when a marker is missing', () => {
    const c = agentsBlockCheck(withBlock(null).replace('<!-- loop-guard:end -->', ''), spec);
    expect(c.ok).toBe(false);
    expect(c.message).toContain('no end marker');
  });
});

describe('importCheck (claude.import)', () => {
  const f = (path: string, text: string | null, symlinkToAgents = false) => ({ path, text, symlinkToAgents });
  it('passes with the import line', () =>
    expect(claudeImport([f('CLAUDE.md', '@AGENTS.md\n\n# Mine\n'), f('.claude/CLAUDE.md', null)]).ok).toBe(true));
  it('passes with .claude/CLAUDE.md importing', () =>
    expect(claudeImport([f('CLAUDE.md', null), f('.claude/CLAUDE.md', '@./AGENTS.md\n')]).ok).toBe(true));
  it('passes with .claude/CLAUDE.md importing the root AGENTS.md relative to itself', () =>
    expect(claudeImport([f('CLAUDE.md', null), f('.claude/CLAUDE.md', '# Mine\n\n@../AGENTS.md\n')]).ok).toBe(true));
  it('passes with our stop-rule block in CLAUDE.md', () =>
    expect(
      claudeImport([
        f('CLAUDE.md', '# Mine\n\n<!-- loop-guard:begin v=0.1.0 sha=0 -->\nrule\n<!-- loop-guard:end -->\n'),
      ]).message,
    ).toContain('holds the stop rule'));
  it('passes with a link to AGENTS.md', () =>
    expect(claudeImport([f('CLAUDE.md', 'x', true)]).message).toContain('link to AGENTS.md'));
  it('passes with an inline mention (Claude Code imports it too)', () =>
    expect(claudeImport([f('CLAUDE.md', 'Read @AGENTS.md first.\n')]).ok).toBe(true));
  it('fails without the import', () => {
    const c = claudeImport([
      f('CLAUDE.md', '# Mine\n`@AGENTS.md` in code does not count\n'),
      f('.claude/CLAUDE.md', null),
    ]);
    expect(c.ok).toBe(false);
    expect(c.message).toContain('CLAUDE.md does not import AGENTS.md');
    expect(c.fix).toContain('adds the stop rule to CLAUDE.md as a managed block');
  });
  it('fails without any CLAUDE.md', () =>
    expect(claudeImport([f('CLAUDE.md', null)]).message).toContain('there is no CLAUDE.md'));
});

describe('instructionsBudgetCheck (codex.instructions)', () => {
  const B = 32 * 1024;
  it('passes for a small AGENTS.md', () => {
    const c = codexBudget([{ dir: '', name: 'AGENTS.md', bytes: 900 }], 800, B);
    expect(c).toMatchObject({ id: 'codex.instructions', ok: true });
    expect(c.message).toContain("AGENTS.md is 0.9 KiB, within Codex's 32.0 KiB instruction budget");
  });
  it("notes, without failing, a nested chain over the budget when the block is within it (the text cut is the user's)", () => {
    const docs = [
      { dir: '', name: 'AGENTS.md' as const, bytes: 20_000 },
      { dir: 'pkg/a', name: 'AGENTS.md' as const, bytes: 20_000 },
    ];
    const c = codexBudget(docs, 500, B);
    expect(c).toMatchObject({ ok: true, info: true });
    expect(c.message).toContain('in pkg/a/ (AGENTS.md + pkg/a/AGENTS.md) add up to 39.1 KiB');
    expect(c.message).toContain('the loop-guard block is within it');
  });
  it('fails when the block itself is past the budget', () => {
    const c = codexBudget([{ dir: '', name: 'AGENTS.md', bytes: 40_000 }], 39_000, B);
    expect(c.ok).toBe(false);
    expect(c.message).toContain('ends at byte 39000');
    expect(c.fix).toContain('to the top of AGENTS.md');
  });
  it('fails when AGENTS.override.md hides AGENTS.md', () => {
    const c = codexBudget(
      [
        { dir: '', name: 'AGENTS.md', bytes: 900 },
        { dir: '', name: 'AGENTS.override.md', bytes: 10 },
      ],
      800,
      B,
    );
    expect(c.ok).toBe(false);
    expect(c.message).toContain('AGENTS.override.md');
  });
  it('an empty override is skipped, as Codex skips it', () => {
    expect(
      codexBudget(
        [
          { dir: '', name: 'AGENTS.md', bytes: 900 },
          { dir: '', name: 'AGENTS.override.md', bytes: 0 },
        ],
        800,
        B,
      ).ok,
    ).toBe(true);
  });
  it('blockEndOffset counts bytes through the end marker', () => {
    const text = withBlock('# é\n');
    expect(blockEndOffset(text)).toBe(Buffer.byteLength(text.replace(/\n$/, '')));
    expect(blockEndOffset('# none\n')).toBeNull();
  });
});
