// The one gate to interactivity: prompts only when stdin and stdout are terminals and CI is unset.
import type { ToolName } from './tools/index.ts';

export function canPrompt(env: Record<string, string | undefined>, stdinIsTTY: boolean, stdoutIsTTY: boolean): boolean {
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI.toLowerCase() !== 'false';
  return stdinIsTTY && stdoutIsTTY && !ci;
}

/** Ctrl-C or Escape at any prompt: the whole run stops, nothing is written. */
export const CANCELLED = Symbol('cancelled');
export type Cancelled = typeof CANCELLED;

export interface Prompter {
  confirm(message: string): Promise<boolean | Cancelled>;
  chooseTools(): Promise<ToolName[] | Cancelled>;
}

/** The terminal prompter, loaded only when a prompt is actually shown (it is the heaviest part of start-up). */
export const lazyPrompter: Prompter = {
  async confirm(message) {
    return (await import('./prompt-clack.ts')).clackPrompter.confirm(message);
  },
  async chooseTools() {
    return (await import('./prompt-clack.ts')).clackPrompter.chooseTools();
  },
};
