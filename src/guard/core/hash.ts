// The one string hash of the guard: stable across runs and platforms, cheap, no node:crypto load.

const P1 = 0x01000193;
const P2 = 0x5bd1e995;

/** Below this length a text is hashed one unit per turn, as before, so session file names and command keys stay put. */
const WORDS_FROM = 256;

/**
 * A 64-bit string hash as 16 hex chars (two 32-bit FNV-1a style lanes, each fed every unit); stable, fast, no
 * node:crypto load. A long text (a command's result) goes two UTF-16 units per 32-bit word and four words per turn:
 * a 4 KB result is ~500 turns, which V8 finishes in its interpreter without marking the loop hot — one unit per turn
 * made Node 24 compile it with Maglev and then TurboFan, ~3 ms of CPU in a hook process that lives ~30 ms.
 */
export function hash64(text: string): string {
  let h1 = 0x811c9dc5 ^ text.length;
  let h2 = 0x9e3779b9;
  const n = text.length;
  let i = 0;
  for (; n >= WORDS_FROM && i + 7 < n; i += 8) {
    const a = text.charCodeAt(i) | (text.charCodeAt(i + 1) << 16);
    const b = text.charCodeAt(i + 2) | (text.charCodeAt(i + 3) << 16);
    const c = text.charCodeAt(i + 4) | (text.charCodeAt(i + 5) << 16);
    const d = text.charCodeAt(i + 6) | (text.charCodeAt(i + 7) << 16);
    h1 = Math.imul(h1 ^ a, P1);
    h2 = Math.imul(h2 ^ a, P2);
    h2 ^= h2 >>> 15;
    h1 = Math.imul(h1 ^ b, P1);
    h2 = Math.imul(h2 ^ b, P2);
    h2 ^= h2 >>> 15;
    h1 = Math.imul(h1 ^ c, P1);
    h2 = Math.imul(h2 ^ c, P2);
    h2 ^= h2 >>> 15;
    h1 = Math.imul(h1 ^ d, P1);
    h2 = Math.imul(h2 ^ d, P2);
    h2 ^= h2 >>> 15;
  }
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, P1);
    h2 = Math.imul(h2 ^ c, P2);
    h2 ^= h2 >>> 15;
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 0x85ebca6b) ^ Math.imul(h2 ^ (h2 >>> 13), 0xc2b2ae35);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 0x85ebca6b) ^ Math.imul(h1 ^ (h1 >>> 13), 0xc2b2ae35);
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}
