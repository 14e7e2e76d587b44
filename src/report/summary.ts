// The human report: tools with evidence, then the plan — one line per file in words, a compact diff of the user's own
// files (ours are summarized by size and purpose), the count — short enough to read before the question.
import type { DetectedTool } from '../scaffold/detect.ts';
import type { Action, FileChange } from '../scaffold/plan.ts';
import { TOOLS } from '../tools/index.ts';
import type { Palette } from './colors.ts';
import { changeCounts, compactDiff, countLines } from './diff.ts';
import { purposeOf, reasonWords } from './purpose.ts';
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

export function changeLine(ch: FileChange, c: Palette, width = 0, home?: string): string {
  const color =
    ch.action === 'conflict' ? c.red : ch.action === 'noop' ? c.dim : ch.action === 'remove' ? c.yellow : c.green;
  const w = words(ch);
  const path = shownPath(ch, home);
  return `  ${color(LABEL[ch.action].padEnd(10))} ${w ? `${path.padEnd(width)}  ${c.dim(w)}` : path}`;
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
): string {
  if (!changes.length && !deferred) return '';
  // A file left as it is stays listed when there is something to say about it (a foreign file in our place).
  const acting = changes.filter((ch) => ch.action !== 'noop' || ch.notes.length > 0);
  const shown = acting.length ? acting : changes;
  const all = deferred ? [...shown, deferred] : shown;
  const width = Math.min(40, Math.max(...all.map((ch) => shownPath(ch, home).length)));
  const lines = ['Files:'];
  for (const ch of shown) lines.push(changeLine(ch, c, width, home), ...noteLines(ch, c, tense));
  const upToDate = changes.length - shown.length;
  if (upToDate) lines.push(c.dim(`  ${upToDate} more file(s) already up to date`));
  if (deferred)
    lines.push(
      `  ${c.yellow('ask last'.padEnd(10))} ${shownPath(deferred, home).padEnd(width)}  ` +
        `${c.dim(`${deferred.reason}: asked separately, default No`)}`,
    );
  return `${lines.join('\n')}\n`;
}

/** The whole preview before the question: files, the user's own files line by line (compactly), extra sections. */
export function previewReport(input: PreviewInput, c: Palette): string {
  const { changes, tense, full, home, deferred } = input;
  const parts = [filesReport(changes, c, tense, home, deferred)];
  for (const s of input.sections ?? [])
    if (s.lines.length) parts.push(`${s.title}\n${s.lines.map((l) => `  ${l}`).join('\n')}\n`);
  const yours = [...changes.filter(isUsersFile), ...(deferred ? [deferred] : [])];
  if (yours.length && !full) {
    const body = yours.map((ch) => compactDiff(ch, c, shownPath(ch, home))).join('');
    parts.push(`Your files (only what changes; --diff shows every line):\n${body}`);
  }
  return parts.filter(Boolean).join('\n');
}
