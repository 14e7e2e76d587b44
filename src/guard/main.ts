// The hook process: stdin → adapter → core → adapter → stdout. Any internal error allows the command.
import { closeSync, constants, fstatSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import {
  detectFormat,
  factsFor,
  failOpenOutput,
  formatFromArg,
  parseHook,
  projectDirOf,
  quietOutput,
  render,
  stopsByInterrupt,
  HOOK_FORMATS,
} from './adapters/index.ts';
import { obj, str, type OutputFormat } from './adapters/types.ts';
import { decide } from './core/decide.ts';
import { readSettings } from './core/settings.ts';
import type { Decision } from './core/types.ts';
import { recordDecision } from './event-log.ts';
import { cursorRunsItsOwn } from './cursor-twice.ts';
import { projectFiles } from './project-files.ts';
import { treeFingerprint } from './tree.ts';
import { noteForNextSession, writeHandoff } from './handoff-note.ts';
import { agentProcess } from './agent-process.ts';
import { bind } from './loop-store.ts';
import { sleep } from './sleep.ts';
import { stopCodexExec } from './stop-codex.ts';

/** Payloads above this are not read whole; the guard allows and moves on. */
export const MAX_STDIN_BYTES = 32 * 1024 * 1024;
/** A payload not complete within this long is abandoned (the command is allowed), so a stuck writer never stalls the
 * agent. */
export const STDIN_DEADLINE_MS = 5_000;

type Env = Record<string, string | undefined>;

/** The whole hook as a function of its inputs, for tests and for main(). */
export function runHook(
  stdin: string,
  toolArg: string | undefined,
  env: Env,
  agent: () => string | undefined = () => undefined,
): string {
  return handleHook(stdin, toolArg, env, agent).out;
}

/** runHook, plus the kind of event handled (for the code cache, which records what it covers). */
function handleHook(
  stdin: string,
  toolArg: string | undefined,
  env: Env,
  agent: () => string | undefined,
): { out: string; kind: string; stopCodex: boolean } {
  let kind = '';
  let stopCodex = false;
  const out = hookOutput(
    stdin,
    toolArg,
    env,
    agent,
    (k) => (kind = k),
    () => (stopCodex = true),
  );
  return { out, kind, stopCodex };
}

function hookOutput(
  stdin: string,
  toolArg: string | undefined,
  env: Env,
  agent: () => string | undefined,
  onKind: (kind: string) => void,
  onCodexStop: () => void = () => {},
): string {
  let format: OutputFormat = formatFromArg(toolArg);
  let eventName = '';
  try {
    // cursor-agent sends every payload with a UTF-8 BOM (DobermanCore/Doberman-Core#576), which JSON.parse refuses.
    const payload = obj(JSON.parse(stdin.charCodeAt(0) === 0xfeff ? stdin.slice(1) : stdin));
    if (!payload) return failOpenOutput(format, eventName);
    format = detectFormat(toolArg, payload);
    eventName = typeof payload.hook_event_name === 'string' ? payload.hook_event_name : '';
    const settings = readSettings(env);
    if (!settings.enabled) return failOpenOutput(format, eventName);
    if (cursorRunsItsOwn(toolArg, payload, env)) return failOpenOutput(format, eventName);
    const parsed = parseHook(toolArg, payload, env);
    const projectDir = projectDirOf(parsed.format, payload, env);
    const look = (skip: readonly string[], watch?: readonly string[]) => treeFingerprint(projectDir, skip, watch);
    // A session start hears the loop's hand-off note, if its last session left one; it counts nothing.
    if (parsed.event?.kind === 'start')
      return render(parsed.format, parsed.eventName, noteForNextSession(projectDir ?? process.cwd(), env));
    const bound = parsed.event
      ? bind(parsed.family, parsed.session, parsed.event, env, projectDir, look, agent)
      : undefined;
    // A tool with no session-start hook of ours hears the note at its session's first prompt (silent where the tool
    // has one: the renders answer a warn only where it reaches the model).
    if (bound?.first && parsed.event) {
      onKind(parsed.event.kind);
      return render(parsed.format, parsed.eventName, noteForNextSession(projectDir ?? process.cwd(), env));
    }
    const decision: Decision = bound
      ? (bound.done ??
        decide(
          bound.event,
          settings,
          factsFor(parsed),
          bound.store,
          look,
          true,
          // The command runs in the shell's cwd, where its package.json or Makefile is.
          projectFiles(str(payload.cwd) ?? projectDir),
        ))
      : { action: 'allow' };
    if (parsed.event) onKind(parsed.event.kind);
    if (parsed.event && decision.action !== 'allow')
      recordDecision(
        env as NodeJS.ProcessEnv,
        parsed.family,
        'command' in parsed.event ? parsed.event.command : undefined,
        decision,
      );
    if (decision.action === 'handoff' && !decision.again) {
      writeHandoff(
        projectDir ?? process.cwd(),
        { at: new Date().toISOString(), tool: parsed.family, session: parsed.session, ...decision.note },
        env,
      );
    }
    if (decision.action === 'handoff' && stopsByInterrupt(parsed.format)) onCodexStop();
    return render(parsed.format, parsed.eventName, decision);
  } catch {
    return failOpenOutput(format, eventName);
  }
}

/** True when stdin is a terminal; fstat instead of node:tty, which would load the net and stream modules on every
 * call. */
function stdinIsTerminal(): boolean {
  try {
    const st = fstatSync(0);
    if (!st.isCharacterDevice()) return false;
    // /dev/null is a character device too, and means "no input", not a person.
    const devNull = statSync('/dev/null');
    return !(st.rdev === devNull.rdev && st.ino === devNull.ino);
  } catch {
    return false;
  }
}

/**
 * A descriptor for stdin that never blocks, so the read can keep a deadline: a pipe is reopened non-blocking through
 * /proc (Linux; its own file description, nothing shared changes); a socket (Node-based agents spawn hooks over
 * socketpairs) is made non-blocking by opening a libuv pipe handle on it (socketStdinNonBlocking). Anything else (a
 * file) cannot block for long and is read as is.
 */
function nonBlockingStdin(): { fd: number; close: boolean } {
  try {
    const st = fstatSync(0);
    if (st.isFIFO()) {
      try {
        return { fd: openSync('/proc/self/fd/0', constants.O_RDONLY | constants.O_NONBLOCK), close: true };
      } catch {
        void process.stdin;
      }
    } else if (st.isSocket()) socketStdinNonBlocking();
  } catch {
    // fall through to fd 0
  }
  return { fd: 0, close: false };
}

/** Keeps the pipe handle alive (a collected handle would close fd 0 under the read). */
const keepAlive: unknown[] = [];

/**
 * Sets O_NONBLOCK on a socket stdin. process.stdin would do it too, but creating it loads net and the streams
 * (~3-4 ms, a sixth of Node's whole start-up); libuv's pipe handle is what it uses underneath, reached through
 * process.binding (documented as deprecated, warns only under --pending-deprecation, which is muted here). Where
 * that is missing or fails, process.stdin is created as before.
 */
function socketStdinNonBlocking(): void {
  const proc = process as unknown as { binding?: (name: string) => unknown; noDeprecation?: boolean | undefined };
  const muted = proc.noDeprecation;
  try {
    proc.noDeprecation = true;
    const wrap = proc.binding?.('pipe_wrap') as
      | { Pipe: new (type: number) => { open(fd: number): number }; constants: { SOCKET: number } }
      | undefined;
    if (!wrap) throw new Error('no pipe_wrap');
    const handle = new wrap.Pipe(wrap.constants.SOCKET);
    if (handle.open(0) !== 0) throw new Error('pipe open failed');
    keepAlive.push(handle);
  } catch {
    void process.stdin;
  } finally {
    proc.noDeprecation = muted;
  }
}

/**
 * Writes the answer with fs.writeSync: process.stdout on a pipe or socket is a net.Socket, and creating it loads the
 * net and stream modules (~3 ms). A reader that has gone away (EPIPE) or any other failure loses only the answer,
 * which the tools read as "allow"; a non-blocking descriptor (EAGAIN) is retried until the stdin deadline.
 */
export function writeOut(text: string, fd = 1): void {
  const data = Buffer.from(text, 'utf8');
  const until = Date.now() + STDIN_DEADLINE_MS;
  let off = 0;
  while (off < data.length) {
    try {
      off += writeSync(fd, data, off, data.length - off);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN' || Date.now() > until) return;
      sleep(1);
    }
  }
}

/** Read all of stdin synchronously, up to the cap and the deadline; null when over either. */
export function readStdin(fd = 0, deadlineMs = STDIN_DEADLINE_MS): string | null {
  const until = Date.now() + deadlineMs;
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
        if (Date.now() > until) return null;
        sleep(2);
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

/** What a person running the file by hand sees: the tool arguments the hook file reads (the plugins take none). */
export function usageLine(): string {
  const tools = HOOK_FORMATS.join('|');
  return (
    `loop-guard: a hook for coding agents; it reads a hook payload on stdin. Usage: node loop-guard.cjs <` +
    `${tools}> < payload.json\n`
  );
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
      process.stderr.write(usageLine());
    } else {
      const input = nonBlockingStdin();
      let stdin: string | null;
      try {
        stdin = readStdin(input.fd);
      } finally {
        if (input.close) closeSync(input.fd);
      }
      if (stdin !== null) ({ out, kind, stopCodex } = handleHook(stdin, toolArg, process.env, agentProcess));
    }
  } catch {
    // Fail open: whatever broke, the command is allowed.
  }
  if (out) writeOut(`${out}\n`);
  // After the refusal is written (stdout to a pipe is synchronous on POSIX), so Codex records why the command did not
  // run.
  if (stopCodex) stopCodexExec();
  process.exitCode = 0;
  return kind;
}
