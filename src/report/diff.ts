// Unified diffs of a plan, one per changed file.
import { createTwoFilesPatch, structuredPatch } from 'diff';
import type { FileChange } from '../scaffold/file-change.ts';
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

/** Lines added and taken out by a change, as a line diff counts them. */
export function changeCounts(change: FileChange): { added: number; removed: number } {
  const patch = structuredPatch('a', 'b', change.before ?? '', change.after ?? '', undefined, undefined, {
    context: 0,
  });
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

/** A line cut to fit one terminal row beside its line number and count. */
function clip(line: string, max = 88): string {
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** One file's change in a few lines: one line per place it changes (its line number, its first telling changed
 * line, how many lines), and every line of the user's that is taken out or replaced. */
export function compactDiff(change: FileChange, c: Palette, label: string): string {
  const patch = structuredPatch('a', 'b', change.before ?? '', change.after ?? '', undefined, undefined, {
    context: 0,
  });
  let added = 0;
  let removed = 0;
  const body: string[] = [];
  const width = String(Math.max(0, ...patch.hunks.map((h) => h.newStart))).length;
  patch.hunks.forEach((h, i) => {
    const lines = h.lines.filter((l) => !l.startsWith('\\'));
    const plus = lines.filter((l) => l.startsWith('+'));
    const minus = lines.filter((l) => l.startsWith('-'));
    added += plus.length;
    removed += minus.length;
    if (i >= COMPACT_PLACES) return;
    const at = String(plus.length ? h.newStart : h.oldStart).padStart(width);
    const first = (ls: string[]) => ls.find((l) => !STRUCTURAL.test(l.slice(1))) ?? ls[0];
    const more = (n: number) => (n > 1 ? c.dim(`  … ${n - 1} more`) : '');
    if (!plus.length) {
      // Only taken out: one telling line for the place, as for an addition.
      const telling = first(minus);
      if (telling) body.push(`    ${c.dim(at)} ${c.red(clip(telling))}${more(minus.length)}`);
      return;
    }
    // A line of the user's that changes is shown whole: that is what a reviewer looks for.
    for (const l of minus.slice(0, 2)) body.push(`    ${' '.repeat(width)} ${c.red(clip(l))}`);
    const telling = first(plus);
    if (telling) body.push(`    ${c.dim(at)} ${c.green(clip(telling))}${more(plus.length)}`);
  });
  const places = patch.hunks.length;
  const n = (k: number, what: string) => `${k} line${k === 1 ? '' : 's'} ${what}`;
  const counts =
    `${[added ? n(added, 'added') : '', removed ? n(removed, 'taken out') : ''].filter(Boolean).join(', ')}` +
    ` in ${places === 1 ? '1 place' : `${places} places`}`;
  return [
    `  ${c.bold(label)}  ${c.dim(counts)}`,
    ...body,
    ...(places > COMPACT_PLACES ? [c.dim(`    … ${places - COMPACT_PLACES} more place(s)`)] : []),
    '',
  ].join('\n');
}
