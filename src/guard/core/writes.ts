// A change made through the shell: commands that change state by what they are (a verb that writes, a program that
// writes, a redirect into a file). Between two identical results of another command, one of these is change.
import { baseName, splitCommands } from './shell/split.ts';
import { writtenPaths } from './progress.ts';

/** Subcommands that write: `bd close X`, `gh issue close`, `git commit`, `npm install`, `gt mail send`,
 * `kubectl apply`. */
const WRITE_VERBS = new Set(
  (
    'add append apply archive assign claim close commit complete create del delete deploy done drop edit init insert ' +
    'install kill link merge migrate mkdir move mv new publish push put rebase remove rename reopen reset resolve ' +
    'restart restore revert rm send set start stash stop tag touch uninstall unlink update upgrade upload write'
  ).split(' '),
);
/** Programs that write by what they are. */
const WRITE_PROGRAMS = new Set(
  'rm mv cp mkdir rmdir touch ln chmod chown truncate dd kill pkill killall install rsync unzip tar'.split(' '),
);
// A cheap first look: a command with none of these words (or no redirect) is split by nobody.
const NEEDLE = new RegExp(`\\b(?:${[...WRITE_VERBS, ...WRITE_PROGRAMS].join('|')})\\b|>|\\btee\\b`);

/**
 * True when the command changes state outside the agent's edit tools by what it is: `bd close X`, `bd dep remove a b`,
 * `git commit -m …`, `npm install`, `rm f`, `echo x > notes.md`. Read-only commands (`git status`, `ls`, `cat`,
 * `bd list`) are not. The verb is read only in the first three words (`bd dep remove`, `gt mail send`), so an argument
 * that happens to be a verb (`grep -r add src`) is not one.
 */
export function writesState(command: string): boolean {
  if (typeof command !== 'string') return false;
  // Asked for every result of a command (the audit asks again per stand-in): answers are kept, a bounded few, and
  // looked up before the cheap look, which costs more than the lookup.
  let writes = answers.get(command);
  if (writes === undefined) {
    if (answers.size >= MAX_ANSWERS) answers.clear();
    writes = commandWrites(command);
    answers.set(command, writes);
  }
  return writes;
}
const MAX_ANSWERS = 512;
const answers = new Map<string, boolean>();

/** writesState's answer, computed: a cheap look for the words, then the words and redirects of the command. */
export function commandWrites(command: string): boolean {
  if (!NEEDLE.test(command)) return false;
  if (writtenPaths(command).length > 0) return true;
  for (const cmd of splitCommands(command)) {
    const argv = cmd.argv;
    if (argv.length === 0) continue;
    if (WRITE_PROGRAMS.has(baseName(argv[0] as string))) return true;
    for (const word of argv.slice(1, 3)) {
      if (word.startsWith('-')) break;
      // `tmux kill-session`, `gh pr-merge`: the verb before a dash counts too.
      if (WRITE_VERBS.has(word) || WRITE_VERBS.has(word.split('-')[0] as string)) return true;
    }
  }
  return false;
}
