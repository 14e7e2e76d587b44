// Drive a command in a real pseudo-terminal through util-linux `script`, with a hard deadline.
//
// `script -qfec CMD /dev/null` runs CMD (through $SHELL -c) on a fresh PTY: the child sees terminals on stdin and
// stdout, so @clack/prompts goes interactive. We talk to it through script's own stdin/stdout pipes: what we write
// is typed into the PTY, what the child prints comes back (stderr too: both are the PTY). `-e` hands back the
// child's exit status. A PTY started from a pipe has a 0×0 window, which makes clack wrap every character onto its
// own line, so the command sets a real size with `stty` first and then `exec`s the program (so it is the session
// leader and gets SIGHUP if script dies).
//
// Every session has a deadline: when it passes, the whole process group is SIGKILLed (script dies, the PTY master
// closes, the kernel hangs up the child) and every pending wait rejects with the screen so far. A hang fails the
// test; it never hangs the suite.
import { type ChildProcess, spawn } from 'node:child_process';
import { cliFile } from './cli.ts';

export const KEY = {
  enter: '\r',
  space: ' ',
  up: '\x1b[A',
  down: '\x1b[B',
  ctrlC: '\x03',
} as const;

export interface PtyExit {
  /** script -e: the child's exit status, or 128+signal if a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Everything the child printed, escape sequences removed, line ends normalized. */
  text: string;
  raw: string;
}

export interface PtyOptions {
  cwd: string;
  env: Record<string, string>;
  /** Hard deadline for the whole session, ms. */
  timeoutMs?: number;
  cols?: number;
  rows?: number;
}

/** Remove CSI/OSC escape sequences and carriage returns. */
export function stripAnsi(s: string): string {
  return s
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '')
    .replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, '')
    .replace(/\x1b[@-Z\\-_]/g, '')
    .replace(/\r\n?/g, '\n');
}

const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export class PtySession {
  readonly child: ChildProcess;
  readonly exited: Promise<PtyExit>;
  private raw = '';
  /** Where the next waitFor starts looking (an offset into the raw output), so a prompt already answered is not matched again. */
  private mark = 0;
  private done = false;
  private timedOut = false;
  private waiters = new Set<() => void>();
  private timer: NodeJS.Timeout;
  private readonly timeoutMs: number;

  constructor(argv: string[], opts: PtyOptions) {
    this.timeoutMs = opts.timeoutMs ?? 20_000;
    const cmd = `stty cols ${opts.cols ?? 120} rows ${opts.rows ?? 40} && exec ${argv.map(shQuote).join(' ')}`;
    this.child = spawn('script', ['-qfec', cmd, '/dev/null'], {
      cwd: opts.cwd,
      // script runs CMD with $SHELL -c; our command is plain POSIX sh either way.
      env: { SHELL: '/bin/sh', ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true, // its own process group, so a timeout can kill all of it
    });
    this.child.stdout?.setEncoding('utf8');
    this.child.stderr?.setEncoding('utf8');
    this.child.stdout?.on('data', (d: string) => {
      this.raw += d;
      this.wake();
    });
    this.child.stderr?.on('data', (d: string) => {
      this.raw += `[script stderr] ${d}`;
      this.wake();
    });
    this.child.stdin?.on('error', () => {}); // EPIPE after the child is gone
    this.exited = new Promise<PtyExit>((resolve, reject) => {
      this.child.on('error', reject);
      this.child.on('close', (code, signal) => {
        this.done = true;
        clearTimeout(this.timer);
        this.child.stdin?.destroy();
        this.wake();
        if (this.timedOut)
          reject(new Error(`PTY session timed out after ${this.timeoutMs} ms; screen so far:\n${this.tail()}`));
        else resolve({ code, signal, text: this.text, raw: this.raw });
      });
    });
    this.exited.catch(() => {}); // observed by whoever awaits it; never an unhandled rejection
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.kill();
    }, this.timeoutMs);
  }

  get text(): string {
    return stripAnsi(this.raw);
  }

  /** The text printed since the last answered prompt. */
  get recent(): string {
    return stripAnsi(this.raw.slice(this.mark));
  }

  private tail(n = 3000): string {
    const t = this.text;
    return t.length > n ? `…${t.slice(-n)}` : t;
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }

  /** Wait until `pattern` shows up after the mark; rejects if the process ends or the deadline passes first. */
  waitFor(pattern: string | RegExp): Promise<string> {
    const find = (): string | null => {
      const t = this.recent;
      if (typeof pattern === 'string') return t.includes(pattern) ? pattern : null;
      return pattern.exec(t)?.[0] ?? null;
    };
    return new Promise((resolve, reject) => {
      const check = () => {
        const hit = find();
        if (hit !== null) {
          this.waiters.delete(check);
          resolve(hit);
        } else if (this.done || this.timedOut) {
          this.waiters.delete(check);
          reject(
            new Error(
              `${this.timedOut ? 'timed out' : 'process exited'} before ${String(pattern)} appeared; screen so far:\n${this.tail()}`,
            ),
          );
        }
      };
      this.waiters.add(check);
      check();
    });
  }

  /** Type keys into the terminal; later waits look only at what is printed from now on. */
  send(keys: string): void {
    this.mark = this.raw.length;
    this.child.stdin?.write(keys);
  }

  /** Wait for the prompt, then answer it. */
  async answer(prompt: string | RegExp, keys: string): Promise<void> {
    await this.waitFor(prompt);
    this.send(keys);
  }

  kill(): void {
    if (this.child.pid === undefined || this.done) return;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

/** The env the interactive tests run under: no CI (the runner may set it), no colour, a known terminal and shell. */
export function ptyEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    NO_COLOR: '1',
    TERM: 'xterm',
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    ...extra,
  };
  // Not inherited, but be explicit: a CI set anywhere would silently turn every prompt off.
  if (!('CI' in extra)) delete env.CI;
  return env;
}

/** The BUILT CLI in a PTY. */
export function cliPty(args: string[], opts: PtyOptions): PtySession {
  return new PtySession([process.execPath, cliFile, ...args], opts);
}
