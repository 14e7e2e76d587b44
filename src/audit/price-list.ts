// List prices in US dollars per million tokens, for audit's money estimates. Update: change a row, or add one
// (a model id is priced by the longest `match` it contains, at its start or after a separator, lower case); set
// `checked` to the day you read the pages below. A model matching no row is reported as unknown, never as free.
// Cache write is the 5-minute write where the vendor has two; a vendor that does not bill cache writes has its input
// price there. Where a vendor prices by prompt length, the shortest-prompt tier is listed. Users override with
// `audit --prices FILE` (JSON of the same shape: { "models": [...] }), whose rows are tried first.
// Sources:
//   anthropic: https://platform.claude.com/docs/en/about-claude/pricing
//   openai: https://developers.openai.com/api/docs/pricing
//   google: https://ai.google.dev/gemini-api/docs/pricing
//   qwen: https://www.alibabacloud.com/help/en/model-studio/models (Qwen-Coder, international, first tier)
/** US dollars per million tokens of each kind. */
export interface Price {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

export interface PriceEntry extends Price {
  /** Lower-case part of a model id, at its start or after a separator ("claude-sonnet-4" prices
   * claude-sonnet-4-5-20250929). */
  match: string;
}

export interface PriceTable {
  checked: string;
  models: PriceEntry[];
}

export const PRICES: PriceTable = {
  checked: '2026-12-01',
  models: [
    { match: 'claude-fable-5-1', input: 10, cacheRead: 0.25, cacheWrite: 12.5, output: 50 },
    { match: 'claude-fable-5', input: 10, cacheRead: 1, cacheWrite: 12.5, output: 50 },
    { match: 'claude-mythos-5-1', input: 10, cacheRead: 0.25, cacheWrite: 12.5, output: 50 },
    { match: 'claude-mythos-5', input: 10, cacheRead: 1, cacheWrite: 12.5, output: 50 },
    { match: 'claude-opus-5-5', input: 4, cacheRead: 0.2, cacheWrite: 5, output: 20 },
    { match: 'claude-opus-5', input: 5, cacheRead: 0.5, cacheWrite: 6.25, output: 25 },
    { match: 'claude-opus-4-8', input: 5, cacheRead: 0.5, cacheWrite: 6.25, output: 25 },
    { match: 'claude-opus-4-7', input: 5, cacheRead: 0.5, cacheWrite: 6.25, output: 25 },
    { match: 'claude-opus-4-6', input: 5, cacheRead: 0.5, cacheWrite: 6.25, output: 25 },
    { match: 'claude-opus-4-5', input: 5, cacheRead: 0.5, cacheWrite: 6.25, output: 25 },
    { match: 'claude-opus-4', input: 15, cacheRead: 1.5, cacheWrite: 18.75, output: 75 },
    { match: 'claude-3-opus', input: 15, cacheRead: 1.5, cacheWrite: 18.75, output: 75 },
    { match: 'claude-sonnet-5-5', input: 2, cacheRead: 0.1, cacheWrite: 2.5, output: 10 },
    { match: 'claude-sonnet-5', input: 2, cacheRead: 0.2, cacheWrite: 2.5, output: 10 },
    { match: 'claude-sonnet-4', input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 },
    { match: 'claude-3-7-sonnet', input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 },
    { match: 'claude-3-5-sonnet', input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 },
    { match: 'claude-haiku-5-5', input: 0.1, cacheRead: 0.01, cacheWrite: 0.125, output: 0.5 },
    { match: 'claude-haiku-4-5', input: 1, cacheRead: 0.1, cacheWrite: 1.25, output: 5 },
    { match: 'claude-3-5-haiku', input: 0.8, cacheRead: 0.08, cacheWrite: 1, output: 4 },
    { match: 'claude-3-haiku', input: 0.25, cacheRead: 0.03, cacheWrite: 0.3, output: 1.25 },
    { match: 'gpt-5.5', input: 5, cacheRead: 0.5, cacheWrite: 5, output: 30 },
    { match: 'gpt-5.4-mini', input: 0.75, cacheRead: 0.075, cacheWrite: 0.75, output: 4.5 },
    { match: 'gpt-5.4', input: 2.5, cacheRead: 0.25, cacheWrite: 2.5, output: 15 },
    { match: 'gpt-5.3-codex', input: 1.75, cacheRead: 0.175, cacheWrite: 1.75, output: 14 },
    { match: 'gpt-5.2', input: 1.75, cacheRead: 0.175, cacheWrite: 1.75, output: 14 },
    { match: 'gpt-5.1', input: 1.25, cacheRead: 0.125, cacheWrite: 1.25, output: 10 },
    { match: 'gpt-5-mini', input: 0.25, cacheRead: 0.025, cacheWrite: 0.25, output: 2 },
    { match: 'gpt-5-nano', input: 0.05, cacheRead: 0.005, cacheWrite: 0.05, output: 0.4 },
    { match: 'gpt-5', input: 1.25, cacheRead: 0.125, cacheWrite: 1.25, output: 10 },
    { match: 'gpt-4.1', input: 2, cacheRead: 0.5, cacheWrite: 2, output: 8 },
    { match: 'o3', input: 2, cacheRead: 0.5, cacheWrite: 2, output: 8 },
    { match: 'gemini-3.5-flash', input: 1.5, cacheRead: 0.15, cacheWrite: 1.5, output: 9 },
    { match: 'gemini-3.1-pro', input: 2, cacheRead: 0.2, cacheWrite: 2, output: 12 },
    { match: 'gemini-3.1-flash-lite', input: 0.25, cacheRead: 0.025, cacheWrite: 0.25, output: 1.5 },
    { match: 'gemini-3-pro', input: 2, cacheRead: 0.2, cacheWrite: 2, output: 12 },
    { match: 'gemini-3-flash', input: 0.5, cacheRead: 0.05, cacheWrite: 0.5, output: 3 },
    { match: 'gemini-2.5-pro', input: 1.25, cacheRead: 0.125, cacheWrite: 1.25, output: 10 },
    { match: 'gemini-2.5-flash-lite', input: 0.1, cacheRead: 0.01, cacheWrite: 0.1, output: 0.4 },
    { match: 'gemini-2.5-flash', input: 0.3, cacheRead: 0.03, cacheWrite: 0.3, output: 2.5 },
    { match: 'qwen3-coder-plus', input: 1, cacheRead: 0.2, cacheWrite: 1, output: 5 },
    { match: 'qwen3-coder-flash', input: 0.3, cacheRead: 0.06, cacheWrite: 0.3, output: 1.5 },
  ],
};
