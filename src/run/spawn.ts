// The two processes of a rung: the agent (its stdout read line by line as it streams, stopped with its whole process
// group when the rung's share is spent or its wall-clock limit is reached) and the verifier (a shell command; its exit
// code and output are the verdict; its own process group is ended at its wall-clock limit).
import { spawn } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync, writeFileSync } from 'node:fs';

export interface ProcEnd {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** The end of stderr (bounded), for classifying the agent's own failure. */
  stderrTail: string;
  /** True when `stop` was called (the share was spent). */
  stopped: boolean;
  /** True when the rung's wall-clock limit ended it (`stopped` is then false: the share was not the cause). */
  timedOut: boolean;
  /** A spawn error: the program is not installed, or not executable. */
  spawnError?: string;
  ms: number;
}

const TAIL = 16 * 1024;
const keepTail = (s: string) => (s.length > TAIL ? s.slice(-TAIL) : s);

export interface AgentProc {
  /** Resolves when the agent has exited. */
  done: Promise<ProcEnd>;
  /** Stops the agent and everything it started (SIGTERM to the group, SIGKILL after the grace period). */
  stop(): void;
}

/** How long a stopped agent's group has between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 3000;

export interface AgentOpts {
  cwd: string;
  env: Record<string, string | undefined>;
  logPath: string;
  onLine: (line: string) => void;
  /** The wall-clock limit: the group is ended this long after the start (null or absent: none). */
  timeoutMs?: number | null;
  graceMs?: number;
}

/**
 * Runs the agent; `onLine` gets each stdout line as it arrives; both streams are copied to `logPath`. A stopped or
 * timed-out agent settles only once its whole process group is gone (or got SIGKILL): a child that ignores SIGTERM
 * and let go of the pipes must not outlive the rung.
 */
export function startAgent(bin: string, args: string[], opts: AgentOpts): AgentProc {
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
  const grp = processGroup(child, opts.graceMs ?? KILL_GRACE_MS);
  let stopped = false;
  let timedOut = false;
  let stderr = '';
  let pending = '';
  const limit =
    opts.timeoutMs && opts.timeoutMs > 0
      ? setTimeout(() => {
          if (grp.ending()) return;
          timedOut = true;
          grp.end();
        }, opts.timeoutMs)
      : undefined;
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
    child.on('close', async (code, signal) => {
      if (limit) clearTimeout(limit);
      if (pending) opts.onLine(pending);
      const ms = Date.now() - t0;
      await grp.gone();
      const ended: ProcEnd = {
        exitCode: code,
        signal,
        stderrTail: stderr,
        stopped,
        timedOut,
        ...(spawnError ? { spawnError } : {}),
        ms,
      };
      // Settled once the log is closed, so a caller that removes the step's folder next finds it complete.
      if (log.closed || log.destroyed) resolve(ended);
      else {
        log.once('close', () => resolve(ended));
        log.end();
      }
    });
  });
  return {
    done,
    stop() {
      if (stopped || timedOut) return;
      stopped = true;
      grp.end();
    },
  };
}

/**
 * Whether a process group has a member that is not a zombie. A zombie still answers `kill(-pgid, 0)`, and an orphan
 * is a zombie until its new parent reaps it, which a container's first process may never do. Linux reads /proc;
 * elsewhere (no /proc) the signal's answer stands.
 */
function groupLives(pgid: number | undefined): boolean {
  if (!pgid) return false;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return true;
  }
  for (const pid of pids) {
    try {
      // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') return true;
    } catch {
      // Gone meanwhile.
    }
  }
  return false;
}

/** The agent's process group: ended with SIGTERM, then SIGKILL after the grace; `gone` waits out what is left. */
function processGroup(child: ReturnType<typeof spawn>, graceMs: number) {
  let termAt = 0;
  let killTimer: NodeJS.Timeout | undefined;
  const signal = (sig: NodeJS.Signals | 0): boolean => {
    try {
      if (child.pid && process.platform !== 'win32') process.kill(-child.pid, sig);
      else if (sig !== 0) child.kill(sig);
      else return false;
      return true;
    } catch {
      return false; // Already gone.
    }
  };
  return {
    ending: () => termAt !== 0,
    end() {
      if (termAt) return;
      termAt = Date.now();
      signal('SIGTERM');
      killTimer = setTimeout(() => signal('SIGKILL'), graceMs);
      killTimer.unref();
    },
    /** After the leader is gone: the rest of a group we ended gets the rest of its grace, then SIGKILL. */
    async gone(): Promise<void> {
      while (termAt && signal(0) && groupLives(child.pid)) {
        if (Date.now() - termAt >= graceMs) {
          signal('SIGKILL');
          break;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      if (killTimer) clearTimeout(killTimer);
    },
  };
}

const OUTPUT_MAX = 256 * 1024;

export interface VerifyEnd {
  exitCode: number | null;
  output: string;
  ms: number;
  /** True when the verifier's wall-clock limit ended it (its whole process group). */
  timedOut: boolean;
}

/**
 * Runs the verifier through the shell, in its own process group so a limit reaches what it started (a test runner's
 * workers, a server it waits on); output is stdout and stderr interleaved, bounded.
 */
export function runVerifier(
  command: string,
  opts: {
    cwd: string;
    env: Record<string, string | undefined>;
    logPath: string;
    timeoutMs?: number | null;
    graceMs?: number;
  },
): Promise<VerifyEnd> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, {
      cwd: opts.cwd,
      env: opts.env as NodeJS.ProcessEnv,
      shell: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    });
    const grp = processGroup(child, opts.graceMs ?? KILL_GRACE_MS);
    let timedOut = false;
    const limit =
      opts.timeoutMs && opts.timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            grp.end();
          }, opts.timeoutMs)
        : undefined;
    let out = '';
    const take = (chunk: Buffer) => {
      if (out.length < OUTPUT_MAX) out += chunk.toString('utf8');
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (err) => {
      out += `\n${String(err)}`;
    });
    child.on('close', async (code) => {
      if (limit) clearTimeout(limit);
      await grp.gone();
      const output = out.slice(0, OUTPUT_MAX);
      try {
        // Written before the promise settles: the caller may remove the step's folder right after.
        writeFileSync(opts.logPath, output);
      } catch {
        // The log is a convenience.
      }
      resolve({ exitCode: timedOut ? null : code, output, ms: Date.now() - t0, timedOut });
    });
  });
}
