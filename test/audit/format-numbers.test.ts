// The reports group integers without ICU (its number format cost ~12 ms to load); the text must be what en-US
// toLocaleString writes, for every integer a report can hold.
import { describe, expect, it } from 'vitest';
import { fmtInt, fmtUsd } from '../../src/audit/format.ts';

function integers(): number[] {
  const out = [0, -0, 1, -1, 999, 1000, -1000, 999_999, 1_000_000, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
  for (let p = 1; p < 16; p++) out.push(10 ** p, 10 ** p - 1, -(10 ** p), 10 ** p + 1);
  let seed = 11;
  for (let i = 0; i < 2000; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    out.push(Math.floor((seed / 2 ** 31) * 10 ** (1 + (i % 15))) * (i % 3 === 0 ? -1 : 1));
  }
  return out;
}

describe('numbers in the reports', () => {
  it('groups every safe integer as en-US toLocaleString does', () => {
    for (const n of integers()) expect(fmtInt(n), String(n)).toBe(n.toLocaleString('en-US'));
  });

  it('leaves what is not a safe integer to toLocaleString', () => {
    for (const n of [1.5, 1234.5678, 2 ** 60, Number.NaN, Number.POSITIVE_INFINITY, -0])
      expect(fmtInt(n)).toBe(n.toLocaleString('en-US'));
  });

  it('writes whole dollars from $1,000 as before', () => {
    for (const n of [1000, 1234.49, 1234.5, 98765.4, 1_000_000.2])
      expect(fmtUsd(n)).toBe(`$${Math.round(n).toLocaleString('en-US')}`);
  });
});
