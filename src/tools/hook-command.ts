// The shape of every installed hook command: run the guard only when its file is there, and answer "no opinion"
// (exit 0, no output) otherwise, so a clone without the file or a deleted file never breaks an agent's session.

/**
 * `test -f <file> && node <file> <tool> || true`: POSIX sh, bash, zsh and fish (3.0+) all read it. Exit 0 with an empty
 * stdout is "no opinion" in every tool we set up (Claude Code shows any other non-zero exit as a hook error, Copilot
 * CLI denies the command on one, Cursor lets it through but logs a failure). The guard itself always exits 0.
 * `file` is the shell word for the guard file, already quoted as the tool's shell needs.
 */
export function guardCommand(file: string, tool: string): string {
  return `test -f ${file} && node ${file} ${tool} || true`;
}

/** The command inside our fail-open shape (`node <file> <tool>`), or the command as it is: doctor runs the inner one,
 *  so a node that is missing or a guard that crashes still shows instead of the `|| true` that hides it from agents. */
export function innerGuardCommand(command: string): string {
  const m = /^test -f (\S+|"[^"]*"\S*) && (.+) \|\| true$/.exec(command);
  return m ? (m[2] as string) : command;
}
