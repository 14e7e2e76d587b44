// One line per rung: on stderr for a person (`rung 2  fresh context  $0.0003 of $0.25  …`), and with --json one JSON
// object per line on stdout for a script.

export interface RungRecord {
  rung: number;
  action: string;
  /** The rung's share of the budget (0–1), and its dollars when a budget was given. */
  share: number;
  budgetUsd: number | null;
  /** Dollars spent on this rung at list prices; null when the agent reports no tokens or its model has no price. */
  spentUsd: number | null;
  requests: number;
  verifyExit: number | null;
  /** pass | climb | halt | escalated */
  outcome: 'pass' | 'climb' | 'halt' | 'escalated';
  /** The failure class that decided a halt (or was seen on a climb). */
  class: string | null;
  /** The first line of the verifier's objection, or why the run stopped. */
  reason: string;
  model: string | null;
  ms: number;
  /** True when the rung's agent hit the wall-clock limit (--rung-timeout) and its process group was ended. */
  timedOut: boolean;
  /** True when the verifier hit its wall-clock limit (--verify-timeout) and its process group was ended. */
  verifyTimedOut: boolean;
  /** Notes: the guard handed off, the agent was cut at its share or timed out, no smaller model was set. */
  notes: string[];
}

const ACTION_WORDS: Record<string, string> = {
  attempt: 'attempt',
  'retry-with-reason': 'retry with reason',
  'fresh-context': 'fresh context',
  'smallest-step': 'smallest step',
  'hand-off': 'hand off',
};

export function money(usd: number | null): string {
  if (usd === null) return '$?';
  if (usd === 0) return '$0.00';
  return usd < 0.01 ? `$${usd.toFixed(6)}` : `$${usd.toFixed(2)}`;
}

export function textLine(r: RungRecord): string {
  const spent = r.budgetUsd === null ? money(r.spentUsd) : `${money(r.spentUsd)} of ${money(r.budgetUsd)}`;
  const parts = [
    `rung ${r.rung}`,
    (ACTION_WORDS[r.action] ?? r.action).padEnd(17),
    spent,
    `${r.requests} ${r.requests === 1 ? 'request' : 'requests'}`,
    r.verifyTimedOut ? 'verify timed out' : r.verifyExit === null ? 'not verified' : `verify exit ${r.verifyExit}`,
    r.outcome === 'climb'
      ? 'climb'
      : r.outcome === 'pass'
        ? 'PASS'
        : r.outcome === 'halt'
          ? `HALT ${r.class}`
          : 'ESCALATED',
  ];
  const tail = [r.reason, ...r.notes].filter(Boolean).join('; ');
  return `${parts.join('  ')}${tail ? `  ${tail}` : ''}`;
}

export function jsonLine(r: RungRecord): string {
  return JSON.stringify(r);
}
