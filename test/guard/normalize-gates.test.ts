// The needle gates may only skip a rule when its regex could not have matched: a wrong needle would silently
// change fingerprints, so every gated rule is checked against its own example and against generated text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLASS_NEEDLES } from '../../src/guard/core/classify.ts';
import { firstVisible, LINE_PATTERNS, mayHaveUuid, tokenRules } from '../../src/guard/core/normalize.ts';
import { hasNeedle, needlePattern, SEARCHES_BEFORE_PATTERNS } from '../../src/guard/core/needles.ts';

const TOKEN_RULES = tokenRules();

const gated = TOKEN_RULES.filter((r) => r.needles);

function needlePresent(rule: (typeof TOKEN_RULES)[number], text: string): boolean {
  const hay = rule.needlesIgnoreCase ? text.toLowerCase() : text;
  return (rule.needles ?? []).some((n) => hay.includes(n));
}

function matches(rule: (typeof TOKEN_RULES)[number], text: string): boolean {
  return new RegExp(rule.re.source, rule.re.flags.replace('g', '')).test(text);
}

// Fragments of the things the rules look for, in odd cases and joins, so generated text often matches some rule.
const FRAGMENTS = [
  '/tmp/x',
  '/TMP/a',
  'C:\\Users\\me\\AppData\\Local\\Temp\\f',
  '%TEMP%',
  '$TMPDIR',
  '$env:TMP',
  '/var/folders/ab/',
  '2026-11-30T02:40:33Z',
  '2026_11',
  'Mon, 30 Nov 2026 02:40:33 +0000',
  'Nov 30 02:40:33',
  '11/30/2026',
  '30 Nov 2026',
  '02:40:33',
  '9:05:01.250 PM',
  '"time":1764470433123',
  'ts=1764470433',
  'startTime=1764470433',
  '1.2 MiB/s',
  '45.00it/s',
  '2 s/it',
  '#5 0.512 ',
  '0x7f3a2c1b9e50',
  '0X7F3A2C1B9E50',
  'Foo@1b6d3586',
  'pid 12345',
  'PID: 9',
  'Process 4242',
  '(node:48213)',
  'sshd[4242]:',
  'localhost:53211',
  'LOCALHOST:53211',
  '[::1]:49152',
  '127.0.0.1 port 49152',
  '=====',
  '----',
  '\u2500\u2500\u2500\u2500',
  '\u23af\u23af\u23af\u23af',
  '[12345 characters truncated]',
  'original token count: 5',
  'Total output lines: 9',
  'Full output saved to: /x/y',
  'Output too large (4.8MB)',
  'Randomized with seed 12',
  '--randomly-seed=3',
  'Seed: 5',
  'container 3f9a1c2b7d4e',
  'request 9f1c2ab8-1a2f',
  'Trace_ID=ab12cd34ef',
  'x-request-id: 7d2f9c1e4b8a',
  'Correlation-Id: 12345678',
  'tests/t.py ..F [ 50%]',
  '%]',
  '01A22A20-2246-7E30-8194-8565cb9bf97b',
  ' ',
  '\n',
  ':',
  '-',
  '/',
  '\\',
  'a',
  'Z',
  '7',
  '@',
  '#',
  '.',
  '\u212a',
  '\u0130',
  'attempt',
  'template',
  'c:\\windows\\tmp\\f',
  'D:/Windows/TEMP/x',
  '${TMPDIR}',
  '$ENV:TEMP',
  '%tmp%',
  '/private/var/tmp',
  '1/5/2026',
  '2026/11/30',
  '12:5',
  '1:02:03',
  '12:34:5',
  'Jan',
  '3-4-56',
  '07/08/09',
];

describe('normalization needle gates', () => {
  it('every gated rule has needles that its own example contains', () => {
    expect(gated.length).toBeGreaterThan(5);
    for (const rule of gated) {
      if (matches(rule, rule.example.before))
        expect({ rule: rule.name, ok: needlePresent(rule, rule.example.before) }).toEqual({
          rule: rule.name,
          ok: true,
        });
    }
  });

  it('never skips a rule whose regex would match (generated text)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        for (const rule of gated) if (matches(rule, text) && !needlePresent(rule, text)) return false;
        return true;
      }),
      { numRuns: 3000 },
    );
  });
});

describe('per-line first-character gates', () => {
  // A line pattern is skipped when the line's first visible character could not open a match; a wrong gate would
  // keep a progress line or a Codex header in the fingerprint.
  const LINE_FRAGMENTS = [
    ' ',
    '\t',
    '\u00a0',
    '\u3000',
    '\u2800',
    '\u280b',
    '\u25d0',
    '\u25f7',
    '|',
    '/',
    '\\',
    '-',
    '100',
    '12',
    '0',
    '1234',
    '5.2k',
    '56789',
    '--:--:--',
    '0:00:01',
    'Chunk ID: 7582b4',
    'Wall time: 0.5 seconds',
    'Original token count: 16',
    'Installing',
    'x',
    '%',
    '\u2713',
    '\u00d7',
    '\u276f',
    '\u25d3',
    '\u25f4',
    '\u2007',
    '\u202f',
    '\ufeff',
    '\u1680',
    '40|',
    ':',
    '12:00:01',
    'Chunk',
    'ID:',
    'Wall',
  ];
  it('never skips a pattern that would match (generated lines)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...LINE_FRAGMENTS), { minLength: 1, maxLength: 16 }),
        fc.constantFrom('', ' ', '  '),
        (parts, sep) => {
          const line = parts.join(sep);
          for (const { re, may } of LINE_PATTERNS)
            if (re.test(line))
              expect({ line, re: re.source, may: may(firstVisible(line), line) }).toEqual({
                line,
                re: re.source,
                may: true,
              });
        },
      ),
      { numRuns: 4000 },
    );
  });

  it('each pattern still matches its own kind of line', () => {
    const samples = [
      '  \u280b  ',
      '|',
      '\u280b Installing deps',
      '100  1234  100  1234    0     0  56789      0 --:--:-- --:--:-- --:--:-- 56789',
      'Wall time: 0.0000 seconds',
    ];
    for (const line of samples)
      expect(LINE_PATTERNS.some(({ re, may }) => may(firstVisible(line), line) && re.test(line))).toBe(true);
  });
});

describe('single-scan gates equal the checks they replace', () => {
  const UUID_GATE_RE = /[0-9a-f]{8}-[0-9a-f]{4}-/i;
  const UUID_FRAGMENTS = [
    '-',
    '--',
    'a',
    'F',
    '0',
    '9',
    'g',
    'G',
    ' ',
    '\n',
    '01A22A20',
    '2246',
    '8565cb9bf97b',
    'deadbeef-',
    '-1a2f-',
    '\u212a',
    '\u0130',
    'é',
  ];

  it('mayHaveUuid is the uuid gate regex (generated and fixture text)', () => {
    const samples = [
      ...TOKEN_RULES.map((r) => r.example.before),
      ...FRAGMENTS,
      '01A22A20-2246-7E30-8194-8565cb9bf97b',
      'abcdefab-abcd',
      'abcdefab-abcd-',
      'xabcdefab-abcd-',
      '-abcdefab-abc-',
      '',
    ];
    for (const text of samples)
      expect({ text, gate: mayHaveUuid(text) }).toEqual({ text, gate: UUID_GATE_RE.test(text) });
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...UUID_FRAGMENTS), { maxLength: 24 }),
        (parts) => mayHaveUuid(parts.join('')) === UUID_GATE_RE.test(parts.join('')),
      ),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'B', '3', '-', 'x'), maxLength: 40 }),
        (text) => mayHaveUuid(text) === UUID_GATE_RE.test(text),
      ),
      { numRuns: 5000 },
    );
  });

  it('a needle pattern finds exactly what the includes loop finds (every rule, the classifier)', () => {
    const lists = [...gated.map((r) => r.needles!), CLASS_NEEDLES];
    const pieces = [...FRAGMENTS, ...CLASS_NEEDLES, 'x', 'n', 'E', '.', '(', '\\', '$', '|', '['];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 10 }), fc.boolean(), (parts, lowerIt) => {
        const text = lowerIt ? parts.join('').toLowerCase() : parts.join('');
        for (const needles of lists)
          if (needlePattern(needles).test(text) !== needles.some((n) => text.includes(n))) return false;
        return true;
      }),
      { numRuns: 3000 },
    );
    for (const needles of lists) for (const n of needles) expect(needlePattern(needles).test(`<${n}>`)).toBe(true);
  });

  it('hasNeedle answers as the includes loop before and after a process switches to the patterns', () => {
    const lists = [...gated.map((r) => r.needles!), CLASS_NEEDLES];
    const pieces = [...FRAGMENTS, ...CLASS_NEEDLES, 'x', 'n', 'E', '.', '(', '\\', '$', '|', '['];
    let asked = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 10 }), (parts) => {
        const text = parts.join('');
        for (const needles of lists) {
          asked++;
          if (hasNeedle(text, needles) !== needles.some((n) => text.includes(n))) return false;
        }
        return true;
      }),
      { numRuns: 500 },
    );
    // Both ways were asked: this file's searches alone cross the switch several times over.
    expect(asked).toBeGreaterThan(4 * SEARCHES_BEFORE_PATTERNS);
  });
});

describe('rule gates', () => {
  const withGate = TOKEN_RULES.filter((r) => r.gate);
  const DIGITS = [
    '1764470433',
    '1764470433123',
    '17644704',
    '2026',
    '11',
    '30',
    '5',
    '-',
    '/',
    ' ',
    ', ',
    'Nov',
    'Mon',
    '.ts',
    'ts=',
    '"time":',
    'src/a.test.ts',
    ':',
    '02',
    '9',
  ];

  it('each gate is true wherever its rule matches (its example, fixtures and generated text)', () => {
    expect(withGate.map((r) => r.name).sort()).toEqual(['date', 'epoch', 'time-of-day', 'uuid']);
    for (const rule of withGate)
      if (matches(rule, rule.example.before))
        expect({ rule: rule.name, gate: rule.gate!(rule.example.before) }).toEqual({ rule: rule.name, gate: true });
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...FRAGMENTS, ...DIGITS), { maxLength: 14 }), (parts) => {
        const text = parts.join('');
        for (const rule of withGate) if (matches(rule, text) && !rule.gate!(text)) return false;
        return true;
      }),
      { numRuns: 5000 },
    );
  });
});
