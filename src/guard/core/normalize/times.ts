// Dates, times, durations and rates, and the lines where they are the result.
import type { NormalizeRule, TokenRule } from './rule.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MON = `(?:${MONTHS.join('|')})`;
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const UNIT =
  '(?:[hm]|[ ]?(?:ms|us|\\u00b5s|\\u03bcs|ns|s|secs?|seconds?|mins?|minutes?|hrs?|hours?))(?![\\w\\u00b5\\u03bc])';
// Hours and minutes may lead a compound like "1h 2m 3s" or "0m0.004s"; the last part carries any unit.
const DURATION = `(?:\\d+[hm] ?(?=\\d))*\\d+(?:\\.\\d+)?${UNIT}`;

const EPOCH_GATE_RE = /1\d{9}/;

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

/** The date and time rules, then rates and durations. */
export function timeRules(): TokenRule[] {
  return [
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
  ];
}

// A line that says what failed: an assertion's values or a measured metric. Time-like values there are the result.
export const MEANING_LINE_RE =
  /\b(?:expected|received|actual|assert\w*|to(?:Be|Equal)\w*|to (?:be|equal)|p(?:50|75|90|95|99|999)|latency|throughput|budget|threshold)\b/i;
// Lower-case substrings one of which every meaning line contains: without one, the plain (faster) replacement runs.
export const MEANING_NEEDLES = [
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
export function meaningAware(to: string): (match: string, ...rest: unknown[]) => string {
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

/** The meaning-line exception of the time rules, documented (it is no regex of its own). */
export const MEANING_LINES_RULE: NormalizeRule = {
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
};
