// The guard's own record of what it did (warnings and refusals), so `create-loop-guard audit` can show "stopped since
// install". Written only when the guard acts, never on the common allow path; bounded by rotating one file; any
// failure is ignored because the hook must never fail over its own bookkeeping.
import { appendFileSync, closeSync, mkdirSync, openSync, readSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Decision } from './core/types.ts';
import { resolveStateDir } from './state-dir.ts';

export const EVENT_LOG = 'events.log';
/** The log rotates into events.log.1 past this size, so both together never exceed twice this. */
export const EVENT_LOG_MAX_BYTES = 128 * 1024;
const MAX_COMMAND = 200;

export interface GuardLogEntry {
  /** epoch ms */
  t: number;
  tool: string;
  /** warn, deny, or handoff (a refusal that also stopped the agent's turn and wrote .agents/handoff.md) */
  a: 'warn' | 'deny' | 'handoff';
  /** repeat, cycle, or a hang rule id */
  rule?: string;
  cmd: string;
  cwd?: string;
}

/**
 * Appends one line to the log in the state directory of `env` (LOOP_GUARD_STATE_DIR, XDG_STATE_HOME, ~) when the
 * decision is a warning or a refusal, with the working directory (the project); nothing on allow. Never throws.
 */
export function recordDecision(
  env: NodeJS.ProcessEnv,
  tool: string,
  command: string | undefined,
  decision: Decision,
  cwd: () => string = process.cwd,
): void {
  if (decision.action === 'allow') return;
  try {
    const dir = resolveStateDir(env);
    const entry: GuardLogEntry = {
      t: Date.now(),
      tool,
      a: decision.action,
      ...(decision.action === 'deny' || decision.action === 'handoff' ? { rule: decision.rule } : {}),
      cmd: (command ?? '').slice(0, MAX_COMMAND),
      // The hook runs in the agent's working directory: that is the project the audit scopes by.
      cwd: cwd(),
    };
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, EVENT_LOG);
    let size = 0;
    try {
      size = statSync(file).size;
    } catch {
      // no log yet
    }
    if (size > EVENT_LOG_MAX_BYTES) renameSync(file, `${file}.1`);
    appendFileSync(file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  } catch {
    // fail open: the log is a convenience, the decision already stands
  }
}

/** Every readable entry, oldest first; malformed lines are skipped. */
export function readGuardLog(dir: string): GuardLogEntry[] {
  const out: GuardLogEntry[] = [];
  for (const name of [`${EVENT_LOG}.1`, EVENT_LOG]) {
    let text = '';
    try {
      const fd = openSync(join(dir, name), 'r');
      try {
        const buf = Buffer.alloc(Math.min(statSync(join(dir, name)).size, 4 * EVENT_LOG_MAX_BYTES));
        const n = readSync(fd, buf, 0, buf.length, 0);
        text = buf.toString('utf8', 0, n);
      } finally {
        closeSync(fd);
      }
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const e = JSON.parse(line) as GuardLogEntry;
        if (
          typeof e.t === 'number' &&
          (e.a === 'warn' || e.a === 'deny' || e.a === 'handoff') &&
          typeof e.cmd === 'string'
        )
          out.push(e);
      } catch {
        // a torn or foreign line
      }
    }
  }
  return out;
}
