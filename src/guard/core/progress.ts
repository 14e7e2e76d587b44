// Change is progress: the pieces of the change-aware rules that are not state (see detector.ts for how they count).

/**
 * Fingerprints the working tree now, leaving out `skip` (paths the command itself writes); undefined when it cannot
 * tell (no directory, git failed or timed out). Injected I/O.
 */
export type TreeLook = (skip: readonly string[]) => string | undefined;

// `> f`, `>> f`, `2> f`, `&> f` and `tee [-a] f`: files the command writes itself, which must not make its own rerun look like change.
const REDIRECT = /(?:^|[^<>&\d])(?:\d?>>?|&>>?)\s*(?!&)(['"]?)([^\s;&|<>()'"]+)\1/g;
const TEE = /\btee\s+(?:-[a-z]+\s+)*(['"]?)([^\s;&|<>()'"]+)\1/g;

/** The files a command writes by redirection or tee (relative as written, `./` dropped; /dev/* ignored). */
export function writtenPaths(command: string): string[] {
  if (!command.includes('>') && !command.includes('tee')) return [];
  const out: string[] = [];
  for (const re of [REDIRECT, TEE]) {
    re.lastIndex = 0;
    for (let m = re.exec(command); m; m = re.exec(command)) {
      const path = (m[2] ?? '').replace(/^\.\//, '');
      if (path && !path.startsWith('/dev/')) out.push(path);
    }
  }
  return out;
}

/** The same failure after this many runs, each after a change, earns one note (thrash); it is never refused. */
export const THRASH_RUNS = 5;

// Where a tool reports no exit code (Codex), a failure is read from the words a failing run prints.
const FAILED_WORDS = /\b(?:[1-9]\d* (?:failed|failing|errors?)|FAIL(?:ED)?|Error:|Traceback|panicked|npm ERR!)|✗|×/;

/** True when a result with no exit code reads as a failure. */
export function looksFailed(output: string): boolean {
  return FAILED_WORDS.test(output);
}
