// The line streamer: exact lines across read boundaries, UTF-8 split between reads, oversize lines skipped and counted.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { forEachLine, forEachLineBytes, lineText } from '../../src/audit/lines.ts';

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

describe('lineText', () => {
  // An ASCII line is read from the chunk's one-byte text, any other decoded: both must give what UTF-8 gives, for
  // any bytes (invalid sequences and lone bytes over 0x7f, which read differently as one-byte text, included).
  it('reads every line as its UTF-8 decoding, whatever its bytes', () => {
    const byte = fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0, max: 0xff }));
    fc.assert(
      fc.property(fc.array(fc.array(byte, { maxLength: 400 }), { maxLength: 12 }), (lines) => {
        const bytes = Buffer.from(lines.flatMap((l) => [...l.filter((b) => b !== 0x0a), 0x0a]));
        const p = join(dir, 'bytes.jsonl');
        writeFileSync(p, bytes);
        const got: Array<[string, string]> = [];
        forEachLineBytes(p, (buf, start, end, view) => {
          got.push([lineText(buf, start, end, view), buf.toString('utf8', start, end)]);
        });
        for (const [text, utf8] of got) expect(text).toBe(utf8);
        expect(got.length).toBe(lines.length);
      }),
      { numRuns: 200 },
    );
  });

  it('an ASCII line and a line with one byte over 0x7f', () => {
    const p = file('mixed.jsonl', '{"a":"plain"}\n{"a":"caf\\u00e9 é"}\n');
    const got: string[] = [];
    forEachLineBytes(p, (buf, start, end, view) => void got.push(lineText(buf, start, end, view)));
    expect(got).toEqual(['{"a":"plain"}', '{"a":"caf\\u00e9 é"}']);
  });
});
