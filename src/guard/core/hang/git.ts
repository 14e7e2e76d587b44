// git subcommands that open an editor or ask interactively.
import { editorWaits } from './editors.ts';
import { firstSet, hasAny, hasLong, inCluster, positionals } from './argv.ts';
import type { Finding } from './types.ts';

/** Where git's output goes and which pager variables are set, for `git help`. */
export interface GitOutput {
  pipedOut: boolean;
  stdoutToFile: boolean;
}

// ---------------------------------------------------------------------------------------------
// git.

const GIT_GLOBAL_VALUE = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--super-prefix',
  '--config-env',
]);

export function gitFinding(
  args: string[],
  env: Map<string, string>,
  out: GitOutput = { pipedOut: false, stdoutToFile: false },
): Finding | null {
  const { config, k } = gitGlobals(args);
  const sub = args[k];
  const rest = args.slice(k + 1);
  if (sub === undefined || hasAny(rest, ['-h', '--help'])) return null;

  const commitEditor = firstSet([
    env.get('GIT_EDITOR'),
    config.get('core.editor'),
    env.get('VISUAL'),
    env.get('EDITOR'),
  ]);
  const editorIsSet = commitEditor !== undefined && !editorWaits(commitEditor);

  switch (sub) {
    case 'commit':
      return gitCommit(rest, editorIsSet);
    case 'tag':
      return gitTag(rest, editorIsSet);
    case 'rebase':
      return gitRebase(rest, firstSet([env.get('GIT_SEQUENCE_EDITOR'), config.get('sequence.editor'), commitEditor]));
    case 'add':
      if (hasAny(rest, ['--patch', '--interactive', '--edit']) || ['p', 'i', 'e'].some((l) => inCluster(rest, l))) {
        return gitInteractive(
          'git add -p/-i/-e asks about each change and waits for answers typed at the keyboard.',
          'Files can be staged by path (`git add src/file.ts`), or a prepared patch staged with `git apply ' +
            '--cached change.patch`.',
        );
      }
      return null;
    case 'checkout':
    case 'restore':
    case 'reset':
    case 'stash':
      return gitPatch(sub, rest);
    case 'clean':
      if (!hasAny(rest, ['--interactive']) && !inCluster(rest, 'i', 'e')) return null;
      return gitInteractive(
        'git clean -i shows a menu and waits for choices.',
        '`git clean -n` lists what would be removed and `git clean -f <paths>` removes it.',
      );
    case 'config':
      if (!hasAny(rest, ['-e', '--edit']) || editorIsSet) return null;
      return {
        rule: 'editor',
        why:
          'git config --edit opens the config file in an editor and waits for it to be closed. Single settings ' +
          'can be changed with `git config <key> <value>`.',
      };
    case 'mergetool':
    case 'difftool':
      if (
        hasAny(rest, ['--tool-help']) ||
        (sub === 'difftool' && (hasAny(rest, ['-x']) || hasLong(rest, '--extcmd')))
      ) {
        return null;
      }
      return gitInteractive(
        `git ${sub} launches a merge/diff program and prompts before each file.`,
        '`git diff` prints the changes as text; conflicts can be resolved by editing the files and running `git add`.',
      );
    case 'merge':
    case 'pull':
    case 'cherry-pick':
    case 'revert':
      if (editorIsSet) return null;
      return gitEditMessage(sub, rest);
    case 'notes':
      return gitNotes(rest, editorIsSet);
    case 'am':
      if (!hasAny(rest, ['-i', '--interactive'])) return null;
      return gitInteractive(
        'git am -i asks about each patch and waits for an answer.',
        'Without -i the patches are applied in order: `git am 0001-fix.patch`.',
      );
    case 'branch':
      if (!hasAny(rest, ['--edit-description']) || editorIsSet) return null;
      return gitEditor(
        'git branch --edit-description opens an editor and waits.',
        'The description can be set directly: `git config branch.<name>.description "…"`.',
      );
    case 'help':
      return gitHelp(rest, env, out);
    default:
      return null;
  }
}

/** Global options come before the subcommand: git -C dir -c k=v --no-pager commit … (`k`: the subcommand's index). */
function gitGlobals(args: string[]): { config: Map<string, string>; k: number } {
  const config = new Map<string, string>();
  let k = 0;
  for (; k < args.length; k++) {
    const a = args[k]!;
    if (!a.startsWith('-')) break;
    if (a === '-c') {
      const kv = args[k + 1] ?? '';
      const eq = kv.indexOf('=');
      config.set((eq === -1 ? kv : kv.slice(0, eq)).toLowerCase(), eq === -1 ? 'true' : kv.slice(eq + 1));
    }
    if (GIT_GLOBAL_VALUE.has(a)) k++;
  }
  return { config, k };
}

/** `git rebase -i`, unless the sequence editor `seq` returns at once. */
function gitRebase(rest: string[], seq: string | undefined): Finding | null {
  const interactive = hasAny(rest, ['--interactive', '--edit-todo']) || inCluster(rest, 'i', 'sXxC');
  if (!interactive) return null;
  if (seq !== undefined && !editorWaits(seq)) return null;
  return {
    rule: 'git-rebase-interactive',
    why:
      'an interactive rebase opens its todo list in an editor and waits for it to be saved. Without -i the ' +
      'rebase runs unattended (`git rebase main`); fixup! commits can be folded in without an editor with ' +
      '`GIT_SEQUENCE_EDITOR=true git rebase -i --autosquash main`.',
  };
}

/** `git checkout/restore/reset/stash -p`, which asks about each hunk. */
function gitPatch(sub: string, rest: string[]): Finding | null {
  if (!hasAny(rest, ['-p', '--patch'])) return null;
  // Only `git stash [push|save] -p` asks; `git stash show -p` prints a diff.
  if (sub === 'stash' && !['push', 'save', undefined].includes(positionals(rest, new Set(['-m', '--message']))[0]))
    return null;
  return gitInteractive(
    `git ${sub} -p walks through each hunk and waits for an answer to every one.`,
    sub === 'stash'
      ? 'Whole files can be stashed with `git stash push -- <path>`.'
      : sub === 'reset'
        ? 'Whole files can be unstaged with `git restore --staged <path>`.'
        : 'Whole files can be restored with `git restore <path>`, and a prepared patch reverted with `git apply -R change.patch`.',
  );
}

/** `git merge/pull/cherry-pick/revert --edit` (the last of --edit and --no-edit decides), with no editor set. */
function gitEditMessage(sub: string, rest: string[]): Finding | null {
  if (lastOf(rest, ['-e', '--edit'], ['--no-edit']) !== true) return null;
  return gitEditor(
    `git ${sub} --edit opens the ${sub === 'revert' || sub === 'cherry-pick' ? 'commit' : 'merge'}` +
      ` message in an editor and waits for it to be saved and closed.`,
    sub === 'merge' || sub === 'pull'
      ? `Without -e/--edit git ${sub} writes its own message (\`--no-edit\`), and \`-m "…"\` gives one inline.`
      : `Without -e/--edit git ${sub} keeps the original message; \`git commit --amend -m "…"\` changes it afterwards.`,
  );
}

/** True/false by the last of the `on`/`off` flags given, undefined when none is. */
function lastOf(args: readonly string[], on: readonly string[], off: readonly string[]): boolean | undefined {
  let v: boolean | undefined;
  for (const a of args) {
    if (a === '--') break;
    if (on.includes(a)) v = true;
    else if (off.includes(a)) v = false;
  }
  return v;
}

function gitEditor(what: string, instead: string): Finding {
  return { rule: 'git-editor', why: `${what} ${instead}` };
}

const NOTES_VALUE = new Set([
  '--ref',
  '-m',
  '--message',
  '-F',
  '--file',
  '-C',
  '--reuse-message',
  '-c',
  '--reedit-message',
]);

function gitNotes(args: string[], editorIsSet: boolean): Finding | null {
  const pos = positionals(args, NOTES_VALUE);
  const action = pos[0];
  if (editorIsSet || (action !== 'add' && action !== 'append' && action !== 'edit')) return null;
  const opts = args.slice(args.indexOf(action) + 1);
  const given = (o: string) =>
    opts.some((a) => a === o || a.startsWith(`${o}=`) || (o.length === 2 && a.startsWith(o) && a.length > 2));
  if (
    action !== 'edit' &&
    ['-m', '--message', '-F', '--file', '-C', '--reuse-message'].some(given) &&
    !['-c', '--reedit-message', '-e', '--edit'].some(given)
  )
    return null;
  return gitEditor(
    `git notes ${action} without -m or -F opens an editor for the note and waits.`,
    'The note can be given inline: `git notes add -m "…" <commit>` (or `-F note.txt`).',
  );
}

function gitHelp(args: string[], env: Map<string, string>, out: GitOutput): Finding | null {
  if (out.pipedOut || out.stdoutToFile || env.has('MANPAGER') || env.has('PAGER')) return null;
  // -w opens a browser and returns; -a, -g, -c, -u print lists.
  if (
    hasAny(args, [
      '-w',
      '--web',
      '-a',
      '--all',
      '-g',
      '--guides',
      '-c',
      '--config',
      '-u',
      '--user-interfaces',
      '--developer-interfaces',
    ])
  )
    return null;
  const word = positionals(args)[0];
  if (word === undefined) return null;
  const page = /^[\w.-]{1,40}$/.test(word) ? word : '<command>';
  return {
    rule: 'manual',
    why:
      `git help opens the manual page in a pager that waits for keys to scroll and quit. \`git ${page}` +
      ` -h\` prints its options and returns; \`git help ${page} | cat\` (or \`man -P cat git-${page}\`) ` +
      `prints the whole page.`,
  };
}

function gitInteractive(what: string, instead: string): Finding {
  return { rule: 'git-interactive', why: `${what} ${instead}` };
}

const COMMIT_VALUE_LONG = new Set([
  '--author',
  '--date',
  '--cleanup',
  '--trailer',
  '--pathspec-from-file',
  '--reedit-message',
  '--template',
  '--squash',
]);

function gitCommit(args: string[], editorIsSet: boolean): Finding | null {
  let message = false;
  let edit: boolean | undefined;
  let patch = false;
  let dryRun = false;
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    if (a === '--') break;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const opt = eq === -1 ? a : a.slice(0, eq);
      const takeValue = (): string => (eq === -1 ? (args[++k] ?? '') : a.slice(eq + 1));
      if (opt === '--message' || opt === '--file' || opt === '--reuse-message') {
        takeValue();
        message = true;
      } else if (opt === '--fixup') {
        // --fixup=<commit> reuses a message; --fixup=amend:/reword: open the editor (git builtin/commit.c).
        if (!/^[A-Za-z]+:/.test(takeValue())) message = true;
      } else if (COMMIT_VALUE_LONG.has(opt)) {
        takeValue();
      } else if (opt === '--edit') edit = true;
      else if (opt === '--no-edit') edit = false;
      else if (opt === '--patch' || opt === '--interactive') patch = true;
      else if (opt === '--dry-run' || opt === '--short' || opt === '--porcelain' || opt === '--long') dryRun = true;
      continue;
    }
    if (a.length < 2 || a[0] !== '-') continue;
    // Short-option cluster such as -am 'msg' or -avm'msg'.
    for (let j = 1; j < a.length; j++) {
      const ch = a[j]!;
      const attached = j + 1 < a.length;
      if (ch === 'm' || ch === 'F' || ch === 'C') {
        message = true;
        if (!attached) k++;
        break;
      }
      if (ch === 'c' || ch === 't') {
        if (!attached) k++;
        break;
      }
      if (ch === 'S' || ch === 'u') break;
      if (ch === 'e') edit = true;
      else if (ch === 'p') patch = true;
    }
  }
  if (patch) {
    return gitInteractive(
      'git commit -p/--interactive asks about each change and waits for answers typed at the keyboard.',
      'Files can be staged by path first (`git add <path>`), then committed with `git commit -m "…"`.',
    );
  }
  if (dryRun || editorIsSet) return null;
  const opensEditor = edit ?? !message;
  if (!opensEditor) return null;
  return {
    rule: 'git-commit-editor',
    why:
      'without a message on the command line git commit opens an editor and waits for someone to write one ' +
      'and close it. The message can be passed inline, `git commit -m "subject" -m "body"`, or from a file ' +
      'with `-F msg.txt`; `git commit --amend --no-edit` keeps the previous message.',
  };
}

function gitTag(args: string[], editorIsSet: boolean): Finding | null {
  let annotated = false;
  let message = false;
  let edit = false;
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    if (a === '--') break;
    if (a.startsWith('--')) {
      const opt = a.split('=', 1)[0]!;
      const inline = a.includes('=');
      if (opt === '--annotate' || opt === '--sign') annotated = true;
      else if (opt === '--local-user') {
        annotated = true;
        if (!inline) k++;
      } else if (opt === '--message' || opt === '--file') {
        message = true;
        if (!inline) k++;
      } else if (opt === '--edit') edit = true;
      else if (opt === '--no-edit') edit = false;
      else if (['--delete', '--list', '--verify'].includes(opt)) return null;
      else if (
        [
          '--contains',
          '--no-contains',
          '--points-at',
          '--merged',
          '--no-merged',
          '--sort',
          '--format',
          '--cleanup',
        ].includes(opt) &&
        !inline
      )
        k++;
      continue;
    }
    if (a.length < 2 || a[0] !== '-') continue;
    for (let j = 1; j < a.length; j++) {
      const ch = a[j]!;
      const attached = j + 1 < a.length;
      if (ch === 'd' || ch === 'l' || ch === 'v') return null;
      if (ch === 'a' || ch === 's') annotated = true;
      else if (ch === 'e') edit = true;
      else if (ch === 'u' || ch === 'm' || ch === 'F') {
        if (ch === 'u') annotated = true;
        else message = true;
        if (!attached) k++;
        break;
      } else if (ch === 'n') break;
    }
  }
  if (editorIsSet) return null;
  if (!(annotated && !message) && !(edit && (annotated || message))) return null;
  return {
    rule: 'git-tag-editor',
    why:
      'an annotated or signed tag without -m opens an editor for the tag message and waits. Giving the ' +
      'message inline creates it without one: `git tag -a v1.2.3 -m "Release 1.2.3"` (or `-F notes.txt`).',
  };
}
