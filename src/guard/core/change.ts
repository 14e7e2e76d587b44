// Change is progress: the pieces of the change-aware rules that are not state (see detector.ts for how they count).

/** Fingerprints the working tree now; undefined when it cannot tell (no directory, git failed or timed out). Injected I/O. */
export type TreeLook = () => string | undefined;

/** The same failure after this many runs, each after a change, earns one note (thrash); it is never refused. */
export const THRASH_RUNS = 5;

// Where a tool reports no exit code (Codex), a failure is read from the words a failing run prints.
const FAILED_WORDS = /\b(?:[1-9]\d* (?:failed|failing|errors?)|FAIL(?:ED)?|Error:|Traceback|panicked|npm ERR!)|✗|×/;

/** True when a result with no exit code reads as a failure. */
export function looksFailed(output: string): boolean {
  return FAILED_WORDS.test(output);
}
