// The texts of the change-aware rules: the thrash note and the poll warning/refusal. Factual, under 600 characters.
import { clip, limitSentence, MARKER, showCommand } from './messages.ts';

/** The one note when the same failure came back after each of several changes. */
export function thrashNote(command: string, runs: number): string {
  return clip(
    `${MARKER} \`${showCommand(command)}\` returned the identical failure on its last ${runs} runs, each ` +
      `after a change to the files. The failure did not move with those edits, so its cause may be ` +
      `elsewhere: in another file, the test's setup or data, the environment, or the command itself. (A ` +
      `note, not a limit: runs after a change are never refused.)`,
  );
}

const POLL_ADVICE =
  'A blocking wait returns as soon as the thing is ready and ends the guessing: wait on the background ' +
  "job itself, or bound the wait, e.g. `timeout 60 sh -c 'until <check>; do sleep 2; done'`.";

/** Warning after the n-th identical result of a poll, with nothing changed in between. */
export function pollWarning(command: string, n: number, block: number): string {
  const next = limitSentence(
    block - n,
    ['identical result', 'identical results'],
    'The next identical poll',
    'further polls',
  );
  return clip(
    `${MARKER} the poll \`${showCommand(command)}\` returned the same result ${n} times in a row and ` +
      `nothing in the working tree changed. ${POLL_ADVICE} ${next}`,
  );
}

/** Reason for refusing a poll whose last n results were identical. */
export function pollBlock(command: string, n: number, sayThisCommand = false): string {
  const subject = sayThisCommand ? 'This poll' : `The poll \`${showCommand(command)}\``;
  return clip(
    `${MARKER} ${subject} was not run: its last ${n} results were identical and nothing changed in ` +
      `between, so what it waits for is not coming by itself. ${POLL_ADVICE} Or tell the user what it is ` +
      `waiting for. It can run again after a change or the user's next message.`,
  );
}

/** Warning when a cycle that includes a poll or a wait keeps returning the same results. */
export function pollCycleWarning(commands: string[], reps: number, block: number): string {
  const list = commands.map((c) => `\`${showCommand(c)}\``).join(' → ');
  const next = limitSentence(block - reps, ['round', 'rounds'], 'Continuing', 'continuing');
  return clip(
    `${MARKER} the polling sequence ${list} has repeated ${reps} times with the same results. ${POLL_ADVICE} ${next}`,
  );
}
