// Readers of each agent's structured output, one JSON event at a time as it streams: model requests, tokens, dollars
// (priced with the audit's price list), the session id, the final text and the agent's own terminal reason.
import type { Tokens } from '../audit/events.ts';
import { clineTokens } from '../audit/formats/cline.ts';
import { codexTokens } from '../audit/formats/codex.ts';
import { type Obj, obj, str } from '../guard/json-value.ts';

/** The output shapes: Claude Code's stream-json (Qwen Code writes the same), Codex's exec events, OpenCode's run
 *  events (Kilo's too), Gemini CLI's stream-json, Cline's --json events, and Copilot CLI's JSON (no token usage). */
export type StreamFormat =
  | 'claude-stream'
  | 'codex-events'
  | 'opencode-events'
  | 'gemini-stream'
  | 'cline-json'
  | 'copilot-json';

/** Dollars for one request's tokens under a model id; undefined when the price list has no such model. */
export type PriceOf = (tokens: Tokens, model: string | undefined) => number | undefined;

export interface Tally {
  /** Model requests seen so far. */
  requests: number;
  /** Dollars of the requests priced so far. */
  usd: number;
  /** Requests whose tokens were read but whose model has no price (their cost is unknown, never zero). */
  unpriced: number;
  /** True while the format has reported no tokens at all: the money is unknown. */
  unmetered: boolean;
  model?: string;
  session?: string;
  finalText?: string;
  /** The agent's own reason for stopping early: its dollar or turn cap, or an error it reported. */
  terminal?: 'budget' | 'turns' | 'error';
  error?: string;
  /** The closing event (the whole run's tokens) has been read: the agent is ending, there is nothing left to stop. */
  closed?: boolean;
  /** What the tool's own session file showed while it ran, request by request (session-meter.ts). */
  meter?: SessionReading;
}

export interface SessionReading {
  /** Requests whose tokens the file recorded during this rung (priced into `usd` as they were read). */
  requests: number;
  tokens: Tokens;
  /** The session's cumulative tokens before this rung (a resumed Codex thread), when the file records them. */
  prior?: Tokens;
}

/** The rung's model requests: the stream's count, or the session file's where it saw more (a rung cut early). */
export function requestsOf(t: Tally): number {
  return Math.max(t.requests, t.meter?.requests ?? 0);
}

export function newTally(model?: string): Tally {
  return { requests: 0, usd: 0, unpriced: 0, unmetered: true, ...(model ? { model } : {}) };
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Anthropic-style usage (Claude Code, Qwen Code's Claude-compatible stream). */
function anthropicTokens(u: Obj): Tokens {
  return {
    input: num(u.input_tokens),
    cacheRead: num(u.cache_read_input_tokens),
    cacheWrite: num(u.cache_creation_input_tokens),
    output: num(u.output_tokens),
  };
}

export function addPriced(t: Tally, price: PriceOf, tokens: Tokens, model: string | undefined): void {
  t.unmetered = false;
  const usd = price(tokens, model ?? t.model);
  if (usd === undefined) t.unpriced++;
  else t.usd += usd;
}

/** A reader keeps its own memory of the stream (message ids seen) and updates the tally it was given. */
export type Reader = (ev: Obj) => void;

function claudeReader(t: Tally, price: PriceOf): Reader {
  const seen = new Set<string>();
  return (ev) => {
    const session = str(ev.session_id);
    if (session) t.session = session;
    const msg = obj(ev.message);
    if (ev.type === 'assistant' && msg) {
      const model = str(msg.model);
      if (model) t.model = model;
      // One request streams as several events of one message id; its usage is the message_start figure, an
      // estimate until the result event gives the whole run's tokens.
      const id = str(msg.id) ?? `#${seen.size}`;
      if (seen.has(id)) return;
      seen.add(id);
      t.requests++;
      const u = obj(msg.usage);
      if (u) addPriced(t, price, anthropicTokens(u), model);
      return;
    }
    if (ev.type !== 'result') return;
    t.closed = true;
    const text = str(ev.result);
    if (text) t.finalText = text;
    const subtype = str(ev.subtype) ?? '';
    if (subtype === 'error_max_budget_usd') t.terminal = 'budget';
    else if (subtype === 'error_max_turns') t.terminal = 'turns';
    else if (ev.is_error === true || subtype.startsWith('error')) {
      t.terminal = 'error';
      t.error = text ?? subtype;
    }
    // The result's usage is the whole run's: it replaces the per-message estimates.
    const byModel = obj(ev.modelUsage);
    const u = obj(ev.usage);
    if (byModel && Object.keys(byModel).length) {
      t.usd = 0;
      t.unpriced = 0;
      for (const [model, mu] of Object.entries(byModel)) {
        const m = obj(mu);
        if (!m) continue;
        const tokens = {
          input: num(m.inputTokens),
          cacheRead: num(m.cacheReadInputTokens),
          cacheWrite: num(m.cacheCreationInputTokens),
          output: num(m.outputTokens),
        };
        addPriced(t, price, tokens, model);
      }
    } else if (u) {
      t.usd = 0;
      t.unpriced = 0;
      addPriced(t, price, anthropicTokens(u), t.model);
    }
  };
}

function codexReader(t: Tally, price: PriceOf): Reader {
  const started = new Set<string>();
  // Each model response becomes items: a command, a file change, a tool call or the closing message.
  const RESPONSE_ITEMS = new Set(['command_execution', 'agent_message', 'file_change', 'mcp_tool_call', 'web_search']);
  return (ev) => {
    if (ev.type === 'thread.started') {
      const id = str(ev.thread_id);
      if (id) t.session = id;
      return;
    }
    const item = obj(ev.item);
    if (item && (ev.type === 'item.started' || ev.type === 'item.completed')) {
      const id = str(item.id) ?? '';
      const type = str(item.type) ?? '';
      if (!RESPONSE_ITEMS.has(type) || started.has(id)) return;
      started.add(id);
      t.requests++;
      const text = type === 'agent_message' ? str(item.text) : undefined;
      if (text) t.finalText = text;
      return;
    }
    if (ev.type === 'turn.completed') {
      const u = obj(ev.usage);
      if (!u) return;
      // Codex reports usage per turn, not per request: the turn's total replaces the running figures.
      t.closed = true;
      t.usd = 0;
      t.unpriced = 0;
      addPriced(t, price, turnTokens(codexTokens(u), t.meter), t.model);
      return;
    }
    if (ev.type === 'turn.failed' || ev.type === 'error') {
      t.terminal = 'error';
      t.error = str(obj(ev.error)?.message) ?? str(ev.message) ?? 'the turn failed';
    }
  };
}

const sum = (k: Tokens) => k.input + k.cacheRead + k.cacheWrite + k.output;

/**
 * The tokens of this exec's turn. `codex exec resume` (0.171.0) reports the whole thread's usage in turn.completed,
 * so when the rollout showed the thread's total before the rung and the closing figure covers it, that is taken off.
 */
function turnTokens(total: Tokens, m: SessionReading | undefined): Tokens {
  const prior = m?.prior;
  if (!prior || sum(prior) === 0 || sum(total) < sum(prior) + sum(m.tokens)) return total;
  return {
    input: Math.max(0, total.input - prior.input),
    cacheRead: Math.max(0, total.cacheRead - prior.cacheRead),
    cacheWrite: Math.max(0, total.cacheWrite - prior.cacheWrite),
    output: Math.max(0, total.output - prior.output),
  };
}

function openCodeReader(t: Tally, price: PriceOf): Reader {
  return (ev) => {
    const part = obj(ev.part);
    const session = str(ev.sessionID) ?? str(part?.sessionID);
    if (session && !t.session) t.session = session;
    const text = ev.type === 'text' ? str(part?.text) : undefined;
    if (text) t.finalText = text;
    if (ev.type === 'step_finish' && part) {
      t.requests++;
      const tk = obj(part.tokens);
      const cache = obj(tk?.cache);
      if (tk)
        addPriced(
          t,
          price,
          {
            input: num(tk.input),
            cacheRead: num(cache?.read),
            cacheWrite: num(cache?.write),
            output: num(tk.output) + num(tk.reasoning),
          },
          t.model,
        );
    }
    if (ev.type === 'error') {
      t.terminal = 'error';
      const e = obj(ev.error);
      t.error = str(obj(e?.data)?.message) ?? str(e?.name) ?? 'the agent reported an error';
    }
  };
}

function geminiReader(t: Tally, price: PriceOf): Reader {
  return (ev) => {
    const session = str(ev.session_id);
    if (session) t.session = session;
    const model = ev.type === 'init' ? str(ev.model) : undefined;
    if (model) t.model = model;
    if (ev.type === 'tool_use') t.requests++;
    if (ev.type === 'message' && ev.role === 'assistant') t.finalText = `${t.finalText ?? ''}${str(ev.content) ?? ''}`;
    if (ev.type !== 'result') return;
    t.closed = true;
    // The closing answer was a request too; Gemini reports tokens for the whole run only.
    t.requests++;
    const s = obj(ev.stats);
    const byModel = obj(s?.models);
    const served = byModel ? Object.keys(byModel) : [];
    const only = served.length === 1 ? served[0] : undefined;
    if (only) t.model = only;
    if (s) {
      t.usd = 0;
      t.unpriced = 0;
    }
    // Per model when it says (its keys are the models that served, a fallback included), else the run's total.
    const counts = byModel && Object.keys(byModel).length ? Object.entries(byModel) : s ? [[t.model, s] as const] : [];
    for (const [model, m] of counts) {
      const c = obj(m);
      if (!c) continue;
      const cached = num(c.cached);
      addPriced(
        t,
        price,
        {
          input: Math.max(0, num(c.input_tokens) - cached),
          cacheRead: cached,
          cacheWrite: 0,
          output: num(c.output_tokens),
        },
        model ?? t.model,
      );
    }
    if (ev.status === 'error') {
      t.terminal = 'error';
      t.error = str(obj(ev.error)?.message) ?? 'the agent reported an error';
    }
  };
}

/**
 * Cline 3.0.65's --json: an `agent_event` of type `usage` after each model request (that request's tokens), and a
 * closing `run_result` with the whole run's tokens, the final text and the model. Its events never name the model
 * before the end, so the tally starts with the argv's (`-m`) or the one its settings file names (cline-model.ts);
 * without either the requests are counted and priced at the close. The closing model is the one that ran.
 */
function clineReader(t: Tally, price: PriceOf): Reader {
  const requests: Tokens[] = [];
  let pricedAs = t.model;
  return (ev) => {
    const e = obj(ev.event);
    if (ev.type === 'agent_event' && e?.type === 'usage') {
      t.requests++;
      const tokens = clineTokens(e);
      requests.push(tokens);
      if (t.model) addPriced(t, price, tokens, t.model);
      return;
    }
    if (ev.type !== 'run_result') return;
    t.closed = true;
    const text = str(ev.text);
    if (text) t.finalText = text;
    const model = str(obj(ev.model)?.id);
    if (model) t.model = model;
    if (!t.requests) t.requests = num(ev.iterations);
    if (ev.finishReason === 'error') {
      t.terminal = 'error';
      t.error = text ?? 'the agent reported an error';
    }
    // The closing total (sub-agents' included, when it has them) replaces the per-request figures.
    const total = obj(ev.aggregateUsage) ?? obj(ev.usage);
    if (!total && pricedAs !== undefined && pricedAs === t.model) return;
    t.usd = 0;
    t.unpriced = 0;
    pricedAs = t.model;
    for (const tk of total ? [clineTokens(total)] : requests) addPriced(t, price, tk, t.model);
  };
}

/**
 * Copilot CLI 1.0.102: its JSON writer drops `assistant.usage` (and `session.usage_info`, `session.shutdown`) from the
 * stream, and the closing `result` has only `premiumRequests` (GitHub's billing unit, 0 with your own provider): the
 * requests are counted (`model.call_start`), the money stays unknown.
 */
function copilotReader(t: Tally): Reader {
  return (ev) => {
    const session = str(ev.sessionId);
    if (session) t.session = session;
    if (ev.type === 'model.call_start') t.requests++;
    const text = str(obj(ev.data)?.content);
    if (text && ev.type === 'assistant.message') t.finalText = text;
  };
}

const READERS: Record<StreamFormat, (t: Tally, price: PriceOf) => Reader> = {
  'claude-stream': claudeReader,
  'codex-events': codexReader,
  'opencode-events': openCodeReader,
  'gemini-stream': geminiReader,
  'cline-json': clineReader,
  'copilot-json': copilotReader,
};

export function readerFor(format: StreamFormat, t: Tally, price: PriceOf): Reader {
  return READERS[format](t, price);
}

/** Feeds one line of stdout to a reader; lines that are not JSON objects (banners, warnings) are skipped. */
export function feedLine(read: Reader, line: string): void {
  const s = line.trim();
  if (!s.startsWith('{')) return;
  let v: unknown;
  try {
    v = JSON.parse(s);
  } catch {
    return;
  }
  const o = obj(v);
  if (o) read(o);
}
