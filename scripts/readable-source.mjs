// An esbuild plugin that makes the guard file readable in a pull request, on the way in (each .ts source as loaded):
// - it keeps each module's header comment (what the module decides and why): esbuild drops ordinary comments and
//   keeps legal ones (`//!`), so the header becomes `//!` lines, which the build turns back into `//` (block comments
//   become line comments, so the body, stored inside a comment, holds no `*/`). The other comments are left out to
//   keep the file within its size budget (all of them: +45 KB); the package ships the whole source beside it.
// - it cuts string literals longer than LONG_STRING into a parenthesised concatenation of pieces cut at spaces, so no
//   line of the file is wider than a diff view (the value is the same string).
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { applyEdits } from './source-edits.mjs';

/** Strings longer than this are cut into pieces of about this length. */
const LONG_STRING = 110;

/** Cuts `parts` (raw text pieces, some of them `${...}` that must stay whole) into chunks of about LONG_STRING. */
function cutRaw(parts) {
  const chunks = [''];
  for (const part of parts) {
    const words = part.startsWith('${') ? [part] : part.split(/(?<=[^\\] )/);
    for (const w of words) {
      if (chunks[chunks.length - 1].length + w.length > LONG_STRING && chunks[chunks.length - 1] !== '')
        chunks.push('');
      chunks[chunks.length - 1] += w;
    }
  }
  return chunks;
}

/** A long string or template literal as `(piece + piece ...)`; undefined when it is short or must stay whole. */
function cutString(node, source) {
  const text = node.getText();
  if (text.length <= LONG_STRING + 20) return undefined;
  const p = node.parent;
  if (ts.isTaggedTemplateExpression(p) || ts.isImportDeclaration(p) || ts.isExportDeclaration(p)) return undefined;
  if (ts.isPropertyAssignment(p) && p.name === node) return undefined;
  if (ts.isLiteralTypeNode(p) || ts.isExternalModuleReference(p)) return undefined;
  if (ts.isStringLiteral(node)) {
    const pieces = cutRaw([node.text]).map((c) => JSON.stringify(c));
    return pieces.length > 1 ? `(${pieces.join(' +\n')})` : undefined;
  }
  // Templates: the raw text between `${...}` is cut at spaces; each piece is a template of its own.
  const raw = (lit, close) => source.slice(lit.getStart() + 1, lit.end - close);
  const parts = ts.isNoSubstitutionTemplateLiteral(node)
    ? [raw(node, 1)]
    : [
        raw(node.head, 2),
        ...node.templateSpans.flatMap((s) => [
          `\${${s.expression.getText()}}`,
          raw(s.literal, ts.isTemplateTail(s.literal) ? 1 : 2),
        ]),
      ];
  const pieces = cutRaw(parts.filter((x) => x !== '')).map((c) => `\`${c}\``);
  return pieces.length > 1 ? `(${pieces.join(' +\n')})` : undefined;
}

/** One comment as `//!` lines at `indent`; `*` + `/` is split so no line can end the comment the body is stored in. */
function legalLines(text, kind, indent) {
  const lines =
    kind === ts.SyntaxKind.SingleLineCommentTrivia
      ? [text.replace(/^\/\/+!?\s?/, '')]
      : text
          .replace(/^\/\*+!?/, '')
          .replace(/\*+\/$/, '')
          .split('\n')
          .map((l) => l.replace(/^\s*\* ?/, '').trimEnd())
          .filter((l, i, all) => l !== '' || (i > 0 && i < all.length - 1));
  return lines.map((l) => `//!${l ? ` ${l.replaceAll('*/', '* /')}` : ''}`).join(`\n${indent}`);
}

/** The source with its header (the comments before its first statement) made legal comments. */
export function readableSource(source, fileName = 'source.ts') {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const first = sf.statements[0];
  const ranges = first ? (ts.getLeadingCommentRanges(source, first.pos) ?? []) : [];
  const edits = ranges.map((r) => {
    const lineStart = source.lastIndexOf('\n', r.pos - 1) + 1;
    const indent = /^[ \t]*/.exec(source.slice(lineStart))[0];
    const eol = source.indexOf('\n', r.end);
    const restOfLine = source.slice(r.end, eol === -1 ? undefined : eol);
    // Code after a block comment on the same line must not fall into the new line comment.
    const text = legalLines(source.slice(r.pos, r.end), r.kind, indent) + (restOfLine.trim() ? `\n${indent}` : '');
    return { pos: r.pos, end: r.end, text };
  });
  return applyEdits(source, edits);
}

/** Long string literals of `source` (JavaScript) cut into concatenations (esbuild would fold them back, so this runs
 * on its output). */
export function cutLongStrings(source) {
  const sf = ts.createSourceFile('bundle.js', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const edits = [];
  const strings = (node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
      const cut = cutString(node, source);
      if (cut !== undefined) {
        edits.push({ pos: node.getStart(), end: node.end, text: cut });
        return;
      }
    }
    ts.forEachChild(node, strings);
  };
  strings(sf);
  return applyEdits(source, edits);
}

/** Properties that document the normalization rules (`description`, `example`): docs/judging.md and the tests read
 * them from the source; the hook never does, so the guard file leaves them out (about 10 KB of its size budget). */
const RULE_DOCS = new Set(['description', 'example']);

/** `source` without the rule-documenting properties of its object literals. */
export function withoutRuleDocs(source, fileName = 'source.ts') {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const cuts = [];
  const visit = (node) => {
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && RULE_DOCS.has(node.name.text)) {
      const comma = /^\s*,/.exec(source.slice(node.end));
      cuts.push({ pos: node.getFullStart(), end: node.end + (comma ? comma[0].length : 0), text: '' });
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return applyEdits(source, cuts);
}

export const readableSourcePlugin = {
  name: 'readable-source',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const source = /[\\/]guard[\\/]core[\\/]normalize(?:[\\/][\w-]+)?\.ts$/.test(args.path)
        ? withoutRuleDocs(text, args.path)
        : text;
      return { contents: readableSource(source, args.path), loader: 'ts' };
    });
  },
};
