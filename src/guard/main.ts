// The hook process: stdin → adapter → core → adapter → stdout. Any internal error allows the command.
import { fstatSync, readSync } from 'node:fs';
import { detectFormat, factsFor, failOpenOutput, formatFromArg, parseHook, projectDirOf, quietOutput, render, stopsByInterrupt } from './adapters/index.ts';
import { obj, type OutputFormat, type ParsedHook } from './adapters/types.ts';
import { decide, type SessionStore } from './core/decide.ts';
import { readSettings } from './core/settings.ts';
import type { Decision } from './core/types.ts';
import { recordDecision } from './event-log.ts';
import { writeHandoff } from './handoff-note.ts';
import { stopCodexExec } from './stop-codex.ts';
import { pruneOldSessions, readState, resolveStateDir, sessionFileName, updateState } from './state.ts';

/** Payloads above this are not read whole; the guard allows and moves on. */
export const MAX_STDIN_BYTES = 32 * 1024 * 1024;

type Env = Record<string, string | undefined>;

/** The session's state file, locked for updates; a new session prunes old ones, which keeps the per-event cost flat. */
function fileStore(parsed: ParsedHook, env: Env): SessionStore {
  const dir = resolveStateDir(env as NodeJS.ProcessEnv);
  const file = sessionFileName(parsed.family, parsed.session);
  return {
    read: () => readState<unknown>(dir, file),
    update(change) {
      let fresh = false;
      const result = updateState<unknown, Decision>(dir, file, (current) => {
        fresh = current === undefined;
        return change(current);
      });
      if (fresh) pruneOldSessions(dir);
      return result;
    },
  };
}

/** The whole hook as a function of its inputs, for tests and for main(). */
export function runHook(stdin: string, toolArg: string | undefined, env: Env): string {
  return handleHook(stdin, toolArg, env).out;
}

/** runHook, plus the kind of event handled (for the code cache, which records what it covers). */
function handleHook(stdin: string, toolArg: string | undefined, env: Env): { out: string; kind: string; stopCodex: boolean } {
  let kind = '';
  let stopCodex = false;
  const out = hookOutput(stdin, toolArg, env, (k) => (kind = k), () => (stopCodex = true));
  return { out, kind, stopCodex };
}

function hookOutput(stdin: string, toolArg: string | undefined, env: Env, onKind: (kind: string) => void, onCodexStop: () => void = () => {}): string {
  let format: OutputFormat = formatFromArg(toolArg);
  let eventName = '';
  try {
    const payload = obj(JSON.parse(stdin));
    if (!payload) return failOpenOutput(format, eventName);
    format = detectFormat(toolArg, payload);
    eventName = typeof payload.hook_event_name === 'string' ? payload.hook_event_name : '';
    const settings = readSettings(env);
    if (!settings.enabled) return failOpenOutput(format, eventName);
    const parsed = parseHook(toolArg, payload, env);
    const decision = parsed.event ? decide(parsed.event, settings, factsFor(parsed), fileStore(parsed, env)) : { action: 'allow' as const };
    if (parsed.event) onKind(parsed.event.kind);
    if (parsed.event && decision.action !== 'allow') recordDecision(env as NodeJS.ProcessEnv, parsed.family, 'command' in parsed.event ? parsed.event.command : undefined, decision);
    if (decision.action === 'handoff' && !decision.again) {
      writeHandoff(projectDirOf(parsed.format, payload, env) ?? process.cwd(), { at: new Date().toISOString(), tool: parsed.family, session: parsed.session, ...decision.note }, env);
    }
    if (decision.action === 'handoff' && stopsByInterrupt(parsed.format)) onCodexStop();
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

/** Runs the hook on this process's stdin; returns the kind of event handled ('' for none). */
export function main(): string {
  const toolArg = process.argv[2];
  let out = quietOutput(toolArg);
  let kind = '';
  let stopCodex = false;
  try {
    // A person running the file by hand gets a usage line instead of a silent wait on the terminal.
    if (stdinIsTerminal()) {
      process.stderr.write('loop-guard: a hook for coding agents; it reads a hook payload on stdin. Usage: node loop-guard.mjs <claude|codex|cursor> < payload.json\n');
    } else {
      const stdin = readStdin();
      if (stdin !== null) ({ out, kind, stopCodex } = handleHook(stdin, toolArg, process.env));
    }
  } catch {
    // Fail open: whatever broke, the command is allowed.
  }
  if (out) process.stdout.write(`${out}\n`);
  // After the refusal is written (stdout to a pipe is synchronous on POSIX), so Codex records why the command did not run.
  if (stopCodex) stopCodexExec();
  process.exitCode = 0;
  return kind;
}
