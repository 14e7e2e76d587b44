// The module map as a test: the import rules of docs/design.md hold for every file in src/.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths.ts';

const SRC = join(repoRoot, 'src');

function listTs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listTs(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Relative import specifiers of a file: static imports, re-exports and dynamic import() of a literal. */
export function importsOf(text: string): string[] {
  const out: string[] = [];
  const re = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(re)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (spec && spec.startsWith('.')) out.push(spec);
  }
  return out;
}

/** src-relative path → src-relative paths it imports. */
function graph(): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const file of listTs(SRC)) {
    const from = relative(SRC, file);
    g.set(from, importsOf(readFileSync(file, 'utf8')).map((spec) => relative(SRC, resolve(dirname(file), spec))));
  }
  return g;
}

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

describe('import rules (docs/design.md, module map)', () => {
  const g = graph();
  const edges = [...g].flatMap(([from, tos]) => tos.map((to) => ({ from, to })));

  it('reads the graph (the parser finds imports at all)', () => {
    expect(g.size).toBeGreaterThan(40);
    expect(g.get('cli.ts')).toContain('scaffold/run.ts');
    expect(importsOf(`import a from './a.ts';\nexport { b } from "./b.ts";\nimport './c.ts';\nconst d = await import('./d.ts');\nimport type { E } from '../e.ts';`)).toEqual([
      './a.ts',
      './b.ts',
      './c.ts',
      './d.ts',
      '../e.ts',
    ]);
  });

  it('every relative import resolves to a file in src/', () => {
    const missing = edges.filter((e) => !g.has(e.to));
    expect(missing).toEqual([]);
  });

  it('the scaffolder never imports the guard runtime (it copies the built file)', () => {
    // audit/judge.ts is the one exception: audit replays transcripts through the guard's own pure core, so it judges exactly as the guard does.
    const auditJudge = (e: { from: string; to: string }) =>
      e.from === 'audit/judge.ts' && (e.to.startsWith('guard/core/') || ['guard/adapters/index.ts', 'guard/event-log.ts', 'guard/state.ts'].includes(e.to));
    expect(edges.filter((e) => isScaffolder(e.from) && e.to.startsWith('guard/') && !auditJudge(e))).toEqual([]);
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
    expect(edges.filter((e) => e.from.startsWith('tools/') && !e.to.startsWith('tools/') && !e.to.startsWith('edit/'))).toEqual([]);
  });

  it('doctor/ does not import the scaffolder orchestrator (scaffold/run.ts)', () => {
    expect(edges.filter((e) => e.from.startsWith('doctor/') && e.to === 'scaffold/run.ts')).toEqual([]);
  });

  it('has no import cycles', () => {
    expect(cycles(g)).toEqual([]);
  });

  it('has no tool-name comparison outside src/tools/ and src/guard/adapters/', () => {
    const names = /(?:===|!==|case)\s*'(?:claude|codex|cursor|opencode)'|'(?:claude|codex|cursor|opencode)'\s*(?:===|!==)|\.includes\('(?:claude|codex|cursor|opencode)'\)/;
    const bad = [...g.keys()]
      .filter((p) => !p.startsWith('tools/') && !p.startsWith('guard/adapters/'))
      .filter((p) => names.test(readFileSync(join(SRC, p), 'utf8')));
    expect(bad).toEqual([]);
  });
});
