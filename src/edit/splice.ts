// The one edit shape every editor uses: replace a range of the original text, all ranges applied at once.

/** Replace text[start, end) with `text`: the one edit shape of every editor (nuxt/cli style). */
export interface Splice {
  start: number;
  end: number;
  text: string;
}

/** Apply non-overlapping splices given as offsets into the original text. */
export function applySplices(text: string, splices: readonly Splice[]): string {
  // A stable ascending sort keeps same-offset insertions in the order they were pushed (comma first).
  const sorted = [...splices].sort((a, b) => a.start - b.start);
  let out = '';
  let pos = 0;
  for (const s of sorted) {
    out += text.slice(pos, s.start) + s.text;
    pos = Math.max(pos, s.end);
  }
  return out + text.slice(pos);
}
