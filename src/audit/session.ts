// One session's replay: events → the judge (through the guard core) and the cost meter → loop records.
import { type Cost, costBetween, Meter, type Money, type Reading } from './cost.ts';
import type { ToolName } from '../tools/names.ts';
import type { AuditEvent, SessionInfo, Tokens } from './events.ts';
import { SessionJudge, type Episode, type GuardSettings, type Wait } from './judge.ts';
import type { Pricer } from './prices.ts';

export interface Loop extends Money {
  tool: ToolName;
  /** The transcript this loop was found in. */
  file: string;
  session: string;
  project: string;
  kind: 'repeat' | 'cycle';
  /** The command as the agent wrote it (a cycle: its commands joined with " → "). */
  command: string;
  commands: string[];
  /** Identical results in a row (a cycle: full repetitions of the block). */
  repeats: number;
  attempts: number;
  firstAt?: string;
  lastAt?: string;
  /** Wall time from the first to the last attempt. */
  ms?: number;
  /** Model requests spent inside the loop. */
  requests: number;
  /** Tokens those requests used, when the transcript records usage. */
  tokens?: number;
  /** The same tokens by kind: input, cache read, cache write, output (each billed at its own price). */
  tokenKinds?: Tokens;
  exitCode?: number;
  excerpt: string;
  /** Attempts (1-based, within the loop) at which the installed guard would have warned, refused, and stopped the turn
   * with a hand-off note. */
  guard: { warnAt: number | null; refuseAt: number | null; handoffAt: number | null };
  /** When each attempt ran, in ms after the first (where the transcript records times): the HTML report's timeline. */
  timeline?: number[];
  /** What the guard would have saved: everything after the attempt it would have refused. */
  saved: { requests: number; tokens?: number; ms?: number; usd: number | null };
}

export interface SessionSummary extends Money {
  tool: ToolName;
  file: string;
  session: string;
  project: string;
  shellCalls: number;
  /** Attempts the installed guard refused in this session (they never ran, and are not replayed). */
  refusedByGuard: number;
  requests: number;
  tokens?: number;
  /** Models whose usage was recorded but that have no price. */
  unknownModels: string[];
  firstAt?: number;
  lastAt?: number;
  loops: Loop[];
  waits: Wait[];
}

function iso(t: number | undefined): string | undefined {
  return t === undefined ? undefined : new Date(t).toISOString();
}

/** A clipped, single-spaced excerpt of an output. */
export function excerpt(text: string, max = 160): string {
  const flat = text
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

export class SessionRun {
  private readonly meter: Meter;
  private readonly judge: SessionJudge<Reading>;
  private firstAt: number | undefined;
  private lastAt: number | undefined;

  constructor(
    readonly tool: ToolName,
    readonly file: string,
    settings: GuardSettings,
    pricer?: Pricer,
  ) {
    this.meter = new Meter(pricer);
    this.judge = new SessionJudge<Reading>(tool, settings, () => this.meter.read());
  }

  feed(e: AuditEvent): void {
    if (e.at !== undefined) {
      if (this.firstAt === undefined || e.at < this.firstAt) this.firstAt = e.at;
      if (this.lastAt === undefined || e.at > this.lastAt) this.lastAt = e.at;
    }
    if (e.kind === 'usage') this.meter.add(e.tokens, e.model);
    else this.judge.feed(e);
  }

  finish(info: SessionInfo): SessionSummary {
    const episodes = this.judge.finish();
    const metered = this.meter.seen;
    const end = this.meter.read();
    const session = info.id ?? '';
    const project = info.cwd ?? '';
    const loops = episodes.map((ep) => this.toLoop(ep, metered, session, project));
    const whole = costBetween(
      {
        requests: 0,
        tokens: 0,
        metered: 0,
        priced: 0,
        usd: 0,
        kinds: { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 },
      },
      end,
      0,
      metered,
    );
    return {
      tool: this.tool,
      file: this.file,
      session,
      project,
      shellCalls: this.judge.shellCalls,
      refusedByGuard: this.judge.refusedByGuard,
      requests: end.requests,
      ...(end.metered > 0 ? { tokens: end.tokens } : {}),
      usd: whole.usd,
      unpriced: whole.unpriced,
      unrecorded: whole.unrecorded,
      unknownModels: [...this.meter.unknownModels],
      ...(this.firstAt !== undefined ? { firstAt: this.firstAt } : {}),
      ...(this.lastAt !== undefined ? { lastAt: this.lastAt } : {}),
      loops,
      waits: this.judge.waits,
    };
  }

  private toLoop(ep: Episode<Reading>, metered: boolean, session: string, project: string): Loop {
    const cost = costBetween(ep.firstMark, ep.lastMark, ep.attempts - 1, metered, ep.firstAt, ep.lastAt);
    const saved =
      ep.refuseMark !== undefined
        ? costBetween(
            ep.refuseMark,
            ep.lastMark,
            ep.attempts - (ep.refuseAt ?? ep.attempts),
            metered,
            ep.refusedAtTime,
            ep.lastAt,
          )
        : ({ requests: 0, usd: null, unpriced: 0, unrecorded: 0 } as Cost);
    return {
      tool: this.tool,
      file: this.file,
      session,
      project,
      kind: ep.kind,
      command: ep.commands.join(' → '),
      commands: ep.commands,
      repeats: ep.repeats,
      attempts: ep.attempts,
      ...(iso(ep.firstAt) ? { firstAt: iso(ep.firstAt) as string } : {}),
      ...(iso(ep.lastAt) ? { lastAt: iso(ep.lastAt) as string } : {}),
      ...(cost.ms !== undefined ? { ms: cost.ms } : {}),
      requests: cost.requests,
      ...(cost.tokens !== undefined ? { tokens: cost.tokens } : {}),
      ...(cost.kinds !== undefined ? { tokenKinds: cost.kinds } : {}),
      usd: cost.usd,
      unpriced: cost.unpriced,
      unrecorded: cost.unrecorded,
      ...(ep.exitCode !== undefined ? { exitCode: ep.exitCode } : {}),
      excerpt: excerpt(ep.output),
      ...(ep.times.length > 1 && ep.firstAt !== undefined
        ? { timeline: ep.times.map((t) => t - (ep.firstAt as number)) }
        : {}),
      guard: { warnAt: ep.warnAt ?? null, refuseAt: ep.refuseAt ?? null, handoffAt: ep.handoffAt ?? null },
      saved: {
        requests: saved.requests,
        ...(saved.tokens !== undefined ? { tokens: saved.tokens } : {}),
        ...(saved.ms !== undefined ? { ms: saved.ms } : {}),
        usd: saved.usd,
      },
    };
  }
}
