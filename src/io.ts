// What the CLI's commands (the scaffolder and doctor) get from the outside world; tests pass their own.
import type { Prompter } from './scaffold/prompt/types.ts';

export interface IO {
  cwd: string;
  env: Record<string, string | undefined>;
  home: string;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  /** The terminal's width and height when stdout is one (unset otherwise, or when it does not say). */
  columns?: number;
  rows?: number;
  out(text: string): void;
  err(text: string): void;
  prompter: Prompter;
}
