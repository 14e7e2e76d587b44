// The hang guard: refuses, before they run, commands that would wait for a person or never exit.
// Every rule errs towards allowing, because a wrong refusal costs the user more than a missed hang.

import { clip, MARKER, showCommand } from './messages.ts';
import type { HangVerdict, ToolName } from './types.ts';
import { baseName, isDetached, splitCommands, type SimpleCommand } from './shell.ts';

export interface HangContext {
  tool: ToolName;
  /** The call runs in the background (Claude run_in_background). */
  background: boolean;
}

/** Rule ids and what they refuse, for the README. */
export const HANG_RULES: ReadonlyArray<{ rule: string; summary: string }> = [
  {
    rule: 'editor',
    summary:
      'Interactive editors (vi, vim, nvim, nano, emacs without --batch, pico, micro, joe, …), ed/ex with no script on stdin, GUI editors told to wait (code --wait, subl -w), and commands that open one (crontab -e, kubectl edit, visudo, systemctl edit, git config -e).',
  },
  { rule: 'pager', summary: 'less, more or most writing to the terminal, on their own or at the end of a pipe.' },
  {
    rule: 'git-commit-editor',
    summary: 'git commit (and --amend) with no -m, -F, -C, --no-edit or --fixup=<commit>, or with -e/--edit, unless GIT_EDITOR or core.editor is set to a non-interactive command.',
  },
  { rule: 'git-tag-editor', summary: 'git tag -a/-s/-u without -m or -F.' },
  { rule: 'git-rebase-interactive', summary: 'git rebase -i/--interactive/--edit-todo, unless a sequence editor is given.' },
  {
    rule: 'git-interactive',
    summary: 'git add -p/-i/-e, commit -p/--interactive, checkout/reset/restore/stash -p, clean -i, mergetool, difftool.',
  },
  { rule: 'npm-init', summary: 'npm init / yarn init / bun init that would ask questions (no -y and no initializer).' },
  {
    rule: 'follow',
    summary: 'tail -f/-F/--follow, journalctl -f, docker/podman/kubectl logs -f in the foreground.',
  },
  { rule: 'watch', summary: 'watch <command> in the foreground.' },
  {
    rule: 'watch-mode',
    summary: 'Watchers in the foreground: tsc/jest/vitest/webpack/… --watch, nodemon, tsx watch, node --watch, cargo watch, npm run watch.',
  },
  {
    rule: 'dev-server',
    summary:
      'Servers in the foreground: npm/pnpm/yarn/bun run dev|serve, next dev, vite, webpack serve, *-dev-server, python -m http.server, php -S, rails s, flask run, uvicorn, docker compose up without -d, ….',
  },
];

/** null = fine to run; a verdict = refuse before running, with a message that gives the non-interactive form. */
export function checkHang(command: string, ctx: HangContext): HangVerdict | null {
  if (typeof command !== 'string' || command.trim() === '') return null;
  const commands = splitCommands(command);
  // Assignments and exports earlier in the line are in effect for later commands.
  const lineEnv = new Map<string, string>();
  const several = commands.filter((c) => c.argv.length > 0).length > 1;
  for (const cmd of commands) {
    const env = new Map([...lineEnv, ...cmd.env]);
    const found = checkOne(cmd, env, ctx);
    if (found) return { rule: found.rule, message: render(command, several ? joinArgs(cmd.argv) : null, found.why) };
    rememberEnv(cmd, lineEnv);
  }
  return null;
}

interface Finding {
  rule: string;
  why: string;
}

/** The variables any rule reads; only these are carried along the line, which keeps the work per command small. */
const RELEVANT_ENV = new Set([
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'VISUAL',
  'EDITOR',
  'KUBE_EDITOR',
  'SUDO_EDITOR',
  'SYSTEMD_EDITOR',
  'npm_config_yes',
]);

function rememberEnv(cmd: SimpleCommand, lineEnv: Map<string, string>): void {
  const pairs: Array<[string, string]> = [];
  if (cmd.argv.length === 0) pairs.push(...cmd.env);
  else if (cmd.argv[0] === 'export') {
    for (const a of cmd.argv.slice(1)) {
      const eq = a.indexOf('=');
      if (eq > 0) pairs.push([a.slice(0, eq), a.slice(eq + 1)]);
    }
  }
  for (const [k, v] of pairs) if (RELEVANT_ENV.has(k)) lineEnv.set(k, v);
}

function render(command: string, part: string | null, why: string): string {
  const where = part === null ? '' : ` because of \`${part}\``;
  return clip(`${MARKER} \`${showCommand(command)}\` was not run${where}: ${why}`);
}

/** Quote argv for display in a suggested command. */
function joinArgs(argv: readonly string[]): string {
  const text = argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
  return showCommand(text, 60);
}

// ---------------------------------------------------------------------------------------------
// One simple command.

function checkOne(cmd: SimpleCommand, env: Map<string, string>, ctx: HangContext): Finding | null {
  if (cmd.argv.length === 0) return null;
  const argv = resolveRunners(cmd.argv);
  if (argv.length === 0) return null;
  const name = baseName(argv[0]!);
  const args = argv.slice(1);

  const interactive =
    editorFinding(name, args, cmd, env) ??
    pagerFinding(name, args, cmd) ??
    (name === 'git' ? gitFinding(args, env) : null) ??
    initFinding(name, args, env);
  if (interactive) return interactive;

  // Long-running commands are fine wherever the tool or the shell gives control back.
  if (ctx.background || ctx.tool === 'codex' || isDetached(cmd)) return null;
  if (hasAny(args, ['--help', '-h', '--version'])) return null;
  const long = longRunner(name, args);
  if (!long) return null;
  return { rule: long.rule, why: long.hint ? `${long.why} ${backgroundHint(cmd.argv, ctx.tool, long.rule)}` : long.why };
}

/** How to start the same command so that control comes back: with & (or the tool's own background option). */
function backgroundHint(argv: string[], tool: ToolName, rule: LongRun['rule']): string {
  const viaTool = tool === 'claude' ? " (or with the Bash tool's run_in_background)" : '';
  const check = rule === 'dev-server' ? 'reading the log or requesting its port' : 'reading the log';
  return `To keep it running, it can be started in the background: \`nohup ${joinArgs(argv)} > /tmp/loop-guard-bg.log 2>&1 &\`${viaTool}, then checked by ${check}.`;
}

// ---------------------------------------------------------------------------------------------
// Runners that start another program: look through them to the program itself.

const VALUE_OPTS_NPX = new Set(['-p', '--package', '-c', '--call', '-w', '--workspace']);
const VALUE_OPTS_UV = new Set([
  '--with',
  '--with-requirements',
  '--with-editable',
  '--python',
  '-p',
  '--project',
  '--directory',
  '--package',
  '--env-file',
  '--extra',
  '--group',
  '--index',
  '--from',
]);
const PYTHON = /^python(?:\d+(?:\.\d+)?)?$/;

/** Strip npx, pnpm exec, uv run, bundle exec, python -m … so the rules see the program that runs. */
function resolveRunners(argv: string[]): string[] {
  let a = argv;
  for (let guard = 0; guard < 8; guard++) {
    const next = stripRunner(a);
    if (next === null || next === a || next.length === 0) return next ?? a;
    a = next;
  }
  return a;
}

function stripRunner(argv: string[]): string[] | null {
  const name = baseName(argv[0] ?? '');
  const sub = argv[1];
  switch (name) {
    case 'npx':
    case 'bunx':
    case 'pnpx':
      return withoutVersion(afterOptions(argv, 1, VALUE_OPTS_NPX));
    case 'npm':
      return sub === 'exec' || sub === 'x' ? withoutVersion(afterOptions(argv, 2, VALUE_OPTS_NPX)) : null;
    case 'pnpm':
    case 'yarn':
      return sub === 'exec' || sub === 'dlx' ? withoutVersion(afterOptions(argv, 2, VALUE_OPTS_NPX)) : null;
    case 'bun':
      return sub === 'x' ? withoutVersion(afterOptions(argv, 2, VALUE_OPTS_NPX)) : null;
    case 'uvx':
      return afterOptions(argv, 1, VALUE_OPTS_UV);
    case 'uv':
    case 'poetry':
    case 'pipenv':
    case 'pdm':
    case 'hatch':
    case 'rye':
      return sub === 'run' ? afterOptions(argv, 2, VALUE_OPTS_UV) : null;
    case 'bundle':
      return sub === 'exec' ? afterOptions(argv, 2, new Set()) : null;
    case 'cross-env': {
      let k = 1;
      while (k < argv.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[k]!)) k++;
      return argv.slice(k);
    }
    default:
      break;
  }
  if (PYTHON.test(name)) {
    for (let k = 1; k < argv.length; k++) {
      const a = argv[k]!;
      if (a === '-m') return argv.slice(k + 1);
      if (a === '-X' || a === '-W') k++;
      else if (!a.startsWith('-')) return baseName(a) === 'manage.py' ? argv.slice(k) : null;
      else if (a === '-c') return null;
    }
  }
  return null;
}

/** The words after a runner's own options, starting at index `from`. */
function afterOptions(argv: string[], from: number, valueOpts: ReadonlySet<string>): string[] {
  let k = from;
  while (k < argv.length) {
    const a = argv[k]!;
    if (a === '--') return argv.slice(k + 1);
    if (!a.startsWith('-')) break;
    k += valueOpts.has(a) ? 2 : 1;
  }
  return argv.slice(k);
}

/** `vite@5` → `vite`, `@scope/pkg@1` → `@scope/pkg`, so versioned package names still match. */
function withoutVersion(argv: string[]): string[] {
  const first = argv[0];
  if (first === undefined) return argv;
  const at = first.indexOf('@', 1);
  return at === -1 ? argv : [first.slice(0, at), ...argv.slice(1)];
}

// ---------------------------------------------------------------------------------------------
// Small argument helpers.

/** Arguments before a `--` end-of-options marker. */
function optionPart(args: readonly string[]): readonly string[] {
  const end = args.indexOf('--');
  return end === -1 ? args : args.slice(0, end);
}

function hasAny(args: readonly string[], flags: readonly string[]): boolean {
  return optionPart(args).some((a) => flags.includes(a));
}

/** True if a long option is present as `--name` or `--name=…` (but not `--name=false`). */
function hasLong(args: readonly string[], name: string): boolean {
  return optionPart(args).some(
    (a) => a === name || (a.startsWith(name + '=') && a.slice(name.length + 1) !== 'false'),
  );
}

/** True if a single-dash cluster like `-fn` contains `letter` before any letter that takes a value. */
function inCluster(args: readonly string[], letter: string, valueLetters = ''): boolean {
  for (const a of optionPart(args)) {
    if (a.length < 2 || a[0] !== '-' || a[1] === '-' || !/^-[A-Za-z0-9]+$/.test(a)) continue;
    for (const ch of a.slice(1)) {
      if (ch === letter) return true;
      if (valueLetters.includes(ch)) break;
    }
  }
  return false;
}

/** Positional words, skipping the values of the given options. */
function positionals(args: readonly string[], valueOpts: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    if (a === '--') {
      out.push(...args.slice(k + 1));
      break;
    }
    if (a.startsWith('-') && a !== '-') {
      if (valueOpts.has(a)) k++;
      continue;
    }
    out.push(a);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Editors.

const TERMINAL_EDITORS = new Set([
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

const EDIT_ALTERNATIVE =
  "Files can be changed with the file-editing tool, or from the shell with `sed -i`, `perl -pi -e` or a heredoc (`cat > file <<'EOF'`).";

function editorFinding(name: string, args: string[], cmd: SimpleCommand, env = cmd.env): Finding | null {
  const waits = WAIT_FLAGS[name];
  if (waits) {
    if (!hasAny(args, waits)) return null;
    return {
      rule: 'editor',
      why: `${name} was told to wait, so the command stays open until someone closes the editor window. Without that flag it returns at once. ${EDIT_ALTERNATIVE}`,
    };
  }
  if (name === 'ed' || name === 'ex') {
    if (cmd.stdinRedirected || hasAny(args, ['--version', '--help', '-V', '-h'])) return null;
    if (name === 'ex' && vimRunsUnattended(name, args)) return null;
    return {
      rule: 'editor',
      why: `${name} reads its editing commands from the keyboard. Given a script on stdin it runs unattended, e.g. \`printf '%s\\n' ',s/old/new/g' w q | ${name} -s file\`; the file-editing tool works too.`,
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
    why: `${name} is an interactive editor and waits for keystrokes that nobody in this session can type. ${EDIT_ALTERNATIVE.slice(0, -1)}${batch}.`,
  };
}

/** Commands that open $EDITOR on something and wait for it: crontab -e, kubectl edit, visudo, … */
function launcherFinding(name: string, args: string[], env: Map<string, string>): Finding | null {
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
    instead = 'A drop-in file can be written directly under /etc/systemd/system/<unit>.d/, followed by `systemctl daemon-reload`.';
    envVars = ['SYSTEMD_EDITOR', ...envVars];
  }
  if (instead === null) return null;
  const chosen = firstSet(envVars.map((v) => env.get(v)));
  if (chosen !== undefined && !editorWaits(chosen)) return null;
  return { rule: 'editor', why: `this opens a text editor and waits until someone saves and closes it. ${instead}` };
}

/** True if this editor setting (GIT_EDITOR, core.editor, …) would itself wait for a person. */
function editorWaits(value: string): boolean {
  const first = splitCommands(value)[0];
  if (!first || first.argv.length === 0) return false;
  const name = baseName(first.argv[0]!);
  return editorFinding(name, first.argv.slice(1), first) !== null;
}

// ---------------------------------------------------------------------------------------------
// Pagers.

const PAGERS = new Set(['less', 'more', 'most']);

function pagerFinding(name: string, args: string[], cmd: SimpleCommand): Finding | null {
  if (!PAGERS.has(name)) return null;
  // With output going to a pipe or a file, these pagers copy their input through and exit.
  if (cmd.pipedOut || cmd.stdoutToFile) return null;
  if (hasAny(args, ['--version', '-V', '--help'])) return null;
  return {
    rule: 'pager',
    why: `${name} is a pager: on a terminal it waits for keys to scroll and to quit. Output can be read without one: \`cat file\`, \`head -n 100 file\`, or \`… | head -n 100\` at the end of a pipe (for git, \`git --no-pager …\`).`,
  };
}

// ---------------------------------------------------------------------------------------------
// git.

const GIT_GLOBAL_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env']);

function gitFinding(args: string[], env: Map<string, string>): Finding | null {
  // Global options come before the subcommand: git -C dir -c k=v --no-pager commit …
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
  const sub = args[k];
  const rest = args.slice(k + 1);
  if (sub === undefined || hasAny(rest, ['-h', '--help'])) return null;

  const commitEditor = firstSet([env.get('GIT_EDITOR'), config.get('core.editor'), env.get('VISUAL'), env.get('EDITOR')]);
  const editorIsSet = commitEditor !== undefined && !editorWaits(commitEditor);

  switch (sub) {
    case 'commit':
      return gitCommit(rest, editorIsSet);
    case 'tag':
      return gitTag(rest, editorIsSet);
    case 'rebase': {
      const interactive =
        hasAny(rest, ['--interactive', '--edit-todo']) || inCluster(rest, 'i', 'sXxC');
      if (!interactive) return null;
      const seq = firstSet([env.get('GIT_SEQUENCE_EDITOR'), config.get('sequence.editor'), commitEditor]);
      if (seq !== undefined && !editorWaits(seq)) return null;
      return {
        rule: 'git-rebase-interactive',
        why: 'an interactive rebase opens its todo list in an editor and waits for it to be saved. Without -i the rebase runs unattended (`git rebase main`); fixup! commits can be folded in without an editor with `GIT_SEQUENCE_EDITOR=true git rebase -i --autosquash main`.',
      };
    }
    case 'add':
      if (hasAny(rest, ['--patch', '--interactive', '--edit']) || ['p', 'i', 'e'].some((l) => inCluster(rest, l))) {
        return gitInteractive(
          'git add -p/-i/-e asks about each change and waits for answers typed at the keyboard.',
          'Files can be staged by path (`git add src/file.ts`), or a prepared patch staged with `git apply --cached change.patch`.',
        );
      }
      return null;
    case 'checkout':
    case 'restore':
    case 'reset':
    case 'stash':
      if (!hasAny(rest, ['-p', '--patch'])) return null;
      return gitInteractive(
        `git ${sub} -p walks through each hunk and waits for an answer to every one.`,
        sub === 'stash'
          ? 'Whole files can be stashed with `git stash push -- <path>`.'
          : sub === 'reset'
            ? 'Whole files can be unstaged with `git restore --staged <path>`.'
            : 'Whole files can be restored with `git restore <path>`, and a prepared patch reverted with `git apply -R change.patch`.',
      );
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
        why: 'git config --edit opens the config file in an editor and waits for it to be closed. Single settings can be changed with `git config <key> <value>`.',
      };
    case 'mergetool':
    case 'difftool':
      if (hasAny(rest, ['--tool-help']) || (sub === 'difftool' && (hasAny(rest, ['-x']) || hasLong(rest, '--extcmd')))) {
        return null;
      }
      return gitInteractive(
        `git ${sub} launches a merge/diff program and prompts before each file.`,
        '`git diff` prints the changes as text; conflicts can be resolved by editing the files and running `git add`.',
      );
    default:
      return null;
  }
}

function firstSet(values: Array<string | undefined>): string | undefined {
  return values.find((v) => v !== undefined && v.trim() !== '');
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
    why: 'without a message on the command line git commit opens an editor and waits for someone to write one and close it. The message can be passed inline, `git commit -m "subject" -m "body"`, or from a file with `-F msg.txt`; `git commit --amend --no-edit` keeps the previous message.',
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
      else if (['--contains', '--no-contains', '--points-at', '--merged', '--no-merged', '--sort', '--format', '--cleanup'].includes(opt) && !inline) k++;
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
    why: 'an annotated or signed tag without -m opens an editor for the tag message and waits. Giving the message inline creates it without one: `git tag -a v1.2.3 -m "Release 1.2.3"` (or `-F notes.txt`).',
  };
}

// ---------------------------------------------------------------------------------------------
// Package initialisers that ask questions.

const NPM_VALUE_OPTS = new Set([
  '--prefix',
  '-w',
  '--workspace',
  '--scope',
  '--registry',
  '--userconfig',
  '--cache',
  '--loglevel',
  '--init-author-name',
  '--init-author-email',
  '--init-author-url',
  '--init-license',
  '--init-version',
  '--init-module',
  '--cwd',
  '--filter',
  '-F',
  '-C',
  '--dir',
]);

function initFinding(name: string, args: string[], env: Map<string, string>): Finding | null {
  if (name !== 'npm' && name !== 'yarn' && name !== 'bun') return null;
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
    why: `${name} init asks a series of questions and waits for the answers. \`${name} init -y\` writes the defaults without asking; fields can be changed afterwards (\`npm pkg set name=…\` or by editing package.json).`,
  };
}

// ---------------------------------------------------------------------------------------------
// Commands that keep running: followers, watchers, servers.

interface LongRun {
  rule: 'follow' | 'watch' | 'watch-mode' | 'dev-server';
  why: string;
  /** Whether starting it in the background is the advice (not for followers, watch, or compose's own -d). */
  hint: boolean;
}

const SERVER_WHY = 'a server keeps running until it is stopped, so this call would not return.';
const WATCH_WHY = 'watch mode keeps running and rebuilds on every change, so this call would not return. A single run without the watch flag reports once and exits.';
const FOLLOW_WHY =
  'following a log waits for new lines and never exits on its own. The same command without -f/--follow prints what is there now and returns; to wait for one line, a time limit bounds it: `timeout 60 tail -f app.log | grep -m1 ready`.';

const server = (): LongRun => ({ rule: 'dev-server', why: SERVER_WHY, hint: true });
const watcher = (): LongRun => ({ rule: 'watch-mode', why: WATCH_WHY, hint: true });
const follower = (): LongRun => ({ rule: 'follow', why: FOLLOW_WHY, hint: false });

/** Package-script names that by convention start a server or a watcher. */
const LONG_SCRIPTS = new Map<string, LongRun['rule']>([
  ['dev', 'dev-server'],
  ['develop', 'dev-server'],
  ['serve', 'dev-server'],
  ['start:dev', 'dev-server'],
  ['dev:server', 'dev-server'],
  ['storybook', 'dev-server'],
  ['watch', 'watch-mode'],
  ['test:watch', 'watch-mode'],
]);

/** Subcommands of each package manager that are not script names. */
const PM_BUILTINS: Record<string, ReadonlySet<string>> = {
  npm: new Set(), // npm only runs scripts through run/run-script/test/start
  pnpm: new Set(
    'add i install update up upgrade remove rm uninstall un link ln unlink import rebuild rb prune fetch patch patch-commit audit list ls outdated why exec dlx create init publish pack store env setup config c root bin licenses deploy doctor server help install-test it'.split(
      ' ',
    ),
  ),
  yarn: new Set(
    'add install remove upgrade up info init create dlx exec run workspace workspaces why config cache pack publish bin link unlink set plugin npm version node constraints help global upgrade-interactive dedupe rebuild explain patch patch-commit stage search tag team owner login logout audit list licenses outdated import generate-lock-entry check autoclean policy'.split(
      ' ',
    ),
  ),
  bun: new Set(
    'run test x add a install i remove rm update link unlink pm build init create c upgrade repl exec outdated publish patch audit info why help'.split(
      ' ',
    ),
  ),
};

/** For npm/pnpm/yarn/bun: the script being run and the words after it, or null. */
function packageScript(name: string, args: string[]): { script: string; rest: string[] } | null {
  const builtins = PM_BUILTINS[name];
  if (!builtins) return null;
  let pos = 0;
  const at = (): number => {
    // Index of the next positional word, skipping options and their values.
    while (pos < args.length) {
      const a = args[pos]!;
      if (!a.startsWith('-') || a === '-') return pos;
      pos += NPM_VALUE_OPTS.has(a) ? 2 : 1;
    }
    return -1;
  };
  let k = at();
  if (k === -1) return null;
  let word = args[k]!;
  if (name === 'yarn' && word === 'workspace') {
    pos = k + 2;
    k = at();
    if (k === -1) return null;
    word = args[k]!;
  }
  if (word === 'run' || word === 'run-script' || word === 'rum' || word === 'urn') {
    pos = k + 1;
    k = at();
    if (k === -1) return null;
    return { script: args[k]!, rest: args.slice(k + 1) };
  }
  if (word === 'test' || word === 't' || word === 'tst' || word === 'start') return { script: word, rest: args.slice(k + 1) };
  if (name === 'npm' || builtins.has(word)) return null;
  return { script: word, rest: args.slice(k + 1) };
}

function wantsWatch(args: readonly string[]): boolean {
  return args.some(
    (a) =>
      a === '--watch' ||
      a === '--watchAll' ||
      a === '--watch=true' ||
      a === '--watchAll=true',
  );
}

/** Tools whose --watch (and, where listed, -w) flag means watch mode. */
const WATCH_TOOLS: Record<string, boolean> = {
  tsc: true,
  jest: false,
  vitest: true,
  mocha: true,
  webpack: true,
  rollup: true,
  babel: true,
  tsup: false,
  esbuild: false,
  tailwindcss: true,
  sass: false,
  rspack: true,
  ava: true,
  ng: false,
  vite: true,
  nest: true,
  swc: true,
  postcss: true,
  tsdown: true,
  rolldown: true,
};

const FOLLOW_TOOLS = new Set(['docker', 'podman', 'kubectl', 'oc', 'docker-compose', 'podman-compose']);

function longRunner(name: string, args: string[]): LongRun | null {
  if (name === 'bun' && hasAny(args, ['--watch', '--hot'])) return watcher();
  // Package scripts: npm run dev, pnpm dev, yarn workspace web dev, bun run watch, …
  const script = packageScript(name, args);
  if (script) {
    const rule = LONG_SCRIPTS.get(script.script);
    if (rule) return rule === 'dev-server' ? server() : watcher();
    if (wantsWatch(script.rest)) return watcher();
    // pnpm/yarn/bun also run a package binary by name: pnpm vite, yarn tsc -w.
    if (name !== 'npm' && !['test', 't', 'tst', 'start'].includes(script.script)) {
      return longRunner(baseName(script.script), script.rest);
    }
    return null;
  }
  if (name === 'deno') {
    const pos = positionals(args);
    if (pos[0] === 'task' && pos[1] !== undefined && LONG_SCRIPTS.has(pos[1])) {
      return LONG_SCRIPTS.get(pos[1]) === 'dev-server' ? server() : watcher();
    }
    if (pos[0] === 'serve') return server();
    return hasLong(args, '--watch') ? watcher() : null;
  }
  if (name === 'turbo' || name === 'nx') {
    const pos = positionals(args);
    const task = pos[0] === 'run' ? pos[1] : pos[0];
    if (task !== undefined && (LONG_SCRIPTS.has(task) || (name === 'nx' && task === 'serve'))) return server();
    return null;
  }

  switch (name) {
    case 'tail':
      return hasLong(args, '--follow') || inCluster(args, 'f', 'ncs') || inCluster(args, 'F', 'ncs')
        ? follower()
        : null;
    case 'journalctl':
      return hasLong(args, '--follow') || inCluster(args, 'f', 'unptSUoDMgIi')
        ? follower()
        : null;
    case 'watch': {
      const pos = positionals(args, new Set(['-n', '--interval', '-q', '--equexit']));
      if (pos.length === 0) return null;
      return {
        rule: 'watch',
        why: 'watch reruns its command until someone presses Ctrl-C, so this call would not return. Running the command once shows its current state; a bounded loop polls a few times: `for i in 1 2 3 4 5; do <command>; sleep 2; done`.',
        hint: false,
      };
    }
    case 'nodemon':
    case 'ts-node-dev':
    case 'tsnd':
    case 'node-dev':
      return watcher();
    case 'node':
      return args.some((a) => a === '--watch' || a.startsWith('--watch-path')) ? watcher() : null;
    case 'bun':
      return hasAny(args, ['--watch', '--hot']) ? watcher() : null;
    case 'tsx':
      return positionals(args)[0] === 'watch' || hasAny(args, ['--watch']) ? watcher() : null;
    case 'cargo':
      return positionals(args)[0] === 'watch' ? watcher() : null;
    case 'ptw':
    case 'pytest-watch':
      return watcher();
  }
  if (FOLLOW_TOOLS.has(name)) return containerFinding(name, args);

  const watchShort = WATCH_TOOLS[name];
  if (watchShort !== undefined) {
    if (hasLong(args, '--watch') || hasLong(args, '--watchAll') || (watchShort && hasAny(args, ['-w']))) {
      return watcher();
    }
    if (name === 'vitest') {
      const first = positionals(args)[0];
      if (first === 'watch' || first === 'dev') return watcher();
    }
  }

  const pos = positionals(args, SERVER_VALUE_OPTS);
  const first = pos[0];
  switch (name) {
    case 'next':
      return first === 'dev' || first === 'start' ? server() : null;
    case 'nuxt':
    case 'nuxi':
    case 'astro':
      return first === 'dev' || first === 'preview' ? server() : null;
    case 'remix':
    case 'react-router':
    case 'wrangler':
    case 'vercel':
    case 'netlify':
    case 'storybook':
    case 'fastapi':
      return first === 'dev' || (name === 'fastapi' && first === 'run') ? server() : null;
    case 'vite':
      // Bare vite (or vite <root>) starts the dev server; build and optimize are one-shot.
      if (hasAny(args, ['-v'])) return null;
      return first === undefined || !['build', 'optimize'].includes(first) ? server() : null;
    case 'parcel':
      return first === 'watch' ? watcher() : first === 'build' ? null : server();
    case 'webpack':
    case 'rspack':
      return first === 'serve' || first === 'server' ? server() : null;
    case 'ng':
      return first === 'serve' || first === 's' ? server() : null;
    case 'vue-cli-service':
      return first === 'serve' ? server() : null;
    case 'gatsby':
      return first === 'develop' || first === 'serve' ? server() : null;
    case 'ember':
      return first === 'serve' || first === 's' || first === 'server' ? server() : null;
    case 'expo':
    case 'react-native':
      return first === 'start' ? server() : null;
    case 'firebase':
      return first === 'serve' || first === 'emulators:start' ? server() : null;
    case 'http.server':
    case 'SimpleHTTPServer':
    case 'http-server':
    case 'live-server':
    case 'serve':
    case 'uvicorn':
    case 'gunicorn':
    case 'hypercorn':
    case 'daphne':
    case 'waitress-serve':
    case 'start-storybook':
    case 'jupyter-lab':
    case 'jupyter-notebook':
      return server();
    case 'flask':
      return first === 'run' ? server() : null;
    case 'manage.py':
    case 'django-admin':
      return first === 'runserver' || first === 'runserver_plus' ? server() : null;
    case 'rails':
      return (first === 's' || first === 'server') && !hasAny(args, ['-d', '--daemon']) ? server() : null;
    case 'php':
      return hasAny(args, ['-S']) || (first === 'artisan' && pos[1] === 'serve') ? server() : null;
    case 'hugo':
    case 'jekyll':
    case 'mkdocs':
    case 'zola':
    case 'mdbook':
    case 'trunk':
      return first === 'server' || first === 'serve' || (name === 'jekyll' && first === 's') ? server() : null;
    case 'jupyter':
      return first === 'notebook' || first === 'lab' || first === 'server' ? server() : null;
    case 'streamlit':
      return first === 'run' ? server() : null;
  }
  if (name.endsWith('-dev-server')) return server();
  return null;
}

/** Options of the server CLIs above that take a value, so the value is not taken for a subcommand. */
const SERVER_VALUE_OPTS = new Set([
  '--port',
  '-p',
  '--host',
  '-H',
  '--config',
  '-c',
  '--mode',
  '-m',
  '--base',
  '--logLevel',
  '-l',
  '--root',
  '--dir',
  '--cwd',
  '--app',
  '-A',
  '-b',
  '--bind',
  '-e',
  '--environment',
]);

function containerFinding(name: string, args: string[]): LongRun | null {
  const pos = positionals(args, new Set(['-f', '--file', '-p', '--project-name', '-n', '--namespace', '-c', '--context', '--container', '-H', '--host']));
  const logs = pos.includes('logs');
  if (logs) {
    // -f here means --follow (docker compose -f <file> before `logs` is skipped above as a value).
    const afterLogs = args.slice(args.indexOf('logs') + 1);
    if (hasLong(afterLogs, '--follow') || inCluster(afterLogs, 'f', 'ncl')) return follower();
    return null;
  }
  if (name === 'kubectl' || name === 'oc') {
    return pos[0] === 'port-forward' ? { rule: 'dev-server', why: 'a port-forward stays open until it is stopped, so this call would not return.', hint: true }
      : null;
  }
  const isCompose = name.endsWith('-compose') || pos[0] === 'compose';
  const upAt = isCompose ? args.indexOf('up') : -1;
  if (upAt === -1) return null;
  const upArgs = args.slice(upAt + 1);
  if (
    hasAny(upArgs, ['-d', '--detach', '--wait', '--no-start', '--dry-run', '--abort-on-container-exit']) ||
    hasLong(upArgs, '--exit-code-from') ||
    hasLong(upArgs, '--detach')
  ) {
    return null;
  }
  return {
    rule: 'dev-server',
    why: '`compose up` without -d stays attached to the containers and does not return while they run. `docker compose up -d` starts them and returns; `docker compose logs --tail 100` shows their output.',
    hint: false,
  };
}
