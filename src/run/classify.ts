// Classify before climbing: the agent's own terminal reason and the verifier's output, read with the guard's own
// failure classes, decide whether another rung can help (climb) or only costs money to hear "no" again (halt).
import { classifyFailure } from '../guard/core/classify.ts';
import type { HaltClass, Policy } from './policy.ts';
import { scopeRefusal } from './scope.ts';
import type { Tally } from './streams.ts';

export interface Outcome {
  /** The agent's tally when it ended; `cut` when we stopped it at its share. */
  tally: Tally;
  cut: boolean;
  /** The agent's exit code (null when killed by a signal). */
  agentExit: number | null;
  agentStderr: string;
  /** Classes of the commands the guard refused in this session's hand-off, if it handed off. */
  handoffClasses: string[];
  /** The guard handed off during the rung: its hand-off climbs, and the agent's words about it are no refusal. */
  handedOff?: boolean;
  verifyExit: number | null;
  verifyOutput: string;
  /** The verifier hit --verify-timeout: a failed rung whose class is `timeout` unless its output says a halting one. */
  verifyTimedOut?: boolean;
}

export type Verdict =
  | { kind: 'pass' }
  | { kind: 'halt'; cls: HaltClass | string; reason: string }
  | { kind: 'climb'; cls: string | null; reason: string };

/** The first line worth quoting: one that carries the class's words, else the first non-empty line. */
export function firstReason(output: string): string {
  const lines = output
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const telling = lines.find((l) => classifyFailure(l) !== null);
  const line = telling ?? lines[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

export function classify(o: Outcome, policy: Policy): Verdict {
  const halts = (cls: string) => (policy.halt as string[]).includes(cls);
  if (o.cut || o.tally.terminal === 'budget')
    return { kind: 'halt', cls: 'budget', reason: 'budget exhausted: the rung spent its share of --budget' };
  // The agent's own failure (its API refused the key, the host was unreachable): nothing the task changes.
  if (o.tally.terminal === 'error' || (o.agentExit !== 0 && o.agentExit !== null)) {
    const text = `${o.tally.error ?? ''}\n${o.agentStderr}`;
    const cls = classifyFailure(text);
    if (cls && halts(cls)) return { kind: 'halt', cls, reason: `the agent failed: ${firstReason(text)}` };
  }
  if (o.verifyExit === 0 && !o.verifyTimedOut) return { kind: 'pass' };
  const cls = classifyFailure(o.verifyOutput, o.verifyExit ?? undefined) ?? (o.verifyTimedOut ? 'timeout' : null);
  const reason = firstReason(o.verifyOutput) || `the verifier exited ${o.verifyExit ?? 'by a signal'}`;
  if (cls && halts(cls)) return { kind: 'halt', cls, reason };
  // The guard refused a command of a class that halts (a 401 the agent kept calling): the same answer.
  const refused = o.handoffClasses.find(halts);
  if (refused)
    return { kind: 'halt', cls: refused, reason: `the loop guard handed off after ${refused} failures; ${reason}` };
  // The agent's own last word that a rule forbids the task (a hook, a policy): asking again asks the same rule.
  const refusal = o.handedOff || !halts('scope') ? null : scopeRefusal(o.tally.finalText);
  if (refusal) return { kind: 'halt', cls: 'scope', reason: `the agent refused: ${refusal}` };
  return { kind: 'climb', cls, reason };
}
