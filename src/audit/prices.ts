// List prices per model and token kind (price-list.ts, or a --prices FILE of the same shape tried first), and the
// dollar cost of one model request. A model no price matches is unknown: reported as such, never priced at zero.
import { readFileSync } from 'node:fs';
import type { Tokens } from './events.ts';
import { PRICES, type Price, type PriceEntry, type PriceTable } from './price-list.ts';

export type { Price, PriceEntry, PriceTable };

const KINDS = ['input', 'cacheRead', 'cacheWrite', 'output'] as const;

export const BUILT_IN_PRICES: PriceTable = PRICES;

/** A price file that cannot be used: where it is wrong and how to fix it. */
export class PriceFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    what: string,
  ) {
    super(`${file}:${line}:${column}: ${what}`);
  }
}

/** Line and column (1-based) of a character offset. */
function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, offset));
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/**
 * Reads a --prices FILE: `{ "models": [{ "match", "input", "cacheRead", "cacheWrite", "output" }, …] }`. Its JSON
 * reader (comment-json, a third of the audit's code) is loaded here, so an audit without --prices never loads it.
 */
export async function readPriceFile(file: string, text = readFileSync(file, 'utf8')): Promise<PriceTable> {
  // A CommonJS package: bundled, its namespace has only `default`; under Node's own loader, both.
  const jsonc: typeof import('comment-json') & { default?: typeof import('comment-json') } = await import(
    'comment-json'
  );
  const { parse } = jsonc.default ?? jsonc;
  let value: unknown;
  try {
    value = JSON.parse(JSON.stringify(parse(text, null, true)));
  } catch (err) {
    const e = err as Error & { line?: number; column?: number };
    throw new PriceFileError(file, e.line ?? 1, (e.column ?? 0) + 1, `not valid JSON (${e.message.split('\n')[0]}).`);
  }
  const at = (needle: string, from = 0) => {
    const i = text.indexOf(needle, from);
    return position(text, Math.max(i, 0));
  };
  const models = (value as { models?: unknown } | null)?.models;
  if (!Array.isArray(models)) {
    const p = at('{');
    throw new PriceFileError(file, p.line, p.column, 'expected an object with a "models" list.');
  }
  let from = text.indexOf('"models"');
  const out: PriceEntry[] = [];
  for (const [i, m] of models.entries()) {
    const here = text.indexOf('{', from + 1);
    from = here < 0 ? from : here;
    const p = position(text, from);
    const entry = m as Record<string, unknown> | null;
    if (!entry || typeof entry !== 'object' || typeof entry.match !== 'string' || entry.match.trim() === '')
      throw new PriceFileError(file, p.line, p.column, `models[${i}]: needs "match", a part of a model id.`);
    for (const k of KINDS) {
      const v = entry[k];
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
        const q = at(`"${k}"`, from);
        throw new PriceFileError(
          file,
          q.line,
          q.column,
          `models[${i}] (${entry.match}): "${k}" must be a number of dollars per million tokens, 0 or more.`,
        );
      }
    }
    out.push({
      match: entry.match.toLowerCase(),
      input: entry.input as number,
      cacheRead: entry.cacheRead as number,
      cacheWrite: entry.cacheWrite as number,
      output: entry.output as number,
    });
  }
  const checked = (value as { checked?: unknown }).checked;
  return { checked: typeof checked === 'string' ? checked : 'unknown', models: out };
}

/** Prices a model id: the longest entry that appears in it at the start or after a separator
 * ("us.anthropic.claude-…"). */
export class Pricer {
  private readonly cache = new Map<string, Price | null>();
  private readonly entries: PriceEntry[];

  constructor(tables: PriceTable[]) {
    // The first table's entries win over later ones of the same length (an override over the built-in list).
    this.entries = tables.flatMap((t) => t.models);
  }

  price(model: string | undefined): Price | undefined {
    if (!model) return undefined;
    const id = model.toLowerCase();
    const hit = this.cache.get(id);
    if (hit !== undefined) return hit ?? undefined;
    let best: PriceEntry | undefined;
    for (const e of this.entries) {
      if (best && e.match.length <= best.match.length) continue;
      const i = id.indexOf(e.match);
      if (i < 0 || (i > 0 && /[a-z0-9]/.test(id[i - 1] as string))) continue;
      best = e;
    }
    if (this.cache.size < 1000) this.cache.set(id, best ?? null);
    return best;
  }

  /** Dollars for one request's tokens. */
  static cost(t: Tokens, p: Price): number {
    return (t.input * p.input + t.cacheRead * p.cacheRead + t.cacheWrite * p.cacheWrite + t.output * p.output) / 1e6;
  }
}
