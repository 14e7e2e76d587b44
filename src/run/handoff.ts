// The guard's own hand-off note, folded into the run's state: when the guard stopped the agent during a rung, what
// it refused (and the failure class of each) goes into the state file the next rung reads.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HANDOFF_JSON } from '../guard/core/ladder.ts';
import { obj, str } from '../guard/json-value.ts';

export interface GuardHandoff {
  /** A short account for the state file: each refused command, its class and its last lines. */
  text: string;
  /** The failure classes of the refused commands (the guard's classes: auth, network, …). */
  classes: string[];
}

/** The guard's hand-offs written at or after `since` (epoch ms); null when it wrote none. */
export function handoffSince(root: string, since: number): GuardHandoff | null {
  let list: unknown;
  try {
    list = JSON.parse(readFileSync(join(root, HANDOFF_JSON), 'utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(list)) return null;
  const lines: string[] = [];
  const classes = new Set<string>();
  for (const r of list) {
    const rec = obj(r);
    const at = Date.parse(str(rec?.at) ?? '');
    // The note's time has whole seconds at best: a second's slack keeps a hand-off at the rung's start.
    if (!rec || !(at >= since - 1000)) continue;
    for (const c of Array.isArray(rec.refused) ? rec.refused : []) {
      const cmd = obj(c);
      if (!cmd) continue;
      const failure = str(cmd.failure);
      if (failure) classes.add(failure);
      const last = (str(cmd.lastLines) ?? '').split('\n').slice(-3).join(' / ');
      lines.push(`- refused \`${str(cmd.command) ?? '?'}\`${failure ? ` (${failure})` : ''}: ${last}`);
    }
  }
  return lines.length ? { text: lines.join('\n'), classes: [...classes] } : null;
}
