// What a loop cost: model requests and tokens spent between its first and last attempt, and what the guard would
// have saved (everything after the attempt it would have refused). A running meter per session; loops read it at
// their attempts, so nothing is buffered.
import { tokenTotal, type Tokens } from './events.ts';

/** A reading of the session's meter. */
export interface Reading {
  requests: number;
  tokens: number;
  /** Requests whose usage the transcript recorded. */
  metered: number;
}

export class Meter {
  private requests = 0;
  private tokens = 0;
  private metered = 0;

  add(tokens: Tokens | undefined): void {
    this.requests++;
    if (tokens) {
      this.metered++;
      this.tokens += tokenTotal(tokens);
    }
  }

  read(): Reading {
    return { requests: this.requests, tokens: this.tokens, metered: this.metered };
  }

  /** True when the transcript recorded model requests at all (some formats record none). */
  get seen(): boolean {
    return this.requests > 0;
  }
}

export interface Cost {
  /** Model requests made inside the loop (each one re-sends the whole conversation). */
  requests: number;
  /** Tokens those requests used, when the transcript records usage. */
  tokens?: number;
  /** Wall time from the first to the last attempt. */
  ms?: number;
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
  const cost: Cost = { requests };
  if (metered && to.metered > from.metered) cost.tokens = to.tokens - from.tokens;
  if (fromAt !== undefined && toAt !== undefined && toAt >= fromAt) cost.ms = toAt - fromAt;
  return cost;
}
