// OpenCode's facts for the core, apart from the plugin so the hook file does not bundle the plugin.
import type { GuardToolFacts } from '../core/types.ts';

/** OpenCode waits for every foreground command. */
export const opencodeFacts: GuardToolFacts = { longRunsReturn: false, blockSaysThisCommand: false };
