// Shapes shared by the hang rules.
import type { GuardToolFacts } from '../types.ts';

/** What the rules know about the call: whether it already runs in the background, and the calling tool's facts. */
export type HangContext = Pick<GuardToolFacts, 'longRunsReturn' | 'backgroundOption'> & {
  /** The call runs in the background (Claude run_in_background). */
  background: boolean;
};

/** One rule's reason to refuse a simple command. */
export interface Finding {
  rule: string;
  why: string;
}
