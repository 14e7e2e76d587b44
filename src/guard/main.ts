// The hook process: stdin → adapter → core → adapter → stdout. Any internal error allows the command.
import { fstatSync, readSync } from 'node:fs';
import { detectFormat, failOpenOutput, parseHook, render } from './adapters/index.ts';
import { obj, type OutputFormat, type ParsedHook } from './adapters/types.ts';
import { coerceState, emptyState, onPost, onPre, type SessionState } from './core/detector.ts';
import { checkHang } from './core/hang.ts';
import { readSettings } from './core/settings.ts';
import type { Decision, GuardSettings } from './core/types.ts';
import { recordDecision } from './event-log.ts';
import { pruneOldSessions, readState, resolveStateDir, sessionFileName, updateState } from './state.ts';

/** Payloads above this are not read whole; the guard allows and moves on. */
export const MAX_STDIN_BYTES = 32 * 1024 * 1024;
const ALLOW: Decision = { action: 'allow' };

type Env = Record<string, string | undefined>;

function decide(parsed: ParsedHook, settings: GuardSettings, env: Env): Decision {
  const event = parsed.event;
  if (!event) return ALLOW;
  const dir = resolveStateDir(env as NodeJS.ProcessEnv);
  const file = sessionFileName(parsed.family, parsed.session);

  if (event.kind === 'pre') {
    if (settings.hangGuard) {
      const hang = checkHang(event.command, { tool: parsed.family, background: event.background });
      if (hang) return { action: 'deny', rule: hang.rule, message: hang.message };
    }
    // Pre events only read: writers replace the file atomically, so no lock is needed.
    const state = coerceState(readState<SessionState>(dir, file));
    const input = event.turnId === undefined ? { command: event.command } : { command: event.command, turnId: event.turnId };
    return onPre(state, input, settings, { codex: parsed.format === 'codex' });
  }

  let fresh = false;
  const result = updateState<unknown, Decision>(dir, file, (current) => {
    fresh = current === undefined;
    if (event.kind === 'userTurn') return { next: emptyState(event.turnId), result: ALLOW };
    const { next, decision } = onPost(coerceState(current), event, settings);
    return { next, result: decision };
  });
  // Pruning only when a session starts keeps the per-event cost flat.
  if (fresh) pruneOldSessions(dir);
  return result ?? ALLOW;
}

/** The whole hook as a function of its inputs, for tests and for main(). */
export function runHook(stdin: string, toolArg: string | undefined, env: Env): string {
  let format: OutputFormat = toolArg === 'cursor' ? 'cursor' : toolArg === 'codex' ? 'codex' : 'claude';
  let eventName = '';
  try {
    const payload = obj(JSON.parse(stdin));
    if (!payload) return failOpenOutput(format, eventName);
    format = detectFormat(toolArg, payload);
    eventName = typeof payload.hook_event_name === 'string' ? payload.hook_event_name : '';
    const settings = readSettings(env);
    if (!settings.enabled) return failOpenOutput(format, eventName);
    const parsed = parseHook(toolArg, payload, env);
    const decision = decide(parsed, settings, env);
    if (decision.action !== 'allow') recordDecision(env as NodeJS.ProcessEnv, parsed.family, parsed.event && 'command' in parsed.event ? parsed.event.command : undefined, decision);
    return render(parsed.format, parsed.eventName, decision);
  } catch {
    return failOpenOutput(format, eventName);
  }
}

/** True when stdin is a terminal; fstat instead of node:tty, which would load the net and stream modules on every call. */
function stdinIsTerminal(): boolean {
  try {
    return fstatSync(0).isCharacterDevice();
  } catch {
    return false;
  }
}

function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Read all of stdin synchronously, up to the cap; null when over the cap. */
export function readStdin(fd = 0): string | null {
  const chunks: Buffer[] = [];
  let total = 0;
  const buf = Buffer.allocUnsafe(1 << 16);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, buf, 0, buf.length, null);
    } catch (err) {
      // A non-blocking pipe reports EAGAIN until data arrives.
      if ((err as NodeJS.ErrnoException).code === 'EAGAIN') {
        sleepMs(2);
        continue;
      }
      if ((err as NodeJS.ErrnoException).code === 'EOF') break;
      throw err;
    }
    if (n === 0) break;
    total += n;
    if (total > MAX_STDIN_BYTES) return null;
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function main(): void {
  const toolArg = process.argv[2];
  let out = toolArg === 'cursor' ? '{}' : '';
  try {
    // A person running the file by hand gets a usage line instead of a silent wait on the terminal.
    if (stdinIsTerminal()) {
      process.stderr.write('loop-guard: a hook for coding agents; it reads a hook payload on stdin. Usage: node loop-guard.mjs <claude|codex|cursor> < payload.json\n');
    } else {
      const stdin = readStdin();
      out = stdin === null ? out : runHook(stdin, toolArg, process.env);
    }
  } catch {
    // Fail open: whatever broke, the command is allowed.
  }
  if (out) process.stdout.write(`${out}\n`);
  process.exitCode = 0;
}
