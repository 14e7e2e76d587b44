// Files and functions a newcomer can read at once: the limits of docs/contributing.md, measured with TypeScript's
// own parser so a limit is the code's real extent, comments and all.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths.ts';

const SRC = join(repoRoot, 'src');
const MAX_FILE_LINES = 500;
const MAX_FUNCTION_LINES = 100;
/** Rule tables: one entry per rule with its reason and examples, read as a list rather than as a flow. */
const RULE_TABLES = ['guard/core/normalize.ts', 'guard/core/hang/interactive.ts'];

function listTs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listTs(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every function with a body in a file: its name (or the variable it is assigned to) and its length in lines. */
function functionLengths(file: string, text: string): Array<{ name: string; line: number; lines: number }> {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Array<{ name: string; line: number; lines: number }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.end).line;
      const named = node.name?.getText(sf);
      const name = named ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(sf) : '<anonymous>');
      out.push({ name, line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

const files = listTs(SRC).map((f) => ({ rel: relative(SRC, f), text: readFileSync(f, 'utf8') }));

describe('sizes', () => {
  it(`no source file is over ${MAX_FILE_LINES} lines, rule tables aside`, () => {
    const long = files
      .filter((f) => !RULE_TABLES.includes(f.rel))
      .map((f) => ({ rel: f.rel, lines: f.text.split('\n').length - 1 }))
      .filter((f) => f.lines > MAX_FILE_LINES)
      .map((f) => `${f.rel}: ${f.lines} lines`);
    expect(long).toEqual([]);
  });

  it(`no function in src/scaffold/ (the install flow) is over ${MAX_FUNCTION_LINES} lines`, () => {
    const long = files
      .filter((f) => f.rel.startsWith('scaffold/'))
      .flatMap((f) => functionLengths(f.rel, f.text).map((fn) => ({ ...fn, file: f.rel })))
      .filter((fn) => fn.lines > MAX_FUNCTION_LINES)
      .map((fn) => `${fn.file}:${fn.line} ${fn.name} (${fn.lines} lines)`);
    expect(long).toEqual([]);
  });

  it('the measure itself counts a long function (so the limits above can fail)', () => {
    const body = Array.from({ length: 120 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const [fn] = functionLengths('x.ts', `function long() {\n${body}\n}\n`);
    expect(fn).toEqual({ name: 'long', line: 1, lines: 122 });
  });
});
