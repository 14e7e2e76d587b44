// The one result model of `doctor`: groups of checks, each ✓ or ✗ with the fix for a ✗.
import type { ToolName } from '../tools/index.ts';

export interface Check {
  /** Stable id, `<group>.<what>`, e.g. `claude.replay`. */
  id: string;
  ok: boolean;
  /** What was found, one or two sentences. */
  message: string;
  /** For a ✗: exactly what to do. */
  fix?: string;
  /** Something doctor cannot verify, only remind of: shown with •, never counted as a passed check. */
  info?: true;
  /** A ✗ no repository file can fix: one step left on this machine (trust a folder, export a variable). Listed with
   * its command; exit 0 unless --strict. Set by settle() in verdict.ts. */
  step?: true;
  /** The id of the failed check that explains this one (e.g. the missing guard file): shown once, as that one. */
  cause?: string;
}

/** `repo` holds what every tool shares (manifest, guard file, AGENTS.md); the rest are the tools. */
export type GroupName = 'repo' | ToolName;

export interface Group {
  name: GroupName;
  label: string;
  checks: Check[];
}

export type Env = Record<string, string>;

export function pass(id: string, message: string): Check {
  return { id, ok: true, message };
}

export function note(id: string, message: string): Check {
  return { id, ok: true, message, info: true };
}

export function fail(id: string, message: string, fix: string): Check {
  return { id, ok: false, message, fix };
}

/** The command to suggest when a file of ours is missing or stale. */
export const RERUN = 'npx create-loop-guard --yes';
