import { FAILURE_ADVICE as CLASS_ADVICE } from './classify.ts';
import type { FailureClass } from './types.ts';
import type { Unseen } from './unseen.ts';

/** Every message starts with this, so people and tests can find ours in any tool's wrapping. */
export const MARKER = 'loop-guard:';
/** Messages stay under this many characters, short enough that no tool truncates them and the model reads them
 * whole. */
export const MAX_MESSAGE_CHARS = 600;
const MAX_COMMAND_CHARS = 80;

/** One-line, length-capped rendering of a command for messages (cut on code points, so no half emoji). */
export function showCommand(command: string, max = MAX_COMMAND_CHARS): string {
  const flat = command.replace(/\s+/g, ' ').trim().replace(/`/g, "'");
  return flat.length <= max
    ? flat
    : `${Array.from(flat)
        .slice(0, max - 1)
        .join('')}…`;
}

// Factual wording on purpose: Claude's docs warn that imperative out-of-band text trips prompt-injection defences.
const GENERIC_ADVICE =
  'Running it unchanged gives the same answer again. The cause is in that output: the next step is a ' +
  'change to the code, the command or its environment, or a note to the user on what is failing and ' +
  'why.';

/**
 * The note on a long-running command the user asked for: it runs; the background form and a bounded readiness wait
 * (no `sleep N && cmd`, which Claude Code now blocks itself) are there if the agent needs the call back sooner.
 */
export function askedNote(command: string, backgroundOption?: string): string {
  const shown = showCommand(command, 60);
  const viaTool = backgroundOption ? ` (or ${backgroundOption})` : '';
  return clip(
    `${MARKER} \`${shown}\` runs because the user asked for it. It keeps running in the foreground, so ` +
      `this call returns when it exits or at the tool's time limit. Started in the background it returns ` +
      `at once: \`nohup ${shown} > /tmp/loop-guard-bg.log 2>&1 &\`${viaTool}; a bounded readiness wait ` +
      `then: \`timeout 60 sh -c 'tail -n +1 -f /tmp/loop-guard-bg.log | grep -m1 -iE ` +
      `"ready|listening|local"'\`.`,
  );
}

/** Keeps a message under MAX_MESSAGE_CHARS characters. */
export function clip(message: string): string {
  return message.length < MAX_MESSAGE_CHARS ? message : `${message.slice(0, MAX_MESSAGE_CHARS - 2)}…`;
}

export function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

/**
 * The last sentence of a warning: when refusing starts. `left` more repeats (each a `unit`, singular and plural) until
 * `later` is refused; none left, and `now` is.
 */
export function limitSentence(left: number, unit: [string, string], now: string, later: string): string {
  return left <= 0
    ? `${now} will not be run until the user writes again.`
    : `After ${left} more ${plural(left, ...unit)}, ${later} will not be run until the user writes again.`;
}

const MAX_PATH_CHARS = 140;

/** What a repeated result the agent could not see whole needs instead of another identical run. */
export function unseenAdvice(unseen: Unseen): string {
  if (unseen.kind === 'timeout') {
    return (
      'It was stopped at the timeout again; a longer timeout does not help a command that waits for input ' +
      'or never exits. It can run in the background with its output in a file (`cmd > run.log 2>&1 &`), ' +
      "then a bounded wait: `timeout 60 sh -c 'until grep -q ready run.log; do sleep 2; done'`."
    );
  }
  const narrow = unseen.savedTo
    ? `The full output is in ${showCommand(unseen.savedTo, MAX_PATH_CHARS)}: \`grep -n -iE 'error|fail'\` ` +
      `or \`tail -50\` on that file shows the part not seen.`
    : "Narrowing it to the failing lines (`2>&1 | grep -n -iE 'error|fail'`, or `| tail -50`) shows the part not seen.";
  return `That output was cut before it was shown, so the cause may be in the part not seen. ${narrow}`;
}

/** Warning after the n-th identical result of one command. */
export function repeatWarning(
  command: string,
  n: number,
  block: number,
  failure: FailureClass | null,
  unseen?: Unseen | null,
): string {
  const advice = unseen ? unseenAdvice(unseen) : failure ? CLASS_ADVICE[failure] : GENERIC_ADVICE;
  const next = limitSentence(
    block - n,
    ['identical result', 'identical results'],
    'The next identical attempt',
    'further attempts',
  );
  return clip(
    `${MARKER} \`${showCommand(command)}\` returned the same result ${n} ${plural(n, 'time', 'times')}` +
      ` in a row. ${advice} ${next}`,
  );
}

/** Reason for refusing a command whose last n results were identical. */
export function repeatBlock(command: string, n: number, failure: FailureClass | null, sayThisCommand = false): string {
  const subject = sayThisCommand ? 'This command' : `\`${showCommand(command)}\``;
  const advice = failure ? `${CLASS_ADVICE[failure]} ` : '';
  return clip(
    `${MARKER} ${subject} was not run: its last ${n} runs returned the identical result. ${advice}` +
      `Something has to change first (the code, the command or its environment), or the user needs to know ` +
      `what is failing. It can run again after a change or the user's next message.`,
  );
}

/** Warning when a short sequence of commands keeps repeating with the same results. */
export function cycleWarning(commands: string[], reps: number, block: number): string {
  const list = commands.map((c) => `\`${showCommand(c)}\``).join(' → ');
  const next = limitSentence(block - reps, ['round', 'rounds'], 'Continuing the cycle', 'continuing the cycle');
  return clip(
    `${MARKER} the sequence ${list} has repeated ${reps} times with the same results each time, so it is ` +
      `not making progress. ${next}`,
  );
}

/** Reason for refusing the next step of a cycle that has repeated `reps` times. */
export function cycleBlock(commands: string[], reps: number, sayThisCommand = false): string {
  const list = commands.map((c) => `\`${showCommand(c)}\``).join(' → ');
  const subject = sayThisCommand ? 'This command' : `\`${showCommand(commands[0] ?? '')}\``;
  return clip(
    `${MARKER} ${subject} was not run: the sequence ${list} has already repeated ${reps} times with ` +
      `identical results. A different approach is needed, or the user needs to know what is failing. It ` +
      `can run again after a change or the user's next message.`,
  );
}
