// The OpenCode plugin: the same core as the hook, run in-process. The plugin file in .opencode/plugins (or
// .kilo/plugins: Kilo is an OpenCode fork with the same API) is a small loader that requires the guard file and calls
// opencodePlugin.
import { AGENT_ENV } from '../../tools/env.ts';
import { decide, type SessionStore } from '../core/decide.ts';
import type { SessionState } from '../core/detector.ts';
import { readSettings } from '../core/settings.ts';
import type { Decision, GuardEvent, GuardSettings, ToolName } from '../core/types.ts';
import { OPENCODE_CHANGE_TOOLS, opencodeFacts } from './opencode-facts.ts';
import { promptOf } from './types.ts';
import { recordDecision } from '../event-log.ts';
import { projectFiles } from '../project-files.ts';
import { treeFingerprint } from '../tree.ts';
import { writeHandoff } from '../handoff-note.ts';
import { obj } from '../json-value.ts';
import { bind } from '../loop-store.ts';

/** Sessions kept in memory; the oldest is dropped past this, so a long-running server stays small. */
const MAX_SESSIONS = 64;

/** The user's text of a chat.message: its text parts (not the synthetic ones OpenCode adds), joined. */
function partsText(parts: unknown): string | undefined {
  if (!Array.isArray(parts)) return undefined;
  const texts = parts
    .map((p) => obj(p))
    .filter((p) => p?.type === 'text' && p.synthetic !== true && typeof p.text === 'string')
    .map((p) => p?.text as string);
  return texts.length ? texts.join('\n') : undefined;
}

/** The plugin context's parts the hand-off uses: the project directory and the client that can abort a session. */
interface PluginCtx {
  directory?: string;
  worktree?: string;
  client?: { session?: { abort?: (opts: { path: { id: string } }) => Promise<unknown> } };
}

/** The plugin function for one host of OpenCode's plugin API; `tool` names it in hand-off notes and the event log. */
export function opencodePlugin(tool: 'opencode' | 'kilo' = 'opencode') {
  const TOOL: ToolName = tool === 'kilo' ? 'kilo' : 'opencode';
  return async (ctx?: unknown) => loopGuard(TOOL, ctx);
}

/** One plugin instance: its tool, its context, the settings, and how it judges one event of a session. */
interface Plugin {
  tool: ToolName;
  ctx: PluginCtx;
  settings: GuardSettings;
  run: (event: GuardEvent, sessionID: unknown) => Decision;
}

async function loopGuard(TOOL: ToolName, ctx?: unknown) {
  const p = pluginFor(TOOL, ctx);
  return {
    // Every shell command OpenCode runs gets the non-interactive environment.
    'shell.env': async (_input: unknown, output: { env?: Record<string, string> }) => {
      if (output && typeof output === 'object') output.env = { ...(output.env ?? {}), ...AGENT_ENV };
    },
    'tool.execute.before': (
      input: { tool?: string; sessionID?: string; callID?: string },
      output: { args?: unknown },
    ) => beforeTool(p, input, output),
    'tool.execute.after': (
      input: { tool?: string; sessionID?: string; callID?: string; args?: unknown },
      output: { title?: string; output?: string; metadata?: unknown },
    ) => afterTool(p, input, output),
    // A new user message starts that session over.
    'chat.message': async (input: { sessionID?: string }, output?: { parts?: unknown }) => {
      try {
        if (input?.sessionID) p.run({ kind: 'userTurn', ...promptOf(partsText(output?.parts)) }, input.sessionID);
      } catch {
        // fail open
      }
    },
  };
}

/** The plugin's settings and sessions for one OpenCode process: in memory, or a loop's state file. */
function pluginFor(TOOL: ToolName, ctx?: unknown): Plugin {
  const plugin = (obj(ctx) ?? {}) as PluginCtx;
  // The project directory OpenCode gives the plugin; the tree is looked at only when a result repeats.
  const dir =
    typeof plugin.worktree === 'string' && plugin.worktree !== '/'
      ? plugin.worktree
      : typeof plugin.directory === 'string'
        ? plugin.directory
        : undefined;
  const look = (skip: readonly string[], watch?: readonly string[]) => treeFingerprint(dir, skip, watch);
  const files = projectFiles(dir);
  const settings = readSettings(process.env);
  const sessions = new Map<string, SessionState>();

  const save = (id: string, state: SessionState) => {
    sessions.delete(id);
    sessions.set(id, state);
    if (sessions.size > MAX_SESSIONS) sessions.delete(sessions.keys().next().value as string);
  };
  // In memory: the plugin runs in OpenCode's own long-lived process.
  const store = (id: string): SessionStore => ({
    read: () => sessions.get(id),
    update(change) {
      const { next, result } = change(sessions.get(id));
      save(id, next);
      return result;
    },
  });
  // The sessions of a loop (a restart loop of `opencode run`, or LOOP_GUARD_RUN_ID) count in the loop's state file,
  // shared with the next process; the others stay in memory. This process is the agent: a prompt again in it is a
  // person.
  const agent = `${process.pid}:plugin`;
  const run = (event: GuardEvent, sessionID: unknown) => {
    const id = String(sessionID ?? '');
    const bound = bind(TOOL, id, event, process.env, dir, look, () => agent);
    if (bound.done) return bound.done;
    if (bound.loop) return decide(bound.event, settings, opencodeFacts, bound.store, look, true, files);
    return decide(event, settings, opencodeFacts, store(id), look, true, files);
  };
  return { tool: TOOL, ctx: plugin, settings, run };
}

/** tool.execute.before: a bash command about to run, refused by throwing (a hand-off also aborts the session). */
async function beforeTool(
  p: Plugin,
  input: { tool?: string; sessionID?: string; callID?: string },
  output: { args?: unknown },
): Promise<void> {
  const { tool: TOOL, ctx: plugin } = p;
  let reason: string | null = null;
  let rule = '';
  try {
    if (!p.settings.enabled || input?.tool !== 'bash') return;
    const command = obj(output?.args)?.command;
    if (typeof command !== 'string') return;
    const decision = p.run(
      { kind: 'pre', command, background: false, ...(input.callID ? { callId: String(input.callID) } : {}) },
      input.sessionID,
    );
    if (decision.action === 'deny') [reason, rule] = [decision.message, decision.rule];
    if (decision.action === 'handoff') {
      [reason, rule] = [decision.message, decision.rule];
      const session = String(input.sessionID ?? '');
      if (!decision.again)
        writeHandoff(
          plugin.worktree || plugin.directory || process.cwd(),
          { at: new Date().toISOString(), tool: TOOL, session, ...decision.note },
          process.env,
        );
      recordDecision(process.env, TOOL, command, decision);
      // Aborting the session is what ends `opencode run` (measured in 1.18.33); the throw still refuses this call.
      await plugin.client?.session?.abort?.({ path: { id: session } }).catch(() => undefined);
      throw new Error(reason);
    }
  } catch (err) {
    if (reason !== null && err instanceof Error && err.message === reason) throw err;
    return; // fail open: an internal error never stops a command
  }
  // Throwing is how a before-hook refuses a call: the model receives exactly this text as the tool result.
  if (reason) {
    recordDecision(process.env, TOOL, String(obj(output?.args)?.command ?? ''), {
      action: 'deny',
      rule,
      message: reason,
    });
    throw new Error(reason);
  }
}

/** tool.execute.after: an edit or sub-agent is a change; a bash result is counted, and a warning appended to it. */
async function afterTool(
  p: Plugin,
  input: { tool?: string; sessionID?: string; callID?: string; args?: unknown },
  output: { title?: string; output?: string; metadata?: unknown },
): Promise<void> {
  try {
    if (!p.settings.enabled || !output) return;
    if (OPENCODE_CHANGE_TOOLS.has(String(input?.tool))) {
      p.run(
        {
          kind: 'change',
          by: input.tool === 'task' ? 'agent' : 'edit',
          ...(input.callID ? { callId: String(input.callID) } : {}),
        },
        input.sessionID,
      );
      return;
    }
    if (input?.tool !== 'bash') return;
    const command = obj(input.args)?.command;
    if (typeof command !== 'string') return;
    const meta = obj(output.metadata);
    // A cut output: the model's text names the saved file; metadata.output has only the preview.
    const cut = meta?.truncated === true && typeof output.output === 'string';
    const text = cut
      ? (output.output as string)
      : typeof meta?.output === 'string'
        ? meta.output
        : typeof output.output === 'string'
          ? output.output
          : '';
    const exit = typeof meta?.exit === 'number' ? meta.exit : undefined;
    const decision = p.run(
      {
        kind: 'post',
        command,
        output: text,
        ...(exit !== undefined ? { exitCode: exit } : {}),
        ...(input.callID ? { callId: String(input.callID) } : {}),
      },
      input.sessionID,
    );
    // The same result object goes to the model, so appending here adds the warning after the real output.
    if (decision.action === 'warn') {
      output.output = `${output.output ?? ''}\n\n${decision.message}`;
      recordDecision(process.env, p.tool, command, decision);
    }
  } catch {
    // fail open
  }
}
