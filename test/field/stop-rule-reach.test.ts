// The stop rule in the file each tool reads, on the field layouts that keep those files in their own places: Gemini
// CLI pointed at AGENTS.md by .gemini/settings.json (clusterfuzz) gets no GEMINI.md it would never read, and Claude
// Code's memory in .claude/CLAUDE.md (isolate-package) gets the block there, with no root CLAUDE.md created, and a
// CLAUDE.md that only links a 34 KB AGENTS.md (fastapi-agent-blueprint) gets the block, not an import of ~8.6k tokens,
// and that AGENTS.md gets its block at the top, within the 32 KiB Codex reads (and a block an earlier install appended
// there is moved to the top).
// Tokens counted at 4 characters a token (tokensOf), as the plan says them.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockEndOffset } from '../../src/edit/md-block.ts';
import { tokensOf } from '../../src/scaffold/stop-rule.ts';
import { CODEX_INSTRUCTION_BYTES } from '../../src/tools/codex.ts';
import { runCliAsync } from '../helpers/cli.ts';
import { requireBuilt } from '../helpers/paths.ts';
import { loadLayouts, materialise, snapshot } from './layout.ts';

const bases: string[] = [];
const layout = (name: string) => {
  const l = loadLayouts().find((x) => x.name === name);
  if (!l) throw new Error(`no field layout ${name}`);
  return l;
};

beforeAll(requireBuilt);
afterAll(() => {
  for (const b of bases) rmSync(b, { recursive: true, force: true });
});

/** The layout installed with a plain `--yes`: the tree before and after, and what the run printed. */
async function install(name: string) {
  const m = materialise(layout(name));
  bases.push(m.base);
  const before = snapshot(m.top);
  const r = await runCliAsync(['--yes'], { cwd: m.cwd, env: { HOME: m.home } });
  return { before, after: snapshot(m.top), out: r.stdout + r.stderr, status: r.status };
}

describe('the stop rule reaches each agent in the file it reads (field layouts)', () => {
  it('clusterfuzz: .gemini/settings.json names AGENTS.md (context.fileName), so no GEMINI.md is written', async () => {
    const r = await install('clusterfuzz');
    expect(r.status, r.out).toBe(0);
    expect(r.after.has('GEMINI.md')).toBe(false);
    expect(r.after.get('AGENTS.md')).toContain('loop-guard:begin');
  }, 60_000);

  it('fastapi-agent-blueprint: CLAUDE.md only links a 34 KB AGENTS.md, and gets the block (<400 tokens), no import', async () => {
    const r = await install('fastapi-agent-blueprint');
    expect(r.status, r.out).toBe(0);
    const agents = r.before.get('AGENTS.md') ?? '';
    expect(tokensOf(agents)).toBeGreaterThan(8000);
    const was = r.before.get('CLAUDE.md') ?? '';
    const now = r.after.get('CLAUDE.md') ?? '';
    expect(was).toContain('[AGENTS.md](AGENTS.md)');
    expect(now.startsWith(was)).toBe(true);
    const added = now.slice(was.length);
    expect(added).toContain('loop-guard:begin');
    expect(now).not.toMatch(/^@AGENTS\.md/m);
    expect(tokensOf(added)).toBeLessThan(400);
    expect(r.out).toMatch(/CLAUDE\.md .*adds ~\d+ tokens to every Claude Code session/);
    // Appended, the block would end at byte ~35,800, past the 32 KiB Codex reads: it goes at the top, and the
    // file's own text follows it unchanged.
    const after = r.after.get('AGENTS.md') ?? '';
    const end = blockEndOffset(after);
    expect(end).not.toBeNull();
    expect(end as number).toBeLessThan(CODEX_INSTRUCTION_BYTES);
    expect(after.endsWith(agents)).toBe(true);
  }, 60_000);

  it('fastapi-agent-blueprint: a block an earlier install appended past 32 KiB is moved to the top on rerun', async () => {
    const m = materialise(layout('fastapi-agent-blueprint'));
    bases.push(m.base);
    const file = join(m.top, 'AGENTS.md');
    const own = readFileSync(file, 'utf8');
    const first = await runCliAsync(['--yes'], { cwd: m.cwd, env: { HOME: m.home } });
    expect(first.status, first.stdout + first.stderr).toBe(0);
    // As the earlier version wrote it: the file's own text, a blank line, the block.
    const installed = readFileSync(file, 'utf8');
    const END = '<!-- loop-guard:end -->\n';
    expect(installed.startsWith('<!-- loop-guard:begin')).toBe(true);
    const block = installed.slice(0, installed.indexOf(END) + END.length);
    expect(installed).toBe(`${block}\n${own}`);
    writeFileSync(file, `${own}\n${block}`);
    expect(blockEndOffset(readFileSync(file, 'utf8')) as number).toBeGreaterThan(CODEX_INSTRUCTION_BYTES);
    const check = await runCliAsync(['--check'], { cwd: m.cwd, env: { HOME: m.home } });
    expect(check.status, 'an appended block Codex never reads is drift').toBe(1);
    expect(check.stdout).toMatch(/drift +AGENTS\.md +\(our part is where it is not read\)/);
    const rerun = await runCliAsync(['--yes'], { cwd: m.cwd, env: { HOME: m.home } });
    expect(rerun.status, rerun.stdout + rerun.stderr).toBe(0);
    expect(rerun.stdout + rerun.stderr).toMatch(/Moved the loop-guard block to the top of AGENTS\.md/);
    expect(readFileSync(file, 'utf8')).toBe(installed);
    const again = await runCliAsync(['--check'], { cwd: m.cwd, env: { HOME: m.home } });
    expect(again.status, again.stdout + again.stderr).toBe(0);
  }, 90_000);

  it('isolate-package: the block goes in .claude/CLAUDE.md (~300 tokens), no root CLAUDE.md', async () => {
    const r = await install('isolate-package');
    expect(r.status, r.out).toBe(0);
    expect(r.after.has('CLAUDE.md')).toBe(false);
    const strip = (s: string | undefined) => (s ?? '').replace(/^x /, '');
    const was = strip(r.before.get('.claude/CLAUDE.md'));
    const now = strip(r.after.get('.claude/CLAUDE.md'));
    expect(now.startsWith(was)).toBe(true);
    expect(now.slice(was.length)).toContain('loop-guard:begin');
    expect(tokensOf(now.slice(was.length))).toBeLessThan(400);
    expect(r.out).toMatch(/\.claude\/CLAUDE\.md .*adds ~\d+ tokens to every Claude Code session/);
  }, 60_000);
});
