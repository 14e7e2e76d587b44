// hash64: short texts keep the original one-unit-per-turn value (session file names and command keys survive an
// upgrade); long texts go a word at a time and still change with any single unit, anywhere.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hash64 } from '../../src/guard/core/hash.ts';

/** The original algorithm, one UTF-16 unit per turn. */
function reference(text: string): string {
  let h1 = 0x811c9dc5 ^ text.length;
  let h2 = 0x9e3779b9;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 0x85ebca6b) ^ Math.imul(h2 ^ (h2 >>> 13), 0xc2b2ae35);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 0x85ebca6b) ^ Math.imul(h1 ^ (h1 >>> 13), 0xc2b2ae35);
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}

describe('hash64', () => {
  it('equals the original for texts under 256 units', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 255, unit: 'binary' }), (s) => hash64(s) === reference(s)),
      { numRuns: 2000 },
    );
  });

  it('is 16 hex digits and deterministic for long texts', () => {
    const long = 'FAIL src/a.test.ts\n'.repeat(300);
    expect(hash64(long)).toMatch(/^[0-9a-f]{16}$/);
    expect(hash64(long)).toBe(hash64(`${long}`));
  });

  it('changes with one unit changed, swapped or added anywhere in a long text', () => {
    const base = Array.from({ length: 4099 }, (_, i) => String.fromCharCode(97 + ((i * 7) % 26))).join('');
    const seen = new Set([hash64(base)]);
    for (const at of [0, 1, 2, 3, 4, 5, 6, 7, 8, 2048, 4090, 4095, 4096, 4097, 4098]) {
      const changed = `${base.slice(0, at)}${base[at] === 'z' ? 'y' : 'z'}${base.slice(at + 1)}`;
      const swapped = `${base.slice(0, at)}${base[at + 1] ?? ''}${base[at]}${base.slice(at + 2)}`;
      for (const text of [changed, swapped])
        if (text !== base) expect(seen.has(hash64(text)), `at ${at}`).toBe(false), seen.add(hash64(text));
    }
    expect(hash64(`${base}a`)).not.toBe(hash64(base));
    expect(hash64('\u00ff\u0001'.repeat(200))).not.toBe(hash64('\u0001\u00ff'.repeat(200)));
  });
});
