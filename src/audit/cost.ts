// What a loop cost: model requests, tokens and list-price dollars spent between its first and last attempt, and what
// the guard would have saved (everything after the attempt it would have refused). A running meter per session; loops
// read it at their attempts, so nothing is buffered.
import { tokenTotal, type Tokens } from './events.ts';
import { Pricer } from './prices.ts';

/** A reading of the session's meter. */
export interface Reading {
  requests: number;
  tokens: number;
  /** Requests whose usage the transcript recorded. */
  metered: number;
  /** Of those, requests whose model has a list price, and their dollars. */
  priced: number;
  usd: number;
  kinds: Tokens;
}

/** Dollars at list prices, and what could not be priced: said so, never counted as zero. */
export interface Money {
  /** Dollars of the requests whose model has a price; null when none of them has. */
  usd: number | null;
  /** Requests whose usage was recorded but whose model has no price (named in the report's prices.unknownModels). */
  unpriced: number;
  /** Requests whose transcript recorded no usage. */
  unrecorded: number;
}

export class Meter {
  private r: Reading = {
    requests: 0,
    tokens: 0,
    metered: 0,
    priced: 0,
    usd: 0,
    kinds: { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 },
  };
  /** Model ids seen without a price, bounded. */
  readonly unknownModels = new Set<string>();

  constructor(private readonly pricer?: Pricer) {}

  add(tokens: Tokens | undefined, model?: string): void {
    const r = this.r;
    let { usd, priced, metered, tokens: total, kinds } = r;
    if (tokens) {
      metered++;
      total += tokenTotal(tokens);
      // Written out, not spread and changed: a spread copies through V8's slow path in code not yet optimized.
      kinds = {
        input: kinds.input + tokens.input,
        cacheRead: kinds.cacheRead + tokens.cacheRead,
        cacheWrite: kinds.cacheWrite + tokens.cacheWrite,
        output: kinds.output + tokens.output,
      };
      const price = this.pricer?.price(model);
      if (price) {
        priced++;
        usd += Pricer.cost(tokens, price);
      } else if (this.unknownModels.size < 20) this.unknownModels.add(model || 'model not recorded');
    }
    // Readings are kept by loops, so each add makes a new one rather than changing one a loop holds (nor its kinds).
    this.r = { requests: r.requests + 1, tokens: total, metered, priced, usd, kinds };
  }

  read(): Reading {
    return this.r;
  }

  /** True when the transcript recorded model requests at all (some formats record none). */
  get seen(): boolean {
    return this.r.requests > 0;
  }
}

export interface Cost extends Money {
  /** Model requests made inside the loop (each one re-sends the whole conversation). */
  requests: number;
  /** Tokens those requests used, when the transcript records usage. */
  tokens?: number;
  /** The same tokens by kind (billed at different prices: a cache read costs a tenth of an input token). */
  kinds?: Tokens;
  /** Wall time from the first to the last attempt. */
  ms?: number;
}

/** Rounded to a millionth of a dollar: sums of float prices otherwise print as 0.30000000000000004. */
export function roundUsd(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

/**
 * The cost between two readings. `attempts` stands in for requests when the transcript records none: each attempt
 * after the first took one model request to issue.
 */
export function costBetween(
  from: Reading,
  to: Reading,
  attempts: number,
  metered: boolean,
  fromAt?: number,
  toAt?: number,
): Cost {
  const requests = metered ? to.requests - from.requests : Math.max(0, attempts);
  const withUsage = metered ? to.metered - from.metered : 0;
  const priced = metered ? to.priced - from.priced : 0;
  const cost: Cost = {
    requests,
    usd: priced > 0 ? roundUsd(to.usd - from.usd) : null,
    unpriced: withUsage - priced,
    unrecorded: requests - withUsage,
  };
  if (withUsage > 0) {
    cost.tokens = to.tokens - from.tokens;
    cost.kinds = {
      input: to.kinds.input - from.kinds.input,
      cacheRead: to.kinds.cacheRead - from.kinds.cacheRead,
      cacheWrite: to.kinds.cacheWrite - from.kinds.cacheWrite,
      output: to.kinds.output - from.kinds.output,
    };
  }
  if (fromAt !== undefined && toAt !== undefined && toAt >= fromAt) cost.ms = toAt - fromAt;
  return cost;
}
