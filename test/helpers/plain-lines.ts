// Random command lines of plain words (no quote, expansion, operator, comment, group or second line), for the tests
// that hold a plain-line shortcut to the long way: words drawn from a list, joined by the blanks the shell splits on,
// some ending in a character it does not split on. Deterministic: the same seed gives the same lines.

const BLANKS = [' ', '  ', '\t', ' \t '];
/** Characters the shell does not split on, which a parser keeps inside a word. */
export const ODD_BLANKS = ['\u00a0', '\u3000', '\v', '\f', '\u2028', '\ufeff'];

export function plainLines(
  count: number,
  o: { words: readonly string[]; seed: number; maxWords: number; odd?: readonly string[]; first?: string[] },
): string[] {
  let seed = o.seed;
  const r = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const odd = o.odd ?? ODD_BLANKS;
  const out = [...(o.first ?? [])];
  for (let k = 0; k < count; k++) {
    let line = r(4) === 0 ? (BLANKS[r(BLANKS.length)] as string) : '';
    const n = r(o.maxWords);
    for (let w = 0; w < n; w++) {
      let word = o.words[r(o.words.length)] as string;
      if (r(12) === 0) word += odd[r(odd.length)] as string;
      line += word + (w < n - 1 || r(3) === 0 ? (BLANKS[r(BLANKS.length)] as string) : '');
    }
    out.push(line);
  }
  return out;
}
