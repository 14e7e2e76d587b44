// Run a program with a hard timeout, killing its whole process group (the CLIs under test spawn shells).
import { spawn } from 'node:child_process';

export interface ProcResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  durationMs: number;
}

function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is already gone.
  }
}

/** Runs a command in its own process group with stdin from /dev/null and a hard timeout. */
export function runProcess(
  bin: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string>; timeoutMs: number },
): Promise<ProcResult> {
  const started = Date.now();
  return new Promise((resolvePromise) => {
    // detached: own process group, so a timeout can kill the CLI together with the shells it spawned.
    const child = spawn(bin, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let exitInfo: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, opts.timeoutMs);
    let graceTimer: NodeJS.Timeout | undefined;
    child.on('exit', (code, signal) => {
      exitInfo = { code, signal };
      // Leftover grandchildren may hold the pipes open; give them a moment, then end the group.
      graceTimer = setTimeout(() => killGroup(child.pid), 2_000);
    });
    let settled = false;
    const settle = (info: { code: number | null; signal: NodeJS.Signals | null }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (graceTimer) clearTimeout(graceTimer);
      killGroup(child.pid);
      resolvePromise({
        exitCode: info.code,
        signal: info.signal,
        timedOut,
        stdout,
        stderr,
        durationMs: Date.now() - started,
      });
    };
    // A spawn failure (e.g. a missing binary) may never emit 'close', so it settles the run itself.
    child.on('error', (err) => {
      stderr += `\n[runner] ${bin}: ${String(err)}`;
      if (!child.pid) settle({ code: null, signal: null });
    });
    child.on('close', (code, signal) => settle(exitInfo ?? { code, signal }));
  });
}

/** A fresh temp HOME with the XDG dirs every CLI might write into. */
