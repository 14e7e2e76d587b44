// How much of a terminal's screen printed text takes: rows, counting a line longer than the width as the rows it
// wraps to, escape codes as nothing.

const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** The rows `text` takes on a screen `columns` wide; a final newline ends its last row rather than starting one. */
export function rowsOf(text: string, columns: number): number {
  if (text === '') return 0;
  const lines = text.replace(ANSI, '').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const width = Math.max(1, columns);
  return lines.reduce((n, l) => n + Math.max(1, Math.ceil(Array.from(l).length / width)), 0);
}
