// Programs that wait for a person, as one table with a row per program; each row says when it asks nothing. The rows
// live by family (repls.ts, full-screen.ts, manuals.ts, sign-ins.ts, remote-shells.ts); the table judges the program
// a container runs (innerWaits), since it holds the REPL rows.
import type { SimpleCommand } from '../shell/split.ts';
import { baseName } from '../shell/split.ts';
import { hasAny, HELP, inCluster, once, optionPart, positionals, startsAny } from './argv.ts';
import {
  always,
  bare,
  debuggerRow,
  django,
  mongosh,
  mysql,
  node,
  php,
  psql,
  python,
  rails,
  redis,
  repl,
  shell,
  SHELL_ONLY,
  sqlite3,
} from './repls.ts';
import { PS, screenRow, TMUX_OK } from './full-screen.ts';
import { info, man } from './manuals.ts';
import { cargoLogin, passwd, SIGN_INS, signIn, su } from './sign-ins.ts';
import { docker, kubectl, remote, sftp, ssh, telnetLike } from './remote-shells.ts';
import type { Finding, Row } from './types.ts';
// ---------------------------------------------------------------------------------------------
// A program a container runs.

/** With a terminal attached, a shell or REPL with no script waits; a command that finishes does not. */
function innerWaits(inner: readonly string[]): boolean {
  if (inner.length === 0) return true;
  const name = baseName(inner[0]!);
  const rest = inner.slice(1);
  if (['sh', 'bash', 'zsh', 'ash', 'dash', 'fish'].includes(name))
    return rest.length === 0 || rest.every((a) => SHELL_ONLY().has(a));
  const row = REPL_NAMES().has(name) ? rowFor(name) : undefined;
  return row !== undefined && row(rest, NO_STDIN, new Map()) !== null;
}

const NO_STDIN: SimpleCommand = {
  argv: [],
  background: false,
  wrappers: [],
  env: new Map(),
  stdoutToFile: false,
  pipedOut: false,
  stdinRedirected: false,
  disowned: false,
  nested: false,
};

// ---------------------------------------------------------------------------------------------
// The table.

const PY_INSTEAD = 'A script runs and exits: `python3 script.py`, or `python3 -c "…"`.';

function build(): Map<string, Row> {
  const t = new Map<string, Row>();
  const set = (names: string, row: Row): void => {
    for (const n of names.split(' ')) t.set(n, row);
  };
  set('node nodejs', node);
  set(
    'ipython',
    bare(
      'ipython without a script',
      'A script or inline code runs and exits: `ipython -c "…"` or `python3 script.py`.',
      ['-c', '-m'],
    ),
  );
  set('bpython ptpython', bare('this Python shell', PY_INSTEAD));
  set(
    'pdb ipdb',
    always(
      'the Python debugger',
      'The script runs unattended with `python3 script.py`; breakpoints can be replaced by logging.',
    ),
  );
  set(
    'ts-node',
    bare(
      'ts-node without a script',
      'A script or inline code runs and exits: `ts-node script.ts` or `ts-node -e "…"`.',
      ['-e', '--eval', '-p', '--print'],
      ['-r', '--require', '-P', '--project', '-O', '--compiler-options'],
    ),
  );
  set('tsx', (args) =>
    args.length === 0
      ? repl('tsx without a script', 'A script runs and exits: `tsx script.ts`, or `tsx -e "…"`.')
      : null,
  );
  set('deno', (args) => {
    const first = positionals(args)[0];
    return first === undefined && args.length === 0
      ? repl(
          'deno without a subcommand',
          'Code runs and exits with `deno eval "console.log(1)"` or `deno run script.ts`.',
        )
      : first === 'repl'
        ? repl('deno repl', 'Code runs and exits with `deno eval "console.log(1)"`.')
        : null;
  });
  set('bun', (args) =>
    positionals(args)[0] === 'repl'
      ? repl('bun repl', 'Code runs and exits with `bun -e "console.log(1)"` or `bun run script.ts`.')
      : null,
  );
  set('irb', bare('irb', 'Code runs and exits with `ruby -e "puts 1"` or `ruby script.rb`.', ['-v']));
  set('pry', bare('pry', 'Code runs and exits with `ruby -e "puts 1"` or `ruby script.rb`.'));
  set('rails', rails);
  set('manage.py django-admin', django);
  set('php', (args, cmd, env) =>
    args.length === 0 && !cmd.stdinRedirected
      ? repl('php without a script', 'Code runs and exits with `php -r "echo 1;"` or `php script.php`.')
      : php(args, cmd, env),
  );
  set(
    'lua luajit',
    bare('lua without a script', 'Code runs and exits with `lua -e "print(1)"` or `lua script.lua`.', ['-e', '-v']),
  );
  set(
    'julia',
    bare('julia without a script', 'Code runs and exits with `julia -e "println(1)"` or `julia script.jl`.', [
      '-e',
      '--eval',
      '-E',
      '--print',
    ]),
  );
  set(
    'R',
    bare('R without a script', 'Code runs and exits with `Rscript -e "1+1"` or `Rscript script.R`.', [
      '-e',
      '-f',
      '--file',
    ]),
  );
  set('ghci', always('ghci', 'Code runs and exits with `ghc -e "1+1"` or `runghc Main.hs`.', ['-e']));
  set(
    'scala',
    bare('scala without a script', 'Code runs and exits with `scala -e "println(1)"` or `scala run file.scala`.', [
      '-e',
    ]),
  );
  set('clj clojure', (args) =>
    args.length === 0
      ? repl(
          `clojure without arguments`,
          'Code runs and exits with `clojure -M -e "(println 1)"` or `clojure -M -m my.main`.',
        )
      : null,
  );
  set(
    'iex',
    always('iex', 'Code runs and exits with `elixir -e "IO.puts 1"` or `mix run script.exs`.', ['-e', '--eval']),
  );
  set(
    'erl',
    always('erl', 'Code runs and exits with `erl -noshell -eval "io:format(\\"1~n\\"), halt()."`.', [
      '-noshell',
      '-noinput',
      '-detached',
      '-eval',
      '-s',
      '-run',
      '-version',
    ]),
  );
  set('ocaml utop', bare('the OCaml toplevel', 'A script runs and exits: `ocaml script.ml`.'));
  set('swift', (args) =>
    args.length === 0 || positionals(args)[0] === 'repl'
      ? repl(
          'swift (the REPL)',
          'A script runs and exits: `swift script.swift`; packages with `swift build` / `swift run`.',
        )
      : null,
  );
  set('jshell', (args, cmd) =>
    cmd.stdinRedirected || hasAny(args, HELP)
      ? null
      : repl(
          'jshell',
          "Code can be fed on stdin and ends with it: `printf 'System.out.println(1);\\n/exit\\n' | jshell -q`.",
        ),
  );
  set(
    'kotlinc kotlinc-jvm',
    bare('kotlinc without a source file', 'A script runs and exits: `kotlinc -script file.main.kts`.', [
      '-script',
      '-e',
      '-expression',
    ]),
  );
  set('sbt', (args) =>
    positionals(args).length === 0 && !hasAny(args, ['-batch', '--batch', '--client', ...HELP])
      ? repl('sbt without a task', 'Tasks given on the line run and exit: `sbt compile test`.')
      : null,
  );
  set('psql', psql);
  set('mysql mariadb', mysql);
  set('sqlite3 sqlite', sqlite3);
  set('duckdb', (args) =>
    positionals(args).length >= 2 || startsAny(optionPart(args), ['-c', '-s', ...HELP])
      ? null
      : repl('duckdb without SQL', 'SQL runs and exits with `duckdb app.db -c "select 1"`.'),
  );
  set('mongosh mongo', mongosh);
  set('redis-cli', redis);
  set(
    'cqlsh',
    always('cqlsh', 'CQL runs and exits with `cqlsh -e "describe keyspaces"` or `cqlsh -f script.cql`.', [
      '-e',
      '--execute',
      '-f',
      '--file',
    ]),
  );
  set(
    'clickhouse-client',
    always('clickhouse-client', 'SQL runs and exits with `clickhouse-client --query "select 1"`.', [
      '--query',
      '-q',
      '--queries-file',
    ]),
  );
  set(
    'gdb',
    debuggerRow(
      'gdb',
      ['-batch', '--batch', '-configuration', '--configuration'],
      'It runs unattended with `gdb -batch -ex run -ex bt --args ./prog`.',
    ),
  );
  set('lldb', debuggerRow('lldb', ['-b', '--batch'], 'It runs unattended with `lldb -b -o run -o bt -- ./prog`.'));
  set('bc dc', bare('bc without a file', 'An expression can come on stdin: `echo "2^10" | bc`.', ['-v', '--version']));
  for (const s of ['bash', 'sh', 'zsh', 'fish', 'dash', 'ksh']) t.set(s, shell(s));
  // Python runs its own row through PYTHON below.

  set('ssh', ssh);
  set('mosh', (args) =>
    hasAny(args, HELP) ? null : remote('mosh', "ssh runs a single command and returns: `ssh host 'uptime'`."),
  );
  set(
    'telnet',
    telnetLike('telnet', 'A single request can be sent and answered with `curl` or `nc -w 5 host port < request.txt`.'),
  );
  set('sftp', sftp);
  set(
    'ftp',
    telnetLike('ftp', 'Transfers run and return with `curl -T file ftp://host/` or `curl -O ftp://host/file`.'),
  );
  set('docker', docker('docker', innerWaits));
  set('podman', docker('podman', innerWaits));
  set('kubectl oc', kubectl(innerWaits));

  set(
    'top',
    screenRow(
      'top',
      `\`top -b -n 1\` prints one snapshot and exits. ${PS}`,
      (a) => hasAny(a, ['-b', '-l']) || inCluster(a, 'b') || inCluster(a, 'n'),
    ),
  );
  for (const n of [
    'htop',
    'btop',
    'bpytop',
    'bashtop',
    'atop',
    'gotop',
    'ytop',
    'btm',
    'zenith',
    'nvtop',
    'glances',
    'ctop',
  ]) {
    t.set(
      n,
      screenRow(n, PS, (a) => n === 'glances' && startsAny(a, ['--stdout', '--stdout-csv', '--export'])),
    );
  }
  set(
    'iotop',
    screenRow(
      'iotop',
      '`iotop -b -n 1` prints one snapshot and exits.',
      (a) => hasAny(a, ['-b', '--batch']) || inCluster(a, 'b'),
    ),
  );
  set(
    'iftop',
    screenRow('iftop', '`iftop -t -s 5` prints text for five seconds and exits.', (a) => hasAny(a, ['-t'])),
  );
  set(
    'nethogs',
    screenRow('nethogs', '`nethogs -t -c 5` prints text for five refreshes and exits.', (a) => hasAny(a, ['-t'])),
  );
  set('nload bmon', screenRow('this monitor', '`ip -s link` prints the counters once.'));
  set(
    'ncdu',
    screenRow('ncdu', '`du -sh * | sort -h` prints the sizes and returns.', (a) => startsAny(a, ['-o', '-f'])),
  );
  set(
    'tig lazygit gitui',
    screenRow(
      'this git browser',
      '`git log --oneline -n 20`, `git status` and `git diff` print and return.',
      (a) => a[0] === '--version',
    ),
  );
  set(
    'lazydocker ctop',
    screenRow('this container browser', '`docker ps` and `docker logs --tail 100 <container>` print and return.'),
  );
  set(
    'k9s',
    screenRow('k9s', '`kubectl get pods` and `kubectl logs --tail 100 <pod>` print and return.', (a) =>
      ['info', 'version', 'help'].includes(positionals(a)[0] ?? ''),
    ),
  );
  set('ranger nnn vifm lf yazi', screenRow('this file manager', '`ls -la` and `find . -maxdepth 2` print and return.'));
  // `mc` is also the MinIO client, which always takes a subcommand (mc ls, mc cp).
  set(
    'mc',
    screenRow('Midnight Commander', '`ls -la` and `find . -maxdepth 2` print and return.', (a) =>
      positionals(a).some((w) => !w.includes('/')),
    ),
  );
  set(
    'fzf sk',
    screenRow(
      'this fuzzy finder',
      'A non-interactive match prints and returns: `… | fzf --filter "query"` (or `grep`).',
      (a) => startsAny(a, ['-f', '--filter']),
    ),
  );
  set(
    'tmux',
    screenRow(
      'tmux attached to a session',
      'A detached session runs a command and returns: `tmux new-session -d -s work "npm run dev"`; `tmux ' +
        'capture-pane -p -t work` reads its screen.',
      (a) => {
        const first = a.find((w) => !w.startsWith('-'));
        if (first === undefined) return hasAny(a, ['-V']);
        return TMUX_OK().has(first) || ((first === 'new' || first === 'new-session') && hasAny(a, ['-d']));
      },
    ),
  );
  set(
    'screen',
    screenRow(
      'screen attached to a session',
      'A detached session runs a command and returns: `screen -dmS work npm run dev`.',
      (a) =>
        hasAny(a, ['-ls', '-list', '-Q', '-X', '-wipe']) ||
        a.some((w) => /^-[dD]m/.test(w)) ||
        (hasAny(a, ['-d', '-D']) && hasAny(a, ['-m'])),
    ),
  );
  set(
    'zellij',
    screenRow(
      'zellij',
      '`zellij run -- <command>` inside an existing session, or a backgrounded command with a log file.',
      (a) =>
        ['ls', 'list-sessions', 'kill-session', 'kill-all-sessions', 'delete-session', 'action', 'run'].includes(
          a[0] ?? '',
        ),
    ),
  );
  set(
    'w3m lynx links elinks',
    screenRow('this text browser', 'The page prints and returns with `curl -s <url>` or `w3m -dump <url>`.', (a) =>
      startsAny(a, ['-dump', '--dump', '-source']),
    ),
  );
  set(
    'mutt neomutt',
    screenRow(
      'this mail client',
      'A message can be sent without the screen: `mutt -s "subject" to@example.com < body.txt`.',
      (a) => startsAny(a, ['-s']),
    ),
  );
  set(
    'vd visidata',
    screenRow('visidata', '`head`, `column -t -s,` or `csvlook` print the table and return.', (a) =>
      startsAny(a, ['-b', '--batch']),
    ),
  );
  set(
    'dialog whiptail',
    screenRow('this dialog', 'Values can be passed as arguments or environment variables instead of asked for.'),
  );

  set('man', man);
  set('info', info);

  set('cargo', cargoLogin);
  set('su', su);
  set('passwd', passwd);
  return t;
}

/** Two rows for one program name (docker run -it and docker login): the first finding wins. */
function chain(a: Row | undefined, b: Row): Row {
  return a ? (args, cmd, env) => a(args, cmd, env) ?? b(args, cmd, env) : b;
}

const PYTHON = /^python(?:\d+(?:\.\d+)?)?$/;
const REPL_NAMES = once(
  () =>
    new Set(
      (
        'python node nodejs ipython irb pry psql mysql mariadb sqlite3 mongosh mongo redis-cli lua julia R ghci ' +
        'iex erl scala clj clojure ocaml utop deno bun tsx ts-node php swift jshell duckdb cqlsh'
      ).split(' '),
    ),
);

/**
 * Every program name the table has a row for, as one string: a pre event whose program is not here (ls, npm test,
 * git status) never builds the table, which costs about a millisecond of closures. A test keeps the two in step.
 */
const NAMES = once(
  () =>
    new Set(
      (
        'node nodejs ipython bpython ptpython pdb ipdb ts-node tsx deno bun irb pry rails manage.py ' +
        'django-admin php lua luajit julia R ghci scala clj clojure iex erl ocaml utop swift jshell kotlinc ' +
        'kotlinc-jvm sbt psql mysql mariadb sqlite3 sqlite duckdb mongosh mongo redis-cli cqlsh ' +
        'clickhouse-client gdb lldb bc dc ssh mosh telnet sftp ftp docker podman kubectl oc top iotop iftop ' +
        'nethogs nload bmon ncdu tig lazygit gitui lazydocker ctop k9s ranger mc nnn vifm lf yazi fzf sk ' +
        'tmux screen zellij w3m lynx links elinks mutt neomutt vd visidata dialog whiptail man info cargo su ' +
        'passwd bash sh zsh fish dash ksh htop btop bpytop bashtop atop gotop ytop btm zenith nvtop glances'
      ).split(' '),
    ),
);

let table: Map<string, Row> | undefined;

function rowFor(name: string): Row | undefined {
  if (name.startsWith('python') && PYTHON.test(name)) return python;
  const login = Object.hasOwn(SIGN_INS, name) ? signIn(name) : undefined;
  if (!NAMES().has(name)) return login;
  table ??= build();
  const row = table.get(name);
  return row && login ? chain(row, login) : (row ?? login);
}

/** For the test that keeps NAMES and the table in step. */
export function interactiveTableNames(): { gate: string[]; table: string[] } {
  table ??= build();
  return { gate: [...NAMES()].sort(), table: [...table.keys()].sort() };
}

/** REPLs with no script, remote/container shells, full-screen programs, manual pages and sign-ins. */
export function interactiveFinding(
  name: string,
  args: string[],
  cmd: SimpleCommand,
  env: Map<string, string>,
): Finding | null {
  const row = rowFor(name);
  if (!row) return null;
  // A REPL or shell fed from a pipe, a file or a heredoc reads it to the end and exits.
  const finding = row(args, cmd, env);
  if (finding && (finding.rule === 'repl' || finding.rule === 'remote-shell') && cmd.stdinRedirected) return null;
  if (finding && finding.rule === 'full-screen' && (cmd.pipedOut || cmd.stdoutToFile) && name === 'top') return null;
  return finding;
}
