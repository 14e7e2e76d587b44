// Gemini CLI: ~/.gemini/tmp/<project>/chats/session-*.jsonl (a header line, then message records and `$set` patches;
// a model message is written again once its tool calls finish) or, in older versions, session-*.json (one object
// with `messages`). Shell calls are `run_shell_command` with the result inside the call. Shapes:
// test/fixtures/transcripts/gemini (captured from the real Gemini CLI).
import { EDIT_TOOL_NAMES, num, obj, str, timeOf, type AuditEvent, type Obj, type SessionInfo } from '../events.ts';
import type { RecordParser } from './types.ts';

/** The shell tool's model-facing text: "Output: …", "Exit Code: N", "Process Group PGID: N" (a new pid every run). */
export function geminiShellResult(text: string): { output: string; exitCode?: number } {
  let t = text.replace(/^<untrusted_context>\n?/, '').replace(/\n?<\/untrusted_context>\s*$/, '');
  let exitCode: number | undefined;
  t = t.replace(/^Exit Code: (-?\d+)$/m, (_m, code: string) => {
    exitCode = Number(code);
    return '';
  });
  t = t
    .replace(/^(?:Process Group PGID|Background PIDs|Directory|Command|Signal): [^\n]*$/gm, '')
    .replace(/^Output: ?/m, '');
  const output = t.replace(/\n+$/, '');
  return exitCode !== undefined ? { output, exitCode } : { output };
}

function responseText(result: unknown): string {
  if (!Array.isArray(result)) return typeof result === 'string' ? result : '';
  const parts: string[] = [];
  for (const r of result) {
    const resp = obj(obj(obj(r)?.functionResponse)?.response);
    const text = str(resp?.output) ?? str(resp?.error);
    if (text) parts.push(text);
  }
  return parts.join('\n');
}

export function createGeminiParser(): RecordParser {
  const info: SessionInfo = {};
  const usageSeen = new Set<string>();
  const callsSeen = new Set<string>();
  const remember = (set: Set<string>, id: string) => {
    set.add(id);
    // Duplicates are written next to each other, so a short memory is enough.
    if (set.size > 256) set.delete(set.values().next().value as string);
  };

  /** The session's folder is only named inside the context the CLI writes as the first user message. */
  const findCwd = (content: unknown) => {
    if (info.cwd || !Array.isArray(content)) return;
    const text = content.map((c) => str(obj(c)?.text) ?? '').join('\n');
    const m =
      /Workspace Directories:\*{0,2}\n\s*- ([^\n]+)/.exec(text) ??
      /currently working in the directory: ([^\n]+)/.exec(text);
    if (m) info.cwd = (m[1] as string).trim();
  };

  return {
    info,
    push(r: Obj, emit: (e: AuditEvent) => void): boolean {
      const set = obj(r.$set);
      if (set) {
        // The first patch holds the context message that names the session's folder.
        if (!info.cwd && Array.isArray(set.messages)) for (const m of set.messages) findCwd(obj(m)?.content);
        return true;
      }
      if (typeof r.sessionId === 'string' && r.type === undefined) {
        info.id ??= r.sessionId;
        // Older whole-file sessions: the messages are inside.
        if (Array.isArray(r.messages)) for (const m of r.messages) if (obj(m)) this.push(obj(m) as Obj, emit);
        return true;
      }
      const type = str(r.type);
      if (!type) return false;
      const at = timeOf(r.timestamp);
      const when = at !== undefined ? { at } : {};
      const id = str(r.id);
      if (type === 'user') {
        const content = Array.isArray(r.content) ? r.content : [];
        // Tool results are echoed back as user records; only text from the person starts a turn.
        findCwd(content);
        const fromPerson =
          typeof r.content === 'string' ||
          content.some(
            (c) => typeof obj(c)?.text === 'string' && !String(obj(c)?.text).startsWith('<session_context>'),
          );
        if (fromPerson) emit({ kind: 'user', ...when });
        return true;
      }
      if (type === 'gemini') {
        const tokens = obj(r.tokens);
        if (tokens && id && !usageSeen.has(id)) {
          remember(usageSeen, id);
          const cached = num(tokens.cached);
          emit({
            kind: 'usage',
            ...when,
            ...(str(r.model) ? { model: str(r.model) as string } : {}),
            tokens: {
              input: Math.max(0, num(tokens.input) - cached),
              cacheRead: cached,
              cacheWrite: 0,
              output: num(tokens.output) + num(tokens.thoughts),
            },
          });
        }
        for (const c of Array.isArray(r.toolCalls) ? r.toolCalls : []) {
          const call = obj(c);
          const callId = str(call?.id);
          if (!call || !callId || callsSeen.has(callId) || call.result === undefined) continue;
          remember(callsSeen, callId);
          const name = str(call.name) ?? '';
          const callAt = timeOf(call.timestamp) ?? at;
          const t = callAt !== undefined ? { at: callAt } : {};
          const command = name === 'run_shell_command' ? str(obj(call.args)?.command) : undefined;
          if (command === undefined) {
            emit({ kind: 'tool', name, edit: EDIT_TOOL_NAMES.has(name), ...t, callId });
            continue;
          }
          const { output, exitCode } = geminiShellResult(responseText(call.result));
          // A result without "Exit Code" is a success the way the shell tool reports it.
          emit({
            kind: 'shell',
            command,
            output,
            exitCode: exitCode ?? (call.status === 'success' ? 0 : undefined),
            ...t,
            callId,
          } as AuditEvent);
        }
        return true;
      }
      return true;
    },
  };
}
