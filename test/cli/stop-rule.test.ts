// The stop rule reaches each agent without changing what else it reads: no file its tool would not read, no import of
// a large AGENTS.md where the repository only linked it, and the plan says what it adds to every session.
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tokensOf } from '../../src/scaffold/stop-rule.ts';
import { fixtureRepo, readTree, requireCli, runCli } from '../helpers/cli.ts';

beforeAll(requireCli);

/** A hand-written AGENTS.md of about 40 KB (the size of the one in the field corpus), ~10k tokens. */
const BIG_AGENTS = `# Contributor guide\n\n${'Keep functions small, write the test first, and run the linters. '.repeat(620)}\n`;

function repoWith(files: Record<string, string>): string {
  const dir = fixtureRepo(null);
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
  return dir;
}

/** One of doctor's checks (`claude.import`, `gemini.import`) on an installed repository. */
function doctorCheck(dir: string, id: string): { ok: boolean; message: string } {
  const r = runCli(['doctor', '--json'], { cwd: dir });
  const checks = (JSON.parse(r.stdout).tools as { checks: { id: string; ok: boolean; message: string }[] }[]).flatMap(
    (t) => t.checks,
  );
  const c = checks.find((x) => x.id === id);
  if (!c) throw new Error(`no ${id} check in ${r.stdout.slice(0, 400)}`);
  return { ok: c.ok, message: c.message };
}
const geminiImport = (dir: string) => doctorCheck(dir, 'gemini.import');

describe('the stop rule for Claude Code', () => {
  it('a CLAUDE.md that only links a 40 KB AGENTS.md gets the rule as a block (~280 tokens), not an import (~10k)', () => {
    const claude = 'See [AGENTS.md](AGENTS.md) for the rules.\n';
    const dir = repoWith({ 'CLAUDE.md': claude, 'AGENTS.md': BIG_AGENTS });
    const r = runCli(['--yes', '--tools', 'claude'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    const after = readTree(dir).get('CLAUDE.md') as string;
    expect(after.startsWith(claude)).toBe(true);
    expect(after).not.toMatch(/^@AGENTS\.md/m);
    const added = tokensOf(after.slice(claude.length));
    expect(added).toBeLessThan(400);
    expect(tokensOf(BIG_AGENTS)).toBeGreaterThan(9000);
    expect(r.stdout).toMatch(/CLAUDE\.md .*adds ~\d+ tokens to every Claude Code session/);
    expect(runCli(['--remove', '--yes'], { cwd: dir }).status).toBe(0);
    expect(readTree(dir).get('CLAUDE.md')).toBe(claude);
  });

  it('writes no root CLAUDE.md when .claude/CLAUDE.md imports AGENTS.md already (Claude would read it twice)', () => {
    const dir = repoWith({ '.claude/CLAUDE.md': '# Project\n\n@../AGENTS.md\n', 'AGENTS.md': '# Rules\n' });
    const r = runCli(['--yes', '--tools', 'claude'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    const tree = readTree(dir);
    expect(tree.has('CLAUDE.md')).toBe(false);
    expect(tree.get('.claude/CLAUDE.md')).toBe('# Project\n\n@../AGENTS.md\n');
    expect(tree.get('AGENTS.md')).toContain('loop-guard:begin');
    expect(doctorCheck(dir, 'claude.import').ok).toBe(true);
  });

  it('puts the rule in .claude/CLAUDE.md when that is the memory file (no root CLAUDE.md), and --remove gives it back', () => {
    // The shape of isolate-package's .claude/CLAUDE.md (test/fixtures/field): Claude's own notes, no AGENTS.md import.
    const memory = '# CLAUDE.md\n\nThis file provides guidance to Claude Code when working with code here.\n';
    const dir = repoWith({ '.claude/CLAUDE.md': memory, 'AGENTS.md': BIG_AGENTS });
    const r = runCli(['--yes', '--tools', 'claude'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\.claude\/CLAUDE\.md .*adds ~\d+ tokens to every Claude Code session/);
    const tree = readTree(dir);
    expect(tree.has('CLAUDE.md')).toBe(false);
    const after = tree.get('.claude/CLAUDE.md') as string;
    expect(after.startsWith(memory)).toBe(true);
    expect(after).toContain('loop-guard:begin');
    expect(after).not.toMatch(/^@/m);
    expect(tokensOf(after.slice(memory.length))).toBeLessThan(400);
    const check = runCli(['--check'], { cwd: dir });
    expect(check.status, check.stdout).toBe(0);
    const rerun = runCli(['--yes'], { cwd: dir });
    expect(rerun.status).toBe(0);
    expect(readTree(dir)).toEqual(tree);
    expect(doctorCheck(dir, 'claude.import').ok).toBe(true);
    expect(runCli(['--remove', '--yes'], { cwd: dir }).status).toBe(0);
    const back = readTree(dir);
    expect(back.get('.claude/CLAUDE.md')).toBe(memory);
    expect(back.get('AGENTS.md')).toBe(BIG_AGENTS);
  });

  it('a root CLAUDE.md beside .claude/CLAUDE.md: the root one gets the rule (Claude reads both, one is enough)', () => {
    const memory = '# Claude notes\n';
    const dir = repoWith({ 'CLAUDE.md': '# Project\n', '.claude/CLAUDE.md': memory });
    expect(runCli(['--yes', '--tools', 'claude'], { cwd: dir }).status).toBe(0);
    const tree = readTree(dir);
    expect(tree.get('CLAUDE.md')).toContain('loop-guard:begin');
    expect(tree.get('.claude/CLAUDE.md')).toBe(memory);
  });

  it('the rule stays in .claude/CLAUDE.md when a root CLAUDE.md appears later (no second copy)', () => {
    const dir = repoWith({ '.claude/CLAUDE.md': '# Claude notes\n' });
    expect(runCli(['--yes', '--tools', 'claude'], { cwd: dir }).status).toBe(0);
    writeFileSync(join(dir, 'CLAUDE.md'), '# Project\n');
    expect(runCli(['--yes'], { cwd: dir }).status).toBe(0);
    const tree = readTree(dir);
    expect(tree.get('CLAUDE.md')).toBe('# Project\n');
    expect(tree.get('.claude/CLAUDE.md')).toContain('loop-guard:begin');
    expect(runCli(['--remove', '--yes'], { cwd: dir }).status).toBe(0);
    expect(readTree(dir).get('.claude/CLAUDE.md')).toBe('# Claude notes\n');
  });

  it("leaves a user's own CLAUDE.md import of AGENTS.md as it is (AGENTS.md's block reaches Claude)", () => {
    const dir = repoWith({ 'CLAUDE.md': '@AGENTS.md\n', 'AGENTS.md': '# Rules\n' });
    expect(runCli(['--yes', '--tools', 'claude'], { cwd: dir }).status).toBe(0);
    expect(readTree(dir).get('CLAUDE.md')).toBe('@AGENTS.md\n');
  });
});

describe('the stop rule for Gemini CLI', () => {
  for (const [layout, settings] of [
    ['contextFileName', { contextFileName: 'AGENTS.md' }],
    ['context.fileName (the newer layout), a list', { context: { fileName: ['AGENTS.md', 'GEMINI.md'] } }],
  ] as const)
    it(`writes no GEMINI.md when its settings point Gemini at AGENTS.md: ${layout}`, () => {
      const dir = repoWith({
        '.gemini/settings.json': `${JSON.stringify(settings, null, 2)}\n`,
        'AGENTS.md': '# Rules\n',
      });
      const r = runCli(['--yes', '--tools', 'gemini'], { cwd: dir });
      expect(r.status, r.stderr).toBe(0);
      const tree = readTree(dir);
      expect(tree.has('GEMINI.md')).toBe(false);
      expect(tree.get('AGENTS.md')).toContain('loop-guard:begin');
      expect(geminiImport(dir).message).toContain('makes Gemini CLI read AGENTS.md instead of GEMINI.md');
    });

  it('writes the block in GEMINI.md when the settings name no context file', () => {
    const dir = repoWith({ '.gemini/settings.json': '{}\n' });
    expect(runCli(['--yes', '--tools', 'gemini'], { cwd: dir }).status).toBe(0);
    expect(readTree(dir).get('GEMINI.md')).toMatch(/^<!-- loop-guard:begin /);
  });

  // The shape of 108yen/task-orchestrator-mcp @ b337913: `"contextFileName": ".gemini/GEMINI.md"`. Gemini CLI joins
  // each name to the directory it searches and reads only the named files, so a root GEMINI.md is never read there.
  const NOTES = '# Project notes\n\nRun the quality script before you finish.\n';
  const namedFile = {
    '.gemini/settings.json': '{ "contextFileName": ".gemini/GEMINI.md" }\n',
    '.gemini/GEMINI.md': NOTES,
  };

  it('puts the rule in the file contextFileName names (not a GEMINI.md Gemini never reads), and --remove gives it back', () => {
    const dir = repoWith(namedFile);
    const before = readTree(dir);
    const r = runCli(['--yes', '--tools', 'gemini'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\.gemini\/GEMINI\.md .*adds ~\d+ tokens to every Gemini CLI session/);
    const tree = readTree(dir);
    expect(tree.has('GEMINI.md')).toBe(false);
    const after = tree.get('.gemini/GEMINI.md') as string;
    expect(after.startsWith(NOTES)).toBe(true);
    expect(after).toContain('loop-guard:begin');
    expect(runCli(['--check'], { cwd: dir }).status).toBe(0);
    expect(runCli(['--yes'], { cwd: dir }).status).toBe(0);
    expect(readTree(dir)).toEqual(tree);
    expect(geminiImport(dir)).toEqual({ ok: true, message: '.gemini/GEMINI.md holds the stop rule (our block)' });
    expect(runCli(['--remove', '--yes'], { cwd: dir }).status).toBe(0);
    expect(readTree(dir)).toEqual(before);
  });

  it('moves the rule out of a GEMINI.md an earlier install wrote once the setting names another file', () => {
    const dir = repoWith({ '.gemini/settings.json': '{}\n', '.gemini/GEMINI.md': NOTES });
    expect(runCli(['--yes', '--tools', 'gemini'], { cwd: dir }).status).toBe(0);
    expect(readTree(dir).get('GEMINI.md')).toContain('loop-guard:begin');
    expect(geminiImport(dir).ok).toBe(true);
    writeFileSync(join(dir, '.gemini/settings.json'), namedFile['.gemini/settings.json']);
    // Doctor reads the setting as Gemini does: the block in GEMINI.md no longer reaches it.
    expect(geminiImport(dir).ok).toBe(false);
    const drift = runCli(['--check'], { cwd: dir });
    expect(drift.status).toBe(1);
    expect(drift.stdout).toContain('.gemini/GEMINI.md');
    const r = runCli(['--yes'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /delete +GEMINI\.md +created by create-loop-guard; Gemini CLI reads \.gemini\/GEMINI\.md instead/,
    );
    const tree = readTree(dir);
    expect(tree.has('GEMINI.md')).toBe(false);
    expect(tree.get('.gemini/GEMINI.md')).toContain('loop-guard:begin');
    expect(runCli(['--check'], { cwd: dir }).status).toBe(0);
    expect(geminiImport(dir).ok).toBe(true);
    expect(runCli(['--remove', '--yes'], { cwd: dir }).status).toBe(0);
    expect(readTree(dir).get('.gemini/GEMINI.md')).toBe(NOTES);
  });

  it("takes only our block out of a user's GEMINI.md the setting no longer reads", () => {
    const dir = repoWith({ '.gemini/settings.json': '{}\n', 'GEMINI.md': '# Mine\n' });
    expect(runCli(['--yes', '--tools', 'gemini'], { cwd: dir }).status).toBe(0);
    writeFileSync(join(dir, '.gemini/settings.json'), '{ "context": { "fileName": ["docs/AI.md"] } }\n');
    const r = runCli(['--yes'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    const tree = readTree(dir);
    expect(tree.get('GEMINI.md')).toBe('# Mine\n');
    expect(tree.get('docs/AI.md')).toMatch(/^<!-- loop-guard:begin /);
  });

  for (const [what, settings, files, where] of [
    [
      'the first named file that exists',
      { context: { fileName: ['CONTEXT.md', 'docs/AI.md'] } },
      { 'docs/AI.md': '# AI\n' },
      'docs/AI.md',
    ],
    ['the first named file when none exists', { contextFileName: ['CONTEXT.md', 'docs/AI.md'] }, {}, 'CONTEXT.md'],
    [
      'GEMINI.md when the names include it',
      { contextFileName: ['CONTEXT.md', 'GEMINI.md'] },
      { 'CONTEXT.md': '# C\n' },
      'GEMINI.md',
    ],
    [
      'GEMINI.md when no name stays in the repository',
      { contextFileName: ['../shared.md', '/etc/ai.md', 'C:\\ai.md'] },
      {},
      'GEMINI.md',
    ],
    [
      'the file a name written with backslashes (on Windows) means',
      { contextFileName: 'docs\\AI.md' },
      {},
      'docs/AI.md',
    ],
  ] as const)
    it(`with a setting that names no AGENTS.md, the rule goes in ${what}`, () => {
      const dir = repoWith({ '.gemini/settings.json': `${JSON.stringify(settings)}\n`, ...files });
      expect(runCli(['--yes', '--tools', 'gemini'], { cwd: dir }).status).toBe(0);
      const tree = readTree(dir);
      expect(tree.get(where)).toContain('loop-guard:begin');
      const others = ['GEMINI.md', 'CONTEXT.md', 'docs/AI.md'].filter((p) => p !== where);
      for (const p of others) expect(tree.get(p) ?? '').not.toContain('loop-guard:begin');
    });

  it('a named file that is a link to AGENTS.md: one block, in AGENTS.md, and the link stays a link', () => {
    const dir = repoWith({ '.gemini/settings.json': namedFile['.gemini/settings.json'], 'AGENTS.md': '# Rules\n' });
    symlinkSync('../AGENTS.md', join(dir, '.gemini/GEMINI.md'));
    expect(runCli(['--yes', '--tools', 'gemini'], { cwd: dir }).status).toBe(0);
    expect(lstatSync(join(dir, '.gemini/GEMINI.md')).isSymbolicLink()).toBe(true);
    const agents = readFileSync(join(dir, 'AGENTS.md'), 'utf8');
    expect(agents.match(/loop-guard:begin/g)?.length).toBe(1);
    expect(existsSync(join(dir, 'GEMINI.md'))).toBe(false);
    expect(geminiImport(dir).ok).toBe(true);
  });

  it('reads a name written as ./AGENTS.md as AGENTS.md', () => {
    const dir = repoWith({
      '.gemini/settings.json': '{ "contextFileName": "./AGENTS.md" }\n',
      'AGENTS.md': '# Rules\n',
    });
    expect(runCli(['--yes', '--tools', 'gemini'], { cwd: dir }).status).toBe(0);
    const tree = readTree(dir);
    expect(tree.has('GEMINI.md')).toBe(false);
    expect(tree.get('AGENTS.md')).toContain('loop-guard:begin');
  });
});

describe('the stop rule for Codex with project_doc_fallback_filenames', () => {
  const config = 'project_doc_fallback_filenames = ["TEAM.md", "CLAUDE.md"]\n';

  it('goes in the fallback file Codex reads, no AGENTS.md is created, and --remove gives the tree back', () => {
    const team = '# Team rules\n\nBe kind to the build.\n';
    const dir = repoWith({ '.codex/config.toml': config, 'TEAM.md': team });
    const r = runCli(['--yes', '--tools', 'codex'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('Codex reads TEAM.md (project_doc_fallback_filenames in .codex/config.toml)');
    const tree = readTree(dir);
    expect(tree.has('AGENTS.md')).toBe(false);
    expect(tree.get('TEAM.md')?.startsWith(team)).toBe(true);
    expect(tree.get('TEAM.md')).toContain('loop-guard:begin');
    expect(runCli(['--check'], { cwd: dir }).status).toBe(0);
    expect(runCli(['--yes'], { cwd: dir }).status).toBe(0);
    expect(readTree(dir)).toEqual(tree);
    expect(runCli(['--remove', '--yes'], { cwd: dir }).status).toBe(0);
    const back = readTree(dir);
    expect(back.get('TEAM.md')).toBe(team);
    expect(back.get('.codex/config.toml')).toBe(config);
  });

  it('a lost record, then an AGENTS.md of the user: the block in the fallback file is still found and taken out', () => {
    const team = '# Team rules\n';
    const dir = repoWith({ '.codex/config.toml': config, 'TEAM.md': team });
    expect(runCli(['--yes', '--tools', 'codex'], { cwd: dir }).status).toBe(0);
    rmSync(join(dir, '.agents', 'loop-guard.json'));
    writeFileSync(join(dir, 'AGENTS.md'), '# Agents\n');
    expect(runCli(['--yes', '--tools', 'codex'], { cwd: dir }).status).toBe(0);
    expect(readTree(dir).get('AGENTS.md')).toContain('loop-guard:begin');
    // Found by its marks and kept current, so --remove still sees it.
    expect(readTree(dir).get('TEAM.md')).toContain('loop-guard:begin');
    expect(runCli(['--remove', '--yes'], { cwd: dir }).status).toBe(0);
    const back = readTree(dir);
    expect(back.get('TEAM.md')).toBe(team);
    expect(back.get('AGENTS.md')).toBe('# Agents\n');
  });

  it('with a tool that reads AGENTS.md itself (Cursor), AGENTS.md is created and the plan warns', () => {
    const dir = repoWith({ '.codex/config.toml': config, 'TEAM.md': '# Team rules\n' });
    const r = runCli(['--yes', '--tools', 'codex,cursor'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('Codex reads TEAM.md today');
    const tree = readTree(dir);
    expect(tree.get('AGENTS.md')).toContain('loop-guard:begin');
    expect(tree.get('TEAM.md')).toBe('# Team rules\n');
  });
});
