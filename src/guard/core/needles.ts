// Whether a text holds any of a list of literal substrings: the gate before most normalization rules and before the
// failure classifier. Two ways to ask, which always agree (test/guard/normalize-gates.test.ts): `includes` per
// needle compiles nothing, which suits a hook process (a few dozen searches, then exit: compiling the ~20 combined
// patterns was ~0.3 ms of a post); one combined pattern per list scans the text once, which pays in a process that
// lives on (the OpenCode plugin, audit), so a process switches to the patterns after its first few hundred searches.

/** Searches made with `includes` before a process switches to the combined patterns. */
export const SEARCHES_BEFORE_PATTERNS = 256;

let searches = 0;
const patterns = new Map<readonly string[], RegExp>();

/**
 * One pattern that matches where any of `needles` occurs: a single scan instead of one per needle. The escape is the
 * guard's own: the guard imports only itself (test/repo/imports.test.ts), so edit/md-block.ts keeps the installer's.
 */
export function needlePattern(needles: readonly string[]): RegExp {
  return new RegExp(needles.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'));
}

/** True when `hay` contains any of `needles` (the same list object each time, so its pattern is built once). */
export function hasNeedle(hay: string, needles: readonly string[]): boolean {
  if (searches < SEARCHES_BEFORE_PATTERNS) {
    searches++;
    for (const n of needles) if (hay.includes(n)) return true;
    return false;
  }
  let pattern = patterns.get(needles);
  if (!pattern) patterns.set(needles, (pattern = needlePattern(needles)));
  return pattern.test(hay);
}
