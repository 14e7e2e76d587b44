// The hang guard: refuses, before they run, commands that would wait for a person or never exit.
// Every rule errs towards allowing, because a wrong refusal costs the user more than a missed hang.

import { clip, MARKER, showCommand } from '../messages.ts';
import type { HangVerdict } from '../types.ts';
import { baseName, isDetached, splitCommands, type SimpleCommand } from '../shell/split.ts';
import { hasAny, resolveRunners } from './argv.ts';
import { editorFinding, initFinding, pagerFinding, variableFinding } from './editors.ts';
import { gitFinding } from './git.ts';
import { interactiveFinding } from './interactive.ts';
import { powershellFinding } from './powershell.ts';
import { scaffoldFinding } from './scaffold.ts';
import { longRunner, type LongRun } from './long-running.ts';
import { bodyLongRun, makeLongTarget, makeRecipe, packageScriptBody } from './scripts.ts';
import type { Finding, HangContext } from './types.ts';

export type { HangContext } from './types.ts';

/** Rule ids and what they refuse, for the README. */
export const HANG_RULES: ReadonlyArray<{ rule: string; summary: string }> = [
  {
    rule: 'editor',
    summary:
      'Interactive editors (vi, vim, nvim, nano, emacs without --batch, pico, micro, joe, …), ed/ex with ' +
      'no script on stdin, GUI editors told to wait (code --wait, subl -w), commands that open one ' +
      '(crontab -e, kubectl edit, visudo, systemctl edit, git config -e), `$EDITOR file`, editors ' +
      'started through `xargs` or `find -exec`, and Windows notepad, notepad++, wordpad.',
  },
  {
    rule: 'pager',
    summary:
      'less (without -F), more or most writing to the terminal, on their own or at the end of a pipe; `$PAGER file`; ' +
      'PowerShell Out-Host -Paging.',
  },
  {
    rule: 'git-commit-editor',
    summary:
      'git commit (and --amend) with no -m, -F, -C, --no-edit or --fixup=<commit>, or with -e/--edit, ' +
      'unless GIT_EDITOR or core.editor is set to a non-interactive command.',
  },
  { rule: 'git-tag-editor', summary: 'git tag -a/-s/-u without -m or -F.' },
  {
    rule: 'git-editor',
    summary:
      'git merge/pull/cherry-pick/revert -e (--edit), git notes add/append without -m or -F, git notes ' +
      'edit, git branch --edit-description (unless an editor setting is non-interactive).',
  },
  {
    rule: 'git-rebase-interactive',
    summary: 'git rebase -i/--interactive/--edit-todo, unless a sequence editor is given.',
  },
  {
    rule: 'git-interactive',
    summary:
      'git add -p/-i/-e, commit -p/--interactive, checkout/reset/restore -p, stash [push] -p, clean -i, am ' +
      '-i, mergetool, difftool.',
  },
  {
    rule: 'npm-init',
    summary: 'npm init / yarn init / bun init that would ask questions (no -y, no initializer, no answers on stdin).',
  },
  {
    rule: 'scaffolder',
    summary:
      'Project scaffolders without the options that make them ask nothing: npm create / npm init ' +
      '<initializer> / yarn, pnpm, bun create / npx create-*; known: create-vite (--template), ' +
      'create-next-app (--yes), create-astro (--yes), create-vue (--default), create-react-router, ' +
      'create-remix, create-expo-app (--yes), create-t3-app (--CI), create-hono, create-cloudflare, ' +
      'create-turbo, create-nuxt, create-playwright (--quiet); an unknown create-* only when given no ' +
      'arguments.',
  },
  {
    rule: 'repl',
    summary:
      'REPLs and database shells with nothing to run and nothing on stdin: python (or -i), node, ipython, ' +
      'deno, bun repl, ts-node, tsx, irb, pry, rails console, manage.py shell, artisan tinker, php -a, ' +
      'lua, julia, R, ghci, iex, erl, scala, clojure, swift, jshell, sbt, psql (no -c/-f), mysql (no -e, ' +
      'or -p asking a password), sqlite3 (no SQL), duckdb, mongosh, redis-cli, cqlsh, gdb/lldb without ' +
      'batch mode, pdb, bc, bare shells (also powershell/pwsh with nothing to run or -NoExit, cmd without /c).',
  },
  {
    rule: 'remote-shell',
    summary:
      'ssh host with no remote command, mosh, telnet, sftp/ftp without a batch, docker/podman run/exec -it ' +
      'with a shell or no command, docker attach, kubectl exec/run/attach -it with a shell, PowerShell ' +
      'Enter-PSSession.',
  },
  {
    rule: 'full-screen',
    summary:
      'top (without -b/-n), htop, btop, atop, glances, iotop, iftop, nethogs, ncdu, tig, lazygit, ' +
      'lazydocker, k9s, ranger, mc, nnn, fzf (without --filter), tmux/screen/zellij attaching, text ' +
      'browsers, mutt, dialog.',
  },
  {
    rule: 'manual',
    summary: 'man <page> and info <topic> on the terminal (not piped, no -P/MANPAGER), git help <command>.',
  },
  {
    rule: 'login',
    summary:
      'Interactive sign-ins: gh auth login (no --with-token), npm/pnpm/yarn login, docker login (no ' +
      '--password-stdin), az login, gcloud auth login / init, aws configure / sso login, firebase, vercel, ' +
      'netlify, heroku, wrangler, fly, railway, supabase, doctl, terraform, glab, huggingface-cli, cargo ' +
      'login, su, passwd.',
  },
  {
    rule: 'follow',
    summary:
      'tail -f/-F/--follow, journalctl -f, docker/podman/kubectl logs -f in the foreground; PowerShell ' +
      'Get-Content -Wait (gc, cat, type).',
  },
  { rule: 'watch', summary: 'watch <command> in the foreground.' },
  {
    rule: 'watch-mode',
    summary:
      'Watchers in the foreground: tsc/jest/vitest/webpack/… --watch, nodemon, tsx watch, node --watch, ' +
      'cargo watch, npm run watch.',
  },
  {
    rule: 'dev-server',
    summary:
      'Servers in the foreground: npm/pnpm/yarn/bun start and run dev|serve|preview, next dev, vite, ' +
      'webpack serve, *-dev-server, python -m http.server, php -S, rails s, flask run, uvicorn, docker ' +
      'compose up without -d, nc -l, ….',
  },
  {
    rule: 'endless',
    summary: 'ping without -c/-w in the foreground; PowerShell Wait-Event without -Timeout, ping -t.',
  },
  {
    rule: 'prompt',
    summary:
      'PowerShell and cmd prompts: Read-Host (also -AsSecureString), Get-Credential, pause, choice without /t ' +
      'and /d, $Host.UI.ReadLine()/ReadKey()/PromptFor…, [Console]::ReadLine()/ReadKey(), Out-GridView -Wait or ' +
      '-PassThru, Show-Command, Start-Process -Wait of an editor, a bare shell or -Verb RunAs.',
  },
];

/** null = fine to run; a verdict = refuse before running, with a message that gives the non-interactive form. */
export function checkHang(command: string, ctx: HangContext): HangVerdict | null {
  if (typeof command !== 'string' || command.trim() === '') return null;
  const ps = powershellFinding(command, ctx);
  if (ps) return { rule: ps.rule, message: render(command, null, ps.why) };
  const commands = splitCommands(command);
  // Assignments and exports earlier in the line are in effect for later commands, after what the tool itself sets.
  const lineEnv = new Map<string, string>(Object.entries(ctx.shellEnv ?? {}));
  const several = commands.filter((c) => c.argv.length > 0).length > 1;
  for (const cmd of commands) {
    // The rules only read it, so a command with no assignments of its own reads the line's.
    const env = cmd.env.size === 0 ? lineEnv : new Map([...lineEnv, ...cmd.env]);
    const found = checkOne(cmd, env, ctx);
    if (found) return { rule: found.rule, message: render(command, several ? joinArgs(cmd.argv) : null, found.why) };
    rememberEnv(cmd, lineEnv);
  }
  return null;
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
  'PAGER',
  'MANPAGER',
  'GIT_PAGER',
  'CI',
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

function checkOne(cmd: SimpleCommand, env: Map<string, string>, ctx: HangContext, depth = 0): Finding | null {
  if (cmd.argv.length === 0) return null;
  const argv = resolveRunners(cmd.argv);
  if (argv.length === 0) return null;
  const variable = variableFinding(argv[0]!, cmd, env);
  if (variable) return variable;
  const name = baseName(argv[0]!);
  const args = argv.slice(1);
  if (name === 'find' && depth < 4) {
    for (const inner of findExecs(args)) {
      const found = checkOne({ ...cmd, argv: inner }, env, ctx, depth + 1);
      if (found) return found;
    }
    return null;
  }

  const interactive =
    editorFinding(name, args, cmd, env) ??
    pagerFinding(name, args, cmd) ??
    (name === 'git' ? gitFinding(args, env, cmd) : null) ??
    initFinding(name, args, env, cmd.stdinRedirected) ??
    scaffoldFinding(cmd.argv, argv, cmd.stdinRedirected, env) ??
    interactiveFinding(name, args, cmd, env);
  if (interactive) return interactive;

  // Long-running commands are fine wherever the tool or the shell gives control back.
  if (ctx.background || ctx.longRunsReturn || isDetached(cmd)) return null;
  if (hasAny(args, ['--help', '-h', '--version'])) return null;
  const long = longRunner(name, args);
  const target = long ? undefined : makeLongTarget(name, args);
  if (!long && target === undefined) return null;
  // The rare path: a script or target named like a server is judged by what the project's file says it runs.
  let run = long;
  let via = '';
  const body = !ctx.files
    ? undefined
    : target !== undefined
      ? makeRecipe(target, ctx.files)
      : packageScriptBody(name, args, ctx.files);
  if (ctx.files && body !== undefined) {
    run = bodyLongRun(body, ctx.files, long);
    via = `its ${target !== undefined ? 'make target' : 'script'} runs \`${showCommand(body, 60)}\`, and `;
  }
  if (!run) return null;
  return {
    rule: run.rule,
    why: via + (run.hint ? `${run.why} ${backgroundHint(cmd.argv, ctx.backgroundOption, run.rule)}` : run.why),
  };
}

/** The commands `find … -exec cmd {} ;` (and -execdir, -ok, -okdir) runs. */
function findExecs(args: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let k = 0; k < args.length; k++) {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(args[k]!)) continue;
    const start = k + 1;
    while (k + 1 < args.length && args[k + 1] !== ';' && args[k + 1] !== '+') k++;
    if (k + 1 > start) out.push(args.slice(start, k + 1));
  }
  return out;
}

/** How to start the same command so that control comes back: with & (or the tool's own background option). */
function backgroundHint(argv: string[], backgroundOption: string | undefined, rule: LongRun['rule']): string {
  const viaTool = backgroundOption ? ` (or with ${backgroundOption})` : '';
  const check = rule === 'dev-server' ? 'reading the log or requesting its port' : 'reading the log';
  return (
    `To keep it running, it can be started in the background: \`nohup ${joinArgs(argv)} > ` +
    `/tmp/loop-guard-bg.log 2>&1 &\`${viaTool}, then checked by ${check}.`
  );
}
