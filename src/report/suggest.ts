// "Did you mean …?" for a mistyped flag or tool name: the closest known word within a small edit distance.

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j]!;
      row[j] = Math.min(up + 1, row[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return row[b.length]!;
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
