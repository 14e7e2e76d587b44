// Unified diffs of a plan, one per changed file.
import { createTwoFilesPatch, structuredPatch } from 'diff';
import type { FileChange } from '../scaffold/file-change.ts';
import { BLOCK_ID } from '../tools/markers.ts';
import type { Palette } from './colors.ts';

/** The lines of a file's text (a final newline ends the last line rather than starting another). */
export function countLines(text: string | null): number {
  return text === null || text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** `a/` and `b/` prefix repository paths, as git's do; a path outside the repository (absolute, or `~/…`) has none. */
function side(prefix: 'a/' | 'b/', label: string): string {
  return label.startsWith('/') || label.startsWith('~') ? label : `${prefix}${label}`;
}

/** `label`: the path as shown (a home file as `~/.bashrc`). */
export function unifiedDiff(
  change: FileChange,
  label = change.home ? change.path : change.path.replace(/\\/g, '/'),
): string {
  const before = change.before ?? '';
  const after = change.after ?? '';
  const patch = createTwoFilesPatch(
    change.before === null ? '/dev/null' : side('a/', label),
    change.after === null ? '/dev/null' : side('b/', label),
    before,
    after,
    undefined,
    undefined,
    { context: 3 },
  );
  // Drop the "Index:" and "====" lines diff adds, as git does not show them.
  return patch
    .split('\n')
    .filter((l) => !l.startsWith('Index: ') && !/^=+$/.test(l))
    .join('\n')
    .replace(/\n+$/, '\n');
}

/** What a person reads: the full diff, or one summary line for a file wholly ours (built, or our record), unless
 * `full`. */
export function displayDiff(change: FileChange, full = false, label?: string): string {
  if (!change.generated || full) return unifiedDiff(change, label);
  const lines = countLines;
  const what =
    change.after === null
      ? `delete (${lines(change.before)} lines)`
      : change.before === null
        ? `${lines(change.after)} lines`
        : `replaced: ${lines(change.before)} → ${lines(change.after)} lines`;
  const header = change.after === null ? `--- a/${change.path}` : `+++ b/${change.path}`;
  return `${header}\n@@ our file, ${what} (--diff shows it) @@\n`;
}

export function colorDiff(text: string, c: Palette): string {
  return text
    .split('\n')
    .map((l) => {
      if (l.startsWith('+++') || l.startsWith('---')) return c.bold(l);
      if (l.startsWith('+')) return c.green(l);
      if (l.startsWith('-')) return c.red(l);
      if (l.startsWith('@@')) return c.cyan(l);
      return l;
    })
    .join('\n');
}

/** A change's line diff for counting and the compact view: a last line without its newline is read with one, so a
 *  user's line we only append after is not shown as taken out (the full --diff keeps the bytes). */
function linePatch(change: FileChange): ReturnType<typeof structuredPatch> {
  const before = change.before ?? '';
  const after = change.after ?? '';
  const nl = (t: string) => (t !== '' && !t.endsWith('\n') ? `${t}\n` : t);
  const patch = structuredPatch('a', 'b', nl(before), nl(after), undefined, undefined, { context: 0 });
  // Only the newline differs: then it is the change, and shown as one.
  return patch.hunks.length || before === after
    ? patch
    : structuredPatch('a', 'b', before, after, undefined, undefined, { context: 0 });
}

/** Lines added and taken out by a change, as a line diff counts them. */
export function changeCounts(change: FileChange): { added: number; removed: number } {
  const patch = linePatch(change);
  let added = 0;
  let removed = 0;
  for (const h of patch.hunks)
    for (const l of h.lines) {
      if (l.startsWith('+')) added++;
      else if (l.startsWith('-')) removed++;
    }
  return { added, removed };
}

/** Places shown per file in the compact view; the rest is counted. */
const COMPACT_PLACES = 5;
/** A line that is only brackets and commas says nothing about what changed. */
const STRUCTURAL = /^[\s[\]{}(),]*$/;
/** The begin marker of a managed block: a block we add is prose the agents read, so its lines are shown. */
const BLOCK_BEGIN = `${BLOCK_ID}:begin`;
/** The width of the compact view when stdout is not a terminal (a CI log, a pipe). */
export const DEFAULT_COLUMNS = 80;

/** A line of a file as a terminal can show it: C0 controls (a CRLF file's `\r` first, which would send the cursor
 * back over the line number) and DEL as their visible pictures (`␍`), a tab as two spaces. */
export function visible(line: string): string {
  return line
    .replace(/\t/g, '  ')
    .replace(/[\u0000-\u001f\u007f]/g, (ch) =>
      ch === '\u007f' ? '␡' : String.fromCharCode(0x2400 + ch.charCodeAt(0)),
    );
}

/** Where two lines first differ, in code points (the shorter one's length when one starts the other). */
function firstDifference(a: readonly string[], b: readonly string[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * The column a changed line is shown from when it does not fit in `max` columns: 0 while the first difference from
 * its partner (the line it replaces, or the one replacing it) is in view with some room after it, otherwise a third of
 * the width before that difference, so `-` and `+` show the part that changed, from the same column.
 */
function windowStart(line: readonly string[], partner: readonly string[] | undefined, max: number): number {
  if (!partner || (line.length <= max && partner.length <= max)) return 0;
  const d = firstDifference(line, partner);
  const tail = Math.min(8, Math.floor(max / 4));
  if (d + tail <= max - 1) return 0;
  const start = d - Math.floor(max / 3);
  // Not past the point where the longer line's end would leave the window half empty.
  return Math.max(0, Math.min(start, Math.max(line.length, partner.length) - (max - 1)));
}

/** `line` shown in at most `max` columns from `start`, with `…` where something was cut off on either side. */
function cut(line: readonly string[], start: number, max: number): string {
  if (start === 0 && line.length <= max) return line.join('');
  const head = start > 0 ? '…' : '';
  const rest = line.slice(start);
  const room = max - head.length;
  return head + (rest.length > room ? `${rest.slice(0, Math.max(0, room - 1)).join('')}…` : rest.join(''));
}

/** A diff line (`+…`/`-…`) fitted to `max` columns, its sign kept, windowed on its difference from `partner`. */
function fitted(line: string, partner: string | undefined, max: number): string {
  const cps = Array.from(visible(line.slice(1)));
  const other = partner === undefined ? undefined : Array.from(visible(partner.slice(1)));
  return line[0] + cut(cps, windowStart(cps, other, max - 1), max - 1);
}

/** One file's compact view: its heading, the lines under it, and what is left out. */
export interface CompactView {
  head: string;
  body: string[];
}

/** One file's change in a few lines: one line per place it changes (its line number, its first telling changed
 * line, how many lines), every line of the user's that is taken out or replaced, and every line of a managed block
 * we add; each line fitted to `columns`. */
export function compactView(change: FileChange, c: Palette, label: string, columns = DEFAULT_COLUMNS): CompactView {
  const patch = linePatch(change);
  let added = 0;
  let removed = 0;
  const body: string[] = [];
  const width = String(Math.max(0, ...patch.hunks.map((h) => h.newStart))).length;
  // "    12 " before each line; the text gets the rest of the row.
  const room = Math.max(20, columns - 4 - width - 1);
  patch.hunks.forEach((h, i) => {
    const lines = h.lines.filter((l) => !l.startsWith('\\'));
    const plus = lines.filter((l) => l.startsWith('+'));
    const minus = lines.filter((l) => l.startsWith('-'));
    added += plus.length;
    removed += minus.length;
    if (i >= COMPACT_PLACES) return;
    const at = String(plus.length ? h.newStart : h.oldStart).padStart(width);
    const telling = (ls: string[]) =>
      Math.max(
        0,
        ls.findIndex((l) => !STRUCTURAL.test(l.slice(1))),
      );
    const moreText = (n: number) => (n > 1 ? `  … ${n - 1} more` : '');
    const line = (l: string, partner: string | undefined, color: (s: string) => string, more = '') =>
      `${color(fitted(l, partner, room - more.length))}${more ? c.dim(more) : ''}`;
    if (!plus.length) {
      // Only taken out: one telling line for the place, as for an addition.
      const k = telling(minus);
      const more = moreText(minus.length);
      if (minus[k]) body.push(`    ${c.dim(at)} ${line(minus[k], undefined, c.red, more)}`);
      return;
    }
    // A line of the user's that changes is shown (from where it changes, when it is long): what a reviewer looks for.
    minus.slice(0, 2).forEach((l, j) => {
      body.push(`    ${' '.repeat(width)} ${line(l, plus[j] ?? plus[0], c.red)}`);
    });
    if (plus.some((l) => l.includes(BLOCK_BEGIN))) {
      // A managed block: the text the agents will read, line by line (blank lines left out).
      const shown = plus.filter((l) => l.slice(1).trim() !== '');
      shown.forEach((l, j) => {
        body.push(`    ${j === 0 ? c.dim(at) : ' '.repeat(width)} ${line(l, undefined, c.green)}`);
      });
      return;
    }
    const k = telling(plus);
    const more = moreText(plus.length);
    if (plus[k]) body.push(`    ${c.dim(at)} ${line(plus[k], minus[k] ?? minus[0], c.green, more)}`);
  });
  const places = patch.hunks.length;
  const n = (k: number, what: string) => `${k} line${k === 1 ? '' : 's'} ${what}`;
  const counts =
    `${[added ? n(added, 'added') : '', removed ? n(removed, 'taken out') : ''].filter(Boolean).join(', ')}` +
    ` in ${places === 1 ? '1 place' : `${places} places`}`;
  if (places > COMPACT_PLACES) body.push(c.dim(`    … ${places - COMPACT_PLACES} more place(s)`));
  return { head: `  ${c.bold(label)}  ${c.dim(counts)}`, body };
}

/** The compact view as text. */
export function compactDiff(change: FileChange, c: Palette, label: string, columns = DEFAULT_COLUMNS): string {
  const v = compactView(change, c, label, columns);
  return [v.head, ...v.body, ''].join('\n');
}
