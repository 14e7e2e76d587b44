// The per-day table is sorted without the ICU collator when both names are plain days; the order must be the one
// localeCompare gives, for every pair, including the names it still hands to localeCompare.
import { describe, expect, it } from 'vitest';
import { byDayName } from '../../src/audit/aggregate.ts';

function days(): string[] {
  const out = ['unknown', '+275760-09', '-000001-01', '0000-01-01', '9999-12-31', 'unknowo', '2026-1-05'];
  let seed = 7;
  const r = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  for (let i = 0; i < 300; i++) {
    const y = String(r(10000)).padStart(4, '0');
    const m = String(1 + r(12)).padStart(2, '0');
    const d = String(1 + r(31)).padStart(2, '0');
    out.push(`${y}-${m}-${d}`);
  }
  return out;
}

describe('the order of days', () => {
  it('is localeCompare’s for every pair', () => {
    const names = days();
    for (const a of names)
      for (const b of names) expect(Math.sign(byDayName(a, b))).toBe(Math.sign(a.localeCompare(b)));
  });

  it('never starts the collator for plain days', () => {
    const names = days().filter((d) => /^\d{4}-\d\d-\d\d$/.test(d) || d === 'unknown');
    const original = String.prototype.localeCompare;
    let calls = 0;
    String.prototype.localeCompare = function (this: string, ...args: Parameters<typeof original>) {
      calls++;
      return original.apply(this, args);
    };
    try {
      [...names].sort(byDayName);
    } finally {
      String.prototype.localeCompare = original;
    }
    expect(calls).toBe(0);
  });
});
