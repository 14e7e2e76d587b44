// The module map as a test: the import rules of docs/architecture.md hold for every file in src/.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../../src/tools/names.ts';
import { repoRoot } from '../helpers/paths.ts';

const SRC = join(repoRoot, 'src');

function listTs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listTs(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Relative import specifiers of a file: static imports, re-exports and dynamic import() of a literal. */
function importsOf(text: string): string[] {
  const out: string[] = [];
  const re =
    /(?:^|[\s;])(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(re)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (spec?.startsWith('.')) out.push(spec);
  }
  return out;
}

/** src-relative path → src-relative paths it imports. */
function graph(): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const file of listTs(SRC)) {
    const from = relative(SRC, file);
    g.set(
      from,
      importsOf(readFileSync(file, 'utf8')).map((spec) => relative(SRC, resolve(dirname(file), spec))),
    );
  }
  return g;
}

/**
 * Pure helpers of the guard that the rest of src/ uses too, so each job has one copy: reading unknown JSON, the
 * synchronous sleep, the walk up to the git root, the shell tokenizer.
 */
const SHARED_LEAVES = [
  'guard/json-value.ts',
  'guard/sleep.ts',
  'guard/git-root.ts',
  'guard/body-range.ts',
  'guard/core/shell/',
];
const isSharedLeaf = (p: string) => SHARED_LEAVES.some((l) => (l.endsWith('/') ? p.startsWith(l) : p === l));

/** The scaffolder's side of src/: everything but the guard runtime and the pure data both share. */
const isScaffolder = (p: string) => !p.startsWith('guard/') && !p.startsWith('tools/') && !p.startsWith('edit/');

function cycles(g: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string) => {
    state.set(n, 'open');
    stack.push(n);
    for (const m of g.get(n) ?? []) {
      if (state.get(m) === 'open') found.push([...stack.slice(stack.indexOf(m)), m]);
      else if (!state.has(m)) visit(m);
    }
    stack.pop();
    state.set(n, 'done');
  };
  for (const n of g.keys()) if (!state.has(n)) visit(n);
  return found;
}

describe('import rules (docs/architecture.md, module map)', () => {
  const g = graph();
  const edges = [...g].flatMap(([from, tos]) => tos.map((to) => ({ from, to })));

  it('reads the graph (the parser finds imports at all)', () => {
    expect(g.size).toBeGreaterThan(40);
    expect(g.get('cli.ts')).toContain('scaffold/run.ts');
    expect(
      importsOf(
        `import a from './a.ts';\nexport { b } from "./b.ts";\nimport './c.ts';\nconst d = await import('./d.ts');\nimport type { E } from '../e.ts';`,
      ),
    ).toEqual(['./a.ts', './b.ts', './c.ts', './d.ts', '../e.ts']);
  });

  it('every relative import resolves to a file in src/', () => {
    const missing = edges.filter((e) => !g.has(e.to));
    expect(missing).toEqual([]);
  });

  it('the scaffolder never imports the guard runtime (it copies the built file), only its shared leaves', () => {
    // audit/judge.ts is the one exception: audit replays transcripts through the guard's own pure core, so it judges exactly as the guard does.
    // audit/lazy-results.ts is the judge's fast path: it replays a first result through the same core (its tests hold the
    // decisions equal to the core's own).
    const auditJudge = (e: { from: string; to: string }) =>
      (e.from === 'audit/judge.ts' || e.from === 'audit/lazy-results.ts') &&
      (e.to.startsWith('guard/core/') ||
        ['guard/adapters/index.ts', 'guard/event-log.ts', 'guard/state-dir.ts'].includes(e.to));
    // run/ classifies a verifier's output with the guard's own failure classes and reads its hand-off note's path.
    const runClasses = (e: { from: string; to: string }) =>
      (e.from === 'run/classify.ts' && e.to === 'guard/core/classify.ts') ||
      (e.from === 'run/handoff.ts' && e.to === 'guard/core/ladder.ts');
    expect(
      edges.filter(
        (e) =>
          isScaffolder(e.from) && e.to.startsWith('guard/') && !auditJudge(e) && !runClasses(e) && !isSharedLeaf(e.to),
      ),
    ).toEqual([]);
  });

  it("the guard's shared leaves import nothing but each other, so sharing them never drags in the runtime", () => {
    const bad = edges.filter((e) => isSharedLeaf(e.from) && !isSharedLeaf(e.to));
    expect(bad).toEqual([]);
    expect([...g.keys()].filter(isSharedLeaf).length).toBeGreaterThanOrEqual(SHARED_LEAVES.length);
  });

  it('the guard imports only itself and the shared pure data in tools/ (env values and tool names, no records)', () => {
    const shared = new Set(['tools/env.ts', 'tools/names.ts']);
    const bad = edges.filter((e) => e.from.startsWith('guard/') && !e.to.startsWith('guard/') && !shared.has(e.to));
    expect(bad).toEqual([]);
  });

  it('edit/ knows formats, not tools: it imports only edit/', () => {
    expect(edges.filter((e) => e.from.startsWith('edit/') && !e.to.startsWith('edit/'))).toEqual([]);
  });

  it('tools/ is data: it imports no scaffolder, doctor or guard code', () => {
    expect(
      edges.filter((e) => e.from.startsWith('tools/') && !e.to.startsWith('tools/') && !e.to.startsWith('edit/')),
    ).toEqual([]);
  });

  it('doctor/ does not import the scaffolder orchestrator (scaffold/run.ts)', () => {
    expect(edges.filter((e) => e.from.startsWith('doctor/') && e.to === 'scaffold/run.ts')).toEqual([]);
  });

  it('has no import cycles', () => {
    expect(cycles(g)).toEqual([]);
  });

  it('audit loads no npm package before it needs one: an audit without --prices runs on Node built-ins alone', () => {
    // Every audit pays for what it loads at start (comment-json with its parser was ~18 ms of ~140 on an empty history).
    const packages = new Set<string>();
    const seen = new Set<string>();
    const visit = (p: string) => {
      if (seen.has(p)) return;
      seen.add(p);
      const text = readFileSync(join(SRC, p), 'utf8');
      for (const m of text.matchAll(STATIC_VALUE_IMPORT)) {
        const spec = m[1] ?? m[2] ?? '';
        if (spec.startsWith('.')) visit(relative(SRC, resolve(dirname(join(SRC, p)), spec)));
        else if (!spec.startsWith('node:')) packages.add(`${spec} (from ${p})`);
      }
    };
    visit('audit/audit.ts');
    expect(seen.size).toBeGreaterThan(20);
    expect([...packages]).toEqual([]);
    const sample = "import { a } from 'x';\nimport type { T } from 'y';\nconst z = await import('z');\nimport 'w';";
    expect([...sample.matchAll(STATIC_VALUE_IMPORT)].map((m) => m[1] ?? m[2])).toEqual(['x', 'w']);
  });

  it('has no tool-name comparison outside src/tools/ and src/guard/adapters/', () => {
    // audit/formats/ reads each tool's own transcript format, whose fields may hold the tool's name ("type": "gemini").
    const bad = [...g.keys()]
      .filter((p) => !p.startsWith('tools/') && !p.startsWith('guard/adapters/') && !p.startsWith('audit/formats/'))
      .filter((p) => COMPARISON.test(readFileSync(join(SRC, p), 'utf8')));
    expect(bad).toEqual([]);
  });

  it('doctor/ names no tool at all: every per-tool fact it uses comes from the records', () => {
    const bad = [...g.keys()]
      .filter((p) => p.startsWith('doctor/'))
      .flatMap((p) =>
        codeOf(readFileSync(join(SRC, p), 'utf8'))
          .split('\n')
          .map((line, i) => ({ where: `${p}:${i + 1}`, line })),
      )
      .filter(({ line }) => namesTool(line))
      .map(({ where, line }) => `${where}: ${line.trim()}`);
    expect(bad).toEqual([]);
  });

  it('the tool-name rules see what they are meant to see', () => {
    expect(COMPARISON.test(`if (tool === '${TOOL_NAMES[4]}') x();`)).toBe(true);
    expect(namesTool(`const p = loadPayload('${TOOL_NAMES[1]}/PreToolUse.json');`)).toBe(true);
    expect(namesTool(`fail(id, 'Codex runs no hooks');`)).toBe(true);
    expect(namesTool('const env = { CLAUDE_PROJECT_DIR: root };')).toBe(true);
    expect(namesTool('TOOLS.qwen.doctor')).toBe(true);
    expect(namesTool('const cursors = 1; const pos = 2;')).toBe(false);
    expect(codeOf("const a = 1; // Claude Code does this\n/* Codex\n too */ const b = '//';")).not.toMatch(
      /Claude|Codex/,
    );
  });
});

/** Every tool name, from the one list, so a new tool is covered the day it is added. */
const NAMES = TOOL_NAMES.join('|');
const COMPARISON = new RegExp(
  `(?:===|!==|case)\\s*'(?:${NAMES})'|'(?:${NAMES})'\\s*(?:===|!==)|\\.includes\\('(?:${NAMES})'\\)`,
);
/** A tool's name as a word of its own, in any case: `'codex'`, `Codex`, `CLAUDE_PROJECT_DIR`, `TOOLS.qwen`. */
const NAMED = new RegExp(`(?<![A-Za-z0-9])(?:${NAMES})(?![a-z0-9])`, 'i');
const namesTool = (line: string) => NAMED.test(line);

/** Source without comments (a `//` inside quotes stays). */
function codeOf(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** A static import that stays in the build (not `import type`, not a dynamic import()): its specifier. */
const STATIC_VALUE_IMPORT =
  /(?:^|[\s;])(?:import|export)\s(?!type\s)[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]/g;
