// "Did you mean …?" for a mistyped flag or tool name: the closest known word within a small edit distance.

/** Edits between two words, a swap of two neighbouring letters counting as one (`--yse` is one slip from `--yes`). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  return d[a.length]![b.length]!;
}

/** The closest of `known` to `word` (a prefix counts as close), or undefined when none is near enough to guess. */
export function closest(word: string, known: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  // One or two letters are too little to guess from.
  if (w.length < 3) return undefined;
  let best: { name: string; d: number } | undefined;
  for (const k of known) {
    const d = k.startsWith(w) && w.length >= 2 ? 0.5 : distance(w, k);
    if (!best || d < best.d) best = { name: k, d };
  }
  return best && best.d <= Math.max(1, Math.floor(w.length / 3)) ? best.name : undefined;
}

export function didYouMean(word: string, known: readonly string[], prefix = ''): string {
  const hit = closest(word, known);
  return hit === undefined ? '' : ` Did you mean ${prefix}${hit}?`;
}
