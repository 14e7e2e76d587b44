// The shape of a normalization rule: the documented part every rule has, and a token rule's pattern and gates.

export interface NormalizeRule {
  name: string;
  description: string;
  example: { before: string; after: string };
}

/** A rule applied to the whole text, in the order of tokenRules(). */
export interface TokenRule extends NormalizeRule {
  re: RegExp;
  /** The replacement: a pattern string, or a function for a rule that reads its match (the temp paths). */
  to: string | ((match: string) => string);
  /**
   * A cheap test that is true whenever `re` could match, for what a list of substrings cannot say (a digit pattern);
   * tried after the needles. Rules whose pattern opens with a lookbehind are slow to scan.
   */
  gate?: (text: string) => boolean;
  /**
   * Substrings one of which every match of `re` contains (checked on the lower-cased text when `needlesIgnoreCase`):
   * a rule whose needles are all absent is skipped, so its regex is never run, nor compiled, in that process.
   */
  needles?: readonly string[];
  needlesIgnoreCase?: boolean;
  /** An id rule: skipped for a command whose result is an id or a hash (see `idsAreTheResult`). */
  idRule?: true;
  /**
   * Leave matches alone on a line that says what failed (an assertion's expected/received, a metric such as
   * `p95 latency 900ms`): there the value is the result, not noise. A match that opens the line (a log prefix) is
   * still noise.
   */
  keepOnMeaningLines?: boolean;
}
