// Commands that wait for a person: editors, pagers, and package initialisers that ask questions.
import { type SimpleCommand, baseName, splitCommands } from '../shell/split.ts';
import { firstSet, hasAny, hasLong, inCluster, NPM_VALUE_OPTS, positionals } from './argv.ts';
import type { Finding } from './types.ts';

// ---------------------------------------------------------------------------------------------
// Editors.

export const TERMINAL_EDITORS = new Set([
  'vi',
  'vim',
  'nvim',
  'vimdiff',
  'nano',
  'pico',
  'emacs',
  'micro',
  'joe',
  'jed',
  'mcedit',
  'kak',
  'hx',
  'ne',
  'emacsclient',
  'vipw',
  'vigr',
]);

/** GUI editors return at once unless told to wait; these flags make them wait for the window to close. */
const WAIT_FLAGS: Record<string, readonly string[]> = {
  code: ['--wait', '-w'],
  'code-insiders': ['--wait', '-w'],
  codium: ['--wait', '-w'],
  cursor: ['--wait', '-w'],
  windsurf: ['--wait', '-w'],
  subl: ['--wait', '-w'],
  mate: ['--wait', '-w'],
  zed: ['--wait', '-w'],
  atom: ['--wait', '-w'],
  kate: ['--block', '-b'],
  gvim: ['--nofork', '-f'],
  mvim: ['--nofork', '-f'],
};

// A vim command that ends the session, so `vim -c '%s/a/b/' -c wq file` runs unattended.
const VIM_QUIT = /(?:^|[\s|:])(?:w?q(?:a(?:ll)?)?|x(?:a(?:ll)?)?|wqa(?:ll)?|quit(?:all)?|exit)!?\s*$/;

function vimRunsUnattended(name: string, args: readonly string[]): boolean {
  if (hasAny(args, ['--version', '--help', '-h', '--headless', '-es', '-Es'])) return true;
  // nvim -l runs a Lua script and exits; in vim, -l is lisp mode and -s (outside ex) reads keys from a file.
  if (name === 'nvim' && hasAny(args, ['-l'])) return true;
  const isEx = name === 'ex';
  if (!isEx && hasAny(args, ['-s'])) return true;
  const cmds: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    if (a === '-c' || a === '--cmd') cmds.push(args[k + 1] ?? '');
    else if (a.startsWith('+') && a.length > 1) cmds.push(a.slice(1));
  }
  return cmds.some((c) => VIM_QUIT.test(c));
}

export const EDIT_ALTERNATIVE =
  'Files can be changed with the file-editing tool, or from the shell with `sed -i`, `perl -pi -e` or ' +
  "a heredoc (`cat > file <<'EOF'`).";

export function editorFinding(name: string, args: string[], cmd: SimpleCommand, env = cmd.env): Finding | null {
  const waits = WAIT_FLAGS[name];
  if (waits) {
    if (!hasAny(args, waits)) return null;
    return {
      rule: 'editor',
      why:
        `${name} was told to wait, so the command stays open until someone closes the editor window. Without ` +
        `that flag it returns at once. ${EDIT_ALTERNATIVE}`,
    };
  }
  if (name === 'ed' || name === 'ex') {
    if (cmd.stdinRedirected || hasAny(args, ['--version', '--help', '-V', '-h'])) return null;
    if (name === 'ex' && vimRunsUnattended(name, args)) return null;
    return {
      rule: 'editor',
      why:
        `${name} reads its editing commands from the keyboard. Given a script on stdin it runs unattended, ` +
        `e.g. \`printf '%s\\n' ',s/old/new/g' w q | ${name} -s file\`; the file-editing tool works too.`,
    };
  }
  if (!TERMINAL_EDITORS.has(name)) return launcherFinding(name, args, env);
  if (hasAny(args, ['--version', '-version', '--help', '-help', '-h'])) return null;
  if ((name === 'vi' || name === 'vim' || name === 'nvim' || name === 'vimdiff') && vimRunsUnattended(name, args)) {
    return null;
  }
  if (name === 'nano' && hasAny(args, ['-V'])) return null;
  if (name === 'emacs' && hasAny(args, ['--batch', '-batch', '--script', '-script', '--daemon', '--bg-daemon'])) {
    return null;
  }
  if (name === 'emacsclient' && hasAny(args, ['-n', '--no-wait', '-e', '--eval'])) return null;
  const batch = name === 'emacs' ? ' (`emacs --batch` also runs without a screen)' : '';
  return {
    rule: 'editor',
    why:
      `${name} is an interactive editor and waits for keystrokes that nobody in this session can type. ` +
      `${EDIT_ALTERNATIVE.slice(0, -1)}${batch}.`,
  };
}

/** Commands that open $EDITOR on something and wait for it: crontab -e, kubectl edit, visudo, … */
export function launcherFinding(name: string, args: string[], env: Map<string, string>): Finding | null {
  let instead: string | null = null;
  let envVars = ['VISUAL', 'EDITOR'];
  const sub = positionals(args)[0];
  if (name === 'crontab' && inCluster(args, 'e', 'u')) {
    instead = 'The table can be changed without one: `crontab -l > cron.txt`, edit the file, then `crontab cron.txt`.';
  } else if ((name === 'kubectl' || name === 'oc') && sub === 'edit') {
    instead = 'Objects can be changed without one with `kubectl patch …` or `kubectl apply -f file.yaml`.';
    envVars = ['KUBE_EDITOR', ...envVars];
  } else if (name === 'sudoedit' || (name === 'visudo' && !hasAny(args, ['-c', '--check']))) {
    instead = 'A file written separately can be checked with `visudo -c -f file` and installed with `sudo install`.';
    envVars = ['SUDO_EDITOR', ...envVars];
  } else if (name === 'systemctl' && sub === 'edit' && !hasAny(args, ['--stdin'])) {
    instead =
      'A drop-in file can be written directly under /etc/systemd/system/<unit>.d/, followed by `systemctl daemon-reload`.';
    envVars = ['SYSTEMD_EDITOR', ...envVars];
  }
  if (instead === null) return null;
  const chosen = firstSet(envVars.map((v) => env.get(v)));
  if (chosen !== undefined && !editorWaits(chosen)) return null;
  return { rule: 'editor', why: `this opens a text editor and waits until someone saves and closes it. ${instead}` };
}

/** True if this editor setting (GIT_EDITOR, core.editor, …) would itself wait for a person. */
export function editorWaits(value: string): boolean {
  const first = splitCommands(value)[0];
  if (!first || first.argv.length === 0) return false;
  const name = baseName(first.argv[0]!);
  return editorFinding(name, first.argv.slice(1), first) !== null;
}

// ---------------------------------------------------------------------------------------------
// Pagers.

const PAGERS = new Set(['less', 'more', 'most']);

export function pagerFinding(name: string, args: string[], cmd: SimpleCommand): Finding | null {
  if (!PAGERS.has(name)) return null;
  // With output going to a pipe or a file, these pagers copy their input through and exit.
  if (cmd.pipedOut || cmd.stdoutToFile) return null;
  if (hasAny(args, ['--version', '-V', '--help'])) return null;
  // less -F (--quit-if-one-screen) prints a short file and exits.
  if (name === 'less' && (hasLong(args, '--quit-if-one-screen') || inCluster(args, 'F', 'bhjkoOpPtTxyz#'))) return null;
  return {
    rule: 'pager',
    why:
      `${name} is a pager: on a terminal it waits for keys to scroll and to quit. Output can be read ` +
      `without one: \`cat file\`, \`head -n 100 file\`, or \`… | head -n 100\` at the end of a pipe (for ` +
      `git, \`git --no-pager …\`).`,
  };
}

// ---------------------------------------------------------------------------------------------
// Package initialisers that ask questions.

export function initFinding(
  name: string,
  args: string[],
  env: Map<string, string>,
  stdinRedirected = false,
): Finding | null {
  // With answers coming from a pipe or a file (`yes "" | npm init`) nothing waits for the keyboard.
  if ((name !== 'npm' && name !== 'yarn' && name !== 'bun') || stdinRedirected) return null;
  const pos = positionals(args, NPM_VALUE_OPTS);
  if (pos[0] !== 'init') return null;
  if (hasAny(args, ['-y', '--yes', '--help', '-h'])) return null;
  if (name === 'npm') {
    // An initializer (npm init vite@latest) is its own program; only bare npm init is known to ask.
    if (pos.length > 1 || hasAny(args, ['-f', '--force']) || /^(1|true)$/i.test(env.get('npm_config_yes') ?? '')) {
      return null;
    }
  }
  // bun init's other flags (--react, --minimal, …) pick a template and skip the questions.
  if (name === 'bun' && args.some((a) => a.startsWith('-'))) return null;
  return {
    rule: 'npm-init',
    why:
      `${name} init asks a series of questions and waits for the answers. \`${name} init -y\` writes the ` +
      `defaults without asking; fields can be changed afterwards (\`npm pkg set name=…\` or by editing ` +
      `package.json).`,
  };
}

// ---------------------------------------------------------------------------------------------
// The user's editor or pager through a variable: $EDITOR file, ${VISUAL:-vi} file, $PAGER file.

const VAR_PROGRAM = /^\$\{?(VISUAL|EDITOR|GIT_EDITOR|SUDO_EDITOR|KUBE_EDITOR|PAGER|MANPAGER|GIT_PAGER)(?=[}:]|$)/;

export function variableFinding(word: string, cmd: SimpleCommand, env: Map<string, string>): Finding | null {
  if (word[0] !== '$') return null;
  const m = VAR_PROGRAM.exec(word);
  if (!m) return null;
  const variable = m[1]!;
  const value = env.get(variable);
  if (variable.endsWith('PAGER')) {
    if (cmd.pipedOut || cmd.stdoutToFile || (value !== undefined && !/^(?:less|more|most)\b/.test(value))) return null;
    return {
      rule: 'pager',
      why:
        `$${variable} is the user's pager, which waits on a terminal for keys to scroll and quit. \`cat ` +
        `file\` or \`head -n 100 file\` prints without one.`,
    };
  }
  if (value !== undefined && !editorWaits(value)) return null;
  return {
    rule: 'editor',
    why: `$${variable} starts the user's text editor, which waits for someone to save and close it. ${EDIT_ALTERNATIVE}`,
  };
}
