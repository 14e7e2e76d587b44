// What a prompt can answer; shared by the gate (index.ts) and the terminal prompter (clack.ts) without a cycle.
import type { ToolName } from '../../tools/index.ts';

/** Ctrl-C or Escape at any prompt: the whole run stops, nothing is written. */
export const CANCELLED = Symbol('cancelled');
export type Cancelled = typeof CANCELLED;

export interface Prompter {
  /** `initial`: the answer Enter gives (Yes unless said otherwise). */
  confirm(message: string, initial?: boolean): Promise<boolean | Cancelled>;
  chooseTools(): Promise<ToolName[] | Cancelled>;
}
