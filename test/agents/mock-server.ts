// A scripted "model" for the real agent CLIs: one HTTP server on 127.0.0.1 that speaks
// Anthropic Messages SSE (Claude Code), OpenAI Responses SSE (Codex), OpenAI Chat Completions SSE
// (OpenCode, Qwen Code, Copilot CLI, Cline, Kilo) and the Gemini API (Gemini CLI). It asks for one shell command per model turn, then answers with a final text, and it
// records every request so tests can read back exactly what the agent sent to the model.
//
// It is stateless about progress: each request's own history says where we are. The user prompt of
// run N carries the marker `[lg-e2e turn N]`; the number of tool calls after the last marker is the
// number of steps already taken in that turn. Retries and side requests therefore cannot shift steps.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync, inflateSync, brotliDecompressSync } from 'node:zlib';

export type Protocol = 'anthropic' | 'responses' | 'chat' | 'gemini';

/**
 * The shell tool each Chat Completions client offers, in the order we prefer them: OpenCode, Copilot and
 * Kilo call it `bash`, Qwen Code `run_shell_command`, Cline `run_commands` (a list of commands).
 */
const CHAT_SHELL_TOOLS = ['bash', 'run_shell_command', 'run_commands'] as const;

/**
 * A call of a tool other than the plain shell command (an edit tool, a sub-agent, a shell call with extra
 * arguments), written in the tool's own wire terms: `name` and `input` as that protocol's model would send
 * them. `custom: true` sends a Responses `custom_tool_call` (free-text input, e.g. Codex's apply_patch).
 */
export interface ToolStep {
  name: string;
  input: Record<string, unknown> | string;
  custom?: boolean;
}

/** One user turn: the steps the model runs one by one (a string is a shell command), then its closing text. */
export interface Turn {
  commands: Array<string | ToolStep>;
  finalText?: string;
}

export interface Script {
  /** turns[0] answers the prompt of turn 1, turns[1] the prompt of turn 2 (a resumed session), … */
  turns: Turn[];
  /**
   * The verdict Claude Code's `/goal` evaluator gets (its request has no tools and a "stop-condition hook" system
   * prompt, and wants JSON). Without it that request is a side call, whose prose answer the evaluator cannot read.
   */
  goalVerdict?: { ok: boolean; reason: string; impossible?: boolean; metAfter?: number };
  /** The tokens each Chat Completions reply reports (default 10 in, 5 out): a CLI's own count can be checked by it. */
  chatUsage?: ChatUsage;
}

/**
 * Chat Completions token counts. `prompt` is the whole prompt, cache included, as OpenAI reports it; `cached` and
 * `cacheWrite` go in `prompt_tokens_details` (`cached_tokens`, and `cache_write_tokens` as OpenRouter-style gateways
 * send it) only when given.
 */
export interface ChatUsage {
  prompt: number;
  completion: number;
  cached?: number;
  cacheWrite?: number;
}

/** Claude Code's stop-condition evaluator (`/goal`, prompt-type Stop hooks): its system prompt starts so. */
const EVALUATOR_PROMPT = 'You are evaluating a stop-condition hook';

export interface RecordedRequest {
  seq: number;
  method: string;
  url: string;
  protocol: Protocol | null;
  body: unknown;
  /**
   * 'agent' = a tool-enabled model call we scripted; 'evaluator' = Claude Code's stop-condition judge (`/goal`);
   * 'side' = e.g. OpenCode's title request; 'other' = probes.
   */
  kind: 'agent' | 'evaluator' | 'side' | 'other';
  turn: number | null;
  /** Tool calls already made in this turn when the request arrived. */
  stepsDone: number | null;
  reply: string;
}

export interface StepResult {
  protocol: Protocol;
  turn: number;
  /** 1-based, within the turn. */
  step: number;
  command: string;
  /** Everything that came back after this step's tool call: the tool result plus any hook context. */
  text: string;
}

/** Text for the prompt of a turn; the marker is how the server knows which turn a request belongs to. */
export function promptFor(turn: number): string {
  return `Run the scripted shell commands one at a time. ${turnMarker(turn)}`;
}

export function turnMarker(turn: number): string {
  return `[lg-e2e turn ${turn}]`;
}

const MARKER = /\[lg-e2e turn (\d+)\]/g;

/** A conversation flattened to what we care about, in order, the same shape for all three protocols. */
type Item = { kind: 'user'; text: string } | { kind: 'call'; command: string } | { kind: 'context'; text: string };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every string under `text`/`content`/`output` keys, so nested tool-result shapes all flatten to text. */
function collectText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(collectText).filter(Boolean).join('\n');
  if (isRecord(v)) {
    return ['text', 'content', 'output']
      .filter((k) => k in v)
      .map((k) => collectText(v[k]))
      .filter(Boolean)
      .join('\n');
  }
  return '';
}

function parseArgs(raw: unknown): Record<string, unknown> {
  if (isRecord(raw)) return raw;
  if (typeof raw !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function commandOf(args: Record<string, unknown>): string {
  // Cline's run_commands takes {commands: [..]}; the others one command string.
  const c = args.command ?? args.cmd ?? args.commands;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.map(String).join(' ');
  return '';
}

function anthropicItems(body: Record<string, unknown>): Item[] {
  const items: Item[] = [];
  for (const m of Array.isArray(body.messages) ? body.messages : []) {
    if (!isRecord(m)) continue;
    const blocks: unknown[] =
      typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content : [];
    for (const b of blocks) {
      if (!isRecord(b)) continue;
      if (m.role === 'assistant') {
        if (b.type === 'tool_use') items.push({ kind: 'call', command: commandOf(parseArgs(b.input)) });
      } else if (b.type === 'tool_result') {
        items.push({ kind: 'context', text: collectText(b.content) });
      } else if (b.type === 'text') {
        // A user text block is either the prompt or an injected reminder (2.1.197 puts hook context here).
        items.push({ kind: 'user', text: String(b.text ?? '') });
      }
    }
  }
  return items;
}

function responsesItems(body: Record<string, unknown>): Item[] {
  const items: Item[] = [];
  const input = typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : body.input;
  for (const it of Array.isArray(input) ? input : []) {
    if (!isRecord(it)) continue;
    const type = it.type ?? (it.role ? 'message' : undefined);
    if (type === 'function_call' || type === 'local_shell_call' || type === 'custom_tool_call') {
      items.push({ kind: 'call', command: commandOf(parseArgs(it.arguments ?? it.input ?? it.action)) });
    } else if (
      type === 'function_call_output' ||
      type === 'custom_tool_call_output' ||
      type === 'local_shell_call_output'
    ) {
      items.push({ kind: 'context', text: collectText(it.output) });
    } else if (type === 'message') {
      // Codex sends hook additionalContext as a role:"developer" message between the call and its output.
      if (it.role === 'assistant') continue;
      items.push({ kind: it.role === 'user' ? 'user' : 'context', text: collectText(it.content) });
    }
  }
  return items;
}

function chatItems(body: Record<string, unknown>): Item[] {
  const items: Item[] = [];
  for (const m of Array.isArray(body.messages) ? body.messages : []) {
    if (!isRecord(m)) continue;
    if (m.role === 'assistant') {
      for (const tc of Array.isArray(m.tool_calls) ? m.tool_calls : []) {
        if (isRecord(tc) && isRecord(tc.function))
          items.push({ kind: 'call', command: commandOf(parseArgs(tc.function.arguments)) });
      }
    } else if (m.role === 'tool') {
      items.push({ kind: 'context', text: collectText(m.content) });
    } else if (m.role === 'user') {
      items.push({ kind: 'user', text: collectText(m.content) });
    }
  }
  return items;
}

/** Every string in a Gemini functionResponse.response ({output} on success, {error} when a hook denied). */
function geminiResponseText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(geminiResponseText).filter(Boolean).join('\n');
  if (isRecord(v)) return Object.values(v).map(geminiResponseText).filter(Boolean).join('\n');
  return '';
}

function geminiItems(body: Record<string, unknown>): Item[] {
  const items: Item[] = [];
  for (const c of Array.isArray(body.contents) ? body.contents : []) {
    if (!isRecord(c)) continue;
    for (const p of Array.isArray(c.parts) ? c.parts : []) {
      if (!isRecord(p)) continue;
      if (isRecord(p.functionCall)) items.push({ kind: 'call', command: commandOf(parseArgs(p.functionCall.args)) });
      else if (isRecord(p.functionResponse))
        items.push({ kind: 'context', text: geminiResponseText(p.functionResponse.response) });
      else if (typeof p.text === 'string' && c.role !== 'model') items.push({ kind: 'user', text: p.text });
    }
  }
  return items;
}

function itemsOf(protocol: Protocol, body: Record<string, unknown>): Item[] {
  if (protocol === 'anthropic') return anthropicItems(body);
  if (protocol === 'responses') return responsesItems(body);
  if (protocol === 'gemini') return geminiItems(body);
  return chatItems(body);
}

function hasTools(body: Record<string, unknown>): boolean {
  return toolNames(body).length > 0;
}

function toolNames(body: Record<string, unknown>): string[] {
  return (Array.isArray(body.tools) ? body.tools : [])
    .flatMap((t) => {
      if (!isRecord(t)) return [''];
      // Gemini groups its tools: {functionDeclarations: [{name, …}]}.
      if (Array.isArray(t.functionDeclarations)) {
        return t.functionDeclarations.map((f) => (isRecord(f) && typeof f.name === 'string' ? f.name : ''));
      }
      if (typeof t.name === 'string') return t.name;
      if (isRecord(t.function) && typeof t.function.name === 'string') return t.function.name;
      return typeof t.type === 'string' ? t.type : '';
    })
    .filter(Boolean);
}

/** The shell tool to call in a Chat Completions request: the first of ours the client offers. */
function chatShellTool(body: Record<string, unknown>): string | null {
  const offered = toolNames(body);
  return CHAT_SHELL_TOOLS.find((t) => offered.includes(t)) ?? null;
}

/** Where a request stands: which turn, how many calls were made in it, and the item index of each call. */
function position(items: Item[]): { turn: number; markerIndex: number } | null {
  let found: { turn: number; markerIndex: number } | null = null;
  items.forEach((it, i) => {
    if (it.kind !== 'user') return;
    for (const m of it.text.matchAll(MARKER)) found = { turn: Number(m[1]), markerIndex: i };
  });
  return found;
}

type Action = { type: 'tool'; command: string; id: string; step?: ToolStep } | { type: 'text'; text: string };

// --- wire encoders -----------------------------------------------------------------------------

function sse(res: ServerResponse, events: Array<{ event?: string; data: unknown }>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' });
  for (const e of events) {
    if (e.event) res.write(`event: ${e.event}\n`);
    res.write(`data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`);
  }
  res.end();
}

function json(res: ServerResponse, status: number, data: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify(data));
}

function replyAnthropic(res: ServerResponse, body: Record<string, unknown>, action: Action, step: number): void {
  const model = typeof body.model === 'string' ? body.model : 'claude-sonnet-4-5';
  const id = `msg_lg_${Date.now()}_${step}`;
  const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const block =
    action.type === 'tool'
      ? {
          type: 'tool_use',
          id: action.id,
          name: action.step?.name ?? 'Bash',
          input: action.step ? action.step.input : { command: action.command, description: `scripted step ${step}` },
        }
      : { type: 'text', text: action.text };
  if (body.stream !== true) {
    json(res, 200, {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [block],
      stop_reason: action.type === 'tool' ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage,
    });
    return;
  }
  const start = action.type === 'tool' ? { ...block, input: {} } : { type: 'text', text: '' };
  const delta =
    action.type === 'tool'
      ? { type: 'input_json_delta', partial_json: JSON.stringify((block as { input: unknown }).input) }
      : { type: 'text_delta', text: action.text };
  sse(res, [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...usage, output_tokens: 1 },
        },
      },
    },
    { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: start } },
    { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta } },
    { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
    {
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: { stop_reason: action.type === 'tool' ? 'tool_use' : 'end_turn', stop_sequence: null },
        usage: { output_tokens: 5 },
      },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  ]);
}

function replyResponses(res: ServerResponse, body: Record<string, unknown>, action: Action, step: number): void {
  const model = typeof body.model === 'string' ? body.model : 'mock-model';
  const respId = `resp_lg_${Date.now()}_${step}`;
  const item =
    action.type === 'tool' && action.step?.custom
      ? {
          type: 'custom_tool_call',
          id: `ctc_${action.id}`,
          call_id: action.id,
          name: action.step.name,
          input: typeof action.step.input === 'string' ? action.step.input : JSON.stringify(action.step.input),
          status: 'completed',
        }
      : action.type === 'tool'
        ? {
            type: 'function_call',
            id: `fc_${action.id}`,
            call_id: action.id,
            name: action.step?.name ?? 'exec_command',
            arguments: JSON.stringify(action.step ? action.step.input : { cmd: action.command }),
            status: 'completed',
          }
        : {
            type: 'message',
            id: `msg_lg_${step}_${Date.now()}`,
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: action.text, annotations: [] }],
          };
  const usage = {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 15,
  };
  const response = {
    id: respId,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    model,
    status: 'completed',
    output: [item],
    usage,
  };
  if (body.stream !== true) {
    json(res, 200, response);
    return;
  }
  const events: Array<{ event?: string; data: unknown }> = [
    {
      event: 'response.created',
      data: { type: 'response.created', response: { ...response, status: 'in_progress', output: [] } },
    },
    {
      event: 'response.output_item.added',
      data: {
        type: 'response.output_item.added',
        output_index: 0,
        item:
          action.type === 'tool'
            ? { ...item, ...('input' in item ? { input: '' } : { arguments: '' }), status: 'in_progress' }
            : { ...item, content: [], status: 'in_progress' },
      },
    },
  ];
  if (action.type === 'text') {
    events.push({
      event: 'response.output_text.delta',
      data: {
        type: 'response.output_text.delta',
        item_id: item.id,
        output_index: 0,
        content_index: 0,
        delta: action.text,
      },
    });
  }
  events.push(
    { event: 'response.output_item.done', data: { type: 'response.output_item.done', output_index: 0, item } },
    { event: 'response.completed', data: { type: 'response.completed', response } },
  );
  sse(res, events);
}

function replyChat(
  res: ServerResponse,
  body: Record<string, unknown>,
  action: Action,
  step: number,
  tokens: ChatUsage = { prompt: 10, completion: 5 },
): void {
  const model = typeof body.model === 'string' ? body.model : 'mock-model';
  const base = {
    id: `chatcmpl-lg-${Date.now()}-${step}`,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
  };
  const usage = {
    prompt_tokens: tokens.prompt,
    completion_tokens: tokens.completion,
    total_tokens: tokens.prompt + tokens.completion,
    ...(tokens.cached !== undefined || tokens.cacheWrite !== undefined
      ? {
          prompt_tokens_details: {
            cached_tokens: tokens.cached ?? 0,
            ...(tokens.cacheWrite !== undefined ? { cache_write_tokens: tokens.cacheWrite } : {}),
          },
        }
      : {}),
  };
  const tool = chatShellTool(body) ?? 'bash';
  const args =
    action.type !== 'tool'
      ? ''
      : action.step
        ? JSON.stringify(action.step.input)
        : tool === 'run_commands'
          ? JSON.stringify({ commands: [action.command] })
          : JSON.stringify({ command: action.command, description: `scripted step ${step}` });
  const fnName = action.type === 'tool' && action.step ? action.step.name : tool;
  if (body.stream !== true) {
    const message =
      action.type === 'tool'
        ? {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: action.id, type: 'function', function: { name: fnName, arguments: args } }],
          }
        : { role: 'assistant', content: action.text };
    json(res, 200, {
      ...base,
      object: 'chat.completion',
      choices: [{ index: 0, message, finish_reason: action.type === 'tool' ? 'tool_calls' : 'stop' }],
      usage,
    });
    return;
  }
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({ data: { ...base, choices, ...extra } });
  const events =
    action.type === 'tool'
      ? [
          chunk([
            {
              index: 0,
              delta: {
                role: 'assistant',
                content: null,
                tool_calls: [{ index: 0, id: action.id, type: 'function', function: { name: fnName, arguments: '' } }],
              },
              finish_reason: null,
            },
          ]),
          chunk([
            { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: args } }] }, finish_reason: null },
          ]),
          chunk([{ index: 0, delta: {}, finish_reason: 'tool_calls' }]),
        ]
      : [
          chunk([{ index: 0, delta: { role: 'assistant', content: action.text }, finish_reason: null }]),
          chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]),
        ];
  sse(res, [...events, chunk([], { usage }), { data: '[DONE]' }]);
}

/** Gemini API: one candidate; `:streamGenerateContent?alt=sse` gets it as a single SSE data chunk. */
function replyGemini(
  res: ServerResponse,
  url: string,
  body: Record<string, unknown>,
  action: Action,
  step: number,
): void {
  const config = isRecord(body.generationConfig) ? body.generationConfig : {};
  const wantsJson =
    config.responseMimeType === 'application/json' || 'responseJsonSchema' in config || 'responseSchema' in config;
  const part =
    action.type === 'tool'
      ? action.step
        ? { functionCall: { name: action.step.name, args: action.step.input } }
        : {
            functionCall: {
              name: 'run_shell_command',
              args: { command: action.command, description: `scripted step ${step}` },
            },
          }
      : // Side calls that want JSON (routing, next-speaker checks) get an empty object rather than prose.
        { text: wantsJson ? '{}' : action.text };
  const reply = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    // The real API names the model that served the request; Gemini CLI's `stats.models` is keyed by it.
    modelVersion: /\/models\/([^/:]+):/.exec(url)?.[1] ?? 'mock-gemini',
    responseId: `lg_${Date.now()}_${step}`,
  };
  if (url.split('?')[0]?.endsWith(':streamGenerateContent')) sse(res, [{ data: reply }]);
  else json(res, 200, reply);
}

// --- the server ----------------------------------------------------------------------------------

function decodeBody(req: IncomingMessage, raw: Buffer): string {
  const enc = String(req.headers['content-encoding'] ?? '').toLowerCase();
  if (enc === 'gzip') return gunzipSync(raw).toString('utf8');
  if (enc === 'deflate') return inflateSync(raw).toString('utf8');
  if (enc === 'br') return brotliDecompressSync(raw).toString('utf8');
  return raw.toString('utf8');
}

function protocolOf(method: string, url: string): Protocol | null {
  if (method !== 'POST') return null;
  const path = url.split('?')[0] ?? '';
  if (path.endsWith('/messages')) return 'anthropic';
  if (path.endsWith('/responses')) return 'responses';
  if (path.endsWith('/chat/completions')) return 'chat';
  if (/\/models\/[^/]+:(streamGenerateContent|generateContent)$/.test(path)) return 'gemini';
  return null;
}

export class MockModelServer {
  readonly requests: RecordedRequest[] = [];
  /** Anything unexpected (unknown route, unparseable body, unscripted turn); tests assert it stays empty. */
  readonly problems: string[] = [];
  private script: Script = { turns: [] };
  private seq = 0;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(script?: Script): Promise<MockModelServer> {
    let self: MockModelServer | undefined;
    const server = createServer((req, res) => {
      if (self) self.handle(req, res);
      else res.destroy();
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // Loopback only, ephemeral port: nothing outside this machine can reach the mock.
      server.listen(0, '127.0.0.1', () => resolve());
    });
    self = new MockModelServer(server, (server.address() as AddressInfo).port);
    if (script) self.setScript(script);
    return self;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Replace the script and forget earlier requests (one scenario at a time per server). */
  setScript(script: Script): void {
    this.script = script;
    this.requests.length = 0;
    this.problems.length = 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        this.respond(req, res, Buffer.concat(chunks));
      } catch (err) {
        this.problems.push(`${req.method} ${req.url}: server error ${String(err)}`);
        if (!res.headersSent) json(res, 500, { error: { message: String(err) } });
        else res.end();
      }
    });
  }

  private respond(req: IncomingMessage, res: ServerResponse, raw: Buffer): void {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const protocol = protocolOf(method, url);
    const rec: RecordedRequest = {
      seq: ++this.seq,
      method,
      url,
      protocol,
      body: null,
      kind: 'other',
      turn: null,
      stepsDone: null,
      reply: '',
    };
    this.requests.push(rec);

    if (method === 'POST' && /:countTokens$/.test(url.split('?')[0] ?? '')) {
      // Gemini CLI may ask for a token count; any number will do.
      rec.reply = 'countTokens';
      json(res, 200, { totalTokens: 10 });
      return;
    }
    if (!protocol) {
      // Claude Code 2.1.197 probes `HEAD /`; a 404 is what a real API answers too.
      rec.reply = '404';
      res.writeHead(404, { 'content-type': 'application/json', connection: 'close' });
      res.end(method === 'HEAD' ? undefined : JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(decodeBody(req, raw));
      if (!isRecord(parsed)) throw new Error('body is not a JSON object');
      body = parsed;
    } catch (err) {
      this.problems.push(`${method} ${url}: unparseable body (${String(err)})`);
      rec.reply = '400';
      json(res, 400, { error: { message: 'bad body' } });
      return;
    }
    rec.body = body;

    const verdict = this.script.goalVerdict;
    if (verdict && protocol === 'anthropic' && JSON.stringify(body.system ?? '').includes(EVALUATOR_PROMPT)) {
      rec.kind = 'evaluator';
      // `metAfter` judges the goal met from that many checks on: a bound for a run nothing else ends.
      const { metAfter, ...given } = verdict;
      const checks = this.requests.filter((r) => r.kind === 'evaluator').length;
      const answer = metAfter !== undefined && checks >= metAfter ? { ok: true, reason: 'met (scripted)' } : given;
      rec.reply = `verdict: ${JSON.stringify(answer)}`;
      this.send(protocol, res, url, body, { type: 'text', text: JSON.stringify(answer) }, 0);
      return;
    }
    const items = itemsOf(protocol, body);
    const pos = position(items);
    if (!hasTools(body) || !pos) {
      // OpenCode's title request has no tools; any such side call gets a short harmless text.
      rec.kind = 'side';
      rec.reply = 'text: side answer';
      this.send(protocol, res, url, body, { type: 'text', text: 'Scripted loop-guard check' }, 0);
      return;
    }
    rec.kind = 'agent';
    rec.turn = pos.turn;
    const done = items.slice(pos.markerIndex + 1).filter((it) => it.kind === 'call').length;
    rec.stepsDone = done;

    const expectedTools: readonly string[] =
      protocol === 'anthropic'
        ? ['Bash']
        : protocol === 'responses'
          ? ['exec_command']
          : protocol === 'gemini'
            ? ['run_shell_command']
            : CHAT_SHELL_TOOLS;
    if (!expectedTools.some((t) => toolNames(body).includes(t))) {
      this.problems.push(
        `${url}: the agent did not offer a shell tool (${expectedTools.join(' | ')}; offered: ${toolNames(body).join(', ')})`,
      );
    }
    const turn = this.script.turns[pos.turn - 1];
    let action: Action;
    if (!turn) {
      this.problems.push(`${url}: no script for turn ${pos.turn}`);
      action = { type: 'text', text: `No script for turn ${pos.turn}.` };
    } else if (done < turn.commands.length) {
      const next = turn.commands[done] ?? '';
      // A session resumed with the same turn's marker again (run's retry rung) must not reuse a call id: Claude Code
      // turns a repeated tool_use id into "[Tool use interrupted]", and the turn never ends.
      const repeats = items.filter((it) => it.kind === 'user' && it.text.includes(turnMarker(pos.turn))).length;
      const id = `call_lg_t${pos.turn}${repeats > 1 ? `r${repeats}` : ''}_s${done + 1}`;
      action =
        typeof next === 'string' ? { type: 'tool', command: next, id } : { type: 'tool', command: '', id, step: next };
    } else {
      action = { type: 'text', text: turn.finalText ?? `Done with turn ${pos.turn}.` };
    }
    // Claude's tool_use ids conventionally start with toolu_; the other two accept any id.
    if (action.type === 'tool' && protocol === 'anthropic') action.id = action.id.replace(/^call_/, 'toolu_');
    rec.reply =
      action.type === 'tool' ? `tool: ${action.step ? action.step.name : action.command}` : `text: ${action.text}`;
    this.send(protocol, res, url, body, action, done + 1);
  }

  private send(
    protocol: Protocol,
    res: ServerResponse,
    url: string,
    body: Record<string, unknown>,
    action: Action,
    step: number,
  ): void {
    if (protocol === 'anthropic') replyAnthropic(res, body, action, step);
    else if (protocol === 'responses') replyResponses(res, body, action, step);
    else if (protocol === 'gemini') replyGemini(res, url, body, action, step);
    else replyChat(res, body, action, step, this.script.chatUsage);
  }

  /** The scripted (agent) requests, in arrival order. */
  agentRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.kind === 'agent');
  }

  /**
   * What the model received back for each step: for step k of turn t, all tool-result and hook-context
   * text after the k-th call of that turn, taken from the request that reported it (the latest one if
   * the agent retried).
   */
  stepResults(turn?: number): StepResult[] {
    const byKey = new Map<string, StepResult>();
    for (const rec of this.agentRequests()) {
      if (!rec.protocol || rec.turn === null || !isRecord(rec.body)) continue;
      if (turn !== undefined && rec.turn !== turn) continue;
      const items = itemsOf(rec.protocol, rec.body);
      const pos = position(items);
      if (!pos) continue;
      const after = items.slice(pos.markerIndex + 1);
      const callIdx = after.flatMap((it, i) => (it.kind === 'call' ? [i] : []));
      callIdx.forEach((idx, k) => {
        const next = callIdx[k + 1] ?? after.length;
        const call = after[idx];
        const text = after
          .slice(idx + 1, next)
          .map((it) => ('text' in it ? it.text : ''))
          .filter(Boolean)
          .join('\n');
        byKey.set(`${pos.turn}:${k + 1}`, {
          protocol: rec.protocol as Protocol,
          turn: pos.turn,
          step: k + 1,
          command: call && call.kind === 'call' ? call.command : '',
          text,
        });
      });
    }
    return [...byKey.values()].sort((a, b) => a.turn - b.turn || a.step - b.step);
  }
}

export function startMockServer(script?: Script): Promise<MockModelServer> {
  return MockModelServer.start(script);
}
