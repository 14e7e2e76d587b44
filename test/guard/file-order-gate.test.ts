// sortFileBlocks returns a text as it is when fewer than two of its lines can head a file block (one scan of the
// text); the walk over every line must agree, on recorded outputs and on random test-runner-like texts.
import { describe, expect, it } from 'vitest';
import { sortBlocksOneByOne, sortFileBlocks } from '../../src/guard/core/normalize/runs.ts';
import { recordedTexts } from '../helpers/recorded-texts.ts';

const HEADS = [
  '✓ src/a.test.ts (3 tests) 5ms',
  ' ✓ src/b.test.ts (1 test)',
  '× src/c.test.ts',
  '❯ src/d.test.ts (2 tests | 1 failed)',
  'PASS src/e.test.js',
  'FAIL src/f.test.js',
  'tests/test_g.py ..F',
  'tests/test_h.py .',
  '  ✔ lib/i.spec.ts',
  '↓ src/j.test.ts',
  '\u00a0✓ src/k.test.ts',
  'PASS',
  'FAILED tests',
  '✓ no-file-here',
  'x.py ..Q',
];
const OTHERS = [
  '    ✓ adds 1 + 2',
  '      × fails',
  '  ● suite › case',
  '',
  '   ',
  'Test Files  2 passed',
  'done',
  '\r',
  'a\rb',
];

function texts(count: number): string[] {
  let seed = 9;
  const r = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  return Array.from({ length: count }, () => {
    const lines = Array.from({ length: r(10) }, () =>
      r(2) === 0 ? (HEADS[r(HEADS.length)] as string) : (OTHERS[r(OTHERS.length)] as string),
    );
    return lines.join('\n');
  });
}

describe('sortFileBlocks without its walk', () => {
  it('gives the walk’s text for every recorded output', () => {
    const all = recordedTexts();
    for (const t of all) expect(sortFileBlocks(t), JSON.stringify(t.slice(0, 200))).toBe(sortBlocksOneByOne(t));
  });

  it('gives the walk’s text for 30,000 random texts of result lines and near misses, and reorders some', () => {
    let moved = 0;
    for (const t of texts(30_000)) {
      const walked = sortBlocksOneByOne(t);
      if (walked !== t) moved++;
      expect(sortFileBlocks(t), JSON.stringify(t)).toBe(walked);
    }
    expect(moved).toBeGreaterThan(3000);
  });
});
