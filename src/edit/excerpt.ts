// Where a parse failed, as people read it: the line before, the offending line, and a caret under the column —
// never the whole file.

/** Widest stretch of a line shown; a long (minified) line is cut around the column. */
const WIDTH = 100;

/** `line` is 1-based, `column` 1-based; the lines are the file's own (a BOM or CR at the end is not shown). */
export function excerpt(text: string, line: number, column: number): string {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const at = Math.min(Math.max(1, line), lines.length);
  const gutter = String(at).length;
  const out: string[] = [];
  const col = Math.max(1, column);
  // Cut every shown line at the same window, so the caret stays under the column.
  const from = col > WIDTH - 20 ? col - (WIDTH - 20) : 0;
  const cut = (s: string) => `${from ? '…' : ''}${s.slice(from, from + WIDTH)}${s.length > from + WIDTH ? '…' : ''}`;
  if (at > 1) out.push(`  ${String(at - 1).padStart(gutter)} | ${cut(lines[at - 2] ?? '')}`);
  out.push(`> ${String(at).padStart(gutter)} | ${cut(lines[at - 1] ?? '')}`);
  out.push(`  ${' '.repeat(gutter)} | ${' '.repeat(col - 1 - from + (from ? 1 : 0))}^`);
  return out.join('\n');
}

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

/** A JSON parser's message without the copy of the whole input newer Node versions put in it. */
export function jsonReason(message: string): string {
  const first = message
    .replace(/, "[\s\S]*" is not valid JSON$/, '')
    .replace(/ in JSON at position \d+.*$/s, '')
    .trim();
  return first.charAt(0).toLowerCase() + first.slice(1);
}
