// The prompt of each rung: every rung changes a condition, and the prompt says which one. Model names never appear
// here (the smaller model is the recovery table's, passed as the tool's model option).
import type { Action } from './policy.ts';
import type { StepState } from './state.ts';

/** A bound on what a prompt quotes, so a huge verifier output cannot push the task out of an argv. */
const QUOTE_MAX = 4000;

function clip(text: string): string {
  return text.length > QUOTE_MAX ? `${text.slice(0, QUOTE_MAX)}\n…(cut)` : text;
}

export interface PromptInput {
  task: string;
  action: Action;
  state: StepState;
  /** The state file's path inside the repository (for the agent to read again). */
  triedPath: string;
  /** The text of the state file (approaches tried and rejected). */
  tried: string;
}

export function rungPrompt(p: PromptInput): string {
  const last = p.state.attempts[p.state.attempts.length - 1];
  const objection = last ? clip(last.error || `the verifier exited ${last.verifyExit}`) : '';
  if (p.action === 'retry-with-reason')
    return [
      p.task,
      '',
      'The verifier rejected the previous attempt with this objection:',
      '',
      objection,
      '',
      'Address that specific objection. Do not restate or repeat the previous approach.',
    ].join('\n');
  if (p.action === 'fresh-context')
    return [
      p.task,
      '',
      `Earlier sessions tried and were rejected; the state file ${p.triedPath} lists each approach with the error`,
      'that rejected it. Do not repeat any of them:',
      '',
      clip(p.tried),
    ].join('\n');
  if (p.action === 'smallest-step')
    return [
      p.task,
      '',
      'Reduce this task to the smallest change that could possibly work, state it in one sentence, then implement',
      `only that. What was tried and rejected is in ${p.triedPath}; do not repeat it:`,
      '',
      clip(p.tried),
    ].join('\n');
  return p.task;
}
