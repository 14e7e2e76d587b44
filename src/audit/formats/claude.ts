// Claude Code: ~/.claude/projects/<project>/<session>.jsonl (and <session>/subagents/agent-*.jsonl). One JSON object
// per line; `type` user/assistant lines carry the conversation, the rest (attachments, api-request records, …) are
// bookkeeping. Shapes: test/fixtures/transcripts/claude (written by Claude Code 2.1.332).
import { EDIT_TOOL_NAMES, num, obj, str, timeOf, type AuditEvent, type Obj, type SessionInfo } from '../events.ts';
import { Finder } from '../lines.ts';
import { Pending, textOf, type RecordParser } from './types.ts';

/** "Exit code N\n<output>", the way Claude Code reports a failed Bash call to the model. */
function splitExit(text: string): { exitCode?: number; output: string } {
  const m = /^(?:Error: )?Exit code (\d+)\r?\n?/.exec(text);
  return m ? { exitCode: Number(m[1]), output: text.slice(m[0].length) } : { output: text };
}

const RESULT_ID = '"tool_use_id":"';
const TIME = '"timestamp":"';

/** What a Claude Code parser carries from line to line. */
interface ClaudeState {
  info: SessionInfo;
  calls: Pending<{ name: string; command?: string }>;
  lastMessageId: string | undefined;
  find: Finder;
}

/** `find`: the scanner's own, so a string both search for in a chunk is read once (the scanner asks for
 * `"type":"user"` first). */
export function createClaudeParser(find = new Finder()): RecordParser {
  const st: ClaudeState = { info: {}, calls: new Pending(), lastMessageId: undefined, find };
  return {
    info: st.info,
    skipLine: (view: string, start: number, end: number, emit: (e: AuditEvent) => void): boolean =>
      skipClaudeLine(st, view, start, end, emit),
    push(r: Obj, emit: (e: AuditEvent) => void): boolean {
      const type = str(r.type);
      if (type === undefined) return false;
      const info = st.info;
      // A sub-agent's file (<session>/subagents/agent-*.jsonl) is its own session, keyed as the guard keys it.
      if (!info.id && typeof r.sessionId === 'string')
        info.id = typeof r.agentId === 'string' ? `${r.sessionId}/${r.agentId}` : r.sessionId;
      if (!info.cwd && typeof r.cwd === 'string') info.cwd = r.cwd;
      const at = timeOf(r.timestamp);
      const message = obj(r.message);
      if (type === 'assistant' && message) pushAssistant(st, message, at, emit);
      else if (type === 'user' && message) pushUser(st, r, message, at, emit);
      return true;
    },
  };
}

/**
 * A user line of tool results only for calls that are not shell commands (a read, a search, an edit, a sub-agent):
 * the judge needs only the call's name and the time, so they need no JSON.parse (an edit's line holds the whole file
 * it edited). JSON escapes every quote inside a string, so `"tool_use_id":"` can only be a key.
 */
function skipClaudeLine(
  st: ClaudeState,
  view: string,
  start: number,
  end: number,
  emit: (e: AuditEvent) => void,
): boolean {
  const { find, calls } = st;
  if (st.info.cwd === undefined || !find.has(view, '"type":"user"', start, end)) return false;
  const first = find.find(view, RESULT_ID, start);
  if (first === -1 || first >= end) return false;
  // The line alone is searched from here: a search of the chunk would run on past the line's end, through the lines
  // after it, to the next result.
  const line = view.slice(start, end);
  const ids: string[] = [];
  for (let at = first - start; at !== -1; at = line.indexOf(RESULT_ID, at + 1)) {
    const from = at + RESULT_ID.length;
    const to = line.indexOf('"', from);
    if (to === -1) return false;
    const id = line.slice(from, to);
    const call = calls.get(id);
    if (!call || call.command !== undefined) return false;
    ids.push(id);
  }
  const t = line.indexOf(TIME);
  const close = t === -1 ? -1 : line.indexOf('"', t + TIME.length);
  const at = close === -1 ? undefined : timeOf(line.slice(t + TIME.length, close));
  for (const id of ids) {
    const call = calls.take(id) as { name: string };
    const edit = EDIT_TOOL_NAMES.has(call.name);
    emit({ kind: 'tool', name: call.name, edit, ...(at !== undefined ? { at } : {}), callId: id });
  }
  return true;
}

/** An assistant line: its request's usage (once per message id), and its tool calls remembered by id. */
function pushAssistant(st: ClaudeState, message: Obj, at: number | undefined, emit: (e: AuditEvent) => void): void {
  // One API response may be written as several lines (one per content block) sharing its message id.
  const id = str(message.id);
  const usage = obj(message.usage);
  if (usage && (id === undefined || id !== st.lastMessageId)) {
    const model = str(message.model);
    emit({
      kind: 'usage',
      ...(at !== undefined ? { at } : {}),
      ...(model ? { model } : {}),
      tokens: {
        input: num(usage.input_tokens),
        cacheRead: num(usage.cache_read_input_tokens),
        cacheWrite: num(usage.cache_creation_input_tokens),
        output: num(usage.output_tokens),
      },
    });
  }
  st.lastMessageId = id;
  const content = Array.isArray(message.content) ? message.content : [];
  for (const b of content) {
    const block = obj(b);
    if (block?.type !== 'tool_use' || typeof block.id !== 'string') continue;
    const name = str(block.name) ?? '';
    const command = name === 'Bash' ? str(obj(block.input)?.command) : undefined;
    // A background start returns a task id, not the command's result.
    if (obj(block.input)?.run_in_background === true) continue;
    st.calls.set(block.id, command !== undefined ? { name, command } : { name });
  }
}

/** A user line: the person's message, or tool results (each a tool or shell event for the call it answers). */
function pushUser(st: ClaudeState, r: Obj, message: Obj, at: number | undefined, emit: (e: AuditEvent) => void): void {
  const content = message.content;
  if (typeof content === 'string') {
    // Injected meta lines (command output, caveats) are the harness, not the person.
    if (r.isMeta !== true) emit({ kind: 'user', ...(at !== undefined ? { at } : {}) });
    return;
  }
  if (!Array.isArray(content)) return;
  let results = 0;
  for (const b of content) {
    const block = obj(b);
    if (block?.type !== 'tool_result') continue;
    results++;
    const id = str(block.tool_use_id);
    const call = id ? st.calls.take(id) : undefined;
    if (!call) continue;
    if (call.command === undefined) {
      emit({
        kind: 'tool',
        name: call.name,
        edit: EDIT_TOOL_NAMES.has(call.name),
        ...(at !== undefined ? { at } : {}),
        ...(id ? { callId: id } : {}),
      });
      continue;
    }
    const text = textOf(block.content);
    const { exitCode, output } = block.is_error === true ? splitExit(text) : { exitCode: 0, output: text };
    emit({
      kind: 'shell',
      command: call.command,
      output,
      ...(exitCode !== undefined ? { exitCode } : {}),
      ...(at !== undefined ? { at } : {}),
      ...(id ? { callId: id } : {}),
    });
  }
  if (results === 0 && r.isMeta !== true) emit({ kind: 'user', ...(at !== undefined ? { at } : {}) });
}

/** Lines worth parsing hold one of these: every other line type is bookkeeping (known without a JSON.parse). */
export const CLAUDE_NEEDLES = ['"type":"user"', '"type":"assistant"'] as const;

export function claudeLineMatters(line: string): boolean {
  return CLAUDE_NEEDLES.some((n) => line.includes(n));
}
