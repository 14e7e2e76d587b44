// The CLAUDE.md `@AGENTS.md` import line: find it, add it, take it back out.
import type { EditOutcome } from './outcome.ts';
import { detectEol, type Line, joinLines, scanFences, splitBom, splitLines } from './text.ts';

/** `@AGENTS.md` → the path tokens Claude Code resolves to the same file ('AGENTS.md', './AGENTS.md'). */
function importTargets(importLine: string): string[] {
  if (!/^@\S+$/.test(importLine)) {
    throw new Error(`import line must be a single @path token, got ${JSON.stringify(importLine)}`);
  }
  const path = importLine.slice(1);
  const bare = path.startsWith('./') ? path.slice(2) : path;
  return [bare, `./${bare}`];
}

/** 0-based index of the first line-start import outside fences, or -1. */
function findImportLineIndex(lines: readonly Line[], importLine: string): number {
  const targets = importTargets(importLine);
  const { inFence } = scanFences(lines);
  for (let i = 0; i < lines.length; i++) {
    if (inFence[i]) continue;
    // Up to 3 spaces of indent: 4 or more would make the line an indented code block.
    const m = /^ {0,3}@(\S+)(?:\s|$)/.exec(lines[i]!.text);
    if (m && targets.includes(m[1]!)) return i;
  }
  return -1;
}

/**
 * True when `importLine` (e.g. '@AGENTS.md', also matching '@./AGENTS.md') starts a line outside
 * code fences. Inline mentions in prose ("see @AGENTS.md") do NOT count, even though Claude Code
 * imports them too: they are incidental wording a user may rewrite, so we keep our own explicit line.
 */
export function hasImportLine(text: string, importLine: string): boolean {
  return findImportLineIndex(splitLines(splitBom(text).rest), importLine) !== -1;
}

/**
 * 1-based line numbers where the import target is mentioned mid-line outside code fences and code
 * spans; Claude Code treats these as imports too, so callers can tell the user.
 */
export function findInlineImports(text: string, importLine: string): number[] {
  const targets = importTargets(importLine);
  const lines = splitLines(splitBom(text).rest);
  const { inFence } = scanFences(lines);
  const found: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (inFence[i]) continue;
    const start = /^ {0,3}@(\S+)(?:\s|$)/.exec(lines[i]!.text);
    if (start && targets.includes(start[1]!)) continue;
    const prose = lines[i]!.text.replace(/(`+)(?:(?!\1).)+?\1/g, ' ');
    for (const m of prose.matchAll(/(?:^|\s)@(\S+)/g)) {
      // Trailing sentence punctuation is not part of the path a reader means.
      const token = m[1]!.replace(/[.,;:!?)\]]+$/, '');
      if (targets.includes(token)) {
        found.push(i + 1);
        break;
      }
    }
  }
  return found;
}

/**
 * Make sure `importLine` is an import at line start outside code fences. Prepends it followed by
 * one blank line when missing; null → a new file containing just the line and '\n'.
 */
export function ensureImportLine(before: string | null, importLine: string): EditOutcome & { added?: boolean } {
  importTargets(importLine);
  if (before === null) return { status: 'changed', text: `${importLine}\n`, notes: [], added: true };
  if (hasImportLine(before, importLine)) return { status: 'unchanged', text: before, notes: [], added: false };

  const { bom, rest } = splitBom(before);
  const eol = detectEol(rest);
  // An empty file gets just the line, so removing it gives back the empty file.
  const text = rest === '' ? `${bom}${importLine}${eol}` : `${bom}${importLine}${eol}${eol}${rest}`;

  const notes: string[] = [];
  const inline = findInlineImports(before, importLine);
  if (inline.length > 0) {
    notes.push(
      `The file already mentions ${importLine} inline (${inline.length === 1 ? 'line' : 'lines'} ` +
        `${inline.join(', ')}), which Claude Code also ` +
        `imports; an explicit ${importLine} line is added at the top so the import does not depend on prose.`,
    );
  }
  if (!hasImportLine(text, importLine)) throw new Error('ensureImportLine: the import line is missing after the edit');
  return { status: 'changed', text, notes, added: true };
}

/**
 * Undo what ensureImportLine added: the first line when it is exactly `importLine`, plus the one
 * blank line after it. The caller decides whether that line was ours (an identical user line looks the same).
 */
export function removeImportLine(before: string, importLine: string): { outcome: EditOutcome; becameEmpty: boolean } {
  importTargets(importLine);
  const { bom, rest } = splitBom(before);
  const lines = splitLines(rest);
  if (lines[0]?.text !== importLine) {
    return { outcome: { status: 'unchanged', text: before, notes: [] }, becameEmpty: false };
  }
  const drop = lines[1]?.text === '' ? 2 : 1;
  const remaining = joinLines(lines.slice(drop));
  return {
    outcome: { status: 'changed', text: bom + remaining, notes: [] },
    becameEmpty: remaining === '',
  };
}
