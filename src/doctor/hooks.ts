// Pure: which hook commands a tool's config registers, and whether ours sit on every event the guard needs.
import { isOurHookCommand } from '../tools/markers.ts';
import { type HookEntrySpec, type Intent, TOOLS, type ToolName } from '../tools/index.ts';
import { type Check, fail, pass, RERUN } from './types.ts';
import { obj } from '../guard/json-value.ts';

export interface HookCommand {
  event: string;
  matcher?: string;
  command: string;
  /** The file the entry came from, for messages. */
  source: string;
}

/** Every command hook in a parsed config's `hooks` object (Claude/Codex nested groups, or Cursor's flat list). */
export function listHookCommands(doc: unknown, style: HookEntrySpec['style'], source: string): HookCommand[] {
  const hooks = obj(obj(doc)?.hooks);
  if (!hooks) return [];
  const out: HookCommand[] = [];
  for (const [event, entries] of Object.entries(hooks)) {
    if (!Array.isArray(entries)) continue;
    for (const entry of entries) {
      const e = obj(entry);
      if (!e) continue;
      const matcher = typeof e.matcher === 'string' ? e.matcher : undefined;
      const handlers = style === 'flat' ? [e] : Array.isArray(e.hooks) ? e.hooks : [];
      for (const h of handlers) {
        const handler = obj(h);
        if (!handler || typeof handler.command !== 'string') continue;
        // Claude and Codex also take http/prompt/agent handlers; only a command handler runs our file.
        if (style === 'nested' && handler.type !== undefined && handler.type !== 'command') continue;
        if (style === 'flat' && handler.type !== undefined && handler.type !== 'command') continue;
        out.push({ event, command: handler.command, source, ...(matcher !== undefined ? { matcher } : {}) });
      }
    }
  }
  return out;
}

/**
 * Does a matcher select this tool name? The tools agree on the rules: empty or `*` selects everything, a plain
 * word list (`Bash|Shell`, `Bash, Edit`) is exact names, anything else is an unanchored regular expression.
 */
export function matcherSelects(matcher: string | undefined, toolName: string): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  if (/^[A-Za-z0-9_ ,|-]+$/.test(matcher))
    return matcher
      .split(/[|,]/)
      .map((s) => s.trim())
      .includes(toolName);
  try {
    return new RegExp(matcher).test(toolName);
  } catch {
    return false;
  }
}

/** The json intent that carries a tool's hooks, from the tool record (the one source of truth for events). */
export function hookSpecOf(tool: ToolName): (Intent & { kind: 'json' }) | undefined {
  return TOOLS[tool].intents.find((i): i is Intent & { kind: 'json' } => i.kind === 'json');
}

/** Events that take no matcher: a matcher there is ignored by the tool, so it cannot hide our entry. */
const NO_MATCHER = new Set(['UserPromptSubmit', 'beforeSubmitPrompt', 'Stop', 'stop']);

/** The fix for a hook file that could not be read: the installer refuses a file it cannot parse, so it comes second. */
export function unreadableFix(configPath: string, problem: string): string {
  if (problem === 'does not exist') return `${RERUN} (it writes ${configPath} with the hook entries)`;
  const at = / at line (\d+), column (\d+)/.exec(problem);
  const kind = configPath.endsWith('.toml') ? 'TOML' : 'JSON';
  return `fix the ${kind} in ${configPath}${at ? ` at line ${at[1]}, column ${at[2]}` : ''}, then ${RERUN}`;
}

export interface HookAudit {
  check: Check;
  /** Our command per required event that has one: what the replay runs. */
  commands: Record<string, string>;
}

/**
 * Our entries on every required event, each selecting the shell tool. `problem` is set when the config could not
 * be read at all (missing file, parse error), so the message says that instead of listing every event.
 */
export function auditHooks(
  tool: ToolName,
  found: readonly HookCommand[],
  configPath: string,
  problem?: string,
  isOurs: (command: string) => boolean = isOurHookCommand,
): HookAudit {
  const spec = hookSpecOf(tool);
  const id = `${tool}.hooks`;
  if (!spec) return { check: pass(id, 'no hook entries needed'), commands: {} };
  if (problem)
    return {
      check: fail(id, `${configPath}: ${problem}`, unreadableFix(configPath, problem)),
      commands: {},
    };
  const commands: Record<string, string> = {};
  const missing: string[] = [];
  const unmatched: string[] = [];
  const elsewhere: string[] = [];
  for (const { event, matcher } of spec.hooks.events) {
    // A command that only mentions our file's name (a copy, another checkout) is not our guard.
    const impostor = found.find((h) => h.event === event && isOurHookCommand(h.command) && !isOurs(h.command));
    if (impostor) elsewhere.push(`${event} runs \`${impostor.command}\`, which is not this repository's guard file`);
    const ours = found.filter((h) => h.event === event && isOurs(h.command));
    // Every tool name the record's matcher lists (the shell tool, and the edit tools on post events) must be selected.
    const names = matcher === undefined ? [] : matcher.split('|');
    const unselected = (h: HookCommand) =>
      NO_MATCHER.has(event) ? [] : names.filter((n) => !matcherSelects(h.matcher, n));
    const selecting = ours.filter((h) => unselected(h).length === 0);
    if (selecting[0]) commands[event] = selecting[0].command;
    else if (ours[0])
      unmatched.push(
        `${event} (matcher ${JSON.stringify(ours[0].matcher)} does not select ${unselected(ours[0]).join(', ')})`,
      );
    else missing.push(event);
  }
  const events = spec.hooks.events.map((e) => e.event);
  if (!missing.length && !unmatched.length && !elsewhere.length) {
    return { check: pass(id, `${configPath} runs the guard on ${events.join(', ')}`), commands };
  }
  const parts: string[] = [];
  if (missing.length) parts.push(`no loop-guard hook on ${missing.join(', ')}`);
  if (unmatched.length)
    parts.push(`a loop-guard hook that does not run for every tool it needs on ${unmatched.join(', ')}`);
  if (elsewhere.length) parts.push(elsewhere.join('; '));
  const example = spec.hooks.events.find((e) => e.event === (missing[0] ?? unmatched[0]?.split(' ')[0]));
  const entry =
    spec.hooks.style === 'flat'
      ? JSON.stringify({
          command: spec.hooks.command,
          ...(example?.matcher ? { matcher: example.matcher } : {}),
          timeout: spec.hooks.timeout,
        })
      : JSON.stringify({
          ...(example?.matcher ? { matcher: example.matcher } : {}),
          hooks: [{ type: 'command', command: spec.hooks.command, timeout: spec.hooks.timeout }],
        });
  if (!missing.length && !unmatched.length)
    return {
      check: fail(
        id,
        `${configPath}: ${parts.join('; ')}`,
        `remove those entries from ${configPath} (the guard is ${spec.hooks.command})`,
      ),
      commands,
    };
  return {
    check: fail(
      id,
      `${configPath}: ${parts.join('; ')}`,
      `${RERUN} to put the entries back, or add ${entry} under hooks.${missing[0] ?? unmatched[0]?.split(' ')[0]} by hand`,
    ),
    commands,
  };
}
