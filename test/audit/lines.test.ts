// The line streamer: exact lines across read boundaries, UTF-8 split between reads, oversize lines skipped and counted.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { forEachLine } from '../../src/audit/lines.ts';

const dir = mkdtempSync(join(tmpdir(), 'lg-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe('forEachLine', () => {
  it('gives back exactly the lines of any text, whatever falls on a read boundary', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: 'grapheme', maxLength: 300_000 }).map((s) => s.replace(/\n/g, '')),
          { maxLength: 8 },
        ),
        fc.boolean(),
        (lines, trailing) => {
          const text = lines.join('\n') + (trailing && lines.length ? '\n' : '');
          const got: string[] = [];
          forEachLine(file('prop.jsonl', text), (l) => void got.push(l));
          const want = text === '' ? [] : text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
          expect(got).toEqual(want);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('a multi-byte character split across two reads stays whole', () => {
    const line = `${'a'.repeat((1 << 16) - 1)}é${'b'.repeat(10)}`;
    const got: string[] = [];
    forEachLine(file('utf8.jsonl', `${line}\nnext\n`), (l) => void got.push(l));
    expect(got).toEqual([line, 'next']);
  });

  it('lines over the cap are skipped and counted, the others kept', () => {
    const got: string[] = [];
    const stats = forEachLine(
      file('big.jsonl', `short\n${'x'.repeat(3_000_000)}\nafter\n${'y'.repeat(100)}`),
      (l) => void got.push(l),
      1_000_000,
    );
    expect(got).toEqual(['short', 'after', 'y'.repeat(100)]);
    expect(stats.oversize).toBe(1);
  });

  it('a line of many reads is handed over whole, and the lines after it too', () => {
    const long = `{"x":"${'é'.repeat(700_000)}${'z'.repeat(1_700_001)}"}`;
    const got: string[] = [];
    const stats = forEachLine(file('long.jsonl', `a\n${long}\nb\n${long}`), (l) => void got.push(l));
    expect(got.map((l) => l.length)).toEqual([1, long.length, 1, long.length]);
    expect(got).toEqual(['a', long, 'b', long]);
    expect(stats.oversize).toBe(0);
  });

  it('returning false stops the read', () => {
    let n = 0;
    const stats = forEachLine(file('stop.jsonl', 'a\nb\nc\n'), () => ++n < 2);
    expect(n).toBe(2);
    expect(stats.stopped).toBe(true);
  });
});
