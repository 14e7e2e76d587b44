// Totals per tool, per project and per day, and the JSON report's shape (documented in the README).
import { roundUsd } from './cost.ts';
import type { ToolName } from '../tools/names.ts';
import type { Tokens } from './events.ts';
import type { GuardLogEntry } from './judge.ts';
import type { ScanStats } from './scan.ts';
import type { Loop, SessionSummary } from './session.ts';

export interface Tally {
  sessions: number;
  /** Dollars at list prices inside loops (requests whose model has a price); null when none has. */
  usd: number | null;
  /** Requests inside loops whose usage was recorded but whose model has no price. */
  unpriced: number;
  /** Requests inside loops whose transcript recorded no usage. */
  unrecorded: number;
  loops: number;
  /** Model requests inside loops. */
  requests: number;
  /** Tokens inside loops (where the transcripts record usage). */
  tokens: number;
  /** The same tokens by kind. */
  tokenKinds: Tokens;
  /** Wall time inside loops. */
  ms: number;
  saved: { requests: number; tokens: number; ms: number; usd: number | null };
}

/** One session's loops and what they cost. */
export interface SessionTally {
  tool: ToolName;
  session: string;
  project: string;
  loops: number;
  requests: number;
  ms: number;
  usd: number | null;
  unpriced: number;
  unrecorded: number;
  /** The whole session at list prices, loops or not, for scale. */
  sessionUsd: number | null;
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
    /** `unrecorded`: loops of that day whose transcript recorded no usage (their tokens are unknown, not zero). */
    byDay: Array<{
      day: string;
      loops: number;
      requests: number;
      tokens: number;
      usd: number | null;
      unpriced: number;
      unrecorded: number;
    }>;
    /** Sessions with loops, the most expensive first. */
    bySession: SessionTally[];
  };
  /** The price list the money figures use: list prices, an estimate of what the same tokens cost on the API. */
  prices: { checked: string; override: string | null; unknownModels: string[] };
  /** Commands that wait for a person, which the guard would have refused before they ran. */
  waits: { count: number; examples: Array<{ tool: ToolName; command: string; rule: string; at?: string }> };
  /** What the installed guard did: its own event log, and the refusals visible in the transcripts read. */
  guard: { warnings: number; refusals: number; handoffs: number; since: string | null; refusedInTranscripts: number };
  /** Sessions of other projects (only when the scope is one project): what `--all` would read. */
  elsewhere: {
    sessions: number;
    byTool: Partial<Record<ToolName, number>>;
    newest: string | null;
    /** The lines to run to read them. */
    commands: string[];
  } | null;
  read: {
    /** Where each tool keeps its transcripts (~ is the home folder), and how many transcripts were found there. */
    folders: Array<{ tool: ToolName; path: string; exists: boolean; transcripts: number; database: boolean }>;
    files: number;
    bytes: number;
    ms: number;
    unknownLines: number;
    oversizeLines: number;
    unreadable: Array<{ file: string; error: string }>;
  };
}

function tally(): Tally {
  return {
    sessions: 0,
    loops: 0,
    usd: null,
    unpriced: 0,
    unrecorded: 0,
    requests: 0,
    tokens: 0,
    tokenKinds: { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 },
    ms: 0,
    saved: { requests: 0, tokens: 0, ms: 0, usd: null },
  };
}

/** Adds dollars where either side has some; unknown plus unknown stays unknown. */
export function addUsd(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : roundUsd(a + b);
}

function addLoop(t: Tally, l: Loop): void {
  t.loops++;
  t.usd = addUsd(t.usd, l.usd);
  t.unpriced += l.unpriced;
  t.unrecorded += l.unrecorded;
  t.saved.usd = addUsd(t.saved.usd, l.saved.usd);
  if (l.tokenKinds) {
    t.tokenKinds.input += l.tokenKinds.input;
    t.tokenKinds.cacheRead += l.tokenKinds.cacheRead;
    t.tokenKinds.cacheWrite += l.tokenKinds.cacheWrite;
    t.tokenKinds.output += l.tokenKinds.output;
  }
  t.requests += l.requests;
  t.tokens += l.tokens ?? 0;
  t.ms += l.ms ?? 0;
  t.saved.requests += l.saved.requests;
  t.saved.tokens += l.saved.tokens ?? 0;
  t.saved.ms += l.saved.ms ?? 0;
}

/** Worst first: dollars where known, then tokens, then requests, then repeats. */
export function byCost(a: Loop, b: Loop): number {
  return (
    (b.usd ?? 0) - (a.usd ?? 0) || (b.tokens ?? 0) - (a.tokens ?? 0) || b.requests - a.requests || b.repeats - a.repeats
  );
}

/** One session with loops: its loops' count, requests, time and dollars, and the whole session's dollars. */
function sessionTally(s: SessionSummary): SessionTally {
  const st: SessionTally = {
    tool: s.tool,
    session: s.session,
    project: s.project,
    loops: 0,
    requests: 0,
    ms: 0,
    usd: null,
    unpriced: 0,
    unrecorded: 0,
    sessionUsd: s.usd,
  };
  for (const l of s.loops) {
    st.loops++;
    st.requests += l.requests;
    st.ms += l.ms ?? 0;
    st.usd = addUsd(st.usd, l.usd);
    st.unpriced += l.unpriced;
    st.unrecorded += l.unrecorded;
  }
  return st;
}

type Day = AuditReport['totals']['byDay'][number];

/**
 * Names (a project's folder, a day) in the order of their UTF-16 code units, the same on every machine: the report is
 * read by CI and compared between machines, and localeCompare's order follows the machine's locale (Swedish sorts
 * `/x/åa` before `/x/zz`, English after), and loading ICU's collator for it cost ~6 ms of every audit.
 */
export function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Counts a loop on the day it started (or ended), 'unknown' without a time. */
function addToDay(days: Map<string, Day>, l: Loop): void {
  const day = (l.firstAt ?? l.lastAt ?? '').slice(0, 10) || 'unknown';
  const d = days.get(day) ?? { day, loops: 0, requests: 0, tokens: 0, usd: null, unpriced: 0, unrecorded: 0 };
  days.set(day, d);
  d.loops++;
  d.usd = addUsd(d.usd, l.usd);
  d.unpriced += l.unpriced;
  d.requests += l.requests;
  d.tokens += l.tokens ?? 0;
  d.unrecorded += l.unrecorded;
}

/** The totals, by tool, project, day and session, and the models no price was known for. */
function totalsOf(sessions: SessionSummary[]): { totals: AuditReport['totals']; unknownModels: Set<string> } {
  const totals = {
    ...tally(),
    shellCalls: 0,
    allRequests: 0,
    byTool: {} as Partial<Record<ToolName, Tally>>,
    byProject: [] as Array<Tally & { project: string }>,
    byDay: [] as AuditReport['totals']['byDay'],
    bySession: [] as SessionTally[],
  };
  const unknownModels = new Set<string>();
  const projects = new Map<string, Tally & { project: string }>();
  const days = new Map<string, Day>();
  for (const s of sessions) {
    totals.sessions++;
    totals.shellCalls += s.shellCalls;
    totals.allRequests += s.requests;
    const tool = (totals.byTool[s.tool] ??= tally());
    tool.sessions++;
    const project = projects.get(s.project) ?? { project: s.project, ...tally() };
    projects.set(s.project, project);
    project.sessions++;
    if (s.loops.length > 0) {
      for (const m of s.unknownModels) unknownModels.add(m);
      totals.bySession.push(sessionTally(s));
    }
    for (const l of s.loops) {
      addLoop(totals, l);
      addLoop(tool, l);
      addLoop(project, l);
      addToDay(days, l);
    }
  }
  // Projects by money lost, then tokens, then requests.
  totals.byProject = [...projects.values()].sort(
    (a, b) =>
      (b.usd ?? 0) - (a.usd ?? 0) || b.tokens - a.tokens || b.requests - a.requests || byName(a.project, b.project),
  );
  totals.bySession.sort((a, b) => (b.usd ?? 0) - (a.usd ?? 0) || b.requests - a.requests);
  totals.byDay = [...days.values()].sort((a, b) => byName(a.day, b.day));
  return { totals, unknownModels };
}

/** What the guard's own log says it did in the scope: warnings, refusals, hand-offs, since when. */
function guardFigures(
  guardLog: GuardLogEntry[],
  scope: AuditReport['scope'],
  sessions: SessionSummary[],
): AuditReport['guard'] {
  const sinceMs = scope.since ? Date.parse(scope.since) : undefined;
  const log = guardLog.filter(
    (e) =>
      (sinceMs === undefined || e.t >= sinceMs) &&
      (scope.project === null ||
        (e.cwd !== undefined && (e.cwd === scope.project || e.cwd.startsWith(`${scope.project}/`)))),
  );
  return {
    warnings: log.filter((e) => e.a === 'warn').length,
    // A hand-off is also a refusal: the command did not run, and the turn stopped.
    refusals: log.filter((e) => e.a === 'deny' || e.a === 'handoff').length,
    handoffs: log.filter((e) => e.a === 'handoff').length,
    since: log.length > 0 ? new Date(Math.min(...log.map((e) => e.t))).toISOString() : null,
    refusedInTranscripts: sessions.reduce((n, s) => n + s.refusedByGuard, 0),
  };
}

type Stats = ScanStats & { ms: number; folders?: AuditReport['read']['folders']; commands?: string[] };

export function aggregate(
  sessions: SessionSummary[],
  stats: Stats,
  scope: AuditReport['scope'],
  guardLog: GuardLogEntry[],
  prices: { checked: string; override: string | null } = { checked: 'unknown', override: null },
): AuditReport {
  const loops = sessions.flatMap((s) => s.loops).sort(byCost);
  const { totals, unknownModels } = totalsOf(sessions);
  const waits = sessions.flatMap((s) =>
    s.waits.map((w) => ({
      tool: s.tool,
      command: w.command,
      rule: w.rule,
      ...(w.at !== undefined ? { at: new Date(w.at).toISOString() } : {}),
    })),
  );
  return {
    version: 1,
    scope,
    loops,
    totals,
    prices: { ...prices, unknownModels: [...unknownModels].sort() },
    waits: { count: waits.length, examples: waits.slice(0, 20) },
    guard: guardFigures(guardLog, scope, sessions),
    elsewhere:
      scope.project !== null && stats.elsewhere
        ? {
            sessions: Object.values(stats.elsewhere).reduce((n, k) => n + (k ?? 0), 0),
            byTool: stats.elsewhere,
            newest: stats.elsewhereNewest !== undefined ? new Date(stats.elsewhereNewest).toISOString() : null,
            commands: stats.commands ?? [],
          }
        : null,
    read: {
      folders: stats.folders ?? [],
      files: stats.files,
      bytes: stats.bytes,
      ms: stats.ms,
      unknownLines: stats.unknownLines,
      oversizeLines: stats.oversizeLines,
      unreadable: stats.unreadable,
    },
  };
}
