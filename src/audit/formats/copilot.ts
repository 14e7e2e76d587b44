// GitHub Copilot CLI: ~/.copilot/session-state/<id>/events.jsonl, one {type, data, id, timestamp} event per line.
// Shell calls are tool.execution_start/complete pairs of the `bash` tool; usage is session.usage_record. Shapes:
// test/fixtures/transcripts/copilot (captured from the real Copilot CLI 1.0.102).
import { num, obj, str, timeOf, type AuditEvent, type Obj, type SessionInfo } from '../events.ts';
import { callResult, Pending, textOf, type RecordParser } from './types.ts';

const SHELL_TOOLS = new Set(['bash', 'shell', 'powershell']);

/** Strip the trailer "<shellId: N completed with exit code N>", whose shell id changes every run. */
export function copilotShellResult(text: string): { output: string; exitCode?: number } {
  const m = /\n?<shellId: \d+ completed with exit code (-?\d+)>\s*$/.exec(text);
  return m ? { output: text.slice(0, m.index), exitCode: Number(m[1]) } : { output: text };
}

/** A finished shell call's text and exit code (the shell's own record of it first, else the trailer). */
function copilotResult(d: Obj): { output: string; exitCode?: number | undefined } {
  const text = textOf(obj(d.result)?.content) || str(obj(d.error)?.message) || '';
  const parsed = copilotShellResult(text);
  const shellExit = obj(d.shellExecution)?.exitCode;
  return { output: parsed.output, exitCode: typeof shellExit === 'number' ? shellExit : parsed.exitCode };
}

export function createCopilotParser(): RecordParser {
  const info: SessionInfo = {};
  const calls = new Pending<{ name: string; command?: string }>();
  return {
    info,
    push(r: Obj, emit: (e: AuditEvent) => void): boolean {
      const type = str(r.type);
      const d = obj(r.data);
      if (!type || !d) return false;
      const at = timeOf(r.timestamp);
      const when = at !== undefined ? { at } : {};
      if (type === 'session.start') {
        info.id ??= str(d.sessionId);
        info.cwd ??= str(obj(d.context)?.cwd);
      } else if (type === 'user.message') {
        emit({ kind: 'user', ...when });
      } else if (type === 'session.usage_record') {
        const u = obj(d.usage);
        if (u) {
          const input = num(u.inputTokens);
          const cached = num(u.cacheReadTokens);
          emit({
            kind: 'usage',
            ...when,
            ...(str(u.model) ? { model: str(u.model) as string } : {}),
            tokens: {
              input: cached <= input ? input - cached : input,
              cacheRead: cached,
              cacheWrite: num(u.cacheWriteTokens),
              output: num(u.outputTokens),
            },
          });
        }
      } else if (type === 'tool.execution_start') {
        const id = str(d.toolCallId);
        const name = str(d.toolName) ?? '';
        const command = SHELL_TOOLS.has(name) ? str(obj(d.arguments)?.command) : undefined;
        if (id) calls.set(id, command !== undefined ? { name, command } : { name });
      } else if (type === 'tool.execution_complete') {
        const id = str(d.toolCallId);
        const call = id ? calls.take(id) : undefined;
        if (call) emit(callResult(call, when, id, () => copilotResult(d)));
      }
      return true;
    },
  };
}
