// The human report: tools with evidence, then the plan — one line per file in words, a compact diff of the user's own
// files (ours are summarized by size and purpose), the count — short enough to read before the question.
import type { DetectedTool } from '../scaffold/detect.ts';
import type { Action, FileChange } from '../scaffold/plan.ts';
import { TOOLS } from '../tools/index.ts';
import type { Palette } from './colors.ts';
import { changeCounts, type CompactView, compactView, countLines, DEFAULT_COLUMNS } from './diff.ts';
import { purposeOf, reasonWords } from './purpose.ts';
import { rowsOf } from './screen.ts';
import { planTense } from './tense.ts';

const LABEL: Record<Action, string> = {
  create: 'create',
  update: 'update',
  noop: 'up to date',
  conflict: 'conflict',
  remove: 'delete',
};

/** Extra lines a part of the plan adds under a heading of its own (e.g. paths it left alone); shown when non-empty. */
export interface PreviewSection {
  title: string;
  lines: string[];
}

export interface PreviewInput {
  changes: readonly FileChange[];
  /** Nothing has been written yet when this is shown: notes say "would" (dry run, check) or "will". */
  tense: 'would' | 'will';
  /** --diff: every line of every file instead of the compact view. */
  full: boolean;
  /** The user's home directory, shown as ~ in paths outside the repository. */
  home?: string;
  /** A change asked about after the main question (the shell profile): listed, marked, never counted. */
  deferred?: FileChange | undefined;
  sections?: readonly PreviewSection[];
  /** The width every line of the compact view fits (80 when stdout is not a terminal). */
  columns?: number;
  /** On a terminal: the file list's lines fit `columns` too (their words cut), so none wraps onto a second row. */
  fitFiles?: boolean;
  /** Rows the whole preview may take on the screen (a terminal's height minus what is printed before it and the
   * question after it); the compact view of the user's files gets what the file list leaves. Unset: no limit. */
  rows?: number;
}

/** A path as a person reads it: `~/.bashrc` for a file in $HOME. */
export function shownPath(ch: Pick<FileChange, 'path' | 'home'>, home?: string): string {
  if (ch.home && home && ch.path.startsWith(`${home.replace(/\/+$/, '')}/`))
    return `~/${ch.path.slice(home.replace(/\/+$/, '').length + 1)}`;
  return ch.path;
}

export function toolsReport(tools: readonly DetectedTool[], c: Palette): string {
  if (!tools.length) return '';
  const width = Math.max(...tools.map((t) => TOOLS[t.name].label.length));
  const lines = tools.map(
    (t) =>
      `  ${c.bold(TOOLS[t.name].label.padEnd(width))}  ${c.dim(t.evidence.length ? t.evidence.join(', ') : '(from --tools)')}`,
  );
  return `Agent tools:\n${lines.join('\n')}\n`;
}

/** Whether a change edits a file the user already had (and keeps): those are the ones shown line by line. */
export function isUsersFile(ch: FileChange): boolean {
  return ch.before !== null && ch.after !== null && !ch.generated && ch.action !== 'noop' && ch.action !== 'conflict';
}

/** What happens to one file, in words: the reason, and how much it changes. */
function words(ch: FileChange): string {
  if (ch.action === 'noop' || ch.action === 'conflict') return '';
  const purpose = purposeOf(ch.path);
  if (ch.action === 'remove') {
    const why = ch.reason.replace(/^delete ?\(?|\)$/g, '');
    return [purpose, why].filter(Boolean).join(', ') || 'ours';
  }
  const reason = reasonWords(ch.reason);
  if (ch.before === null) {
    const what = ch.reason === 'add' || ch.reason === 'upgrade' ? (purpose ?? reason) : reason;
    const n = countLines(ch.after);
    return `${what} (${n} line${n === 1 ? '' : 's'}${ch.generated || purpose ? ', ours' : ''})`;
  }
  if (ch.generated) return `${purpose ?? ch.reason}: ${ch.reason === 'upgrade' ? 'upgraded' : 'replaced'} (ours)`;
  const { added, removed } = changeCounts(ch);
  const counts = [added ? `+${added}` : '', removed ? `−${removed}` : ''].filter(Boolean).join(' ');
  return counts ? `${reason} (${counts} lines)` : reason;
}

/** `words` in at most `room` columns: cut before their closing "(…)" (the size), which stays, with `…` at the cut. */
export function fitWords(words: string, room: number): string {
  const cps = Array.from(words);
  if (cps.length <= room) return words;
  const m = / \([^()]*\)$/.exec(words);
  const tail = m && Array.from(m[0]).length < room - 8 ? m[0] : '';
  const head = Array.from(words.slice(0, words.length - tail.length));
  const keep = Math.max(0, room - Array.from(tail).length - 1);
  return `${head.slice(0, keep).join('').trimEnd()}…${tail}`;
}

/** `columns`: the terminal's width, which the line then fits (its words cut); unset: the whole line. */
export function changeLine(ch: FileChange, c: Palette, width = 0, home?: string, columns?: number): string {
  const color =
    ch.action === 'conflict' ? c.red : ch.action === 'noop' ? c.dim : ch.action === 'remove' ? c.yellow : c.green;
  const w = words(ch);
  const path = shownPath(ch, home);
  const lead = 2 + 10 + 1 + path.padEnd(width).length + 2;
  const shown = columns === undefined ? w : fitWords(w, columns - lead);
  return `  ${color(LABEL[ch.action].padEnd(10))} ${w ? `${path.padEnd(width)}  ${c.dim(shown)}` : path}`;
}

function noteLines(ch: FileChange, c: Palette, tense: 'would' | 'will'): string[] {
  const out = ch.notes.map((note) => `             ${c.yellow('!')} ${planTense(note, tense)}`);
  if (ch.action === 'conflict') {
    out.push(`             ${c.red('✗')} ${ch.reason}`);
    if (ch.fix) out.push(`             ${c.bold('fix:')} ${ch.fix}`);
  }
  return out;
}

/** The file list: every change that does something; files already up to date are one count (or listed when nothing
 * else is left). */
export function filesReport(
  changes: readonly FileChange[],
  c: Palette,
  tense: 'would' | 'will' = 'will',
  home?: string,
  deferred?: FileChange,
  columns?: number,
): string {
  if (!changes.length && !deferred) return '';
  // A file left as it is stays listed when there is something to say about it (a foreign file in our place).
  const acting = changes.filter((ch) => ch.action !== 'noop' || ch.notes.length > 0);
  const shown = acting.length ? acting : changes;
  const all = deferred ? [...shown, deferred] : shown;
  const width = Math.min(40, Math.max(...all.map((ch) => shownPath(ch, home).length)));
  const lines = ['Files:'];
  for (const ch of shown) lines.push(changeLine(ch, c, width, home, columns), ...noteLines(ch, c, tense));
  const upToDate = changes.length - shown.length;
  if (upToDate) lines.push(c.dim(`  ${upToDate} more file(s) already up to date`));
  if (deferred) {
    const path = shownPath(deferred, home).padEnd(width);
    const w = `${deferred.reason}: asked separately, default No`;
    lines.push(
      `  ${c.yellow('ask last'.padEnd(10))} ${path}  ${c.dim(columns === undefined ? w : fitWords(w, columns - 15 - path.length))}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The heading of the compact view of the user's files. */
export const YOURS_TITLE = 'Your files (only what changes; --diff shows every line):';

/**
 * The compact views within `rows` rows, the heading included: the files' heading lines first (as many as fit), then
 * the lines under each in file order while they fit, and one closing line counting what is left to --diff.
 */
export function fitRows(views: readonly CompactView[], rows: number | undefined, c: Palette): string[] {
  const all = [YOURS_TITLE, ...views.flatMap((v) => [v.head, ...v.body])];
  if (rows === undefined || all.length <= rows) return all;
  const pointer = (n: number) => c.dim(`  … ${n} more line${n === 1 ? '' : 's'}: run with --diff to see every line`);
  if (rows < 3) return [c.dim(`Your files: ${all.length - 1} lines of changes; run with --diff to see them`)];
  const heads = Math.min(views.length, rows - 2);
  let room = rows - 2 - heads;
  const out = [YOURS_TITLE];
  for (const v of views.slice(0, heads)) {
    const take = v.body.slice(0, room);
    room -= take.length;
    out.push(v.head, ...take);
  }
  out.push(pointer(all.length - out.length));
  return out;
}

/** The whole preview before the question: files, the user's own files line by line (compactly), extra sections. */
export function previewReport(input: PreviewInput, c: Palette): string {
  const { changes, tense, full, home, deferred } = input;
  const parts = [filesReport(changes, c, tense, home, deferred, input.fitFiles ? input.columns : undefined)];
  for (const s of input.sections ?? [])
    if (s.lines.length) parts.push(`${s.title}\n${s.lines.map((l) => `  ${l}`).join('\n')}\n`);
  const yours = [...changes.filter(isUsersFile), ...(deferred ? [deferred] : [])];
  if (yours.length && !full) {
    const columns = input.columns ?? DEFAULT_COLUMNS;
    const views = yours.map((ch) => compactView(ch, c, shownPath(ch, home), columns));
    // What the file list and the sections take, and the blank line before this part.
    const rows =
      input.rows === undefined ? undefined : input.rows - rowsOf(parts.filter(Boolean).join('\n'), columns) - 1;
    parts.push(`${fitRows(views, rows, c).join('\n')}\n`);
  }
  return parts.filter(Boolean).join('\n');
}
