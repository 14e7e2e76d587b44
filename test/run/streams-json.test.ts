// The readers of Cline's and Copilot CLI's JSON, fed what the real CLIs wrote (Cline 3.0.65, Copilot CLI 1.0.102,
// captured by the run-ladder suite against the scripted model: 2 requests of 10 input and 5 output tokens each, and
// Cline with a cache: 1234 prompt tokens, 1000 of them cached;
// test/fixtures/PROVENANCE.md): the final message, the requests and, for Cline, the money.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Tokens } from '../../src/audit/events.ts';
import { spentNow } from '../../src/run/budget.ts';
import { feedLine, newTally, type PriceOf, readerFor } from '../../src/run/streams.ts';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8').split('\n');
const CLINE_END = fixture('cline-3.0.65-run-result.jsonl');
const CLINE_RUN = fixture('cline-3.0.65-rung.agent.log');
const COPILOT_RUN = fixture('copilot-1.0.102-rung.agent.log');
/** 2 requests of 1234 prompt tokens (1000 of them cached, 100 cache writes) and 56 out, as the scripted model said. */
const CLINE_CACHED = fixture('cline-3.0.65-cached.agent.log');

/** $3 in, $15 out per million tokens for mock-model (the suite's --prices), nothing for any other model. */
const seen: Array<{ tokens: Tokens; model: string | undefined }> = [];
const price: PriceOf = (tokens, model) => {
  seen.push({ tokens, model });
  return model === 'mock-model' ? (tokens.input * 3 + tokens.output * 15) / 1e6 : undefined;
};

describe('the Cline reader on Cline 3.0.65', () => {
  it('takes the final message from the run_result line', () => {
    const t = newTally('mock-model');
    const read = readerFor('cline-json', t, () => 0);
    for (const l of CLINE_END) feedLine(read, l);
    expect(t.finalText).toBe(
      "I can't do this: the repository's PreToolUse hook blocks every network call (team policy).",
    );
  });

  it('counts a request per usage event and prices the closing total: 2 × (10 in, 5 out) at $3/$15', () => {
    seen.length = 0;
    const t = newTally(undefined);
    const read = readerFor('cline-json', t, price);
    const before: Array<number | null> = [];
    for (const l of CLINE_RUN) {
      feedLine(read, l);
      if (l.includes('"type":"usage"')) before.push(spentNow(t, undefined));
    }
    expect(t.requests).toBe(2);
    expect(t.model).toBe('mock-model');
    expect(t.finalText).toBe('Done with turn 1.');
    // No model named before the end: the requests wait unpriced, the money is unknown until run_result.
    expect(before).toEqual([null, null]);
    expect(seen).toEqual([{ tokens: { input: 20, cacheRead: 0, cacheWrite: 0, output: 10 }, model: 'mock-model' }]);
    expect(spentNow(t, undefined)).toBeCloseTo(0.00021, 9);
  });

  it('with the model known from the argv (-m), each request is priced as it streams', () => {
    seen.length = 0;
    const t = newTally('mock-model');
    const read = readerFor('cline-json', t, price);
    const during: Array<number | null> = [];
    for (const l of CLINE_RUN) {
      feedLine(read, l);
      if (l.includes('"type":"usage"')) during.push(spentNow(t, undefined));
    }
    expect(during).toEqual([0.000105, 0.00021]);
    expect(spentNow(t, undefined)).toBeCloseTo(0.00021, 9);
  });

  it('a model with no price is unknown money while it streams; run_result names the model that ran', () => {
    const t = newTally('some-unlisted-model');
    const read = readerFor('cline-json', t, price);
    const during: Array<number | null> = [];
    for (const l of CLINE_RUN) {
      feedLine(read, l);
      if (l.includes('"type":"usage"')) during.push(spentNow(t, undefined));
    }
    expect(during).toEqual([null, null]);
    expect(t.model).toBe('mock-model');
    expect(spentNow(t, undefined)).toBeCloseTo(0.00021, 9);
  });
});

describe("Cline 3.0.65's cache tokens", () => {
  /** mock-model at $3 in, $0.30 cache read, $3.75 cache write, $15 out per million (the suite's --prices). */
  const cachePrice: PriceOf = (tk, model) => {
    seen.push({ tokens: tk, model });
    return model === 'mock-model'
      ? (tk.input * 3 + tk.cacheRead * 0.3 + tk.cacheWrite * 3.75 + tk.output * 15) / 1e6
      : undefined;
  };
  const events = CLINE_CACHED.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));

  it('its inputTokens is the whole prompt, cache reads included; the cache writes the model reported are dropped', () => {
    const usage = events.filter((e) => e.event?.type === 'usage').map((e) => e.event);
    expect(usage).toHaveLength(2);
    for (const u of usage) {
      expect(u).toMatchObject({ inputTokens: 1234, cacheReadTokens: 1000, outputTokens: 56 });
      expect(u).not.toHaveProperty('cacheWriteTokens');
    }
    const end = events.find((e) => e.type === 'run_result');
    expect(end.usage).toMatchObject({ inputTokens: 2468, cacheReadTokens: 2000, cacheWriteTokens: 0 });
  });

  it('prices the uncached input as input and the cache reads as cache reads: 234 + 1000 + 56 per request', () => {
    seen.length = 0;
    const t = newTally('mock-model');
    const read = readerFor('cline-json', t, cachePrice);
    const during: Array<number | null> = [];
    for (const l of CLINE_CACHED) {
      feedLine(read, l);
      if (l.includes('"type":"usage"')) during.push(spentNow(t, undefined));
    }
    expect(seen[0]?.tokens).toEqual({ input: 234, cacheRead: 1000, cacheWrite: 0, output: 56 });
    expect(during).toEqual([0.001842, 0.003684]);
    // The closing total replaces them: the same money.
    expect(seen.at(-1)?.tokens).toEqual({ input: 468, cacheRead: 2000, cacheWrite: 0, output: 112 });
    expect(spentNow(t, undefined)).toBe(0.003684);
  });

  it('cache writes Cline does report come out of its inputTokens too', () => {
    seen.length = 0;
    const read = readerFor('cline-json', newTally('mock-model'), cachePrice);
    read({
      type: 'agent_event',
      event: { type: 'usage', inputTokens: 1234, cacheReadTokens: 1000, cacheWriteTokens: 100 },
    });
    expect(seen[0]?.tokens).toEqual({ input: 134, cacheRead: 1000, cacheWrite: 100, output: 0 });
  });

  it('a closing model other than the one priced, with no closing total: its requests are priced again under it', () => {
    seen.length = 0;
    const t = newTally('mock-small');
    const read = readerFor('cline-json', t, cachePrice);
    for (const l of CLINE_CACHED) {
      const e = l.startsWith('{') ? JSON.parse(l) : null;
      if (e?.type === 'run_result') {
        delete e.usage;
        delete e.aggregateUsage;
        read(e);
      } else feedLine(read, l);
    }
    expect(t.model).toBe('mock-model');
    expect(t.unpriced).toBe(0);
    expect(spentNow(t, undefined)).toBe(0.003684);
  });
});

describe('the Copilot CLI reader on Copilot CLI 1.0.102', () => {
  it('counts the model calls and the final message; no tokens, so the money is unknown', () => {
    seen.length = 0;
    const t = newTally('mock-model');
    const read = readerFor('copilot-json', t, price);
    for (const l of COPILOT_RUN) feedLine(read, l);
    expect(t.requests).toBe(2);
    expect(t.finalText).toBe('Done with turn 1.');
    expect(t.session).toBe('eabbb8ff-1268-4ba5-8ad4-02efc02c1840');
    expect(t.unmetered).toBe(true);
    expect(seen).toEqual([]);
    expect(spentNow(t, undefined)).toBeNull();
  });

  it('the stream has no usage event: the JSON writer drops assistant.usage, the result has premiumRequests only', () => {
    const types = new Set(COPILOT_RUN.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l).type as string));
    expect(types.has('assistant.usage')).toBe(false);
    const result = JSON.parse(COPILOT_RUN.find((l) => l.includes('"type":"result"')) ?? '{}');
    expect(Object.keys(result.usage)).toEqual([
      'premiumRequests',
      'totalApiDurationMs',
      'sessionDurationMs',
      'codeChanges',
    ]);
  });
});
