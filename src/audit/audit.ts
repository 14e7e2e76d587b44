// `create-loop-guard audit`: the loops in this machine's agent transcripts, judged by the guard's own core, with what
// they cost and what the guard would have saved. Read-only and local.
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { VERSION } from '../assets.ts';
import { EXIT } from '../exit-codes.ts';
import { gitRootOf } from '../guard/git-root.ts';
import { colorEnabled, palette } from '../report/colors.ts';
import { TOOLS, type ToolName } from '../tools/index.ts';
import { aggregate, type AuditReport } from './aggregate.ts';
import { AUDIT_TOOLS, discover, roots } from './discover.ts';
import { guardSettings, readGuardLog, resolveStateDir } from './judge.ts';
import { BUILT_IN_PRICES, PriceFileError, Pricer, readPriceFile, type PriceTable } from './prices.ts';
import { redactReport } from './redact.ts';
import { htmlReport } from './report-html.ts';
import { terminalReport } from './report-terminal.ts';
import { scanSource, type ScanStats } from './scan.ts';
import { lateTierUp } from './tier-up.ts';
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
  /** Write the HTML report here ('' = the default file name in the current directory). */
  html?: string;
  /** A price list tried before the built-in one. */
  prices?: string;
}

export interface AuditIO {
  cwd: string;
  env: Record<string, string | undefined>;
  home: string;
  stdoutIsTTY: boolean;
  /** A terminal on stderr gets a progress line when reading takes more than a moment. */
  stderrIsTTY?: boolean;
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

/** The lines that read the sessions of other projects: every one, and the recent ones. */
function elsewhereCommands(opts: AuditOptions, newest: number | undefined, now: number): string[] {
  if (newest === undefined) return [];
  const keep = [
    opts.tools?.length ? `--tools ${opts.tools.join(',')}` : '',
    opts.html !== undefined ? `--html${opts.html ? ` ${opts.html}` : ''}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const base = `npx create-loop-guard audit --all${keep ? ` ${keep}` : ''}`;
  const days = Math.max(1, Math.ceil((now - newest) / DAY));
  // A window that holds the newest session: 30 days when that is enough, else from the newest session's day.
  const since = days <= 30 ? '30d' : new Date(newest).toISOString().slice(0, 10);
  return [base, `${base} --since ${since}`];
}

export async function runAudit(
  opts: AuditOptions,
  io: AuditIO,
): Promise<{ report: AuditReport; sessions: SessionSummary[] } | { error: string }> {
  const now = (io.now ?? Date.now)();
  const since = opts.since !== undefined ? parseSince(opts.since, now) : undefined;
  if (opts.since !== undefined && since === undefined)
    return {
      error: `--since ${JSON.stringify(opts.since)}: use a number of days, hours or weeks (30d, 12h, 2w) or a date (2026-11-01).`,
    };
  const unread = (opts.tools ?? []).filter((t) => !AUDIT_TOOLS.includes(t));
  if (unread.length)
    return {
      error:
        `--tools: audit has no reader for ${unread.map((t) => TOOLS[t].label).join(', ')} transcripts; it ` +
        `reads ${AUDIT_TOOLS.join(', ')}.`,
    };
  const tools = opts.tools?.length ? [...opts.tools] : [...AUDIT_TOOLS];
  const dir = resolve(io.cwd, opts.cwd ?? '.');
  // The repository a directory belongs to (its git root), else the directory itself.
  const project = opts.all ? undefined : (gitRootOf(dir) ?? dir);
  const scope = { ...(project !== undefined ? { project } : {}), ...(since !== undefined ? { since } : {}) };
  const tables: PriceTable[] = [BUILT_IN_PRICES];
  let override: string | null = null;
  if (opts.prices !== undefined) {
    const file = resolve(io.cwd, opts.prices);
    try {
      tables.unshift(await readPriceFile(file));
      override = file;
    } catch (err) {
      if (err instanceof PriceFileError)
        return {
          error:
            `--prices: ${err.message} Fix the file (one "models" list of { "match", "input", "cacheRead", ` +
            `"cacheWrite", "output" } in dollars per million tokens), then run again.`,
        };
      return { error: `--prices ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)}).` };
    }
  }
  const pricer = new Pricer(tables);
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
  const clock = io.now ?? Date.now;
  let shown = 0;
  const total = found.sources.length;
  const tierUp = lateTierUp();
  try {
    for (const [i, src] of found.sources.entries()) {
      sessions.push(...scanSource(src, scope, settings, stats, undefined, pricer));
      tierUp(stats.bytes);
      // After 2 s, a line on the terminal every half second: a big history takes a while, and silence looks hung.
      const t = clock();
      if (io.stderrIsTTY && t - t0 > 2000 && t - shown > 500) {
        shown = t;
        io.err(`\r\x1b[2Kreading transcripts: ${i + 1} of ${total} (${(stats.bytes / 1e6).toFixed(0)} MB)…`);
      }
    }
  } finally {
    tierUp(Number.POSITIVE_INFINITY);
  }
  if (shown) io.err('\r\x1b[2K');
  const ms = Math.round((io.now ?? Date.now)() - t0);
  const where = roots({ home: io.home, env: io.env });
  const tilde = (p: string) => (io.home && p.startsWith(`${io.home}/`) ? `~${p.slice(io.home.length)}` : p);
  const folders = tools.map((tool) => ({
    tool,
    path: tilde(where[tool] ?? ''),
    exists: where[tool] !== undefined && existsSync(where[tool]),
    transcripts: found.sources.filter((s) => s.tool === tool).length,
    // OpenCode and Kilo keep every session in one database.
    database: found.sources.some((s) => s.tool === tool && s.kind === 'sqlite'),
  }));
  const commands = elsewhereCommands(opts, stats.elsewhereNewest, now);
  const log = readGuardLog(resolveStateDir(io.env as NodeJS.ProcessEnv));
  const report = aggregate(
    sessions,
    { ...stats, ms, folders, commands },
    { project: project ?? null, since: since !== undefined ? new Date(since).toISOString() : null, tools },
    log,
    { checked: tables.map((t) => t.checked).join(', '), override },
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
  const result = await runAudit(opts, io);
  if ('error' in result) return usageError(opts, io, result.error);
  // The per-call timeline is for the HTML page; the JSON keeps one line of facts per loop.
  if (opts.json) io.out(`${JSON.stringify(result.report, (k, v) => (k === 'timeline' ? undefined : v), 2)}\n`);
  else io.out(terminalReport(result.report, limit, palette(colorEnabled(io.env, io.stdoutIsTTY))));
  if (opts.html !== undefined) {
    const file = resolve(io.cwd, opts.html || 'loop-guard-audit.html');
    try {
      writeFileSync(
        file,
        htmlReport(
          result.report,
          `${new Date((io.now ?? Date.now)()).toISOString().slice(0, 16).replace('T', ' ')} UTC`,
        ),
      );
    } catch (err) {
      return usageError(opts, io, `--html ${file}: cannot write it (${(err as NodeJS.ErrnoException).code ?? err}).`);
    }
    // Printed, not opened: the person decides where the page goes.
    (opts.json ? io.err : io.out)(`HTML report: ${file}\n`);
  }
  return EXIT.ok;
}
