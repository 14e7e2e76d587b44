// The one gate to interactivity: prompts only when stdin and stdout are terminals and CI is unset.
import type { Prompter } from './types.ts';

export { CANCELLED, type Cancelled, type Prompter } from './types.ts';

export function canPrompt(env: Record<string, string | undefined>, stdinIsTTY: boolean, stdoutIsTTY: boolean): boolean {
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI.toLowerCase() !== 'false';
  return stdinIsTTY && stdoutIsTTY && !ci;
}

/** The terminal prompter, loaded only when a prompt is actually shown (it is the heaviest part of start-up). */
export const lazyPrompter: Prompter = {
  async confirm(message, initial) {
    return (await import('./clack.ts')).clackPrompter.confirm(message, initial);
  },
  async chooseTools() {
    return (await import('./clack.ts')).clackPrompter.chooseTools();
  },
};
