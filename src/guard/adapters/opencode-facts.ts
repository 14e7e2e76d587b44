// OpenCode's facts for the core, apart from the plugin so the hook file does not bundle the plugin.
import type { GuardToolFacts } from '../core/types.ts';

/** OpenCode waits for every foreground command. */
export const opencodeFacts: GuardToolFacts = { longRunsReturn: false, blockSaysThisCommand: false };

/**
 * Tools whose completion changes the workspace: edit/write (most models), apply_patch (gpt- models; captured), patch
 * and multiedit (other releases), task (a sub-agent that finished).
 */
export const OPENCODE_CHANGE_TOOLS: ReadonlySet<string> = new Set([
  'edit',
  'write',
  'patch',
  'apply_patch',
  'multiedit',
  'task',
]);
