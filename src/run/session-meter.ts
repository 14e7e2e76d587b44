// The meter on the tool's own session file: Codex and Gemini CLI report tokens on stdout only when the run ends, but
// both append a record per model request to a file while they run. Polled (a stat, then only the new bytes), each
// request's priced tokens go into the rung's tally, so the share holds to one request on every rung, the first
// included. It fails open: no file, an unreadable one, a shape it does not know leave the tally as the stream made it.
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { type Tokens, timeOf } from '../audit/events.ts';
import { codexTokens } from '../audit/formats/codex.ts';
import { createGeminiParser } from '../audit/formats/gemini.ts';
import { type Obj, obj, str } from '../guard/json-value.ts';
import { addPriced, type PriceOf, type SessionReading, type Tally } from './streams.ts';

/** Codex's rollout (`$CODEX_HOME/sessions/…/rollout-*-<thread>.jsonl`), Gemini CLI's chat (`~/.gemini/tmp/…`). */
export type SessionFileFormat = 'codex-rollout' | 'gemini-chat';

/** One model request read from the file: its tokens, and the session's cumulative tokens after it when recorded. */
export interface RequestRecord {
  tokens: Tokens;
  model?: string | undefined;
  at?: number | undefined;
  total?: Tokens | undefined;
}

/** Turns the file's records into requests, each once (both tools write some records twice). */
export type RecordReader = (record: Obj) => RequestRecord[];

export interface MeterOpts {
  format: SessionFileFormat;
  /** The agent's environment: where its home and CODEX_HOME / GEMINI_CLI_HOME are. */
  env: Record<string, string | undefined>;
  /** The agent's working directory (Gemini CLI files its chats by project). */
  cwd: string;
  /** When the rung started (epoch ms): records before it are an earlier rung's (a resumed thread). */
  since: number;
  tally: Tally;
  price: PriceOf;
  /** Called after a poll that priced a request: the caller compares the spend with the share. */
  onRequest: () => void;
  intervalMs?: number;
}

export interface SessionMeter {
  /** Reads what the file gained since the last poll. */
  poll(): void;
  stop(): void;
  /** The file being read, once found. */
  readonly path: string | undefined;
}

/** Polled this often: well inside the gap between a response and the next request (a tool call, its hooks). */
const POLL_MS = 20;
/** A walk of every dated folder (a resumed thread's file may be days old) at most this often. */
const WALK_MS = 2000;

const ZERO: Tokens = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
const plus = (a: Tokens, b: Tokens): Tokens => ({
  input: a.input + b.input,
  cacheRead: a.cacheRead + b.cacheRead,
  cacheWrite: a.cacheWrite + b.cacheWrite,
  output: a.output + b.output,
});
const keyOf = (k: Tokens) => `${k.input}/${k.cacheRead}/${k.cacheWrite}/${k.output}`;

/**
 * Codex 0.171.0 writes a `token_usage_record` as each response completes (its `usage`, and the thread's total), then
 * an `event_msg` `token_count` with the same figures once the tool calls are done; older versions write only the
 * latter. A record whose thread total repeats the last one is the same request (or a rate-limit update).
 */
export function codexRecordReader(): RecordReader {
  let model: string | undefined;
  let lastTotal: string | undefined;
  const responses = new Set<string>();
  let sawRecords = false;
  return (r) => {
    const p = obj(r.payload);
    if (!p) return [];
    if (r.type === 'turn_context') {
      model = str(p.model) ?? model;
      return [];
    }
    const isRecord = r.type === 'token_usage_record';
    const info = r.type === 'event_msg' && p.type === 'token_count' ? obj(p.info) : undefined;
    const per = isRecord ? obj(p.usage) : obj(info?.last_token_usage);
    if (!per) return [];
    const cum = isRecord ? obj(p.thread_token_usage) : obj(info?.total_token_usage);
    const total = cum ? codexTokens(cum) : undefined;
    if (total) {
      if (keyOf(total) === lastTotal) return [];
      lastTotal = keyOf(total);
    } else if (isRecord) {
      const id = str(p.response_id);
      if (id && responses.has(id)) return [];
      if (id) responses.add(id);
    } else if (sawRecords) return [];
    if (isRecord) sawRecords = true;
    return [{ tokens: codexTokens(per), model, at: timeOf(r.timestamp), total }];
  };
}

/** Gemini CLI's chat records, read by the audit's own parser: a `gemini` message's `tokens`, once per message id. */
export function geminiRecordReader(): RecordReader {
  const parser = createGeminiParser();
  return (r) => {
    const out: RequestRecord[] = [];
    parser.push(r, (e) => {
      if (e.kind === 'usage' && e.tokens) out.push({ tokens: e.tokens, model: e.model, at: e.at });
    });
    return out;
  };
}

const READERS: Record<SessionFileFormat, () => RecordReader> = {
  'codex-rollout': codexRecordReader,
  'gemini-chat': geminiRecordReader,
};

/**
 * The record types worth parsing, as they appear in a line (JSON escapes the quotes of any string holding them), so
 * the long lines of tool output and conversation are skipped unparsed.
 */
const NEEDLES: Record<SessionFileFormat, readonly string[]> = {
  'codex-rollout': ['"type":"token_usage_record"', '"type":"token_count"', '"type":"turn_context"'],
  'gemini-chat': ['"type":"gemini"'],
};

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Codex's rollout of one thread: the dated folders of today and yesterday first (local and UTC), then all of them. */
export function findCodexRollout(env: MeterOpts['env'], thread: string, walk: boolean): string | undefined {
  const sessions = join(env.CODEX_HOME || join(env.HOME || homedir(), '.codex'), 'sessions');
  const suffix = `-${thread}.jsonl`;
  const inDay = (day: string) => {
    const name = listDir(join(sessions, day)).find((f) => f.startsWith('rollout-') && f.endsWith(suffix));
    return name ? join(sessions, day, name) : undefined;
  };
  const now = Date.now();
  const days = new Set<string>();
  for (const t of [now, now - 86_400_000]) {
    const d = new Date(t);
    days.add(`${d.getFullYear()}/${pad(d.getMonth() + 1)}/${pad(d.getDate())}`);
    days.add(`${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}`);
  }
  for (const day of days) {
    const found = inDay(day);
    if (found) return found;
  }
  if (!walk) return undefined;
  const desc = (dir: string) => listDir(dir).sort().reverse();
  for (const y of desc(sessions))
    for (const m of desc(join(sessions, y)))
      for (const d of desc(join(sessions, y, m))) {
        const found = inDay(`${y}/${m}/${d}`);
        if (found) return found;
      }
  return undefined;
}

/** The first line of a file (bounded), or '' when it cannot be read. */
function firstLine(path: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(4096);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const text = buf.subarray(0, n).toString('utf8');
    const nl = text.indexOf('\n');
    return nl === -1 ? text : text.slice(0, nl);
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Gemini CLI's chat of one session: `<home>/.gemini/tmp/<project>/chats/session-<time>-<id's first 8>.jsonl`, the
 * project's folder named in `projects.json` (else any project's), the full id checked in the file's first line.
 */
export function findGeminiChat(env: MeterOpts['env'], cwd: string, session: string): string | undefined {
  const base = join(env.GEMINI_CLI_HOME || env.HOME || homedir(), '.gemini');
  const tmp = join(base, 'tmp');
  let mine: string | undefined;
  try {
    const projects = obj(obj(JSON.parse(readFileSync(join(base, 'projects.json'), 'utf8')))?.projects);
    let real = cwd;
    try {
      real = realpathSync(cwd);
    } catch {
      // The folder as given.
    }
    mine = str(projects?.[cwd]) ?? str(projects?.[real]);
  } catch {
    // No registry (another version): every project folder is looked at.
  }
  const suffix = `-${session.slice(0, 8)}.jsonl`;
  for (const project of mine ? [mine] : listDir(tmp)) {
    const chats = join(tmp, project, 'chats');
    for (const f of listDir(chats)) {
      if (!f.startsWith('session-') || !f.endsWith(suffix)) continue;
      const path = join(chats, f);
      const head = firstLine(path);
      try {
        if (str(obj(JSON.parse(head))?.sessionId) === session) return path;
      } catch {
        // Not this session's header.
      }
    }
  }
  return undefined;
}

/** The new complete lines of a file that only grows; throws when it shrank (rewritten: not a file it can follow). */
class Tail {
  private offset = 0;
  private rest: Buffer = Buffer.alloc(0);
  constructor(private readonly fd: number) {}
  lines(): string[] {
    const size = fstatSync(this.fd).size;
    if (size < this.offset) throw new Error('the session file shrank');
    if (size === this.offset) return [];
    const buf = Buffer.alloc(size - this.offset);
    const n = readSync(this.fd, buf, 0, buf.length, this.offset);
    this.offset += n;
    let data = Buffer.concat([this.rest, buf.subarray(0, n)]);
    const out: string[] = [];
    let nl = data.indexOf(0x0a);
    while (nl !== -1) {
      out.push(data.subarray(0, nl).toString('utf8'));
      data = data.subarray(nl + 1);
      nl = data.indexOf(0x0a);
    }
    this.rest = Buffer.from(data);
    return out;
  }
  close(): void {
    closeSync(this.fd);
  }
}

/** Feeds one request into the tally: priced, counted, and its tokens kept for the closing total's check. */
function charge(t: Tally, m: SessionReading, price: PriceOf, r: RequestRecord): void {
  if (r.model && !t.model) t.model = r.model;
  m.requests++;
  m.tokens = plus(m.tokens, r.tokens);
  addPriced(t, price, r.tokens, r.model);
}

/**
 * Starts polling once the stream has named the session (Codex's thread.started, Gemini CLI's init): the file is
 * that session's own, never another run's. Every error stops the meter and leaves the tally to the stream.
 */
export function startSessionMeter(opts: MeterOpts): SessionMeter {
  const { tally, env } = opts;
  const read = READERS[opts.format]();
  const needles = NEEDLES[opts.format];
  let tail: Tail | undefined;
  let path: string | undefined;
  let dead = false;
  let lastWalk = 0;
  const reading: SessionReading = { requests: 0, tokens: ZERO };

  const locate = (): string | undefined => {
    const session = tally.session;
    if (!session) return undefined;
    if (opts.format === 'gemini-chat') return findGeminiChat(env, opts.cwd, session);
    const walk = Date.now() - lastWalk >= WALK_MS;
    if (walk) lastWalk = Date.now();
    return findCodexRollout(env, session, walk);
  };

  const poll = () => {
    if (dead || tally.closed) return;
    try {
      if (!tail) {
        path = locate();
        if (!path) return;
        tail = new Tail(openSync(path, 'r'));
        tally.meter = reading;
      }
      let priced = false;
      for (const line of tail.lines()) {
        if (!line.startsWith('{') || !needles.some((n) => line.includes(n))) continue;
        let rec: Obj | undefined;
        try {
          rec = obj(JSON.parse(line));
        } catch {
          continue;
        }
        for (const r of rec ? read(rec) : []) {
          // An earlier rung's request (the thread resumed): its total is where this rung starts from.
          if (r.at !== undefined && r.at < opts.since) {
            if (r.total) reading.prior = r.total;
            continue;
          }
          if (tally.closed) return;
          charge(tally, reading, opts.price, r);
          priced = true;
        }
      }
      if (priced) opts.onRequest();
    } catch {
      stop();
    }
  };

  const timer = setInterval(poll, opts.intervalMs ?? POLL_MS);
  timer.unref();

  function stop(): void {
    dead = true;
    clearInterval(timer);
    try {
      tail?.close();
    } catch {
      // Already closed.
    }
    tail = undefined;
  }

  return {
    poll,
    stop,
    get path() {
      return path;
    },
  };
}
