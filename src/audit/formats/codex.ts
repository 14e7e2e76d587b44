// Codex: $CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl. Lines are {timestamp, type, payload}: session_meta (cwd),
// response_item (function_call / function_call_output / custom_tool_call …), event_msg (token_count, exec results,
// user messages). Shapes: test/fixtures/transcripts/codex (written by Codex 0.171.0).
import {
  EDIT_TOOL_NAMES,
  num,
  obj,
  str,
  timeOf,
  type AuditEvent,
  type Obj,
  type SessionInfo,
  type Tokens,
} from '../events.ts';
import { headKeyAt } from '../lines.ts';
import { callResult, Pending, type RecordParser } from './types.ts';

const OUTPUT_TYPES = ['function_call_output', 'custom_tool_call_output', 'local_shell_call_output'];
const CALL_ID = '"call_id":"';

/**
 * The call id of a line that is a response_item holding a call's output, or undefined when the line is not one (or
 * not plainly one): `{"timestamp":…,"type":"response_item","payload":{"type":"…_output",…"call_id":"…"` with the call
 * id before the output. JSON escapes every quote inside a string, so these keys cannot come from a string's text.
 */
function outputCallId(view: string, start: number, end: number): string | undefined {
  const t = view.indexOf('"type":"', start);
  if (t === -1 || t > end || !view.startsWith('"type":"response_item","payload":{"type":"', t)) return undefined;
  const from = t + '"type":"response_item","payload":{"type":"'.length;
  if (!OUTPUT_TYPES.some((o) => view.startsWith(`${o}"`, from))) return undefined;
  const c = view.indexOf(CALL_ID, from);
  const o = view.indexOf('"output":', from);
  if (c === -1 || c > end || (o !== -1 && o < c)) return undefined;
  const to = view.indexOf('"', c + CALL_ID.length);
  return to === -1 || to > end ? undefined : view.slice(c + CALL_ID.length, to);
}

/** The line's own time: Codex writes it as the first key. */
function lineTime(view: string, start: number, end: number): number | undefined {
  const head = '{"timestamp":"';
  if (!view.startsWith(head, start)) return undefined;
  const to = view.indexOf('"', start + head.length);
  return to === -1 || to > end ? undefined : timeOf(view.slice(start + head.length, to));
}

const SHELL_TOOLS = new Set(['shell', 'exec_command', 'local_shell', 'container.exec', 'shell_command']);

function commandText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) return undefined;
  const argv = v as string[];
  // ["bash", "-lc", "<script>"] is how Codex runs a shell line; the script is what the model wrote.
  if (argv.length === 3 && /(^|\/)(ba|z|)sh$/.test(argv[0] as string) && /^-l?c$/.test(argv[1] as string))
    return argv[2];
  return argv.join(' ');
}

/** JSON's whitespace, then an object's brace. */
const OPENS_OBJECT = /^[ \t\n\r]*\{/;

function parseArgs(raw: unknown): Obj {
  if (typeof raw !== 'string') return obj(raw) ?? {};
  // Only a text that opens with a brace can parse to an object; the rest (a custom tool's patch) would throw.
  if (!OPENS_OBJECT.test(raw)) return {};
  try {
    return obj(JSON.parse(raw)) ?? {};
  } catch {
    return {};
  }
}

/**
 * The text of a function_call_output: older versions wrote JSON {output, metadata: {exit_code}}, newer ones a
 * header ("Chunk ID: …", "Wall time: …", "Process exited with code N", "Output:") before the output.
 */
export function codexOutput(raw: unknown): { output: string; exitCode?: number } {
  const text = typeof raw === 'string' ? raw : (str(obj(raw)?.content) ?? '');
  if (text.startsWith('{')) {
    try {
      const o = obj(JSON.parse(text));
      if (o && typeof o.output === 'string') {
        const code = obj(o.metadata)?.exit_code;
        return typeof code === 'number' ? { output: o.output, exitCode: code } : { output: o.output };
      }
    } catch {
      // plain text that happens to start with a brace
    }
  }
  const head =
    /^(?:(?:Chunk ID|Wall time|Original token count|Process exited with code|Exit code|Process running with session ID)[^\n]*\n)+Output:\n?/.exec(
      text,
    );
  if (!head) return { output: text };
  const code = /(?:Process exited with code|Exit code:?) (-?\d+)/.exec(head[0]);
  const output = text.slice(head[0].length);
  return code ? { output, exitCode: Number(code[1]) } : { output };
}

/**
 * Lines worth parsing hold one of these (the record types the parser reads); the rest (messages, reasoning, other
 * events) are conversation, known without a JSON.parse. `_call` covers function, custom tool and local shell calls
 * and their outputs.
 */
export const CODEX_NEEDLES = [
  '"session_meta"',
  '"turn_context"',
  '_call',
  '"token_count"',
  '"user_message"',
  '"item_completed"',
  '"exec_command_end"',
] as const;

const HEAD_WORTH = new Set(['session_meta', 'turn_context']);
const PAYLOAD_WORTH = new Set(['token_count', 'user_message', 'item_completed', 'exec_command_end']);

/**
 * Whether a line is worth parsing, read from its head: `{"timestamp":…,"type":"T","payload":{"type":"P"`, the types
 * CODEX_NEEDLES stand for, without searching the whole line for them. Undefined when the head is not plainly that
 * shape (a brace or bracket before the type, a line that does not end in a brace): then the needles decide.
 */
export function codexLineWorth(view: string, start: number, end: number): boolean | undefined {
  if (view.charCodeAt(end - 1) !== 0x7d) return undefined;
  const t = headKeyAt(view, start, end, '"type":"', 160);
  if (t === -1) return undefined;
  const from = t + 8;
  const to = view.indexOf('"', from);
  if (to === -1 || to > end) return undefined;
  const type = view.slice(from, to);
  if (HEAD_WORTH.has(type)) return true;
  const head = '","payload":{"type":"';
  if (!view.startsWith(head, to)) return undefined;
  const pto = view.indexOf('"', to + head.length);
  if (pto === -1 || pto > end) return undefined;
  const ptype = view.slice(to + head.length, pto);
  return ptype.includes('_call') || PAYLOAD_WORTH.has(ptype);
}

/** Codex's usage object (token_count, token_usage_record, exec's turn.completed): input includes the cached reads. */
export function codexTokens(u: Obj): Tokens {
  const cached = num(u.cached_input_tokens);
  return {
    input: Math.max(0, num(u.input_tokens) - cached),
    cacheRead: cached,
    cacheWrite: num(u.cache_write_input_tokens),
    output: num(u.output_tokens),
  };
}

/** What a Codex parser carries from line to line. */
interface CodexState {
  info: SessionInfo;
  /** The model of the current turn (turn_context), for pricing its usage. */
  model: string | undefined;
  calls: Pending<{ name: string; command?: string; done?: boolean }>;
}

export function createCodexParser(): RecordParser {
  const st: CodexState = { info: {}, model: undefined, calls: new Pending() };
  return {
    info: st.info,
    skipLine: (view: string, start: number, end: number, emit: (e: AuditEvent) => void): boolean =>
      skipCodexLine(st, view, start, end, emit),
    push(r: Obj, emit: (e: AuditEvent) => void): boolean {
      const type = str(r.type);
      const p = obj(r.payload);
      if (!type || !p) return false;
      const at = timeOf(r.timestamp);
      const when = at !== undefined ? { at } : {};
      const ptype = str(p.type);

      if (type === 'session_meta') {
        st.info.id ??= str(p.id) ?? str(p.session_id);
        st.info.cwd ??= str(p.cwd);
      } else if (type === 'turn_context') {
        st.info.cwd ??= str(p.cwd);
        st.model = str(p.model) ?? st.model;
      } else if (type === 'response_item') pushResponseItem(st, p, ptype, when, emit);
      else if (type === 'event_msg') pushEventMsg(st, p, ptype, when, emit);
      return true;
    },
  };
}

/**
 * The output of a call that is not a shell command (apply_patch), or of one whose executed-command record already
 * gave its result: known from the call id alone, without parsing the output it holds.
 */
function skipCodexLine(
  st: CodexState,
  view: string,
  start: number,
  end: number,
  emit: (e: AuditEvent) => void,
): boolean {
  if (st.info.cwd === undefined) return false;
  const id = outputCallId(view, start, end);
  const call = id === undefined ? undefined : st.calls.get(id);
  if (id === undefined || !call || (call.command !== undefined && !call.done)) return false;
  const at = call.done ? undefined : lineTime(view, start, end);
  if (!call.done && at === undefined) return false;
  st.calls.take(id);
  if (call.done) return true;
  emit({
    kind: 'tool',
    name: call.name,
    edit: EDIT_TOOL_NAMES.has(call.name),
    ...(at !== undefined ? { at } : {}),
    callId: id,
  });
  return true;
}

/** A response_item: a tool call is remembered by its id; its output is the tool or shell event. */
function pushResponseItem(
  st: CodexState,
  p: Obj,
  ptype: string | undefined,
  when: { at?: number },
  emit: (e: AuditEvent) => void,
): void {
  if (ptype === 'function_call' || ptype === 'custom_tool_call' || ptype === 'local_shell_call') {
    const id = str(p.call_id) ?? str(p.id);
    if (!id) return;
    const name = str(p.name) ?? (ptype === 'local_shell_call' ? 'local_shell' : '');
    const args = ptype === 'local_shell_call' ? (obj(p.action) ?? {}) : parseArgs(p.arguments ?? p.input);
    const command = SHELL_TOOLS.has(name) ? commandText(args.command ?? args.cmd) : undefined;
    st.calls.set(id, command !== undefined ? { name, command } : { name });
    return;
  }
  if (ptype === 'function_call_output' || ptype === 'custom_tool_call_output' || ptype === 'local_shell_call_output') {
    const id = str(p.call_id);
    const call = id ? st.calls.take(id) : undefined;
    if (!call || call.done) return;
    emit(callResult(call, when, id, () => codexOutput(p.output)));
  }
}

/** An event_msg: a request's token usage, a user message, or an executed command's own record. */
function pushEventMsg(
  st: CodexState,
  p: Obj,
  ptype: string | undefined,
  when: { at?: number },
  emit: (e: AuditEvent) => void,
): void {
  if (ptype === 'token_count') {
    const last = obj(obj(p.info)?.last_token_usage);
    // Rate-limit-only updates carry no usage and are not a model request.
    if (!last) return;
    emit({ kind: 'usage', ...when, ...(st.model ? { model: st.model } : {}), tokens: codexTokens(last) });
    return;
  }
  if (ptype === 'user_message') {
    emit({ kind: 'user', ...when, ...(str(p.turn_id) ? { turnId: str(p.turn_id) as string } : {}) });
    return;
  }
  // The executed command's own record (aggregated output and exit code) is cleaner than the model-facing text.
  const item = ptype === 'item_completed' ? obj(p.item) : ptype === 'exec_command_end' ? p : undefined;
  if (item && ptype === 'item_completed' && item.type === 'UserMessage') {
    emit({ kind: 'user', ...when, ...(str(p.turn_id) ? { turnId: str(p.turn_id) as string } : {}) });
    return;
  }
  if (item && (ptype === 'exec_command_end' || item.type === 'CommandExecution')) {
    const id = str(item.call_id) ?? str(item.id);
    const call = id ? st.calls.get(id) : undefined;
    if (!call || call.command === undefined || call.done) return;
    const out = str(item.aggregated_output) ?? [str(item.stdout), str(item.stderr)].filter(Boolean).join('\n');
    const code = item.exit_code;
    call.done = true;
    emit({
      kind: 'shell',
      command: call.command,
      output: out,
      ...(typeof code === 'number' ? { exitCode: code } : {}),
      ...when,
      ...(id ? { callId: id } : {}),
    });
  }
}
