// Cline's facts for the core, apart from the plugin so the hook file does not bundle the plugin.
import type { GuardToolFacts } from '../core/types.ts';

/** Cline 3.0.65 waits for every command of a run_commands call (its tool text says to background long ones). */
export const clineFacts: GuardToolFacts = { longRunsReturn: false, blockSaysThisCommand: false };

/** Cline's shell tool: one call carries a LIST of commands (`{commands: [..]}`; `{command}` is accepted too). */
export const CLINE_SHELL_TOOL = 'run_commands';

/** Tools whose completion changes the workspace: `editor` (edit, insert, create) and `apply_patch` (Cline 3.0.65's
 * list). */
export const CLINE_CHANGE_TOOLS: ReadonlySet<string> = new Set(['editor', 'apply_patch']);
