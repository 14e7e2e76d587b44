// Budgets that hold: the run's dollars split by the rungs' shares, each share enforced while the agent streams.
// Priced with the audit's price list (and --prices), so a run's money reads the same as `audit`'s.
import { BUILT_IN_PRICES, Pricer, readPriceFile } from '../audit/prices.ts';
import { roundUsd } from '../audit/cost.ts';
import { type PriceOf, requestsOf, type Tally } from './streams.ts';

/** The environment variable that gives the budget when --budget does not. */
export const BUDGET_ENV = 'LOOP_GUARD_RUN_BUDGET';

/** Reads a budget in US dollars ("2", "0.50", "$3"); undefined for none, an error text for a bad value. */
export function parseBudget(text: string | undefined): number | undefined | { error: string } {
  if (text === undefined || text.trim() === '') return undefined;
  const t = text.trim().replace(/^\$/, '');
  if (!/^\d*\.?\d+$/.test(t) || Number(t) <= 0)
    return { error: `the budget "${text}" is not an amount of US dollars above 0 (e.g. --budget 2.50).` };
  return Number(t);
}

export async function makePricer(pricesFile: string | undefined): Promise<PriceOf> {
  const pricer = new Pricer(pricesFile ? [await readPriceFile(pricesFile), BUILT_IN_PRICES] : [BUILT_IN_PRICES]);
  return (tokens, model) => {
    const p = pricer.price(model);
    return p ? Pricer.cost(tokens, p) : undefined;
  };
}

/** What the rung has spent by now: measured dollars, or requests × the measured dollars per request. */
export function spentNow(t: Tally, usdPerRequest: number | undefined): number | null {
  const requests = requestsOf(t);
  if (!t.unmetered && t.unpriced === 0) {
    // A stream that reports tokens only at the end (Codex, Gemini) has spent at least the estimate meanwhile; once
    // its closing total is read, that total is the spend (the estimate is an earlier rung's price, maybe another's).
    // Once the session file priced a request of this rung, this rung's own price per request is the estimate's.
    const rate = t.meter?.requests ? t.usd / t.meter.requests : usdPerRequest;
    const estimate = rate !== undefined && !t.closed ? requests * rate : 0;
    return roundUsd(Math.max(t.usd, estimate));
  }
  if (t.unmetered && usdPerRequest !== undefined) return roundUsd(requests * usdPerRequest);
  return null;
}

/**
 * True once the rung has spent its share: checked after every event, so the agent is stopped by the request that
 * crossed the line, and the run overspends by at most that one request.
 */
export function overShare(t: Tally, shareUsd: number | null, usdPerRequest: number | undefined): boolean {
  if (shareUsd === null) return false;
  const spent = spentNow(t, usdPerRequest);
  return spent !== null && spent >= shareUsd;
}
