// The report's rows that tie (projects whose loops lost nothing, days) are ordered by their names' code units: the
// same report on every machine, whatever its locale, and no ICU collator loaded for it.
import { afterEach, describe, expect, it } from 'vitest';
import { aggregate, byName } from '../../src/audit/aggregate.ts';
import type { SessionSummary } from '../../src/audit/session.ts';

const original = String.prototype.localeCompare;
afterEach(() => {
  String.prototype.localeCompare = original;
});

/** Counts localeCompare calls from here on. */
function countCollations(): { calls: number } {
  const seen = { calls: 0 };
  String.prototype.localeCompare = function (this: string, ...args: Parameters<typeof original>) {
    seen.calls++;
    return original.apply(this, args);
  };
  return seen;
}

function session(project: string): SessionSummary {
  return {
    tool: 'claude',
    file: `${project}/s.jsonl`,
    session: project,
    project,
    shellCalls: 1,
    refusedByGuard: 0,
    requests: 0,
    unknownModels: [],
    loops: [],
    waits: [],
    usd: null,
    unpriced: 0,
    unrecorded: 0,
  };
}

function plainDays(): string[] {
  const out = ['unknown', '0000-01-01', '9999-12-31'];
  let seed = 7;
  const r = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  for (let i = 0; i < 150; i++)
    out.push(
      `${String(r(10000)).padStart(4, '0')}-${String(1 + r(12)).padStart(2, '0')}-${String(1 + r(31)).padStart(2, '0')}`,
    );
  return out;
}

describe('the order of tied rows', () => {
  it('keeps the per-day order every locale gave before, for every pair of day names', () => {
    const days = plainDays();
    for (const locale of ['en-US', 'sv-SE', 'de-DE'])
      for (const a of days)
        for (const b of days) expect(Math.sign(byName(a, b))).toBe(Math.sign(original.call(a, b, locale)));
  });

  it('orders projects that tie by their names’ code units, where locales disagree, without a collator', () => {
    // Swedish sorts å after z and English before a; Work and api differ in case.
    expect(Math.sign(original.call('/x/zz', '/x/åa', 'sv-SE'))).not.toBe(
      Math.sign(original.call('/x/zz', '/x/åa', 'en-US')),
    );
    const projects = ['/x/zz', '/x/api', '/x/åa', '/x/Work'];
    const seen = countCollations();
    const report = aggregate(
      projects.map(session),
      { files: 4, bytes: 0, unknownLines: 0, oversizeLines: 0, unreadable: [], ms: 0 },
      { project: null, since: null, tools: ['claude'] },
      [],
    );
    expect(report.totals.byProject.map((p) => p.project)).toEqual(['/x/Work', '/x/api', '/x/zz', '/x/åa']);
    expect(seen.calls).toBe(0);
  });
});
