// Cline CLI 3.0: ~/.cline/data/sessions/<id>/<id>.json (metadata: cwd) and <id>.messages.json ({sessionId, messages:
// Anthropic-style blocks}). The shell tool is `run_commands` with a list of commands; its result lists one
// {query, result, success, error} per command, the exit code inside the text ("[Command exited with code N]"). Shapes:
// test/fixtures/transcripts/cline (written by the real Cline CLI 3.0.65).
import { EDIT_TOOL_NAMES, num, obj, str, type AuditEvent, type Obj, type SessionInfo, type Tokens } from '../events.ts';
import { Pending, type RecordParser } from './types.ts';

const CLINE_EDIT_TOOLS = new Set(['editor', 'apply_patch']);

/** "[Command exited with code N]\n\n[stderr]\n…" → the code and the text after the marker. */
export function clineShellResult(item: Obj): { output: string; exitCode?: number } {
  const text = str(item.result) ?? str(item.error) ?? '';
  const m = /^\[Command exited with code (-?\d+)\]\n*/.exec(text);
  if (m) return { output: text.slice(m[0].length).replace(/\n+$/, ''), exitCode: Number(m[1]) };
  const output = text.replace(/\n+$/, '');
  return item.success === true ? { output, exitCode: 0 } : { output };
}

export function createClineParser(): RecordParser {
  const info: SessionInfo = {};
  const calls = new Pending<{ name: string; commands: string[] }>();

  const message = (m: Obj, emit: (e: AuditEvent) => void) => {
    const at = typeof m.ts === 'number' ? m.ts : undefined;
    const when = at !== undefined ? { at } : {};
    const blocks = Array.isArray(m.content) ? (m.content.map(obj).filter(Boolean) as Obj[]) : [];
    if (m.role === 'assistant') {
      const metrics = obj(m.metrics);
      if (metrics)
        emit({
          kind: 'usage',
          ...when,
          ...(str(obj(m.modelInfo)?.id) ? { model: str(obj(m.modelInfo)?.id) as string } : {}),
          tokens: clineTokens(metrics),
        });
      for (const b of blocks) {
        const id = str(b.id);
        if (b.type !== 'tool_use' || !id) continue;
        const list = obj(b.input)?.commands;
        calls.set(id, {
          name: str(b.name) ?? '',
          commands: Array.isArray(list) ? list.filter((c): c is string => typeof c === 'string') : [],
        });
      }
      return;
    }
    if (m.role !== 'user') return;
    if (blocks.some((b) => b.type === 'text')) emit({ kind: 'user', ...when });
    for (const b of blocks) {
      const id = str(b.tool_use_id);
      const call = b.type === 'tool_result' && id ? calls.take(id) : undefined;
      if (!call || !id) continue;
      if (call.name !== 'run_commands') {
        emit({
          kind: 'tool',
          name: call.name,
          edit: CLINE_EDIT_TOOLS.has(call.name) || EDIT_TOOL_NAMES.has(call.name),
          ...when,
          callId: id,
        });
        continue;
      }
      // One result per command, in order; a call that failed as a whole (bad arguments) ran nothing.
      const items = Array.isArray(b.content) ? (b.content.map(obj).filter(Boolean) as Obj[]) : [];
      items.forEach((item, i) => {
        const command = str(item.query) ?? call.commands[i];
        if (command === undefined) return;
        emit({
          kind: 'shell',
          command,
          ...clineShellResult(item),
          ...when,
          callId: items.length > 1 ? `${id}#${i}` : id,
        });
      });
    }
  };

  return {
    info,
    push(r: Obj, emit: (e: AuditEvent) => void): boolean {
      // The metadata file: where the session ran.
      if (typeof r.session_id === 'string' && !Array.isArray(r.messages)) {
        info.id ??= r.session_id;
        if (typeof r.cwd === 'string') info.cwd = r.cwd;
        return true;
      }
      if (!Array.isArray(r.messages)) return false;
      if (typeof r.sessionId === 'string') info.id ??= r.sessionId;
      for (const m of r.messages) if (obj(m)) message(obj(m) as Obj, emit);
      return true;
    },
  };
}

/**
 * Cline 3.0.65's token counts (a message's `metrics`, and its --json stream's `usage` events and `run_result`, which
 * `run` reads): `inputTokens` is the whole prompt, its cache reads included (1234 in, 1000 of them read from the
 * cache, as the scripted model reported them), so the uncached input is what is left.
 */
export function clineTokens(m: Obj): Tokens {
  const cacheRead = num(m.cacheReadTokens);
  const cacheWrite = num(m.cacheWriteTokens);
  return {
    input: Math.max(0, num(m.inputTokens) - cacheRead - cacheWrite),
    cacheRead,
    cacheWrite,
    output: num(m.outputTokens),
  };
}
