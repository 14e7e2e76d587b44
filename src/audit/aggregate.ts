// Totals per tool, per project and per day, and the JSON report's shape (documented in the README).
import type { ToolName } from '../tools/names.ts';
import type { GuardLogEntry } from './judge.ts';
import type { ScanStats } from './scan.ts';
import type { Loop, SessionSummary } from './session.ts';

export interface Tally {
  sessions: number;
  loops: number;
  /** Model requests inside loops. */
  requests: number;
  /** Tokens inside loops (where the transcripts record usage). */
  tokens: number;
  /** Wall time inside loops. */
  ms: number;
  saved: { requests: number; tokens: number; ms: number };
}

export interface AuditReport {
  version: 1;
  scope: { project: string | null; since: string | null; tools: ToolName[] };
  loops: Loop[];
  totals: Tally & {
    shellCalls: number;
    /** Every model request in the sessions read, loops or not. */
    allRequests: number;
    byTool: Partial<Record<ToolName, Tally>>;
    byProject: Array<Tally & { project: string }>;
    byDay: Array<{ day: string; loops: number; requests: number; tokens: number }>;
  };
  /** Commands that wait for a person, which the guard would have refused before they ran. */
  waits: { count: number; examples: Array<{ tool: ToolName; command: string; rule: string; at?: string }> };
  /** What the installed guard did: its own event log, and the refusals visible in the transcripts read. */
  guard: { warnings: number; refusals: number; handoffs: number; since: string | null; refusedInTranscripts: number };
  read: {
    files: number;
    bytes: number;
    ms: number;
    unknownLines: number;
    oversizeLines: number;
    unreadable: Array<{ file: string; error: string }>;
  };
}

function tally(): Tally {
  return { sessions: 0, loops: 0, requests: 0, tokens: 0, ms: 0, saved: { requests: 0, tokens: 0, ms: 0 } };
}

function addLoop(t: Tally, l: Loop): void {
  t.loops++;
  t.requests += l.requests;
  t.tokens += l.tokens ?? 0;
  t.ms += l.ms ?? 0;
  t.saved.requests += l.saved.requests;
  t.saved.tokens += l.saved.tokens ?? 0;
  t.saved.ms += l.saved.ms ?? 0;
}

/** Worst first: tokens where known, then requests, then repeats. */
export function byCost(a: Loop, b: Loop): number {
  return (b.tokens ?? 0) - (a.tokens ?? 0) || b.requests - a.requests || b.repeats - a.repeats;
}

export function aggregate(
  sessions: SessionSummary[],
  stats: ScanStats & { ms: number },
  scope: AuditReport['scope'],
  guardLog: GuardLogEntry[],
): AuditReport {
  const loops = sessions.flatMap((s) => s.loops).sort(byCost);
  const totals = {
    ...tally(),
    shellCalls: 0,
    allRequests: 0,
    byTool: {} as Partial<Record<ToolName, Tally>>,
    byProject: [] as Array<Tally & { project: string }>,
    byDay: [] as AuditReport['totals']['byDay'],
  };
  const projects = new Map<string, Tally & { project: string }>();
  const days = new Map<string, { day: string; loops: number; requests: number; tokens: number }>();
  for (const s of sessions) {
    totals.sessions++;
    totals.shellCalls += s.shellCalls;
    totals.allRequests += s.requests;
    const tool = (totals.byTool[s.tool] ??= tally());
    tool.sessions++;
    const project = projects.get(s.project) ?? { project: s.project, ...tally() };
    projects.set(s.project, project);
    project.sessions++;
    for (const l of s.loops) {
      addLoop(totals, l);
      addLoop(tool, l);
      addLoop(project, l);
      const day = (l.firstAt ?? l.lastAt ?? '').slice(0, 10) || 'unknown';
      const d = days.get(day) ?? { day, loops: 0, requests: 0, tokens: 0 };
      days.set(day, d);
      d.loops++;
      d.requests += l.requests;
      d.tokens += l.tokens ?? 0;
    }
  }
  totals.byProject = [...projects.values()].sort(
    (a, b) => b.tokens - a.tokens || b.requests - a.requests || a.project.localeCompare(b.project),
  );
  totals.byDay = [...days.values()].sort((a, b) => a.day.localeCompare(b.day));
  const waits = sessions.flatMap((s) =>
    s.waits.map((w) => ({
      tool: s.tool,
      command: w.command,
      rule: w.rule,
      ...(w.at !== undefined ? { at: new Date(w.at).toISOString() } : {}),
    })),
  );
  const sinceMs = scope.since ? Date.parse(scope.since) : undefined;
  const log = guardLog.filter(
    (e) =>
      (sinceMs === undefined || e.t >= sinceMs) &&
      (scope.project === null ||
        (e.cwd !== undefined && (e.cwd === scope.project || e.cwd.startsWith(`${scope.project}/`)))),
  );
  return {
    version: 1,
    scope,
    loops,
    totals,
    waits: { count: waits.length, examples: waits.slice(0, 20) },
    guard: {
      warnings: log.filter((e) => e.a === 'warn').length,
      // A hand-off is also a refusal: the command did not run, and the turn stopped.
      refusals: log.filter((e) => e.a === 'deny' || e.a === 'handoff').length,
      handoffs: log.filter((e) => e.a === 'handoff').length,
      since: log.length > 0 ? new Date(Math.min(...log.map((e) => e.t))).toISOString() : null,
      refusedInTranscripts: sessions.reduce((n, s) => n + s.refusedByGuard, 0),
    },
    read: {
      files: stats.files,
      bytes: stats.bytes,
      ms: stats.ms,
      unknownLines: stats.unknownLines,
      oversizeLines: stats.oversizeLines,
      unreadable: stats.unreadable,
    },
  };
}
