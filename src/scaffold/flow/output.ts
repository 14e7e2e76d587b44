// What one install run says: lines people read on stdout, reasons on stderr, and the one --json report at the end.
import { VERSION } from '../../assets.ts';
import { EXIT } from '../../exit-codes.ts';
import type { IO } from '../../io.ts';
import { colorEnabled, type Palette, palette } from '../../report/colors.ts';
import { displayDiff } from '../../report/diff.ts';
import { type JsonReport, jsonChanges } from '../../report/json.ts';
import type { Level, Message } from '../../report/messages.ts';
import { EscapeError } from '../paths.ts';
import { PlanError, type Plan } from '../plan.ts';
import { canPrompt } from '../prompt/index.ts';
import { ConfigReadError } from '../read-config.ts';
import type { Options } from './options.ts';

export interface Output {
  c: Palette;
  /** A person can be asked: a terminal on both ends, not CI, not --json. */
  interactive: boolean;
  /** A message people read on stdout (with a blank line before it when `gap`) and scripts read in --json. */
  say(level: Level, code: string, text: string, style?: (s: string) => string, gap?: boolean): void;
  /** The reason for a non-zero exit that belongs on stderr: still one of the --json messages. */
  problem(code: string, text: string): void;
  /** The exit code, after the --json report (with the plan's changes when there is a plan). */
  finish(code: number, result: string, plan?: Plan): number;
  /** A file that could not be read or parsed, or a path that leads outside the repository: exit 2, nothing written. */
  readFailure(err: unknown): number;
  /** What the --json report says of the run so far: the root, then the tools. */
  report: Partial<JsonReport>;
}

function jsonMode(opts: Options): string {
  return opts.mode === 'apply' && opts.dryRun ? 'dry-run' : opts.mode;
}

export function createOutput(opts: Options, io: IO): Output {
  const messages: Message[] = [];
  const report: Partial<JsonReport> = { version: VERSION, mode: jsonMode(opts) };
  const out: Output = {
    c: palette(!opts.json && colorEnabled(io.env, io.stdoutIsTTY)),
    interactive: !opts.json && canPrompt(io.env, io.stdinIsTTY, io.stdoutIsTTY),
    report,
    say(level, code, text, style = (s) => s, gap = false) {
      messages.push({ level, code, text });
      if (!opts.json) io.out(`${gap ? '\n' : ''}${style(text)}\n`);
    },
    problem(code, text) {
      messages.push({ level: 'error', code, text });
      io.err(`create-loop-guard: ${text}\n`);
    },
    finish(code, result, plan) {
      if (opts.json) {
        const full: JsonReport = {
          version: VERSION,
          root: report.root ?? '',
          mode: report.mode ?? opts.mode,
          tools: report.tools ?? [],
          changes: plan ? jsonChanges(plan.changes, (ch) => displayDiff(ch, opts.diff === true)) : [],
          result,
          exitCode: code,
          messages,
        };
        io.out(`${JSON.stringify(full, null, 2)}\n`);
      }
      return code;
    },
    readFailure(err) {
      if (err instanceof PlanError || err instanceof ConfigReadError) {
        out.problem('parse-error', `${err.message}\n  fix: ${err.fix}\n  Nothing was written.`);
        return out.finish(EXIT.error, 'parse-error');
      }
      if (err instanceof EscapeError) {
        out.problem('outside-repo', `${err.message}\n  Nothing was written.`);
        return out.finish(EXIT.error, 'outside-repo');
      }
      throw err;
    },
  };
  return out;
}

/**
 * A run that stops before it has a plan (no root, the lock held by another run): the reason on stderr, and under
 * --json the same report shape as every other exit, with the reason as its one `{level, code, text}` message.
 */
export function stopEarly(opts: Options, io: IO, root: string, code: string, result: string, text: string): number {
  io.err(`create-loop-guard: ${text}\n`);
  if (opts.json) {
    const report: JsonReport = {
      version: VERSION,
      root,
      mode: jsonMode(opts),
      tools: [],
      changes: [],
      result,
      exitCode: EXIT.error,
      messages: [{ level: 'error', code, text }],
    };
    io.out(`${JSON.stringify(report, null, 2)}\n`);
  }
  return EXIT.error;
}
