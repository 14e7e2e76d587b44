// Unified diffs of a plan, one per changed file.
import { createTwoFilesPatch } from 'diff';
import type { FileChange } from '../scaffold/plan.ts';
import type { Palette } from './colors.ts';

export function unifiedDiff(change: FileChange): string {
  const label = change.home ? change.path : change.path.replace(/\\/g, '/');
  const before = change.before ?? '';
  const after = change.after ?? '';
  const patch = createTwoFilesPatch(
    change.before === null ? '/dev/null' : `a/${label}`,
    change.after === null ? '/dev/null' : `b/${label}`,
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

/** What a person reads: the full diff, or one summary line for a file wholly ours (built, or our record), unless `full`. */
export function displayDiff(change: FileChange, full = false): string {
  if (!change.generated || full) return unifiedDiff(change);
  const lines = (text: string | null) => (text === null ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));
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
