// Child processes for doctor: a command line through /bin/sh (as the agent tools run hooks) or a program, with a
// timeout that kills the whole process group, since a hung hook would otherwise hang doctor too.
import { spawn } from 'node:child_process';
import type { Env } from './types.ts';

export const HOOK_TIMEOUT_MS = 10_000;
/** After the shell exits, how long its output pipes may stay open (held by a background process) before doctor stops
 * reading. */
const EXIT_GRACE_MS = 300;

function killGroup(child: ReturnType<typeof spawn>): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}

export interface ProcResult {
  /** Exit code; null when killed or never started. */
  status: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** The limit that was hit, when timedOut. */
  limitMs?: number;
  /** Set when the process could not be started at all. */
  spawnError?: string;
}

export interface ProcOptions {
  cwd: string;
  env: Env;
  input?: string;
  timeoutMs?: number;
}

/** Run a program; never rejects. */
export function runProcess(file: string, args: readonly string[], opts: ProcOptions): Promise<ProcResult> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let settled = false;
    const done = (r: ProcResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    let child: ReturnType<typeof spawn>;
    try {
      // A process group of its own, so a timeout also ends what the shell started.
      child = spawn(file, [...args], { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    } catch (err) {
      resolve({ status: null, stdout: '', stderr: '', timedOut: false, spawnError: (err as Error).message });
      return;
    }
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
      for (const s of [child.stdout, child.stderr, child.stdin]) s?.destroy();
      child.unref();
      // A grandchild may still hold the pipes open; do not wait for them.
      done({ status: null, stdout, stderr, timedOut, limitMs: opts.timeoutMs ?? HOOK_TIMEOUT_MS });
    }, opts.timeoutMs ?? HOOK_TIMEOUT_MS);
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', (err) => done({ status: null, stdout, stderr, timedOut, spawnError: err.message }));
    child.on('close', (status) => done({ status, stdout, stderr, timedOut }));
    // The command is over when its shell exits: whatever it left in its process group dies with it, and anything that
    // escaped the group (setsid) and still holds the pipes gets a moment to flush, then is cut off, so doctor ends.
    child.on('exit', (status) => {
      killGroup(child);
      setTimeout(() => {
        if (settled) return;
        for (const s of [child.stdout, child.stderr, child.stdin]) s?.destroy();
        child.unref();
        done({ status, stdout, stderr, timedOut });
      }, EXIT_GRACE_MS).unref();
    });
    // A hook that exits without reading its stdin is not an error of ours to report.
    child.stdin?.on('error', () => {});
    child.stdin?.end(opts.input ?? '');
  });
}

/** Run a command line the way Claude Code, Codex and Cursor run a hook: `sh -c "<command>"`. */
export function runShell(command: string, opts: ProcOptions): Promise<ProcResult> {
  return runProcess('/bin/sh', ['-c', command], opts);
}

/** One line describing how a process ended, for messages. */
export function describeExit(r: ProcResult): string {
  if (r.spawnError) return `could not start: ${r.spawnError}`;
  if (r.timedOut) return `did not finish within ${(r.limitMs ?? HOOK_TIMEOUT_MS) / 1000} s and was stopped`;
  const err = errorLine(r.stderr);
  return `exited ${r.status ?? 'by a signal'}${err ? `: ${err}` : ''}`;
}

/** The line of stderr that says what went wrong: Node's stack traces bury it between code frames. */
export function errorLine(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const telling = lines.find((l) => /\b(Error|error|not found|No such file|fatal)\b/.test(l) && !l.startsWith('at '));
  const pick = telling ?? lines.filter((l) => !/^Node\.js v/.test(l) && /\w/.test(l)).pop() ?? '';
  return pick.length > 240 ? `${pick.slice(0, 237)}...` : pick;
}

/** The last two non-empty lines of some output, trimmed to a readable length. */
export function lastLines(text: string, n = 2): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const tail = lines.slice(-n).join(' | ');
  return tail.length > 240 ? `${tail.slice(0, 237)}...` : tail;
}
