// Which adapter reads a payload: the tool named on the command line, else fields only one tool sends.
import type { Decision, GuardToolFacts, ToolName } from '../core/types.ts';
import { claudeFacts, parseClaude, renderClaude } from './claude.ts';
import { clineFacts } from './cline-facts.ts';
import { codexFacts, parseCodex, renderCodex } from './codex.ts';
import { copilotFacts, parseCopilot, renderCopilot } from './copilot.ts';
import { cursorFacts, parseCursor, renderCursor } from './cursor.ts';
import { geminiFacts, parseGemini, renderGemini } from './gemini.ts';
import { opencodeFacts } from './opencode-facts.ts';
import { parseQwen, qwenFacts, renderQwen } from './qwen.ts';
export { formatFromArg, quietOutput } from './quiet.ts';

/** Each tool's facts for the core, by tool (Kilo runs the OpenCode plugin: OpenCode's facts). */
export const TOOL_FACTS: Readonly<Record<ToolName, GuardToolFacts>> = {
  claude: claudeFacts,
  codex: codexFacts,
  cursor: cursorFacts,
  opencode: opencodeFacts,
  gemini: geminiFacts,
  copilot: copilotFacts,
  qwen: qwenFacts,
  cline: clineFacts,
  kilo: opencodeFacts,
};

/** The facts the core uses: the session family's for the hang rules, the answer format's for how a block reads. */
export function factsFor(parsed: ParsedHook): GuardToolFacts {
  return { ...TOOL_FACTS[parsed.family], blockSaysThisCommand: TOOL_FACTS[parsed.format].blockSaysThisCommand };
}
import { str, type OutputFormat, type ParsedHook, type Payload } from './types.ts';

const CURSOR_EVENTS = new Set([
  'preToolUse',
  'postToolUse',
  'postToolUseFailure',
  'beforeSubmitPrompt',
  'afterFileEdit',
]);

function looksLikeCursor(p: Payload): boolean {
  return (
    p.cursor_version !== undefined || p.conversation_id !== undefined || CURSOR_EVENTS.has(str(p.hook_event_name) ?? '')
  );
}

/** The tool that sent this payload: the argument when valid, else sniffed from fields. */
/** The tools that run the hook file as a command, by the argument they pass (the others load the guard in-process). */
export const HOOK_FORMATS: readonly OutputFormat[] = ['claude', 'codex', 'cursor', 'gemini', 'copilot', 'qwen'];

export function detectFormat(toolArg: string | undefined, p: Payload): OutputFormat {
  if (looksLikeCursor(p)) return 'cursor';
  if ((HOOK_FORMATS as readonly (string | undefined)[]).includes(toolArg)) return toolArg as OutputFormat;
  if (p.turn_id !== undefined) return 'codex';
  return 'claude';
}

export function parseHook(
  toolArg: string | undefined,
  p: Payload,
  env: Record<string, string | undefined>,
): ParsedHook {
  const format = detectFormat(toolArg, p);
  if (format === 'cursor') return parseCursor(p);
  if (format === 'codex') return parseCodex(p);
  if (format === 'gemini') return parseGemini(p);
  if (format === 'copilot') return parseCopilot(p);
  if (format === 'qwen') return parseQwen(p);
  const parsed = parseClaude(p);
  // Cursor also runs .claude/settings.json hooks: count those with Cursor's own so one call is never counted twice.
  if (env.CURSOR_VERSION !== undefined || env.CURSOR_PROJECT_DIR !== undefined) {
    const session = str(p.conversation_id) ?? str(p.session_id) ?? parsed.session;
    return { ...parsed, family: 'cursor' satisfies ToolName, session };
  }
  return parsed;
}

export function render(format: OutputFormat, eventName: string, decision: Decision): string {
  if (format === 'cursor') return renderCursor(eventName, decision);
  if (format === 'codex') return renderCodex(eventName, decision);
  if (format === 'gemini') return renderGemini(eventName, decision);
  if (format === 'copilot') return renderCopilot(eventName, decision);
  if (format === 'qwen') return renderQwen(eventName, decision);
  return renderClaude(eventName, decision);
}

/** What to print when anything goes wrong: the tool's way of saying "carry on". */
export function failOpenOutput(format: OutputFormat, eventName: string): string {
  return render(format, eventName, { action: 'allow' });
}

/** Where the agent works, for the hand-off note: Claude's project dir, Cursor's first workspace root, else the
 * payload's cwd. */
export function projectDirOf(
  format: OutputFormat,
  p: Payload,
  env: Record<string, string | undefined>,
): string | undefined {
  const roots = p.workspace_roots;
  const first = Array.isArray(roots) && typeof roots[0] === 'string' ? roots[0] : undefined;
  const claudeDir = format === 'claude' ? env.CLAUDE_PROJECT_DIR : undefined;
  return claudeDir || first || str(p.cwd) || undefined;
}

/** Codex 0.171 honours no stop field, so its hand-off ends a `codex exec` run by interrupting it
 * (guard/stop-codex.ts). */
export function stopsByInterrupt(format: OutputFormat): boolean {
  return format === 'codex';
}
