// Prompts with @clack/prompts; imported on demand by prompt.ts.
import { cancel, confirm, isCancel, multiselect } from '@clack/prompts';
import { CANCELLED, type Prompter } from './types.ts';
import { TOOL_NAMES, TOOLS, type ToolName } from '../../tools/index.ts';

export const clackPrompter: Prompter = {
  async confirm(message, initial = true) {
    const answer = await confirm({ message, initialValue: initial });
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
