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
/** A comment is prose: the formatter wraps code at 120 characters but not comments, so this test does. */
const MAX_COMMENT_WIDTH = 120;
/**
 * Functions allowed over MAX_FUNCTION_LINES, each at its length when the limit came to all of src/ (issue 34): an
 * entry may only shrink, and goes once its function fits.
 */
const LONG_FUNCTIONS: Record<string, number> = {
  // The rule tables' builders: one entry per rule, read as a list (the rules themselves are split by subject into
  // files that fit: normalize/, hang/).
  'guard/core/normalize/ids.ts idRules': 202,
  'guard/core/normalize/times.ts timeRules': 120,
  'guard/core/hang/interactive.ts build': 350,
};

function listTs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listTs(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The lines of a file that are comment, found by TypeScript's scanner (a `//` inside a string is not one). */
function commentLines(file: string, text: string): Array<{ line: number; text: string }> {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const ranges = new Map<number, number>();
  const visit = (node: ts.Node): void => {
    for (const r of ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []) ranges.set(r.pos, r.end);
    for (const r of ts.getTrailingCommentRanges(text, node.end) ?? []) ranges.set(r.pos, r.end);
    for (const child of node.getChildren(sf)) visit(child);
  };
  visit(sf);
  const lines = new Set<number>();
  for (const [pos, end] of ranges) {
    const first = sf.getLineAndCharacterOfPosition(pos).line;
    const last = sf.getLineAndCharacterOfPosition(end).line;
    for (let l = first; l <= last; l++) lines.add(l);
  }
  const all = text.split('\n');
  // Only lines that are all comment: a code line with a comment after it is the formatter's to wrap.
  return [...lines]
    .filter((l) => /^\s*(\/\/|\/\*|\*)/.test(all[l] ?? ''))
    .sort((a, b) => a - b)
    .map((l) => ({ line: l + 1, text: all[l] as string }));
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
  it(`no source file is over ${MAX_FILE_LINES} lines`, () => {
    const long = files
      .map((f) => ({ rel: f.rel, lines: f.text.split('\n').length - 1 }))
      .filter((f) => f.lines > MAX_FILE_LINES)
      .map((f) => `${f.rel}: ${f.lines} lines`);
    expect(long).toEqual([]);
  });

  it(`no function in src/ is over ${MAX_FUNCTION_LINES} lines, but the listed ones, and they only shrink`, () => {
    const fns = files.flatMap((f) => functionLengths(f.rel, f.text).map((fn) => ({ ...fn, file: f.rel })));
    const long = fns
      .filter((fn) => fn.lines > Math.max(MAX_FUNCTION_LINES, LONG_FUNCTIONS[`${fn.file} ${fn.name}`] ?? 0))
      .map((fn) => `${fn.file}:${fn.line} ${fn.name} (${fn.lines} lines)`);
    expect(long).toEqual([]);
    // An entry whose function fits now (or is gone) comes off the list.
    const stale = Object.keys(LONG_FUNCTIONS).filter(
      (key) => !fns.some((fn) => `${fn.file} ${fn.name}` === key && fn.lines > MAX_FUNCTION_LINES),
    );
    expect(stale).toEqual([]);
  });

  it(`no comment line in src/ is over ${MAX_COMMENT_WIDTH} characters`, () => {
    const over = files.flatMap((f) =>
      commentLines(f.rel, f.text)
        .filter((c) => c.text.length > MAX_COMMENT_WIDTH)
        .map((c) => `${f.rel}:${c.line} (${c.text.length} characters)`),
    );
    expect(over).toEqual([]);
  });

  it('the measure itself counts a long function (so the limits above can fail)', () => {
    const body = Array.from({ length: 120 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const [fn] = functionLengths('x.ts', `function long() {\n${body}\n}\n`);
    expect(fn).toEqual({ name: 'long', line: 1, lines: 122 });
  });

  it('the comment measure finds comments, and no `//` inside a string', () => {
    const text = "// one\nconst url = 'https://example.com'; // two\n/**\n * three\n */\nconst t = `\n// not one\n`;\n";
    expect(commentLines('x.ts', text).map((c) => c.line)).toEqual([1, 3, 4, 5]);
  });
});
