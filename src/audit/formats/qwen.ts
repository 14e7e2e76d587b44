// Qwen Code 0.24: ~/.qwen/projects/<cwd with "/" as "-">/chats/<session>.jsonl ($QWEN_HOME moves ~/.qwen). One record
// per line, each with sessionId and cwd: `user` (the person), `assistant` (Gemini-style parts with functionCall, and
// usageMetadata), `tool_result` (functionResponse with the shell tool's text) and `system` telemetry. Shapes:
// test/fixtures/transcripts/qwen (written by the real Qwen Code 0.24.4).
import { num, obj, str, timeOf, type AuditEvent, type Obj, type SessionInfo } from '../events.ts';
import { callResult, Pending, type RecordParser } from './types.ts';

/** Qwen's shell text: "Command: …", "Directory: …", "Output: …", "Error: (none)", "Exit Code: N", "Signal: …", "Process
 * Group PGID: …". */
export function qwenShellResult(text: string): { output: string; exitCode?: number } {
  let exitCode: number | undefined;
  const kept = text
    .replace(/^Exit Code: (-?\d+)$\n?/m, (_m, code: string) => {
      exitCode = Number(code);
      return '';
    })
    // The header and trailer lines around the output (a new pid every run), each with its line end.
    .replace(/^(?:Command|Directory|Signal|Process Group PGID|Background PIDs): [^\n]*\n?/gm, '')
    .replace(/^Error: \(none\)$\n?/m, '')
    .replace(/^Output: ?/m, '');
  const output = kept.replace(/\n+$/, '');
  return exitCode !== undefined ? { output, exitCode } : { output };
}

function partsOf(r: Obj): Obj[] {
  const parts = obj(r.message)?.parts;
  return Array.isArray(parts) ? (parts.map(obj).filter(Boolean) as Obj[]) : [];
}

export function createQwenParser(): RecordParser {
  const info: SessionInfo = {};
  const calls = new Pending<{ name: string; command?: string }>();
  return {
    info,
    push(r: Obj, emit: (e: AuditEvent) => void): boolean {
      const type = str(r.type);
      if (!type || typeof r.sessionId !== 'string') return false;
      info.id ??= r.sessionId;
      if (!info.cwd && typeof r.cwd === 'string') info.cwd = r.cwd;
      const at = timeOf(r.timestamp);
      const when = at !== undefined ? { at } : {};
      if (type === 'user') {
        // Only the person's prompt starts a turn, as in the guard's Qwen adapter (a prompt with submitted_prompt): not
        // a message drained mid-turn (subtype mid_turn_user_message) nor one the CLI wrote itself (goal_runtime, …).
        const person = r.subtype === undefined && (r.provenance === undefined || r.provenance === 'real_user');
        if (person && partsOf(r).some((p) => typeof p.text === 'string')) emit({ kind: 'user', ...when });
        return true;
      }
      if (type === 'assistant') {
        const u = obj(r.usageMetadata);
        if (u) {
          const cached = num(u.cachedContentTokenCount);
          emit({
            kind: 'usage',
            ...when,
            ...(str(r.model) ? { model: str(r.model) as string } : {}),
            tokens: {
              input: Math.max(0, num(u.promptTokenCount) - cached),
              cacheRead: cached,
              cacheWrite: 0,
              output: num(u.candidatesTokenCount) + num(u.thoughtsTokenCount),
            },
          });
        }
        for (const p of partsOf(r)) {
          const call = obj(p.functionCall);
          const id = str(call?.id);
          if (!call || !id) continue;
          const name = str(call.name) ?? '';
          const command = name === 'run_shell_command' ? str(obj(call.args)?.command) : undefined;
          calls.set(id, command !== undefined ? { name, command } : { name });
        }
        return true;
      }
      if (type === 'tool_result') {
        for (const p of partsOf(r)) {
          const resp = obj(p.functionResponse);
          const id = str(resp?.id);
          const call = id ? calls.take(id) : undefined;
          if (!resp || !id || !call) continue;
          const response = obj(resp.response);
          emit(callResult(call, when, id, () => qwenShellResult(str(response?.output) ?? str(response?.error) ?? '')));
        }
        return true;
      }
      return type === 'system';
    },
  };
}
