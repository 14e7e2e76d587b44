// The one gate to interactivity: prompts only when stdin and stdout are terminals and CI is unset.
import { cancel, confirm, isCancel, multiselect } from '@clack/prompts';
import { TOOL_NAMES, TOOLS, type ToolName } from './tools/index.ts';

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

export const clackPrompter: Prompter = {
  async confirm(message) {
    const answer = await confirm({ message, initialValue: true });
    if (isCancel(answer)) {
      cancel('Cancelled.');
      return CANCELLED;
    }
    return answer;
  },
  async chooseTools() {
    const answer = await multiselect({
      message: 'No agent tool config found here. Which tools do you use in this repository?',
      options: TOOL_NAMES.map((t) => ({ value: t, label: TOOLS[t].label })),
      required: false,
    });
    if (isCancel(answer)) {
      cancel('Cancelled.');
      return CANCELLED;
    }
    return answer as ToolName[];
  },
};
