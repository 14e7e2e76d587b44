// A tool is data: where its evidence lives, and what files it needs from us.
import type { HookEntrySpec } from '../edit/json.ts';

export type ToolName = 'claude' | 'codex' | 'cursor' | 'opencode';
export const TOOL_NAMES: readonly ToolName[] = ['claude', 'codex', 'cursor', 'opencode'];

/** Files we own outright; their content comes from the package. */
export type OwnedAsset = 'guard' | 'opencode-plugin' | 'cursor-env';

export type Intent =
  | { kind: 'owned'; path: string; asset: OwnedAsset; mode: number }
  | { kind: 'json'; path: string; hooks: HookEntrySpec; env?: { path: string[] }; ensureTop?: Record<string, unknown> }
  | { kind: 'toml-env'; path: string }
  | { kind: 'block'; path: string; template: 'agents-block' }
  | { kind: 'import'; path: string; line: string };

export interface ToolRecord {
  name: ToolName;
  label: string;
  /** Repo-relative paths whose existence shows the tool is in use (a trailing / means a directory). */
  evidence: string[];
  intents: Intent[];
  /** What the user still has to do after applying, one sentence each. */
  nextSteps: string[];
}

/** The marker in every hook command that identifies our entries. */
export const HOOK_MARKER = '.agents/hooks/loop-guard';
export const GUARD_PATH = '.agents/hooks/loop-guard.mjs';
export const HOOK_TIMEOUT_SECONDS = 10;

export { AGENT_ENV } from '../guard/core/env.ts';

export const GUARD_INTENT: Intent = { kind: 'owned', path: GUARD_PATH, asset: 'guard', mode: 0o755 };
