// normalizeLines answers a text no line rule can act on (LINES_NEED_RULES finds nothing) with two regex passes instead
// of its walk per line; both ways must give the same text, on recorded outputs and on random texts made of what the
// rules look for and what only looks like it.
import { describe, expect, it } from 'vitest';
import { LINE_RULES, LINES_NEED_RULES, linesOneByOne, normalizeLines } from '../../src/guard/core/normalize/lines.ts';
import { recordedTexts } from '../helpers/recorded-texts.ts';

// Pieces of lines: plain text, near misses of each gate, and what the gate stops.
const PIECES = [
  'src/a.test.ts > adds 1 + 2',
  '✓ passes',
  '× fails',
  'FAIL  src/b.ts',
  'Error: boom',
  '    at f (a.js:1:2)',
  '-',
  ' - item',
  '--flag',
  '|',
  ' | ',
  'a | b',
  '/',
  '\\',
  '-x',
  '--',
  '12:34',
  '1:23:45',
  '--:--:--',
  '100  1234',
  'Chunk ID:',
  'Chunk ID: 7a',
  'Wall time: 0.1 seconds',
  'Original token count: 5',
  'Process exited with code 2',
  '45%',
  '[=====>    ]',
  '####>',
  'Coverage: 85',
  '⠋',
  '⠙ Installing',
  '◐',
  '\u00a0x',
  'x\u3000',
  '日本語',
  '😀',
  'é',
  '',
  '  ',
  '\t',
  'done',
  'Output:',
  'ok 1 - test',
  '# comment',
  '1..4',
];
const TAILS = ['', ' ', '  ', '\t', ' \t', '\v', '\f', '\r'];

function texts(count: number): string[] {
  let seed = 5;
  const r = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    const lines: string[] = [];
    const n = r(12);
    for (let i = 0; i < n; i++) {
      let line = r(5) === 0 ? ' '.repeat(r(4)) : '';
      const parts = 1 + r(3);
      for (let p = 0; p < parts; p++) line += (p ? ' ' : '') + PIECES[r(PIECES.length)];
      lines.push(line + (r(3) === 0 ? TAILS[r(TAILS.length)] : ''));
    }
    out.push((r(4) === 0 ? '\n\n' : '') + lines.join('\n') + (r(4) === 0 ? '\n \n' : ''));
  }
  return out;
}

describe('normalizeLines without its walk', () => {
  it('gives the walk’s text for every recorded output and rule example', () => {
    const all = [...recordedTexts(), ...LINE_RULES.map((rule) => rule.example.before)];
    expect(all.length).toBeGreaterThan(2000);
    let short = 0;
    for (const t of all) {
      if (!LINES_NEED_RULES.test(t)) short++;
      expect(normalizeLines(t), JSON.stringify(t.slice(0, 200))).toBe(linesOneByOne(t));
    }
    expect(short).toBeGreaterThan(all.length / 3);
  });

  it('gives the walk’s text for 30,000 random texts near every gate', () => {
    let short = 0;
    for (const t of texts(30_000)) {
      if (!LINES_NEED_RULES.test(t)) short++;
      expect(normalizeLines(t), JSON.stringify(t)).toBe(linesOneByOne(t));
    }
    expect(short).toBeGreaterThan(3000);
  });
});
