// What a terminal shows, line by line: no escapes, redraws, spinners or progress bars.
import type { NormalizeRule } from './rule.ts';

// ---------------------------------------------------------------------------------------------------------------
// Terminal control sequences

// OSC/DCS/SOS/PM/APC strings end at BEL or ST; an unterminated one is cut at the line end so it cannot eat the output.
const ESC_STRING_RE = /(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)?/g;
// Cursor-to-column-1 and erase-whole-line redraw the line like a carriage return does.
const ESC_REDRAW_RE = /(?:\x1b\[|\x9b)(?:[01]?G|2K)/g;
const CSI_RE = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]/g;
const ESC_OTHER_RE = /\x1b[ -/]*[0-~]/g;
const HAS_ESC_RE = /[\x1b\x90\x98\x9b\x9d\x9e\x9f]/;
// A character followed by backspace is a man-page style overstrike; only the second character is visible.
const OVERSTRIKE_RE = /[^\n\x08]\x08/g;
// \t, \n and \r survive here: \r is resolved per line, the other two are layout.
const CONTROL_RE = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufeff]/g;

export function stripTerminal(text: string): string {
  let s = text;
  if (HAS_ESC_RE.test(s)) {
    s = s.replace(ESC_STRING_RE, '').replace(ESC_REDRAW_RE, '\r').replace(CSI_RE, '').replace(ESC_OTHER_RE, '');
  }
  if (s.includes('\x08')) s = s.replace(OVERSTRIKE_RE, '');
  return s.replace(CONTROL_RE, '');
}

// ---------------------------------------------------------------------------------------------------------------
// Whole-line rules

const SPINNER_CLASS = '\\u2800-\\u28ff\\u25d0-\\u25d3\\u25f4-\\u25f7';
const SPINNER_ONLY_RE = new RegExp(`^\\s*(?:[${SPINNER_CLASS}]+|[|/\\\\-])\\s*$`);
const SPINNER_PREFIX_RE = new RegExp(`^(\\s*)[${SPINNER_CLASS}]+\\s+`);
const PERCENT_RE = /(?<![\d.])\d{1,3}(?:\.\d+)?\s?%/;
const PERCENT_ONLY_RE = /^[\s[(]*\d{1,3}(?:\.\d+)?\s?%[\s\])]*$/;
const BAR_RE = /\[[=#>\-.~ ]{3,}\]|[\u2580-\u259f\u25a0\u25a1\u2501\u25b0\u25b1\u28ff]{3,}|(?<![=#])[=#]{4,}>/;
// curl's transfer meter: 12 numeric columns, three of them clock-like; its speed columns vary run to run.
const CURL_METER_RE =
  /^ *\d{1,3} +[\d.]+[kMGTP]? +\d{1,3} +[\d.]+[kMGTP]? +\d{1,3} +[\d.]+[kMGTP]? +[\d.]+[kMGTP]? +[\d.]+[kMGTP]?(?: +(?:--:--:--|\d+:\d\d:\d\d)){3} +[\d.]+[kMGTP]?$/;
// Codex wraps exec output in these header lines; they describe the call, not the command's result.
const HARNESS_LINE_RE = /^(?:Chunk ID: \S+|Wall time: \d+(?:\.\d+)? seconds|Original token count: \d+)$/;

/**
 * The per-line patterns run only on lines whose first visible character could open a match (a spinner frame, a
 * digit for curl's meter, C/W/O for the Codex header): most lines then cost one character look, and the patterns are
 * not compiled in a process that never needs them.
 */
export function firstVisible(line: string): number {
  let i = 0;
  // ASCII blanks only: a line opening with a non-ASCII space gets a code over 127, which every gate lets through.
  while (i < line.length && (line.charCodeAt(i) === 32 || (line.charCodeAt(i) >= 9 && line.charCodeAt(i) <= 13))) i++;
  return i < line.length ? line.charCodeAt(i) : -1;
}

/** A spinner frame (braille, ◐-◓, ◴-◷), or a non-ASCII space, which `\\s*` in the patterns may skip before one. */
function frameOrWideSpace(c: number): boolean {
  if (c < 128) return false;
  if ((c >= 0x2800 && c <= 0x28ff) || (c >= 0x25d0 && c <= 0x25d3) || (c >= 0x25f4 && c <= 0x25f7)) return true;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * A line that is only a spinner frame starts (after blanks) with a frame character, or is one of | / \\ - alone
 * (trim() drops exactly what `\\s` matches). Any other non-ASCII start (a test runner's ✓ or ×) is no frame.
 */
function mayBeSpinnerOnly(first: number, line: string): boolean {
  if (frameOrWideSpace(first)) return true;
  return (first === 124 || first === 47 || first === 92 || first === 45) && line.trim().length === 1;
}

/** curl's meter opens with a digit and holds three clock columns, so at least six colons (a code frame's "40|" has
 * none). */
function mayBeCurlMeter(first: number, line: string): boolean {
  if (first < 48 || first > 57) return false;
  let colons = 0;
  for (let p = line.indexOf(':'); p !== -1 && colons < 6; p = line.indexOf(':', p + 1)) colons++;
  return colons >= 6;
}

const HARNESS_PREFIXES = ['Chunk ID: ', 'Wall time: ', 'Original token count: '];
const mayBeHarnessLine = (first: number, line: string): boolean =>
  (first === 67 || first === 79 || first === 87) && HARNESS_PREFIXES.some((p) => line.startsWith(p));
// A spinner prefix opens with a frame character (after blanks the pattern may skip).
const mayBeSpinnerPrefix = (first: number, _line: string): boolean => frameOrWideSpace(first);

/**
 * Exported for the gate tests only: each per-line pattern with the test (first visible character, line) that must
 * pass for it to match; the patterns are compiled only in a process that meets such a line.
 */
export const LINE_PATTERNS = [
  { re: SPINNER_ONLY_RE, may: mayBeSpinnerOnly },
  { re: CURL_METER_RE, may: mayBeCurlMeter },
  { re: HARNESS_LINE_RE, may: mayBeHarnessLine },
  { re: SPINNER_PREFIX_RE, may: mayBeSpinnerPrefix },
] as const;

function isProgressLine(line: string, first: number): boolean {
  if (mayBeSpinnerOnly(first, line) && SPINNER_ONLY_RE.test(line)) return true;
  if (mayBeCurlMeter(first, line) && CURL_METER_RE.test(line)) return true;
  if (!line.includes('%') || !PERCENT_RE.test(line)) return false;
  return PERCENT_ONLY_RE.test(line) || BAR_RE.test(line);
}

/**
 * Anything a line rule above acts on: a carriage return, a percent sign, a spinner frame or non-ASCII space (which
 * trim() and the patterns' `\s` take too), a clock column of curl's meter, a Codex header, a lone | / \ - line.
 * A text holding none (most outputs) changes only by each line's trailing blanks and its blank edge lines
 * (test/guard/normalize-lines-gate.test.ts normalizes texts both ways).
 */
export const LINES_NEED_RULES = new RegExp(
  [
    String.raw`[\r%\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff\u2800-\u28ff\u25d0-\u25d3\u25f4-\u25f7]`,
    ...HARNESS_PREFIXES,
    String.raw`\d:\d\d:\d\d|--:--:--`,
    String.raw`(?:^|\n)[\t\v\f ]*[|/\\-][\t\v\f ]*(?:\n|$)`,
  ].join('|'),
);
// Each run of blanks is tried once, from its start (the lookbehind): `[^\S\n]+$` retried inside a long run of blanks
// that ends in a word, which took quadratic time.
const TRAILING_BLANKS = /(?<![^\S\n])[^\S\n]+(?=\n|$)/g;
// Most texts end no line in a blank, and this look costs a third of that replace.
const ANY_TRAILING_BLANK = /[^\S\n](?:\n|$)/;

export function normalizeLines(text: string): string {
  // Two passes of regular expressions instead of a walk per line, for the many texts no line rule touches.
  if (!LINES_NEED_RULES.test(text)) {
    const s = ANY_TRAILING_BLANK.test(text) ? text.replace(TRAILING_BLANKS, '') : text;
    let from = 0;
    let to = s.length;
    while (from < to && s.charCodeAt(from) === 10) from++;
    while (to > from && s.charCodeAt(to - 1) === 10) to--;
    return s.slice(from, to);
  }
  return linesOneByOne(text);
}

/** The line rules applied one line at a time: what normalizeLines does when a rule may act (exported for its test). */
export function linesOneByOne(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let line of lines) {
    let end = line.length;
    while (end > 0 && line.charCodeAt(end - 1) === 13) end--;
    if (end !== line.length) line = line.slice(0, end);
    const cr = line.lastIndexOf('\r');
    if (cr !== -1) line = line.slice(cr + 1);
    line = line.trimEnd();
    if (line.length === 0) {
      out.push(line);
      continue;
    }
    const first = firstVisible(line);
    if (isProgressLine(line, first) || (mayBeHarnessLine(first, line) && HARNESS_LINE_RE.test(line))) continue;
    out.push(mayBeSpinnerPrefix(first, line) ? line.replace(SPINNER_PREFIX_RE, '$1') : line);
  }
  let first = 0;
  let last = out.length;
  while (first < last && out[first] === '') first++;
  while (last > first && out[last - 1] === '') last--;
  return out.slice(first, last).join('\n');
}

/** The terminal and line rules, documented in the order they run. */
export const LINE_RULES: NormalizeRule[] = [
  {
    name: 'line-endings',
    description: 'CRLF line endings become LF, so Windows and Unix runs of one command compare equal.',
    example: { before: 'a\r\nb\r\n', after: 'a\nb' },
  },
  {
    name: 'ansi-osc',
    description:
      "OSC/DCS strings (hyperlinks \\e]8;;url\\a, window titles \\e]0;title\\a) are removed; a hyperlink's " +
      'visible text is kept.',
    example: { before: '\x1b]0;vitest\x07see \x1b]8;;https://x.dev/a\x07docs\x1b]8;;\x07', after: 'see docs' },
  },
  {
    name: 'ansi-csi',
    description:
      'CSI/SGR sequences (colours, cursor moves) and other escapes are removed; "erase line" and "cursor ' +
      'to column 1" count as a carriage return.',
    example: { before: '\x1b[31m\x1b[1mFAIL\x1b[22m\x1b[39m src/a.test.ts', after: 'FAIL src/a.test.ts' },
  },
  {
    name: 'control-chars',
    description:
      'Other control characters are removed (tab and newline stay); a character overstruck with backspace ' +
      'keeps only the second one.',
    example: { before: 'N\bNA\bAM\bME\x07\x00', after: 'NAME' },
  },
  {
    name: 'carriage-return',
    description:
      'Within a line only the text after the last carriage return is kept, as a terminal would show it; ' +
      'trailing carriage returns are ignored.',
    example: { before: 'Downloading 10%\rDownloading 55%\rDownloaded\r\n', after: 'Downloaded' },
  },
  {
    name: 'spinner',
    description:
      'Lines that are only spinner frames (braille ⠋⠙⠹, ◐◓, a lone | / - \\) are dropped; a leading ' +
      'spinner frame before text is removed.',
    example: { before: '⠋\n⠙ Installing dependencies\n|\ndone', after: 'Installing dependencies\ndone' },
  },
  {
    name: 'progress-bar',
    description:
      'Lines with a percentage and a bar ([=====>   ] 45%, 45%|████▌ |, ####>), only a percentage, or a ' +
      'curl transfer-meter row are dropped; "Coverage: 85%" stays.',
    example: {
      before:
        '[=====>    ] 45%\n 45%|████▌     | 45/100\n  99%\n100  1234  100  1234    0     0  56789      0 ' +
        '--:--:-- --:--:-- --:--:-- 56789\nCoverage: 85%',
      after: 'Coverage: 85%',
    },
  },
  {
    name: 'trailing-whitespace',
    description:
      'Trailing spaces and tabs are removed from every line; padding after the last word is layout, not content.',
    example: { before: 'ok   \n\tdone\t', after: 'ok\n\tdone' },
  },
  {
    name: 'blank-edges',
    description: 'Blank lines at the start and end are removed; blank lines in between stay.',
    example: { before: '\n\n  \nfirst\n\nsecond\n\n', after: 'first\n\nsecond' },
  },
  {
    name: 'codex-header',
    description:
      'Codex\'s exec header lines "Chunk ID: …", "Wall time: … seconds", "Original token count: N" are ' +
      'dropped; "Process exited with code N" stays.',
    example: {
      before:
        'Chunk ID: 7582b4\nWall time: 0.0000 seconds\nProcess exited with code 2\nOriginal token count: ' +
        "16\nOutput:\nls: cannot access '/nonexistent-dir': No such file or directory\n",
      after: "Process exited with code 2\nOutput:\nls: cannot access '/nonexistent-dir': No such file or directory",
    },
  },
];
