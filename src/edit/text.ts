// A file's text as the editors see it: its own BOM and line ending (which edits keep), its lines with their
// terminators, and which lines sit inside Markdown code fences.

const BOM = '\uFEFF';

/** Split off a UTF-8 BOM so edits see plain text and can put it back. */
export function splitBom(text: string): { bom: string; rest: string } {
  return text.startsWith(BOM) ? { bom: BOM, rest: text.slice(1) } : { bom: '', rest: text };
}

/** The line ending a file already uses, so edits keep it. */
export function detectEol(text: string): '\n' | '\r\n' {
  const crlf = text.indexOf('\r\n');
  if (crlf === -1) return '\n';
  const lf = text.indexOf('\n');
  return lf === crlf + 1 ? '\r\n' : '\n';
}

/** One line of a file with its own terminator, so untouched lines round-trip byte for byte. */
export interface Line {
  text: string;
  eol: '' | '\n' | '\r\n';
}

/** Lines with their terminators; '' has no lines and a final newline opens no extra empty line. */
export function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    if (nl === -1) {
      lines.push({ text: text.slice(start), eol: '' });
      break;
    }
    const crlf = nl > start && text[nl - 1] === '\r';
    lines.push({ text: text.slice(start, crlf ? nl - 1 : nl), eol: crlf ? '\r\n' : '\n' });
    start = nl + 1;
  }
  return lines;
}

export function joinLines(lines: readonly Line[]): string {
  let out = '';
  for (const line of lines) out += line.text + line.eol;
  return out;
}

/** A blank line is whitespace only, as Markdown and shells see it. */
export function isBlank(line: Line | undefined): boolean {
  return line !== undefined && line.text.trim() === '';
}

export interface FenceScan {
  /** true for fence delimiter lines and every line between them. */
  inFence: boolean[];
  /** 0-based index of the opening line of a fence that never closes, or null. */
  unclosedFrom: number | null;
}

const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})(.*)$/;

/**
 * Which lines sit inside fenced code blocks (``` or ~~~), following CommonMark's closing rule
 * (same character, at least as long, nothing after) but allowing any indentation, because fences
 * inside nested list items are indented past the 3 spaces CommonMark allows at top level.
 * Lines before `from` (a Markdown file's front matter, which is YAML, not Markdown) are never in a fence.
 */
export function scanFences(lines: readonly Line[], from = 0): FenceScan {
  const inFence: boolean[] = new Array<boolean>(lines.length).fill(false);
  let open: { char: string; len: number; at: number } | null = null;
  for (let i = from; i < lines.length; i++) {
    const text = lines[i]!.text;
    if (open === null) {
      const m = FENCE_OPEN.exec(text);
      // A backtick "fence" with a backtick in its info string is inline code, per CommonMark.
      if (m && !(m[1]![0] === '`' && m[2]!.includes('`'))) {
        open = { char: m[1]![0]!, len: m[1]!.length, at: i };
        inFence[i] = true;
      }
      continue;
    }
    inFence[i] = true;
    const trimmed = text.trim();
    if (trimmed.length >= open.len && /^(`+|~+)$/.test(trimmed) && trimmed[0] === open.char) open = null;
  }
  return { inFence, unclosedFrom: open ? open.at : null };
}
