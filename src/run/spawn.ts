// The two processes of a rung: the agent (its stdout read line by line as it streams, stopped with its whole process
// group when the rung's share is spent) and the verifier (a shell command; its exit code and output are the verdict).
import { spawn } from 'node:child_process';
import { createWriteStream, writeFileSync } from 'node:fs';

export interface ProcEnd {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** The end of stderr (bounded), for classifying the agent's own failure. */
  stderrTail: string;
  /** True when `stop` was called (the share was spent). */
  stopped: boolean;
  /** A spawn error: the program is not installed, or not executable. */
  spawnError?: string;
  ms: number;
}

const TAIL = 16 * 1024;
const keepTail = (s: string) => (s.length > TAIL ? s.slice(-TAIL) : s);

export interface AgentProc {
  /** Resolves when the agent has exited. */
  done: Promise<ProcEnd>;
  /** Stops the agent and everything it started (SIGTERM to the group, SIGKILL 3 s later). */
  stop(): void;
}

/** Runs the agent; `onLine` gets each stdout line as it arrives; both streams are copied to `logPath`. */
export function startAgent(
  bin: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string | undefined>; logPath: string; onLine: (line: string) => void },
): AgentProc {
  const t0 = Date.now();
  const log = createWriteStream(opts.logPath);
  // The log is a convenience: a failure to write it must not end the run.
  log.on('error', () => {});
  // detached: the agent leads its own process group, so a stop reaches the tools it started too.
  const child = spawn(bin, args, {
    cwd: opts.cwd,
    env: opts.env as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
  });
  let stopped = false;
  let stderr = '';
  let pending = '';
  let killTimer: NodeJS.Timeout | undefined;
  const signalGroup = (sig: NodeJS.Signals) => {
    try {
      if (child.pid && process.platform !== 'win32') process.kill(-child.pid, sig);
      else child.kill(sig);
    } catch {
      // Already gone.
    }
  };
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    log.write(chunk);
    pending += chunk;
    let nl = pending.indexOf('\n');
    while (nl !== -1) {
      opts.onLine(pending.slice(0, nl));
      pending = pending.slice(nl + 1);
      nl = pending.indexOf('\n');
    }
  });
  child.stderr.on('data', (chunk: string) => {
    log.write(chunk);
    stderr = keepTail(stderr + chunk);
  });
  const done = new Promise<ProcEnd>((resolve) => {
    let spawnError: string | undefined;
    child.on('error', (err) => {
      spawnError = (err as NodeJS.ErrnoException).code === 'ENOENT' ? `${bin}: command not found` : String(err);
    });
    child.on('close', (code, signal) => {
      if (killTimer) clearTimeout(killTimer);
      if (pending) opts.onLine(pending);
      const end: ProcEnd = {
        exitCode: code,
        signal,
        stderrTail: stderr,
        stopped,
        ...(spawnError ? { spawnError } : {}),
        ms: Date.now() - t0,
      };
      // Settled once the log is closed, so a caller that removes the step's folder next finds it complete.
      if (log.closed || log.destroyed) resolve(end);
      else {
        log.once('close', () => resolve(end));
        log.end();
      }
    });
  });
  return {
    done,
    stop() {
      if (stopped) return;
      stopped = true;
      signalGroup('SIGTERM');
      killTimer = setTimeout(() => signalGroup('SIGKILL'), 3000);
      killTimer.unref();
    },
  };
}

const OUTPUT_MAX = 256 * 1024;

/** Runs the verifier through the shell; output is stdout and stderr interleaved, bounded. */
export function runVerifier(
  command: string,
  opts: { cwd: string; env: Record<string, string | undefined>; logPath: string },
): Promise<{ exitCode: number | null; output: string; ms: number }> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, {
      cwd: opts.cwd,
      env: opts.env as NodeJS.ProcessEnv,
      shell: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const take = (chunk: Buffer) => {
      if (out.length < OUTPUT_MAX) out += chunk.toString('utf8');
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (err) => {
      out += `\n${String(err)}`;
    });
    child.on('close', (code) => {
      const output = out.slice(0, OUTPUT_MAX);
      try {
        // Written before the promise settles: the caller may remove the step's folder right after.
        writeFileSync(opts.logPath, output);
      } catch {
        // The log is a convenience.
      }
      resolve({ exitCode: code, output, ms: Date.now() - t0 });
    });
  });
}
