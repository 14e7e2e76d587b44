// A scope refusal: the agent's own last word that it can't or won't do the task because a rule forbids it (a hook,
// a policy the user wrote on purpose). Retrying asks the same rule again, so the run halts (class `scope`).
// The patterns are data: an opener that refuses, and in the same sentence a cue that names a rule.

/** "I can't / cannot / won't / will not / am unable to / am not allowed to …" at the start of a clause. */
const REFUSES =
  /(?:^|[.!?:;]\s+|\n\s*)I(?:\s+can(?:no|['’])t|\s+can\s+not|\s+won['’]t|\s+will\s+not|['’]m\s+unable\s+to|\s+am\s+unable\s+to|['’]m\s+not\s+(?:able|allowed|permitted)\s+to|\s+am\s+not\s+(?:able|allowed|permitted)\s+to)\b/i;

/** What makes a refusal a rule's, not a difficulty ("I can't reproduce it" climbs). */
const RULE_CUES = [
  /\bhooks?\b/i,
  /\bpolic(?:y|ies)\b/i,
  /\brules?\b/i,
  /\bnot\s+(?:allowed|permitted)\b/i,
  /\b(?:forbidden|prohibited|disallowed)\b/i,
  /\b(?:blocked|denied)\s+by\b/i,
  /\b(?:out\s+of|outside\s+(?:the|my|this))\s+scope\b/i,
];

/** The loop guard's own refusal is a hand-off, which climbs: a sentence about it is not a scope refusal. */
const GUARD_WORDS = /loop[- ]?guard|identical result|was not run: its last/i;

/** One sentence of at most 200 characters, the way a reason is quoted in a log line. */
function sentenceAt(text: string, start: number): string {
  const rest = text.slice(start).replace(/^[\s.!?:;]+/, '');
  const end = rest.search(/[.!?](?:\s|$)|\n/);
  const s = (end === -1 ? rest : rest.slice(0, end + 1)).trim();
  return s.length > 200 ? `${s.slice(0, 199)}…` : s;
}

/** The refusing sentence of the agent's final message, when it refuses by a rule; else null. */
export function scopeRefusal(finalText: string | undefined): string | null {
  if (!finalText) return null;
  const text = finalText.slice(0, 20_000);
  const re = new RegExp(REFUSES.source, 'gi');
  for (const m of text.matchAll(re)) {
    const sentence = sentenceAt(text, m.index ?? 0);
    if (GUARD_WORDS.test(sentence)) continue;
    if (RULE_CUES.some((cue) => cue.test(sentence))) return sentence;
  }
  return null;
}
