// The common event sequence every transcript format is parsed into, and what a session knows about itself.

/** One thing that happened in a session, in transcript order. `at` is epoch ms, or undefined when the line has no
 * time. */
export type AuditEvent =
  | {
      kind: 'shell';
      command: string;
      /** The output as the model saw it. */
      output: string;
      /** Undefined where the transcript does not record one (the guard core treats it the way it treats Codex). */
      exitCode?: number;
      at?: number;
      callId?: string;
    }
  /** The person wrote: the guard starts its counts over. */
  | { kind: 'user'; at?: number; turnId?: string }
  /** A non-shell tool call finished (an edit, a read, a search): passed to the judge so a judgment that counts edits as
   * progress sees them. */
  | { kind: 'tool'; name: string; edit: boolean; at?: number; callId?: string }
  /** One model request and the tokens it used, where the transcript records them. */
  | { kind: 'usage'; at?: number; tokens?: Tokens; model?: string };

export interface Tokens {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

/** Facts a parser learns about its session while reading it. */
export interface SessionInfo {
  /** Session id as the tool writes it. */
  id?: string | undefined;
  /** Working directory of the session. */
  cwd?: string | undefined;
}

export const EDIT_TOOL_NAMES = new Set([
  // Claude Code
  'Edit',
  'MultiEdit',
  'Write',
  'NotebookEdit',
  // Codex
  'apply_patch',
  // OpenCode
  'edit',
  'write',
  'patch',
  'multiedit',
  // Gemini CLI
  'replace',
  'write_file',
  // Copilot CLI
  'str_replace_editor',
  'create',
  'str_replace',
  'insert',
]);

/** Sub-agent tools: their completion is change (the guard counts it as progress), not an edit. */
export const SUBAGENT_TOOL_NAMES = new Set(['Agent', 'Task', 'task', 'spawn_agent']);

export function tokenTotal(t: Tokens): number {
  return t.input + t.cacheRead + t.cacheWrite + t.output;
}

export function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

export function timeOf(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v !== 'string') return undefined;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : t;
}

export { type Obj, obj, str } from '../guard/json-value.ts';
