// What the splitter finds: one simple command, and the small questions asked of it.

/** One simple command (a program and its arguments) found in a command line. */
export interface SimpleCommand {
  /** Words after quote removal, with leading assignments, reserved words and wrappers removed. May be empty. */
  argv: string[];
  /** True if this simple command is backgrounded with a trailing & (directly, or as part of a list/group). */
  background: boolean;
  /** Wrapper programs stripped from the front, in order, e.g. ['sudo', 'timeout', 'nohup']. */
  wrappers: string[];
  /** Leading NAME=value assignments (including those given to `env`), in effect for this command. */
  env: Map<string, string>;
  /** Standard output goes to a file (`> f`, `>> f`, `&> f`, `>& f`, `> /dev/null`). */
  stdoutToFile: boolean;
  /** Standard output feeds a pipe or is captured by a substitution. */
  pipedOut: boolean;
  /** Standard input comes from a pipe, a file, a heredoc or a here-string. */
  stdinRedirected: boolean;
  /** A later `disown` in the same line detaches this (backgrounded) command from the shell. */
  disowned: boolean;
  /** Found inside $(…), `…`, <(…) or a `sh -c '…'` string rather than in the top-level list. */
  nested: boolean;
}

/** Wrappers that detach a command or bound its run time, so a long-running command under them returns. */
const DETACHING_WRAPPERS = new Set(['nohup', 'setsid', 'timeout']);

/** True when this command will not hold the shell forever: backgrounded, disowned, or under nohup/setsid/timeout. */
export function isDetached(cmd: SimpleCommand): boolean {
  return cmd.background || cmd.disowned || cmd.wrappers.some((w) => DETACHING_WRAPPERS.has(w));
}

/** Last path component, so `/usr/bin/sudo` is recognised as `sudo`. */
export function baseName(word: string): string {
  const slash = word.lastIndexOf('/');
  return slash === -1 ? word : word.slice(slash + 1);
}
