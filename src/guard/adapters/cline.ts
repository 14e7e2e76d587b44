// The Cline plugin: the same core as the hook, run in Cline's plugin process (.cline/plugins/loop-guard.js loads it).
// Cline 3.0.65's file hooks cannot refuse one command (only cancel the run), so the guard is a project plugin:
// beforeTool can skip a call with a reason the model sees, afterTool can add context, either can stop the run, and
// beforeRun sees the user's prompt. Shapes: test/fixtures/payloads/cline/plugin. Cline imports the file with jiti and
// takes its default export.
import { decide, type SessionStore } from '../core/decide.ts';
import type { SessionState } from '../core/detector.ts';
import { readSettings } from '../core/settings.ts';
import type { Decision, GuardEvent, GuardSettings } from '../core/types.ts';
import { recordDecision } from '../event-log.ts';
import { writeHandoff } from '../handoff-note.ts';
import { bind } from '../loop-store.ts';
import { projectFiles } from '../project-files.ts';
import { treeFingerprint } from '../tree.ts';
import { CLINE_CHANGE_TOOLS, CLINE_SHELL_TOOL, clineFacts } from './cline-facts.ts';
import { obj, promptOf, str, type Payload } from './types.ts';

/** Sessions kept in memory; the oldest is dropped past this, so a long-lived plugin process stays small. */
const MAX_SESSIONS = 64;

/** The commands of one run_commands call: `{commands: [..]}`, or the single `{command}` Cline also accepts. */
export function clineCommands(input: unknown): string[] {
  const i = obj(input);
  if (Array.isArray(i?.commands)) return i.commands.filter((c): c is string => typeof c === 'string');
  const one = str(i?.command);
  return one === undefined ? [] : [one];
}

/**
 * The per-command results of a run_commands call: `output` is `[{query, result, success, error?}]`, and a failing
 * command says its code only in `error` ("Command exited with code 1"). A skipped or invalid call (`isError`, or an
 * `{error}` object) ran nothing, so it has no results.
 */
export function clineResults(result: unknown): Array<{ command: string; output: string; exitCode?: number }> {
  const r = obj(result);
  if (!r || r.isError === true || !Array.isArray(r.output)) return [];
  const out: Array<{ command: string; output: string; exitCode?: number }> = [];
  for (const item of r.output) {
    const e = obj(item);
    const command = str(e?.query);
    if (!e || command === undefined) continue;
    const output = str(e.result) ?? '';
    const code = /exited with code (-?\d+)/.exec(str(e.error) ?? '');
    const exitCode = e.success === true ? 0 : code ? Number(code[1]) : undefined;
    out.push(exitCode === undefined ? { command, output } : { command, output, exitCode });
  }
  return out;
}

/** A session: the conversation (a sub-agent has its own), else the agent. */
export function clineSession(snapshot: unknown): string {
  const s = obj(snapshot);
  return str(s?.conversationId) ?? str(s?.agentId) ?? '';
}

/**
 * beforeRun starts every run; a run the user started ends in the user's message, which Cline wraps in
 * `<user_input …>` (beforeRun.json). Anything else (a run resumed without a new message) is not a new turn.
 */
export function isUserTurn(snapshot: unknown): boolean {
  const messages = obj(snapshot)?.messages;
  if (!Array.isArray(messages) || messages.length === 0) return false;
  const last = obj(messages[messages.length - 1]);
  if (str(last?.role) !== 'user') return false;
  const content = last?.content;
  // Hook context is a user message too (`<hook_context …>`): only the user's own input counts.
  const isInput = (text: string | undefined) => (text ?? '').trimStart().startsWith('<user_input');
  if (typeof content === 'string') return isInput(content);
  return Array.isArray(content) && content.some((part) => isInput(str(obj(part)?.text)));
}

/** The text of the user's last message (its `<user_input …>` part), for the commands it asks for. */
export function userInputText(snapshot: unknown): string | undefined {
  const messages = obj(snapshot)?.messages;
  if (!Array.isArray(messages) || messages.length === 0) return undefined;
  const content = obj(messages[messages.length - 1])?.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  return content.map((part) => str(obj(part)?.text)).find((t) => t?.trimStart().startsWith('<user_input'));
}

/** What beforeTool answers: skip the call with a reason, or stop the run (the hand-off); undefined lets it run. */
export type BeforeToolAnswer = { skip: true; reason: string } | { stop: true; skip: true; reason: string } | undefined;

/** One plugin's settings, and how it judges one event of a session and logs what it did. */
interface Hooks {
  settings: GuardSettings;
  env: Record<string, string | undefined>;
  cwd: () => string;
  run: (event: GuardEvent, session: string) => Decision;
  log: (command: string, decision: Decision) => void;
}

/** The three hooks, over a session store; exported apart from the plugin object so tests can give them a fresh
 * memory. */
export function clineHooks(
  env: Record<string, string | undefined> = process.env,
  cwd: () => string = () => process.cwd(),
) {
  const settings = readSettings(env);
  const sessions = new Map<string, SessionState>();
  const store = (id: string): SessionStore => ({
    read: () => sessions.get(id),
    update(change) {
      const { next, result } = change(sessions.get(id));
      sessions.delete(id);
      sessions.set(id, next);
      if (sessions.size > MAX_SESSIONS) sessions.delete(sessions.keys().next().value as string);
      return result;
    },
  });
  // The plugin process runs in the session's working directory; the tree is looked at only when a result repeats.
  const look = (skip: readonly string[], watch?: readonly string[]) => treeFingerprint(cwd(), skip, watch);
  // A loop's sessions (a restart loop of `cline`, or LOOP_GUARD_RUN_ID) count in the loop's state file; the others in
  // memory. This plugin process is the agent: a prompt again in it is a person typing.
  const agent = `${process.pid}:plugin`;
  const run = (event: GuardEvent, session: string): Decision => {
    const bound = bind('cline', session, event, env, cwd(), look, () => agent);
    if (bound.done) return bound.done;
    const where = bound.loop ? bound.store : store(session);
    return decide(bound.loop ? bound.event : event, settings, clineFacts, where, look, true, projectFiles(cwd()));
  };
  const log = (command: string, decision: Decision) =>
    recordDecision(env as NodeJS.ProcessEnv, 'cline', command, decision, cwd);
  const h: Hooks = { settings, env, cwd, run, log };

  return {
    beforeRun(ctx: Payload): undefined {
      try {
        if (settings.enabled && isUserTurn(ctx?.snapshot))
          run({ kind: 'userTurn', ...promptOf(userInputText(ctx.snapshot)) }, clineSession(ctx.snapshot));
      } catch {
        // fail open
      }
      return undefined;
    },
    beforeTool: (ctx: Payload): BeforeToolAnswer => beforeTool(h, ctx),
    afterTool: (ctx: Payload): { appendContext: string } | undefined => afterTool(h, ctx),
  };
}

type Refused = { command: string; decision: Decision & { action: 'deny' | 'handoff' } };

/** Pure: the reason a skipped call gives, the refusals' messages and a word on the commands skipped with them. */
function skipReason(refused: readonly Refused[], commands: number): string {
  const others = commands - refused.length;
  return (
    refused.map((r) => r.decision.message).join('\n\n') +
    (others > 0
      ? `\n\n(The other ${others === 1 ? 'command' : `${others} commands`} of this call did not run either: ` +
        `run ${others === 1 ? 'it' : 'them'} in a call of ${others === 1 ? 'its' : 'their'} own.)`
      : '')
  );
}

/** beforeTool: each command of a shell call judged; one refusal skips the call, a hand-off stops the run. */
function beforeTool(h: Hooks, ctx: Payload): BeforeToolAnswer {
  try {
    if (!h.settings.enabled || str(obj(ctx?.toolCall)?.toolName) !== CLINE_SHELL_TOOL) return undefined;
    const session = clineSession(ctx.snapshot);
    const callId = str(obj(ctx.toolCall)?.toolCallId);
    const commands = clineCommands(ctx.input ?? obj(ctx.toolCall)?.input);
    // Each command of the list is judged; Cline can skip only the whole call, so one refusal skips it all.
    const refused: Refused[] = [];
    commands.forEach((command, i) => {
      const decision = h.run(
        { kind: 'pre', command, background: false, ...(callId ? { callId: `${callId}#${i}` } : {}) },
        session,
      );
      if (decision.action === 'deny' || decision.action === 'handoff') refused.push({ command, decision });
    });
    if (refused.length === 0) return undefined;
    const reason = skipReason(refused, commands.length);
    for (const r of refused) h.log(r.command, r.decision);
    const handoff = refused.find((r) => r.decision.action === 'handoff');
    if (handoff && handoff.decision.action === 'handoff') {
      if (!handoff.decision.again)
        writeHandoff(
          h.cwd(),
          { at: new Date().toISOString(), tool: 'cline', session, ...handoff.decision.note },
          h.env,
        );
      // stop ends the run (the command does not run, `cline` exits 0); the reason goes to Cline's log only.
      return { stop: true, skip: true, reason };
    }
    return { skip: true, reason };
  } catch {
    return undefined; // fail open: an internal error never stops a command
  }
}

/** afterTool: an edit that worked is a change; a shell call's results are counted, warnings added as context. */
function afterTool(h: Hooks, ctx: Payload): { appendContext: string } | undefined {
  try {
    if (!h.settings.enabled) return undefined;
    const tool = str(obj(ctx?.toolCall)?.toolName);
    const session = clineSession(ctx.snapshot);
    const callId = str(obj(ctx.toolCall)?.toolCallId);
    if (tool !== undefined && CLINE_CHANGE_TOOLS.has(tool)) {
      // An edit that failed changed nothing: `isError`, or `output.success: false` (afterTool-editor.json shows a
      // success).
      const result = obj(ctx.result);
      if (result?.isError !== true && obj(result?.output)?.success !== false)
        h.run({ kind: 'change', by: 'edit', ...(callId ? { callId } : {}) }, session);
      return undefined;
    }
    if (tool !== CLINE_SHELL_TOOL) return undefined;
    const warnings: string[] = [];
    clineResults(ctx.result).forEach((r, i) => {
      const decision = h.run({ kind: 'post', ...r, ...(callId ? { callId: `${callId}#${i}` } : {}) }, session);
      if (decision.action === 'warn') {
        warnings.push(decision.message);
        h.log(r.command, decision);
      }
    });
    // Cline adds this after the call's results as a <hook_context> user message: the output itself is untouched.
    return warnings.length ? { appendContext: warnings.join('\n\n') } : undefined;
  } catch {
    return undefined; // fail open
  }
}

/** The plugin object Cline takes: what the loader in .cline/plugins hands it after requiring the guard file. */
export function clinePlugin() {
  return { name: 'loop-guard', manifest: { capabilities: ['hooks'] }, hooks: clineHooks() };
}
