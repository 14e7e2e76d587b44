// The price list: which row prices a model id.
import { describe, expect, it } from 'vitest';
import { BUILT_IN_PRICES, Pricer, readPriceFile } from '../../src/audit/prices.ts';

const p = new Pricer([BUILT_IN_PRICES]);

describe('Pricer', () => {
  it('the longest row a model id contains wins; dated, provider-prefixed and upper-case ids match', () => {
    expect(p.price('claude-sonnet-4-5-20250929')).toMatchObject({ input: 3, output: 15 });
    expect(p.price('us.anthropic.claude-opus-4-5-20251101-v1:0')).toMatchObject({ input: 5, output: 25 });
    expect(p.price('claude-opus-4-1-20250805')).toMatchObject({ input: 15, output: 75 });
    expect(p.price('GPT-5.4-mini')).toMatchObject({ input: 0.75 });
    expect(p.price('gpt-5.1-codex-max')).toMatchObject({ input: 1.25, cacheRead: 0.125 });
  });

  it('an id with no row, or a row only inside a word, is unknown', () => {
    expect(p.price('mock-model')).toBeUndefined();
    expect(p.price('turbo3')).toBeUndefined();
    expect(p.price(undefined)).toBeUndefined();
  });

  it('an override row comes before the built-in one', async () => {
    const mine = await readPriceFile(
      'mine.json',
      '{ "models": [{ "match": "claude-sonnet-4", "input": 1, "cacheRead": 0, "cacheWrite": 0, "output": 1 }] }',
    );
    expect(new Pricer([mine, BUILT_IN_PRICES]).price('claude-sonnet-4-5')).toMatchObject({ input: 1 });
  });

  it('dollars per request are tokens × price per million', () => {
    const price = p.price('claude-sonnet-4-5');
    if (!price) throw new Error('no price');
    expect(Pricer.cost({ input: 1e6, cacheRead: 1e6, cacheWrite: 1e6, output: 1e6 }, price)).toBeCloseTo(
      3 + 0.3 + 3.75 + 15,
      9,
    );
  });
});
