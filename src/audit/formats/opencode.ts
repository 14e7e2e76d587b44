// OpenCode 1.18: sessions live in SQLite ($XDG_DATA_HOME/opencode/opencode.db): `session` (directory), `message`
// (JSON data with role) and `part` (JSON data: tool calls with state, step-finish with tokens). Parts are read in
// insertion order and routed to their session. Shapes: test/fixtures/transcripts/opencode (OpenCode 1.18.33).
import { EDIT_TOOL_NAMES, num, obj, str, type AuditEvent, type Obj } from '../events.ts';

/** One part row's data as events. `userMessage` says whether the part belongs to a message the person wrote. */
export function openCodePartEvents(
  data: Obj,
  userMessage: boolean,
  firstOfMessage: boolean,
  createdAt: number | undefined,
  /** The model of the part's message (the message row's modelID), for pricing a step's usage. */
  model?: string,
): AuditEvent[] {
  const type = str(data.type);
  const when = createdAt !== undefined ? { at: createdAt } : {};
  if (userMessage)
    return firstOfMessage && type === 'text' && data.synthetic !== true ? [{ kind: 'user', ...when }] : [];
  if (type === 'step-finish') {
    const t = obj(data.tokens);
    const cache = obj(t?.cache);
    return [
      {
        kind: 'usage',
        ...when,
        ...(model ? { model } : {}),
        ...(t
          ? {
              tokens: {
                input: num(t.input),
                cacheRead: num(cache?.read),
                cacheWrite: num(cache?.write),
                output: num(t.output) + num(t.reasoning),
              },
            }
          : {}),
      },
    ];
  }
  if (type !== 'tool') return [];
  const state = obj(data.state);
  const status = str(state?.status);
  if (status !== 'completed' && status !== 'error') return [];
  const name = str(data.tool) ?? '';
  const end = num(obj(state?.time)?.end) || createdAt;
  const at = end !== undefined ? { at: end } : {};
  const callId = str(data.callID);
  const call = callId ? { callId } : {};
  const command = name === 'bash' ? str(obj(state?.input)?.command) : undefined;
  if (command === undefined) return [{ kind: 'tool', name, edit: EDIT_TOOL_NAMES.has(name), ...at, ...call }];
  const meta = obj(state?.metadata);
  const output = str(meta?.output) ?? str(state?.output) ?? str(state?.error) ?? '';
  const exit = meta?.exit;
  return [{ kind: 'shell', command, output, ...(typeof exit === 'number' ? { exitCode: exit } : {}), ...at, ...call }];
}
