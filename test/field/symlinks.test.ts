// Symlinks inside the repository are files, not paths: two targets that are one file are edited once, together, and
// the link stays a link; apply, --check, rerun and --remove hold byte for byte. Links out of the repository are refused.
import { lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureRepo, readTree, requireCli, runCliAsync } from '../helpers/cli.ts';

beforeAll(requireCli);

interface Shape {
  name: string;
  files: Record<string, string>;
  links: Record<string, string>;
  /** The real file that must hold our block once. */
  real: string;
}

const RULES = '# Rules\n\nBe nice.\n';
const SHAPES: Shape[] = [
  {
    name: 'CLAUDE.md -> AGENTS.md',
    files: { 'AGENTS.md': RULES },
    links: { 'CLAUDE.md': 'AGENTS.md' },
    real: 'AGENTS.md',
  },
  {
    name: 'AGENTS.md -> CLAUDE.md',
    files: { 'CLAUDE.md': RULES },
    links: { 'AGENTS.md': 'CLAUDE.md' },
    real: 'CLAUDE.md',
  },
  {
    name: 'GEMINI.md and CLAUDE.md -> AGENTS.md',
    files: { 'AGENTS.md': RULES, '.gemini/keep': 'x\n' },
    links: { 'GEMINI.md': 'AGENTS.md', 'CLAUDE.md': 'AGENTS.md' },
    real: 'AGENTS.md',
  },
  {
    name: '.claude/settings.json -> a shared config in the repo',
    files: { 'config/claude.json': '{\n  "permissions": {}\n}\n', '.claude/keep': 'x\n', 'AGENTS.md': RULES },
    links: { '.claude/settings.json': '../config/claude.json' },
    real: 'AGENTS.md',
  },
];

function build(shape: Shape): string {
  const dir = fixtureRepo(null);
  for (const [rel, text] of Object.entries(shape.files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  for (const [rel, target] of Object.entries(shape.links)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    symlinkSync(target, join(dir, rel));
  }
  return dir;
}

function expectLinksKept(dir: string, shape: Shape): void {
  for (const [rel, target] of Object.entries(shape.links)) {
    expect(lstatSync(join(dir, rel)).isSymbolicLink(), rel).toBe(true);
    expect(readlinkSync(join(dir, rel))).toBe(target);
  }
}

describe('symlinked instruction and settings files', () => {
  for (const shape of SHAPES) {
    it(`${shape.name}: one block, no self-import, --check green, rerun and --remove byte-identical`, async () => {
      const dir = build(shape);
      const original = readTree(dir);
      const apply = await runCliAsync(['--yes'], { cwd: dir });
      expect(apply.status, apply.stdout + apply.stderr).toBe(0);
      expectLinksKept(dir, shape);
      const real = readFileSync(join(dir, shape.real), 'utf8');
      expect(real.match(/loop-guard:begin/g)).toHaveLength(1);
      // A file that imports itself: Claude Code and Gemini CLI would read it twice (or loop).
      expect(real).not.toMatch(/^@AGENTS\.md$/m);
      if (shape.links['.claude/settings.json'])
        expect(readFileSync(join(dir, 'config/claude.json'), 'utf8')).toContain('.agents/hooks/loop-guard');
      const installed = readTree(dir);
      const check = await runCliAsync(['--check'], { cwd: dir });
      expect(check.status, check.stdout + check.stderr).toBe(0);
      const rerun = await runCliAsync(['--yes'], { cwd: dir });
      expect(rerun.status, rerun.stdout + rerun.stderr).toBe(0);
      expect(rerun.stdout).toContain('Everything is up to date.');
      expect(readTree(dir)).toEqual(installed);
      const removed = await runCliAsync(['--remove', '--yes'], { cwd: dir });
      expect(removed.status, removed.stdout + removed.stderr).toBe(0);
      expect(readTree(dir)).toEqual(original);
      expectLinksKept(dir, shape);
    });
  }

  it('a settings link that leaves the repository is still refused (exit 2, nothing written)', async () => {
    const outside = fixtureRepo(null);
    writeFileSync(join(outside, 'shared.json'), '{}\n');
    const dir = build({ name: 'out', files: { '.claude/keep': 'x\n' }, links: {}, real: '' });
    symlinkSync(join(outside, 'shared.json'), join(dir, '.claude/settings.json'));
    const before = readTree(dir);
    const r = await runCliAsync(['--yes'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('outside the repository');
    expect(readTree(dir)).toEqual(before);
    expect(readFileSync(join(outside, 'shared.json'), 'utf8')).toBe('{}\n');
  });
});
