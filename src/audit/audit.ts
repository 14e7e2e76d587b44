// `create-loop-guard audit`: the loops in this machine's agent transcripts, judged by the guard's own core, with what
// they cost and what the guard would have saved. Read-only and local.
import { resolve } from 'node:path';
import { VERSION } from '../assets.ts';
import { EXIT } from '../exit-codes.ts';
import { gitRootOf } from '../guard/git-root.ts';
import { colorEnabled, palette } from '../report/colors.ts';
import { aggregate, type AuditReport } from './aggregate.ts';
import { discover } from './discover.ts';
import { TOOLS, type ToolName } from '../tools/index.ts';
import { AUDIT_TOOLS } from './discover.ts';
import { guardSettings, readGuardLog, resolveStateDir } from './judge.ts';
import { redactReport } from './redact.ts';
import { terminalReport } from './report-terminal.ts';
import { scanSource, type ScanStats } from './scan.ts';
import type { SessionSummary } from './session.ts';

export interface AuditOptions {
  all: boolean;
  since?: string;
  /** Tools whose transcripts to read (default: every one audit reads). */
  tools?: readonly ToolName[];
  limit?: string;
  json: boolean;
  redact: boolean;
  cwd?: string;
}

export interface AuditIO {
  cwd: string;
  env: Record<string, string | undefined>;
  home: string;
  stdoutIsTTY: boolean;
  out(s: string): void;
  err(s: string): void;
  now?: () => number;
}

const DAY = 24 * 60 * 60 * 1000;

/** "30d", "12h", "2w" or an ISO date → epoch ms; undefined when the text is neither. */
export function parseSince(text: string, now: number): number | undefined {
  const m = /^(\d{1,5})([hdw])$/.exec(text.trim());
  if (m) return now - Number(m[1]) * (m[2] === 'h' ? DAY / 24 : m[2] === 'w' ? 7 * DAY : DAY);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text.trim())) return undefined;
  const t = Date.parse(text.trim());
  return Number.isNaN(t) ? undefined : t;
}

export function runAudit(
  opts: AuditOptions,
  io: AuditIO,
): { report: AuditReport; sessions: SessionSummary[] } | { error: string } {
  const now = (io.now ?? Date.now)();
  const since = opts.since !== undefined ? parseSince(opts.since, now) : undefined;
  if (opts.since !== undefined && since === undefined)
    return {
      error: `--since ${JSON.stringify(opts.since)}: use a number of days, hours or weeks (30d, 12h, 2w) or a date (2026-11-01).`,
    };
  const unread = (opts.tools ?? []).filter((t) => !AUDIT_TOOLS.includes(t));
  if (unread.length)
    return {
      error: `--tools: audit has no reader for ${unread.map((t) => TOOLS[t].label).join(', ')} transcripts; it reads ${AUDIT_TOOLS.join(', ')}.`,
    };
  const tools = opts.tools?.length ? [...opts.tools] : [...AUDIT_TOOLS];
  const dir = resolve(io.cwd, opts.cwd ?? '.');
  // The repository a directory belongs to (its git root), else the directory itself.
  const project = opts.all ? undefined : (gitRootOf(dir) ?? dir);
  const scope = { ...(project !== undefined ? { project } : {}), ...(since !== undefined ? { since } : {}) };
  const settings = guardSettings(io.env);
  const t0 = (io.now ?? Date.now)();
  const found = discover({ home: io.home, env: io.env }, tools);
  const stats: ScanStats = {
    files: 0,
    bytes: 0,
    unknownLines: 0,
    oversizeLines: 0,
    unreadable: found.unreadable.map((u) => ({ file: u.path, error: u.error })),
  };
  const sessions: SessionSummary[] = [];
  for (const src of found.sources) sessions.push(...scanSource(src, scope, settings, stats));
  const ms = Math.round((io.now ?? Date.now)() - t0);
  const log = readGuardLog(resolveStateDir(io.env as NodeJS.ProcessEnv));
  const report = aggregate(
    sessions,
    { ...stats, ms },
    { project: project ?? null, since: since !== undefined ? new Date(since).toISOString() : null, tools },
    log,
  );
  return { report: opts.redact ? redactReport(report) : report, sessions };
}

/** A usage error: on stderr, and under --json also as the report, with the reason as its `{level, code, text}`. */
function usageError(opts: AuditOptions, io: AuditIO, text: string): number {
  io.err(`create-loop-guard: ${text}\n`);
  if (opts.json) {
    const report = {
      version: VERSION,
      result: 'usage-error',
      exitCode: EXIT.error,
      messages: [{ level: 'error', code: 'usage', text }],
    };
    io.out(`${JSON.stringify(report, null, 2)}\n`);
  }
  return EXIT.error;
}

export async function audit(opts: AuditOptions, io: AuditIO): Promise<number> {
  let limit = 5;
  if (opts.limit !== undefined) {
    limit = Number(opts.limit);
    if (!Number.isInteger(limit) || limit < 1)
      return usageError(
        opts,
        io,
        `--limit ${JSON.stringify(opts.limit)}: a whole number of loops to show (1 or more).`,
      );
  }
  const result = runAudit(opts, io);
  if ('error' in result) return usageError(opts, io, result.error);
  if (opts.json) io.out(`${JSON.stringify(result.report, null, 2)}\n`);
  else io.out(terminalReport(result.report, limit, palette(colorEnabled(io.env, io.stdoutIsTTY))));
  return EXIT.ok;
}
