// The result fingerprint's normalization: strip what changes between identical runs, keep what a fix changes.
// Number-led patterns carry a lookbehind so a long digit or letter run is scanned once, not once per start position.
import { hasNeedle } from './needles.ts';
import { idRules, idsAreTheResult } from './normalize/ids.ts';
import { LINE_RULES, normalizeLines, stripTerminal } from './normalize/lines.ts';
import type { NormalizeRule, TokenRule } from './normalize/rule.ts';
import { FILE_ORDER_RULE, runRules, sortFileBlocks } from './normalize/runs.ts';
import { MEANING_LINE_RE, MEANING_LINES_RULE, MEANING_NEEDLES, meaningAware, timeRules } from './normalize/times.ts';
import { windowsRules } from './normalize/windows.ts';

// The rules live in normalize/ by subject; what the rest of src/ and the tests import stays here.
export type { NormalizeRule } from './normalize/rule.ts';
export { idsAreTheResult, mayHaveUuid, tempPath } from './normalize/ids.ts';
export { firstVisible, LINE_PATTERNS } from './normalize/lines.ts';
export { sortFileBlocks } from './normalize/runs.ts';
export { mayHaveClock, mayHaveDate } from './normalize/times.ts';

/** Whitespace-normalized command: trim, collapse every run of whitespace (incl. newlines) to one space. */
export function normalizeCommand(command: string): string {
  return command.trim().replace(/\s+/g, ' ');
}

// ---------------------------------------------------------------------------------------------------------------
// Token rules, applied in this order to the whole text

let builtTokenRules: ReadonlyArray<TokenRule> | undefined;

/**
 * The token rules, built on first use: a pre or user-turn event never normalizes, so its hook process does not
 * create these ~30 patterns. Exported for the gate tests.
 */
export function tokenRules(): ReadonlyArray<TokenRule> {
  return (builtTokenRules ??= buildTokenRules());
}

function buildTokenRules(): TokenRule[] {
  return [...idRules(), ...timeRules(), ...runRules(), ...windowsRules()];
}

/**
 * The result text with everything removed that changes between identical runs. `opts.command`, when given, decides
 * whether ids and hashes are noise (most commands) or the result (idsAreTheResult). `opts.fired` collects the names
 * of the rules that changed the text (the judgment benchmark's count; the hook never passes it).
 */
export function normalizeOutput(text: string, opts?: { command?: string; fired?: string[] }): string {
  if (!text) return '';
  // Asked only when an id rule could match (its needles are there): most results never run the command's regex.
  let keepIds: boolean | undefined;
  const fired = opts?.fired;
  let s = text.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text;
  if (fired && s !== text) fired.push('line-endings');
  const raw = s;
  s = stripTerminal(s);
  if (fired && s !== raw) fired.push('terminal');
  const stripped = s;
  s = normalizeLines(s);
  if (fired && s !== stripped) fired.push('lines');
  let lower: string | undefined;
  let lowerOf: string | undefined;
  let meaning: boolean | undefined;
  let lastNeedles: readonly string[] | undefined;
  let lastHay: string | undefined;
  let lastFound = false;
  for (const rule of tokenRules()) {
    if (rule.needles) {
      // The lower-cased copy is made at most once per distinct text, and only if a rule asks for it.
      if (rule.needlesIgnoreCase && lowerOf !== s) (lower = s.toLowerCase()), (lowerOf = s);
      const hay = rule.needlesIgnoreCase ? (lower as string) : s;
      // Rules that share a needle list (the three month rules) share the answer for one text.
      if (rule.needles !== lastNeedles || hay !== lastHay) {
        lastFound = hasNeedle(hay, rule.needles);
        lastNeedles = rule.needles;
        lastHay = hay;
      }
      if (!lastFound) continue;
    }
    if (rule.gate && !rule.gate(s)) continue;
    if (rule.idRule && (keepIds ??= idsAreTheResult(opts?.command))) continue;
    if (rule.keepOnMeaningLines && meaning === undefined) {
      if (lowerOf !== s) (lower = s.toLowerCase()), (lowerOf = s);
      const hay = lower as string;
      meaning = MEANING_NEEDLES.some((n) => hay.includes(n)) && MEANING_LINE_RE.test(s);
    }
    const to = rule.to;
    const before = s;
    s =
      typeof to === 'function'
        ? s.replace(rule.re, to)
        : rule.keepOnMeaningLines && meaning
          ? s.replace(rule.re, meaningAware(to))
          : s.replace(rule.re, to);
    if (fired && s !== before) fired.push(rule.name);
  }
  if (!fired) return sortFileBlocks(s);
  const sorted = sortFileBlocks(s);
  if (sorted !== s) fired.push('test-file-order');
  return sorted;
}

// Rules that are not one regex: the meaning-line exception of the time rules, and the order of file blocks.
const CONTEXT_RULES: NormalizeRule[] = [MEANING_LINES_RULE, FILE_ORDER_RULE];

/** The rules as data, for docs and tests: name, what it matches, one example before/after (built when asked for). */
export function normalizeRules(): ReadonlyArray<NormalizeRule> {
  return Object.freeze(
    [...LINE_RULES, ...tokenRules(), ...CONTEXT_RULES].map(({ name, description, example }) =>
      Object.freeze({ name, description, example: Object.freeze({ ...example }) }),
    ),
  );
}
