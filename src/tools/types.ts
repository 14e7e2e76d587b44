// A tool is data: where its evidence lives, and what files it needs from us.

/** Our entries in a tool's hooks file: which events, in which shape, running which command. */
export interface HookEntrySpec {
  /** 'nested' = Claude Code / Codex shape: { hooks: { Event: [ { matcher?, hooks: [ { type:'command', command, timeout } ] } ] } }
   *  'flat'   = Cursor shape: { version: 1, hooks: { event: [ { command, matcher?, timeout } ] } } */
  style: 'nested' | 'flat';
  events: Array<{ event: string; matcher?: string }>;
  command: string; // the full hook command string
  timeout: number; // seconds
  /** Substring that identifies OUR entries in any command (e.g. '.agents/hooks/loop-guard'). */
  marker: string;
}

import type { ToolName } from './names.ts';

export { TOOL_NAMES, type ToolName } from './names.ts';

/** Files we own outright; their content comes from the package. */
export type OwnedAsset = 'guard' | 'opencode-plugin' | 'cursor-env' | 'agents-gitignore';

export type Intent =
  | { kind: 'owned'; path: string; asset: OwnedAsset; mode: number }
  | { kind: 'json'; path: string; hooks: HookEntrySpec; env?: { path: string[] }; ensureTop?: Record<string, unknown> }
  | { kind: 'toml-env'; path: string }
  | { kind: 'block'; path: string; template: 'agents-block' }
  | { kind: 'import'; path: string; line: string };

export interface DoctorFacts {
  /** Repo files whose mention of our hook marker shows the tool is set up, and files whose presence alone shows it. */
  traces: { mentions?: string[]; exists?: string[] };
  /** The shell the tool runs commands in, as a check names it ("Claude Code's shell"). */
  shellLabel: string;
  /** How to give that shell one of our environment values, when doctor finds it missing. */
  envFix: (key: string, value: string) => string;
  /**
   * Where a hand-off really ends the tool's run, when not in the pre-tool answer: the hook event whose answer stops it,
   * and the fields that answer carries (the adapter renders them; a test keeps the two equal). Doctor's replay sends it.
   */
  handoffStop?: { event: string; answer: Record<string, unknown> };
}

export interface ToolRecord {
  name: ToolName;
  label: string;
  /** Repo-relative paths whose existence shows the tool is in use (a trailing / means a directory). */
  evidence: string[];
  intents: Intent[];
  /** The tool's agent shell takes our environment only from the user's shell profile (opt-in --shell-profile). */
  needsShellProfile?: boolean;
  /** What doctor needs to know about the tool. */
  doctor: DoctorFacts;
  /** What the user still has to do after applying, one sentence each. */
  nextSteps: string[];
}

import { GUARD_PATH } from './markers.ts';
export { GUARD_PATH, HOOK_MARKER } from './markers.ts';
export const HOOK_TIMEOUT_SECONDS = 10;

export { AGENT_ENV } from './env.ts';

export const GUARD_INTENT: Intent = { kind: 'owned', path: GUARD_PATH, asset: 'guard', mode: 0o755 };
