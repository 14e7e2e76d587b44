// Line breaks as prettier and biome print JSON, for the few containers an edit added to: a list on one line when it
// fits the line width and one item a line when it does not, and a one-line object that no longer fits split into
// one member a line. The repository's formatter check then passes on a config we edited (biome.json's files list).
import { findCst, type Path } from './jsonc.ts';
import { type Container, parseCst } from './jsonc-scan.ts';
import { detectEol } from './text.ts';

function lineStart(text: string, pos: number): number {
  return text.lastIndexOf('\n', pos - 1) + 1;
}
function lineEnd(text: string, pos: number): number {
  const i = text.indexOf('\n', pos);
  return i < 0 ? text.length : i;
}
function indentAt(text: string, pos: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, pos)))?.[0] ?? '';
}
function visibleWidth(line: string): number {
  return line.replace(/\r$/, '').replace(/\t/g, '  ').length;
}
function hasComment(text: string, c: Container): boolean {
  return parseCst(text).toks.some((t) => t.kind === 'comment' && t.start > c.start && t.end < c.end);
}
function containerAt(text: string, path: Path): Container | null {
  const node = path.length ? findCst(parseCst(text).root, path) : parseCst(text).root;
  return node && node.kind !== 'scalar' ? node : null;
}

/** The container's items on one line, or one a line at `indent` + `unit`. */
function render(text: string, c: Container, multi: boolean, indent: string, unit: string, eol: string): string {
  const items = c.elems.map((e) => text.slice(e.start, e.value.end));
  const [open, close] = c.kind === 'array' ? ['[', ']'] : ['{', '}'];
  if (!multi) return c.kind === 'array' ? `${open}${items.join(', ')}${close}` : `${open} ${items.join(', ')} ${close}`;
  return `${open}${items.map((i) => `${eol}${indent}${unit}${i}`).join(',')}${eol}${indent}${close}`;
}

function replace(text: string, c: Container, body: string): string {
  return text.slice(0, c.start) + body + text.slice(c.end);
}

/**
 * Reflows the list at `path` and the object holding it as prettier and biome would; containers with comments, and
 * items that are not plain values on one line, are left as they are.
 */
export function reflowList(text: string, path: Path, width: number, unit: string): string {
  const eol = detectEol(text);
  let out = text;
  const parent = containerAt(out, path.slice(0, -1));
  if (
    parent &&
    parent.kind === 'object' &&
    !hasComment(out, parent) &&
    !out.slice(parent.start, parent.end).includes('\n')
  ) {
    const line = out.slice(lineStart(out, parent.start), lineEnd(out, parent.start));
    if (visibleWidth(line) > width)
      out = replace(out, parent, render(out, parent, true, indentAt(out, parent.start), unit, eol));
  }
  const list = containerAt(out, path);
  if (list?.kind !== 'array' || hasComment(out, list)) return out;
  if (list.elems.some((e) => out.slice(e.start, e.value.end).includes('\n'))) return out;
  const indent = indentAt(out, list.start);
  const one = render(out, list, false, indent, unit, eol);
  const head = out.slice(lineStart(out, list.start), list.start);
  const tail = out.slice(list.end, lineEnd(out, list.end));
  const fits = visibleWidth(head + one + tail) <= width;
  return replace(out, list, fits ? one : render(out, list, true, indent, unit, eol));
}
