// The result fingerprint's normalization: strip what changes between identical runs, keep what a fix changes.
// Number-led patterns carry a lookbehind so a long digit or letter run is scanned once, not once per start position.
import { hasNeedle } from './needles.ts';
import { windowsRules } from './normalize-windows.ts';

/** The words that label an id: request, trace, span, build and correlation ids, in their usual spellings. */
const ID_LABEL = String.raw`(?:[Rr]equest(?:[ _-]?[Ii][Dd])?|REQUEST(?:[ _-]?ID)?|(?:[Rr]eq|[Tt]race|TRACE|[Ss]pan|SPAN|[Bb]uild|BUILD|[Cc]orrelation|CORRELATION)[ _-]?(?:[Ii][Dd]|ID))`;

export interface NormalizeRule {
  name: string;
  description: string;
  example: { before: string; after: string };
}

/** Whitespace-normalized command: trim, collapse every run of whitespace (incl. newlines) to one space. */
export function normalizeCommand(command: string): string {
  return command.trim().replace(/\s+/g, ' ');
}

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

function stripTerminal(text: string): string {
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

function normalizeLines(text: string): string {
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

// ---------------------------------------------------------------------------------------------------------------
// Token rules, applied in this order to the whole text

interface TokenRule extends NormalizeRule {
  re: RegExp;
  /** The replacement: a pattern string, or a function for a rule that reads its match (the temp paths). */
  to: string | ((match: string) => string);
  /**
   * A cheap test that is true whenever `re` could match, for what a list of substrings cannot say (a digit pattern);
   * tried after the needles. Rules whose pattern opens with a lookbehind are slow to scan.
   */
  gate?: (text: string) => boolean;
  /**
   * Substrings one of which every match of `re` contains (checked on the lower-cased text when `needlesIgnoreCase`):
   * a rule whose needles are all absent is skipped, so its regex is never run, nor compiled, in that process.
   */
  needles?: readonly string[];
  needlesIgnoreCase?: boolean;
  /** An id rule: skipped for a command whose result is an id or a hash (see `idsAreTheResult`). */
  idRule?: true;
  /**
   * Leave matches alone on a line that says what failed (an assertion's expected/received, a metric such as
   * `p95 latency 900ms`): there the value is the result, not noise. A match that opens the line (a log prefix) is
   * still noise.
   */
  keepOnMeaningLines?: boolean;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MON = `(?:${MONTHS.join('|')})`;
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
// Path body: stops at whitespace, quotes, brackets and ':' so a trailing :line:col survives.
const PATH_BODY = '[^\\s\'"`<>()\\[\\]{}:,;|]*';
const UNIT =
  '(?:[hm]|[ ]?(?:ms|us|\\u00b5s|\\u03bcs|ns|s|secs?|seconds?|mins?|minutes?|hrs?|hours?))(?![\\w\\u00b5\\u03bc])';
// Hours and minutes may lead a compound like "1h 2m 3s" or "0m0.004s"; the last part carries any unit.
const DURATION = `(?:\\d+[hm] ?(?=\\d))*\\d+(?:\\.\\d+)?${UNIT}`;

const EPOCH_GATE_RE = /1\d{9}/;

const isHex = (c: number): boolean => (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 102);
const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/**
 * True wherever the date rule can match, without a regex to compile: every match holds a month name or a digit,
 * "-" or "/", one or two digits, the same separator and two digits (2026-11-30, 11/30/2026, 1/5/2026). A path with a
 * digit before its slash (test/unit3/lexer.ts) ran the rule's pattern before.
 */
export function mayHaveDate(text: string): boolean {
  for (const sep of ['-', '/']) {
    const code = sep.charCodeAt(0);
    for (let p = text.indexOf(sep, 1); p !== -1; p = text.indexOf(sep, p + 1)) {
      if (!isDigit(text.charCodeAt(p - 1)) || !isDigit(text.charCodeAt(p + 1))) continue;
      const q =
        text.charCodeAt(p + 2) === code
          ? p + 2
          : isDigit(text.charCodeAt(p + 2)) && text.charCodeAt(p + 3) === code
            ? p + 3
            : -1;
      if (q !== -1 && isDigit(text.charCodeAt(q + 1)) && isDigit(text.charCodeAt(q + 2))) return true;
    }
  }
  return MONTHS.some((m) => text.includes(m));
}

/** True wherever the time-of-day rule can match: a digit, ":", two digits, ":" and a digit (02:40:33), without a
 * regex. */
export function mayHaveClock(text: string): boolean {
  for (let p = text.indexOf(':', 1); p !== -1; p = text.indexOf(':', p + 1)) {
    if (
      isDigit(text.charCodeAt(p - 1)) &&
      isDigit(text.charCodeAt(p + 1)) &&
      isDigit(text.charCodeAt(p + 2)) &&
      text.charCodeAt(p + 3) === 58 &&
      isDigit(text.charCodeAt(p + 4))
    )
      return true;
  }
  return false;
}

/**
 * Exactly `/[0-9a-f]{8}-[0-9a-f]{4}-/i.test(text)`, by jumping from dash to dash: that regex has no literal to search
 * for, so it is tried at every position and cost a twentieth of the audit's replay.
 */
export function mayHaveUuid(text: string): boolean {
  for (let p = text.indexOf('-', 8); p !== -1; p = text.indexOf('-', p + 1)) {
    if (p + 5 >= text.length) return false;
    if (text.charCodeAt(p + 5) !== 45) continue;
    let ok = true;
    for (let i = p - 8; ok && i < p; i++) ok = isHex(text.charCodeAt(i));
    for (let i = p + 1; ok && i < p + 5; i++) ok = isHex(text.charCodeAt(i));
    if (ok) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------------------------
// Temp paths: only the random segments go

// The temp root a matched path opens with; macOS's two per-user folders under /var/folders are random per machine.
const TEMP_ROOT_RE =
  /^(?:(?:\/private)?\/var\/folders\/[^/]+\/[^/]+(?:\/[TC](?=\/|$))?|(?:\/private)?\/(?:var\/)?tmp|[A-Za-z]:[\\/](?:[^\\/]+[\\/]){0,4}?Te?mp(?![\w.-])|%TE?MP%|\$\{?TMPDIR\}?|\$env:TE?MP)/i;
// A run made by mkdtemp/mktemp: 5+ letters and digits holding both, or both cases after its first character; or 3+
// digits (a pid).
const RANDOM_RUN_RE =
  /^(?:(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{5,40}|[A-Za-z][a-z]*[A-Z][A-Za-z]{3,39}|\d{3,20})$/;

/** One segment made just under the temp root, with each random run (between - _ .) shown as <rand>. */
function firstTempSegment(seg: string): string {
  // Python's tempfile: "tmp" and 8 characters of [a-z0-9_], perhaps with the suffix it was given.
  if (/^tmp[a-z0-9_]{8}(?:\.|$)/.test(seg) && /\d|_/.test(seg.slice(3, 11))) return `tmp<rand>${seg.slice(11)}`;
  return seg.replace(/[A-Za-z0-9]+/g, (run, at: number) =>
    // mktemp's "tmp.XXXXXXXXXX" and prefix-random forms: the first run of a segment is its name unless nothing precedes
    // a random run.
    (at > 0 || seg.length === run.length) && RANDOM_RUN_RE.test(run) ? '<rand>' : run,
  );
}

/** A temp path with its random segments replaced; everything else, the file name included, is kept. */
export function tempPath(path: string): string {
  const root = TEMP_ROOT_RE.exec(path);
  if (!root) return path;
  let head = root[0];
  if (/folders/i.test(head)) head = head.replace(/(folders[\\/])[^/]+\/[^/]+/i, '$1<rand>/<rand>');
  const rest = path.slice(root[0].length);
  if (rest === '') return head;
  const parts = rest.split(/([\\/])/);
  // parts: ['', sep, seg, sep, seg, ...]; the first real segment is the one a mkdtemp made.
  let first = true;
  for (let k = 0; k < parts.length; k++) {
    const seg = parts[k] as string;
    if (seg === '' || seg === '/' || seg === '\\') continue;
    if (first) {
      parts[k] = firstTempSegment(seg);
      first = false;
    } else if (/^pytest-\d+$/.test(seg)) parts[k] = 'pytest-<n>';
    else if (/^tmp\.[A-Za-z0-9]{6,}$/.test(seg)) parts[k] = 'tmp.<rand>';
  }
  return head + parts.join('');
}

let builtTokenRules: ReadonlyArray<TokenRule> | undefined;

/**
 * The token rules, built on first use: a pre or user-turn event never normalizes, so its hook process does not
 * create these ~30 patterns. Exported for the gate tests.
 */
export function tokenRules(): ReadonlyArray<TokenRule> {
  return (builtTokenRules ??= buildTokenRules());
}

function buildTokenRules(): TokenRule[] {
  return [
    {
      name: 'saved-output-path',
      description:
        'Where OpenCode and Claude Code saved an over-long output ("Full output saved to: <path>"); the file ' +
        'name is a fresh id every call.',
      example: {
        before:
          '...output truncated...\n\nFull output saved to: ' +
          '/home/dev/.local/share/opencode/tool-output/tool_bbde9601d001lV7EWFjkXjCnXF',
        after: '...output truncated...\n\nFull output saved to: <saved>',
      },
      re: /(Full output saved to:?[ \t]*)[^\n]+/g,
      to: '$1<saved>',
      needles: ['Full output saved to'],
    },
    {
      name: 'truncated-size',
      description:
        'The size in Claude Code\'s "Output too large (4.8MB)" note; noise elsewhere in the output moves it.',
      example: {
        before: 'Output too large (4.8MB). Full output saved to: x',
        after: 'Output too large (<size>). Full output saved to: <saved>',
      },
      re: /(Output too large \()[^)\n]{1,24}\)/g,
      to: '$1<size>)',
      needles: ['Output too large ('],
    },
    {
      name: 'truncated-count',
      description:
        'Counts in truncation markers: Claude Code "[12345 characters truncated]", OpenCode "...90 lines ' +
        'truncated...", Codex "…33930 tokens truncated…", "original token count: N", "Total output lines: N".',
      example: {
        before: 'head\n... [12345 characters truncated] ...\ntail',
        after: 'head\n... [<n> characters truncated] ...\ntail',
      },
      re: /(?<!\w)\+?\d+( (?:characters|chars|lines|bytes|tokens) truncated)|((?:original token count|Total output lines): )\d+/g,
      to: '$2<n>$1',
      needles: [' truncated', 'original token count: ', 'Total output lines: '],
    },
    {
      name: 'temp-path',
      description:
        'A path under a temp directory (/tmp, /var/tmp, /private/tmp, macOS /var/folders/…/T, Windows ' +
        '…\\AppData\\Local\\Temp and C:\\Windows\\Temp, %TEMP%, $TMPDIR) keeps everything but its random ' +
        'segments: the directory made just under the temp root (mkdtemp "vitest-a8Xk2", mktemp ' +
        '"tmp.AbC123xYz0", npm "npm-1234-5678", Python "tmpk3j2_x9q"), pytest\'s "pytest-N" and the two ' +
        'macOS per-user folders become <rand>/<n>. The file name, the rest of the path and a repository that ' +
        'lives under /tmp are kept.',
      example: {
        before:
          "Error: /tmp/vitest-a8Xk2/src/a.test.ts:12:5 failed\nENOENT: '/tmp/pytest-of-dev/pytest-7/test_load0/users.csv'",
        after:
          "Error: /tmp/vitest-<rand>/src/a.test.ts:12:5 failed\nENOENT: '/tmp/pytest-of-dev/pytest-<n>/test_load0/users.csv'",
      },
      re: new RegExp(
        [
          `(?<![\\w.~/-])(?:/private)?(?:/var/folders/|/(?:var/)?tmp(?![\\w.-]))${PATH_BODY}`,
          `(?<![\\w])[A-Za-z]:[\\\\/](?:(?:Users|Documents and ` +
            `Settings)[\\\\/][^\\\\/\\n'"<>|:*?]+[\\\\/](?:AppData[\\\\/]Local|Local ` +
            `Settings)|Windows)[\\\\/]Te?mp(?![\\w.-])${PATH_BODY}`,
          `(?:%TE?MP%|\\$\\{?TMPDIR\\}?|\\$env:TE?MP)(?![\\w])${PATH_BODY}`,
        ].join('|'),
        'gi',
      ),
      to: tempPath,
      // Every match holds one: "/tmp", a Windows "\\Temp", %TEMP%, $TMPDIR, $env:TMP (lower-cased). A bare "temp" ran
      // the rule's large pattern on every "attempt" and "template".
      needles: ['/tmp', '\\tmp', '/temp', '\\temp', '/var/folders/', '%tmp%', '%temp%', 'tmpdir', '$env:t'],
      needlesIgnoreCase: true,
    },
    {
      name: 'uuid',
      description: 'UUIDs of any version, any case.',
      example: { before: 'request 01A22A20-2246-7E30-8194-8565cb9bf97b failed', after: 'request <uuid> failed' },
      re: /(?<![0-9A-Za-z])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9A-Za-z])/gi,
      to: '<uuid>',
      gate: mayHaveUuid,
      idRule: true,
    },
    {
      name: 'seed',
      description:
        'Random seeds that test runners print when they shuffle: rspec "Randomized with seed 1234", ' +
        'pytest-randomly "--randomly-seed=N", jest "Seed: N", vitest "with seed N", "random seed: N". A seed ' +
        'anywhere else (an argument in an error) is kept.',
      example: {
        before: 'Randomized with seed 1234\nUsing --randomly-seed=3141863\nSeed:        -1795830470',
        after: 'Randomized with seed <seed>\nUsing --randomly-seed=<seed>\nSeed:        <seed>',
      },
      re: /(Randomized with seed |--randomly-seed=|^Seed:[ \t]+|[Rr]unning tests with seed "?|[Rr]andom seed:? )-?\d+/gm,
      to: '$1<seed>',
      needles: ['seed'],
      needlesIgnoreCase: true,
    },
    {
      name: 'container-id',
      description:
        'Docker container ids (12 or 64 hex digits) after the word "container"; image digests and git SHAs are kept.',
      example: { before: 'container 3f9a1c2b7d4e started', after: 'container <id> started' },
      re: /(\b[Cc]ontainer[ \t:]+)[0-9a-f]{12}(?:[0-9a-f]{52})?(?![0-9A-Za-z])/g,
      to: '$1<id>',
      needles: ['ontainer'],
      idRule: true,
    },
    {
      name: 'request-id',
      description:
        'Request, trace, span, build and correlation ids: a token of 8+ letters, digits, "_" or "-" with a ' +
        'digit in it, right after "request", "request id", "x-request-id:", "req_id=", "trace_id=", ' +
        '"span_id=", "Build ID:", "correlation-id". Words after them ("request from 10.0.0.5", "Request ' +
        'failed") are kept.',
      example: {
        before: '[x] request 9f1c2ab8-1a2f POST /api/login -> 500; trace_id=4bf92f3577b34da6',
        after: '[x] request <id> POST /api/login -> 500; trace_id=<id>',
      },
      re: new RegExp(String.raw`(\b${ID_LABEL}["']?[ \t]*[:=]?[ \t]*["']?)(?=[\w-]{0,80}\d)[A-Za-z0-9][\w-]{7,}`, 'g'),
      to: '$1<id>',
      needles: [
        'request',
        'reqid',
        'req id',
        'req_id',
        'req-id',
        'traceid',
        'trace id',
        'trace_id',
        'trace-id',
        'spanid',
        'span id',
        'span_id',
        'span-id',
        'buildid',
        'build id',
        'build_id',
        'build-id',
        'correlation',
      ],
      needlesIgnoreCase: true,
      idRule: true,
    },
    {
      name: 'docker-endpoint',
      description:
        'The 64-hex endpoint id Docker prints when it cannot publish a port ("on endpoint app-web-1 ' +
        '(<id>)"): a new one each `compose up`, the same failure.',
      example: {
        before:
          'driver failed programming external connectivity on endpoint app-web-1 ' +
          '(3f9a1c2b7d4e5f60718293a4b5c6d7e8f90123456789abcdef0123456789abcd): Bind for 0.0.0.0:3000 failed: ' +
          'port is already allocated',
        after:
          'driver failed programming external connectivity on endpoint app-web-1 (<id>): Bind for 0.0.0.0:3000 ' +
          'failed: port is already allocated',
      },
      re: /(\bendpoint [\w.-]{1,200} \()[0-9a-f]{64}(?=\))/g,
      to: '$1<id>',
      needles: ['endpoint '],
      idRule: true,
    },
    {
      name: 'docker-build-step',
      description:
        'The classic Docker builder\'s per-step ids: "---> Running in <12 hex>" (a new container each build) ' +
        'and the " ---> <12 hex>" layer id a step ends with.',
      example: {
        before: 'Step 3/5 : RUN npm ci\n ---> Running in 8d2f1a3b4c5e\nnpm error code ERESOLVE\n ---> 1c2d3e4f5a6b',
        after: 'Step 3/5 : RUN npm ci\n ---> Running in <id>\nnpm error code ERESOLVE\n ---> <id>',
      },
      re: /^( *---> (?:Running in )?)[0-9a-f]{12}$/gm,
      to: '$1<id>',
      needles: ['--->'],
      idRule: true,
    },
    {
      name: 'build-progress-digest',
      description:
        'Digests on BuildKit progress lines ("#7 writing image sha256:…", "=> => naming … sha256:…", "#5 ' +
        'sha256:… 12.3MB / 45.1MB"): the build reports them as it goes. A digest on any other line (docker ' +
        'pull\'s "Digest:", `sha256sum`) is kept.',
      example: {
        before:
          '#7 writing image sha256:4bf92f3577b34da6a3ce929d0e0e4736aa0e1d8b2f3c4d5e6f7a8b9c0d1e2f3a ' +
          'done\nDigest: sha256:0123456789abcdef',
        after: '#7 writing image sha256:<digest> done\nDigest: sha256:0123456789abcdef',
      },
      re: /^((?:#\d+ |\s*=> )[^\n]{0,200}?sha256:)[0-9a-f]{12,64}(?![0-9a-f])/gm,
      to: '$1<digest>',
      needles: ['sha256:'],
      idRule: true,
    },
    {
      name: 'ulid',
      description: 'ULIDs: 26 Crockford base32 characters, first one 0-7.',
      example: { before: 'job 01KBC7Z3QW9X8Y7V6T5S4R3P2N queued', after: 'job <ulid> queued' },
      re: /(?<![0-9A-Za-z])[0-7][0-9A-HJKMNP-TV-Z]{25}(?![0-9A-Za-z])/gi,
      to: '<ulid>',
    },
    {
      name: 'iso-datetime',
      description:
        'ISO 8601 date-times with optional seconds, fraction and offset, also the file-name form with "_" or ' +
        '"-" between the time fields (npm\'s 2026-11-30T02_40_33_123Z-debug-0.log).',
      example: {
        before: '[2026-11-30T02:40:33.123Z] start; log in ~/.npm/_logs/2026-11-30T02_40_33_123Z-debug-0.log',
        after: '[<time>] start; log in ~/.npm/_logs/<time>-debug-0.log',
      },
      re: /(?<!\d)\d{4}-\d{2}-\d{2}[T ]\d{2}([:_-])\d{2}(?:\1\d{2})?(?:[.,_]\d{1,9})?(?:Z|[+-]\d{2}(?::?\d{2})?)?(?!\d)/g,
      to: '<time>',
      needles: ['-'],
      keepOnMeaningLines: true,
    },
    {
      name: 'rfc2822',
      description: 'RFC 2822 / HTTP dates: "Mon, 30 Nov 2026 02:40:33 +0000".',
      example: { before: 'Date: Mon, 30 Nov 2026 02:40:33 +0000', after: 'Date: <time>' },
      re: new RegExp(
        `(?:${DAY}, )?(?<!\\d)\\d{1,2} ${MON} \\d{4} \\d{2}:\\d{2}(?::\\d{2})?(?: (?:[+-]\\d{4}|[A-Z]{1,5}))?`,
        'g',
      ),
      to: '<time>',
      needles: MONTHS,
      keepOnMeaningLines: true,
    },
    {
      name: 'ctime',
      description:
        'syslog, date(1), git, ls -l and JS Date.toString forms: "Nov 30 02:40:33", "Mon Nov 30 02:40:33 UTC ' +
        '2026", "Nov 30 02:40", "Mon Nov 30 2026 02:40:33 GMT+0000 (…)".',
      example: { before: 'Nov 30 02:40:33 box sshd[4242]: ok', after: '<time> box sshd[<pid>]: ok' },
      re: new RegExp(
        `(?:${DAY} )?${MON} +\\d{1,2}(?: \\d{4})? \\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?!\\d)(?: ` +
          `(?:GMT|UTC)?[+-]\\d{4}(?: \\([^)\\n]{1,60}\\))?| [A-Z]{2,5}(?![\\w]))?(?: \\d{4}(?!\\d))?(?: ` +
          `[+-]\\d{4})?`,
        'g',
      ),
      to: '<time>',
      needles: MONTHS,
      keepOnMeaningLines: true,
    },
    {
      name: 'date',
      description:
        'Calendar dates: 2026-11-30, 2026/11/30, 11/30/2026, "30 Nov 2026", "Nov 30, 2026", ls -l "Nov 30  ' +
        '2025". Dotted forms are left alone (calendar versions).',
      example: { before: 'backup-2026-11-30.tar written 2026/11/30', after: 'backup-<date>.tar written <date>' },
      re: new RegExp(
        `(?<!\\d)(?:\\d{4}([-/])\\d{2}\\1\\d{2}|\\d{1,2}/\\d{1,2}/\\d{4}|\\d{1,2} ${MON} \\d{4})(?!\\d)|(?:` +
          `${DAY},? )?${MON} +\\d{1,2},? +\\d{4}(?!\\d)`,
        'g',
      ),
      to: '<date>',
      // A digit-separated date or a month name (mayHaveDate): a path's slashes, even after a digit, do not run it.
      gate: mayHaveDate,
      keepOnMeaningLines: true,
    },
    {
      name: 'time-of-day',
      description:
        'Clock times H:MM:SS with optional fraction and AM/PM. H:MM alone is kept: it is indistinguishable from line:col.',
      example: { before: 'Start at  02:40:33\n[9:05:01.250 PM] ready', after: 'Start at  <time>\n[<time>] ready' },
      re: /(?<![\w:.])\d{1,2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?: ?[AaPp][Mm](?![A-Za-z]))?(?!\d)/g,
      to: '<time>',
      gate: mayHaveClock,
      keepOnMeaningLines: true,
    },
    {
      name: 'epoch',
      description: 'Epoch seconds or milliseconds in an obvious field: "time":1764470433123, ts=1764470433.',
      example: {
        before: '{"level":50,"time":1764470433123,"msg":"boom"}',
        after: '{"level":50,"time":<epoch>,"msg":"boom"}',
      },
      re: /\b(timestamp|time|ts|epoch|startTime|endTime)(["']?[ \t]*[:=][ \t]*["']?)1\d{9}(?:\d{3})?(?![\d.])/g,
      to: '$1$2<epoch>',
      needles: ['time', 'Time', 'ts', 'epoch'],
      // Ten digits opening with 1 are in every match; "ts" alone is in every .ts file name.
      gate: (text) => EPOCH_GATE_RE.test(text),
    },
    {
      name: 'rate',
      description: 'Transfer and iteration rates: "3.4 MiB/s", "120 kB/s", "45.00it/s".',
      example: {
        before: 'Writing objects: 100% (3/3), 1.2 KiB | 1.21 MiB/s, done.',
        after: 'Writing objects: 100% (3/3), 1.2 KiB | <rate>, done.',
      },
      re: /(?<![\w.])\d+(?:\.\d+)? ?(?:(?:[kKMGT]i?)?B\/s|it\/s|s\/it)(?![A-Za-z])/g,
      to: '<rate>',
      needles: ['/s', 's/it'],
    },
    {
      name: 'buildkit-elapsed',
      description: 'The elapsed-seconds column of docker BuildKit plain progress ("#5 0.512 npm warn …").',
      example: {
        before: '#5 [2/4] RUN npm ci\n#5 0.512 npm warn deprecated\n#5 DONE 12.3s',
        after: '#5 [2/4] RUN npm ci\n#5 <dur> npm warn deprecated\n#5 DONE <dur>',
      },
      re: /^(#\d+ )\d+\.\d+(?= )/gm,
      to: '$1<dur>',
      needles: ['#'],
    },
    {
      name: 'duration',
      description:
        'Durations, also compound: 1.23s, 45ms, 2.3 s, (123 ms), 2.5 sec, 0.12 seconds, 1m 2s, 0m0.004s, 1h ' +
        '2m, µs/us/ns. A number without a time unit (3 tests, line 42, exit code 2, v20.1.2) is kept.',
      example: {
        before: 'Duration  1.52s (transform 20ms, setup 0ms, tests 5ms)\nreal\t0m0.004s\n3 tests, took 3m 2s',
        after: 'Duration  <dur> (transform <dur>, setup <dur>, tests <dur>)\nreal\t<dur>\n3 tests, took <dur>',
      },
      re: new RegExp(`(?<![\\w.])${DURATION}`, 'g'),
      to: '<dur>',
      keepOnMeaningLines: true,
    },
    {
      name: 'hex-address',
      description:
        'Memory addresses: 0x followed by 6+ hex digits (stack frames, object reprs), and Java identity ' +
        'hashes (Foo@1b6d3586). A "caller address 0x…" names what failed and is kept; other bare hex (git ' +
        'SHAs, hashes) is kept: a changed commit is a real change.',
      example: {
        before: '<Foo object at 0x7f3a2c1b9e50>; expected: Foo@1b6d3586; commit 1a2b3c4d',
        after: '<Foo object at <hex>>; expected: Foo@<hex>; commit 1a2b3c4d',
      },
      re: /(?<![\w])(?<!\bcaller (?:address )?)0x[0-9a-f]{6,}(?![\w])|(?<=[\w$]@)(?=[a-f]*\d)[0-9a-f]{6,8}(?![\w.@-])/gi,
      to: '<hex>',
      needles: ['0x', '@'],
      needlesIgnoreCase: true,
    },
    {
      name: 'pid',
      description:
        'Process ids: "pid 12345", "PID: 12345", "pid=12345", JSON "pid":12345, "process 12345", ' +
        '"(node:12345)", and "name[12345]:" log prefixes (3+ digits, so an index like items[2]: stays).',
      example: {
        before: '(node:48213) Warning: x\nnode[48213]: listening (pid 48213)',
        after: '(node:<pid>) Warning: x\nnode[<pid>]: listening (pid <pid>)',
      },
      re: /(?<![\w])(pid|PID|Pid)(["']?[ \t]*(?:[:=#][ \t]*)?)\d+(?!\d)|(?<![\w])([Pp]rocess[ \t]+)\d{3,}(?!\d)|(\((?:node|bun|deno|electron):)\d+(?=\))|(?<=[A-Za-z0-9_)-]\[)\d{3,}(?=\]:)/g,
      to: '$1$2$3$4<pid>',
      needles: ['pid', 'process', '(node:', '(bun:', '(deno:', '(electron:', ']:'],
      needlesIgnoreCase: true,
    },
    {
      name: 'loopback-port',
      description:
        'Ephemeral ports (5 digits, 10000+) on loopback hosts (localhost, 127.0.0.1, 0.0.0.0, [::1], [::]) ' +
        'after ":" or curl\'s " port ". Lower ports (:3000, :8080) are kept: they are configured, not random.',
      example: {
        before:
          'Listening on http://localhost:53211 and 127.0.0.1:3000\ncurl: (7) Failed to connect to 127.0.0.1 port 49152 after 0 ms',
        after:
          'Listening on http://localhost:<port> and 127.0.0.1:3000\ncurl: (7) Failed to connect to 127.0.0.1 ' +
          'port <port> after <dur>',
      },
      re: /(?<![\w.-])(localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1?\])(:| port )\d{5}(?!\d)/gi,
      to: '$1$2<port>',
      needles: ['localhost', '127.0.0.1', '0.0.0.0', '[::'],
      needlesIgnoreCase: true,
    },
    {
      name: 'pytest-progress',
      description:
        'The running percentage after a pytest file line ("tests/test_a.py ..F [ 50%]"): it depends on the ' +
        'order files ran in, not on their results.',
      example: {
        before: 'tests/test_b.py ..F  [ 50%]\ntests/test_a.py ....  [100%]',
        after: 'tests/test_a.py ....\ntests/test_b.py ..F',
      },
      re: /^([\w./-]+\.py [.FEsxX]+) +\[ *\d+%\]$/gm,
      to: '$1',
      needles: ['%]'],
    },
    {
      name: 'rule-line',
      description:
        'Runs of 4 or more of one rule character (= - _ ~ * ─ ━ ═ ⎯) shorten to 3: pytest and others pad ' +
        'centred banners to the terminal width around volatile text.',
      example: {
        before: '======================== 1 failed, 2 passed in 0.12s =========================',
        after: '=== 1 failed, 2 passed in <dur> ===',
      },
      re: /([=\-_~*\u2500\u2501\u2550\u23af])\1{3,}/g,
      to: '$1$1$1',
      needles: [
        '====',
        '----',
        '____',
        '~~~~',
        '****',
        '\u2500\u2500\u2500\u2500',
        '\u2501\u2501\u2501\u2501',
        '\u2550\u2550\u2550\u2550',
        '\u23af\u23af\u23af\u23af',
      ],
    },
    ...windowsRules(),
  ];
}

// A line that says what failed: an assertion's values or a measured metric. Time-like values there are the result.
const MEANING_LINE_RE =
  /\b(?:expected|received|actual|assert\w*|to(?:Be|Equal)\w*|to (?:be|equal)|p(?:50|75|90|95|99|999)|latency|throughput|budget|threshold)\b/i;
// Lower-case substrings one of which every meaning line contains: without one, the plain (faster) replacement runs.
const MEANING_NEEDLES = [
  'expect',
  'receiv',
  'actual',
  'assert',
  'tobe',
  'toequal',
  'to be',
  'to equal',
  'p50',
  'p75',
  'p90',
  'p95',
  'p99',
  'latency',
  'throughput',
  'budget',
  'threshold',
];
// What may precede a log-line timestamp at the start of a line: it stays noise even on a meaning line.
const LINE_PREFIX_RE = /^[\s[(]*$/;

/** A replacer that keeps a match on a meaning line unless it opens the line. */
function meaningAware(to: string): (match: string, ...rest: unknown[]) => string {
  let lineStart = -1;
  let meaning = false;
  let of = '';
  return (match, ...rest) => {
    const offset = rest[rest.length - 2] as number;
    const text = rest[rest.length - 1] as string;
    const start = text.lastIndexOf('\n', offset - 1) + 1;
    if (start !== lineStart || of !== text) {
      let end = text.indexOf('\n', offset);
      if (end === -1) end = text.length;
      lineStart = start;
      of = text;
      meaning = MEANING_LINE_RE.test(text.slice(start, end));
    }
    if (!meaning || LINE_PREFIX_RE.test(text.slice(start, offset))) return to;
    return match;
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Order of independent test-file blocks

// A per-file result line: vitest " ✓ src/a.test.ts (4 tests) 12ms", jest "PASS src/a.test.js", pytest "tests/test_a.py
// ..F [ 50%]".
const FILE_HEAD_RE =
  /^(\s*)(?:(?:[\u2713\u2714\u276f\u00d7\u2717\u2718\u2193]|PASS|FAIL)\s+[\w./@-]+\.\w+(?:\s|$)|[\w./-]+\.py [.FEsxX]+$)/;
const FILE_HEAD_NEEDLES = [
  '\u2713',
  '\u2714',
  '\u276f',
  '\u00d7',
  '\u2717',
  '\u2718',
  '\u2193',
  'PASS',
  'FAIL',
  '.py ',
];

const HEAD_MARKS = new Set([0x2713, 0x2714, 0x276f, 0xd7, 0x2717, 0x2718, 0x2193, 0x50 /* P */, 0x46 /* F */]);

/** A cheap first look, so the head pattern runs only on lines that can be one. */
function maybeFileHead(line: string): boolean {
  let i = 0;
  while (i < line.length && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
  return HEAD_MARKS.has(line.charCodeAt(i)) || line.includes('.py ');
}

/**
 * Runs of consecutive per-file blocks (a file's result line and the more-indented lines under it) in a fixed order:
 * runners that work in parallel print files in the order they finish, which changes between identical runs.
 */
export function sortFileBlocks(text: string): string {
  if (!FILE_HEAD_NEEDLES.some((n) => text.includes(n))) return text;
  const lines = text.split('\n');
  const out: string[] = [];
  let run: string[][] = [];
  let runIndent = -1;
  const flush = (): void => {
    if (run.length > 1) {
      // Each block's text, joined once, is what is sorted and written: the output is joined with "\n" anyway, and the
      // default sort (UTF-16 code units, as `<` compares) runs about twice as fast as one with a comparator.
      const texts = run.map((block) => block.join('\n'));
      texts.sort();
      for (const text of texts) out.push(text);
    } else for (const block of run) out.push(...block);
    run = [];
    runIndent = -1;
  };
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k] as string;
    const head = maybeFileHead(line) ? FILE_HEAD_RE.exec(line) : null;
    if (head && (runIndent === -1 || head[1]!.length === runIndent)) {
      runIndent = head[1]!.length;
      const block = [line];
      // The lines under a file's result line are indented deeper; blank lines belong to it when deeper lines follow.
      while (k + 1 < lines.length) {
        const nextLine = lines[k + 1] as string;
        const indent = nextLine.length - nextLine.trimStart().length;
        if (nextLine.trim() !== '' && indent > runIndent) {
          block.push(nextLine);
          k++;
          continue;
        }
        if (nextLine.trim() === '') {
          let m = k + 1;
          while (m < lines.length && (lines[m] as string).trim() === '') m++;
          const after = lines[m];
          if (after !== undefined && after.length - after.trimStart().length > runIndent && !FILE_HEAD_RE.test(after)) {
            block.push(...lines.slice(k + 1, m));
            k = m - 1;
            continue;
          }
        }
        break;
      }
      run.push(block);
      continue;
    }
    flush();
    out.push(line);
  }
  flush();
  return out.join('\n');
}

// Commands whose printed ids and hashes are the result itself: a new one means something changed (or is what was
// asked).
const GIT_ID_VERBS =
  'rev-parse|rev-list|log|show|hash-object|describe|cat-file|ls-tree|write-tree|commit-tree|stash\\s+create';
const DOCKER_ID_VERBS = String.raw`inspect|images\s+-q|ps\s+-q|run\s+(?:\S+\s+){0,8}?-d|create|build\s+-q`;
const HASH_TOOLS = String.raw`(?:sha\d*|md5|b2|b3|xxh\d*|sm3)sum|shasum|md5|cksum|openssl\s+dgst|uuidgen`;
const IDS_ARE_RESULT_RE = new RegExp(
  String.raw`(?:^|[;&|(\n])\s*(?:git\s+(?:-C\s+\S+\s+)?(?:${GIT_ID_VERBS})|${HASH_TOOLS}|docker\s+(?:${DOCKER_ID_VERBS}))\b`,
);

/** True when `command`'s output ids are its result (git rev-parse, git log, sha256sum, uuidgen, docker run -d): the id
 * rules are skipped. */
export function idsAreTheResult(command: string | undefined): boolean {
  return command !== undefined && IDS_ARE_RESULT_RE.test(command);
}

/**
 * The result text with everything removed that changes between identical runs. `opts.command`, when given, decides
 * whether ids and hashes are noise (most commands) or the result (idsAreTheResult). `opts.fired` collects the names
 * of the rules that changed the text (the judgment benchmark's count; the hook never passes it).
 */
export function normalizeOutput(text: string, opts?: { command?: string; fired?: string[] }): string {
  if (!text) return '';
  // Asked only when an id rule could match (its needles are there): most results never run the command's regex.
  let keepIds: boolean | undefined;
  const fired = opts?.fired;
  let s = text.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text;
  if (fired && s !== text) fired.push('line-endings');
  const raw = s;
  s = stripTerminal(s);
  if (fired && s !== raw) fired.push('terminal');
  const stripped = s;
  s = normalizeLines(s);
  if (fired && s !== stripped) fired.push('lines');
  let lower: string | undefined;
  let lowerOf: string | undefined;
  let meaning: boolean | undefined;
  let lastNeedles: readonly string[] | undefined;
  let lastHay: string | undefined;
  let lastFound = false;
  for (const rule of tokenRules()) {
    if (rule.needles) {
      // The lower-cased copy is made at most once per distinct text, and only if a rule asks for it.
      if (rule.needlesIgnoreCase && lowerOf !== s) (lower = s.toLowerCase()), (lowerOf = s);
      const hay = rule.needlesIgnoreCase ? (lower as string) : s;
      // Rules that share a needle list (the three month rules) share the answer for one text.
      if (rule.needles !== lastNeedles || hay !== lastHay) {
        lastFound = hasNeedle(hay, rule.needles);
        lastNeedles = rule.needles;
        lastHay = hay;
      }
      if (!lastFound) continue;
    }
    if (rule.gate && !rule.gate(s)) continue;
    if (rule.idRule && (keepIds ??= idsAreTheResult(opts?.command))) continue;
    if (rule.keepOnMeaningLines && meaning === undefined) {
      if (lowerOf !== s) (lower = s.toLowerCase()), (lowerOf = s);
      const hay = lower as string;
      meaning = MEANING_NEEDLES.some((n) => hay.includes(n)) && MEANING_LINE_RE.test(s);
    }
    const to = rule.to;
    const before = s;
    s =
      typeof to === 'function'
        ? s.replace(rule.re, to)
        : rule.keepOnMeaningLines && meaning
          ? s.replace(rule.re, meaningAware(to))
          : s.replace(rule.re, to);
    if (fired && s !== before) fired.push(rule.name);
  }
  if (!fired) return sortFileBlocks(s);
  const sorted = sortFileBlocks(s);
  if (sorted !== s) fired.push('test-file-order');
  return sorted;
}

const LINE_RULES: NormalizeRule[] = [
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

// Rules that are not one regex: the meaning-line exception of the time rules, and the order of file blocks.
const CONTEXT_RULES: NormalizeRule[] = [
  {
    name: 'meaning-lines',
    description:
      'Dates, clock times and durations on a line that says what failed (expected/received/actual/assert…, ' +
      'toBe/toEqual, p50–p999, latency, throughput, budget, threshold) are kept: there they are the ' +
      'result. A timestamp that opens the line (a log prefix) is still removed.',
    example: {
      before:
        "→ expected '2024-03-10T00:00:00Z' to be '2024-03-10T01:00:00Z'\n  p95 latency " +
        '900ms\n[2026-11-30T12:01:11Z] expected 3 to be 4\n   Duration  1.52s',
      after:
        "→ expected '2024-03-10T00:00:00Z' to be '2024-03-10T01:00:00Z'\n  p95 latency 900ms\n[<time>] " +
        'expected 3 to be 4\n   Duration  <dur>',
    },
  },
  {
    name: 'test-file-order',
    description:
      'Runs of per-file result blocks (vitest "✓/❯/× file", jest "PASS/FAIL file", pytest "file.py ..F [ ' +
      '50%]", each with its more-indented lines) are put in a fixed order: parallel runners print files as ' +
      'they finish.',
    example: {
      before:
        ' ❯ src/c.test.ts (2 tests | 1 failed) 14ms\n   × c > adds\n ✓ src/a.test.ts (4 tests) 12ms\n\n Test ' +
        'Files  1 failed | 1 passed (2)',
      after:
        ' ✓ src/a.test.ts (4 tests) <dur>\n ❯ src/c.test.ts (2 tests | 1 failed) <dur>\n   × c > adds\n\n ' +
        'Test Files  1 failed | 1 passed (2)',
    },
  },
];

/** The rules as data, for docs and tests: name, what it matches, one example before/after (built when asked for). */
export function normalizeRules(): ReadonlyArray<NormalizeRule> {
  return Object.freeze(
    [...LINE_RULES, ...tokenRules(), ...CONTEXT_RULES].map(({ name, description, example }) =>
      Object.freeze({ name, description, example: Object.freeze({ ...example }) }),
    ),
  );
}
