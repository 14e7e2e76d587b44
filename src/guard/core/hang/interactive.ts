// Programs that wait for a person: REPLs and database shells, remote and container shells, full-screen
// programs, manual pages and interactive sign-ins. One table row per program; each row says when it asks nothing.
import type { SimpleCommand } from '../shell/split.ts';
import { baseName } from '../shell/split.ts';
import { hasAny, hasLong, inCluster, once, optionPart, positionals } from './argv.ts';
import type { Finding } from './types.ts';

type Row = (args: string[], cmd: SimpleCommand, env: Map<string, string>) => Finding | null;

const HELP = ['--help', '-h', '--version', '-V', '-v'];

// ---------------------------------------------------------------------------------------------
// REPLs and database shells.

const repl = (what: string, instead: string): Finding => ({
  rule: 'repl',
  why: `${what} starts an interactive prompt and waits for input typed at the keyboard. ${instead}`,
});

/** Options before the first positional word, skipping the values of `valueOpts`. */
function leading(args: readonly string[], valueOpts: ReadonlySet<string>): { opts: string[]; positional: boolean } {
  const opts: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    if (a === '--') return { opts, positional: k + 1 < args.length };
    if (!a.startsWith('-') || a === '-') return { opts, positional: true };
    opts.push(a);
    if (valueOpts.has(a)) k++;
  }
  return { opts, positional: false };
}

const startsAny = (opts: readonly string[], prefixes: readonly string[]): boolean =>
  opts.some((o) => prefixes.some((p) => o === p || (p.startsWith('--') && o.startsWith(p + '='))));

const PY_VALUES = once(() => new Set(['-W', '-X', '-c', '-m', '-Q']));
const python: Row = (args) => {
  const { opts, positional } = leading(args, PY_VALUES());
  const forced = opts.includes('-i') || opts.some((o) => /^-[bBdEhIOPqRsSuvx]*i/.test(o));
  const runs = positional || startsAny(opts, ['-c', '-m', '-V', '--version', '-h', '--help', '-VV']);
  if (runs && !forced) return null;
  return repl(
    forced ? 'python -i' : 'python without a script',
    'A script or inline code runs and exits: `python3 script.py`, `python3 -c "print(1)"`, or a heredoc ' +
      "(`python3 - <<'EOF' … EOF`).",
  );
};

const NODE_VALUES = once(
  () =>
    new Set([
      '-r',
      '--require',
      '--import',
      '--loader',
      '--experimental-loader',
      '-C',
      '--conditions',
      '--input-type',
      '--env-file',
      '--inspect-port',
      '--title',
      '--stack-size',
    ]),
);
const node: Row = (args) => {
  const { opts, positional } = leading(args, NODE_VALUES());
  const forced = startsAny(opts, ['-i', '--interactive']);
  const first = positionals(args, NODE_VALUES())[0];
  if (first === 'inspect' || first === 'debug')
    return repl(
      'node inspect (the debugger)',
      'A script runs unattended with `node script.js`; breakpoints can be replaced by logging.',
    );
  const runs =
    positional ||
    startsAny(opts, ['-e', '--eval', '-p', '--print', '-c', '--check', '--test', '--run', ...HELP, '--v8-options']);
  if (runs && !forced) return null;
  return repl(
    'node without a script',
    'A script or inline code runs and exits: `node script.js`, `node -e "console.log(1)"`, or `node -p "1+1"`.',
  );
};

/** A REPL that starts when the program gets no positional word and none of `runs`. */
const bare = (what: string, instead: string, runs: readonly string[] = [], valueOpts: readonly string[] = []): Row => {
  const values = new Set(valueOpts);
  return (args) => {
    const { opts, positional } = leading(args, values);
    if (positional || startsAny(opts, [...runs, ...HELP])) return null;
    return repl(what, instead);
  };
};

/** A REPL whatever its arguments, unless one of `runs` is given. */
const always =
  (what: string, instead: string, runs: readonly string[] = []): Row =>
  (args) =>
    startsAny(optionPart(args), [...runs, ...HELP]) ? null : repl(what, instead);

const psql: Row = (args) => {
  const all = optionPart(args);
  if (
    startsAny(all, ['-c', '--command', '-f', '--file', '-l', '--list', '-V', '--version', '-?', '--help']) ||
    all.some((a) => /^-[AaeEnqtXx]*[cf]./.test(a))
  )
    return null;
  return repl(
    'psql without -c or -f',
    'Queries run and exit with `psql -c "select 1"` or `psql -f script.sql` (add `-X -A -t` for plain output).',
  );
};

const mysql: Row = (args) => {
  const all = optionPart(args);
  if (all.some((a) => a === '-p' || a === '--password')) {
    return {
      rule: 'repl',
      why:
        'mysql -p with no password attached asks for the password and waits for it to be typed. The password ' +
        'can come from the environment (`MYSQL_PWD`), an option file (`--defaults-extra-file=my.cnf`), or be ' +
        'attached (`-pSECRET`), with the query given by `-e`.',
    };
  }
  if (startsAny(all, ['-e', '--execute', ...HELP]) || all.some((a) => /^-[BNrstvX]*e/.test(a))) return null;
  return repl('mysql without -e', 'Queries run and exit with `mysql -e "select 1"` or `mysql db < script.sql`.');
};

const SQLITE_VALUES = once(
  () =>
    new Set([
      '-cmd',
      '-separator',
      '-nullvalue',
      '-newline',
      '-init',
      '-vfs',
      '-mmap',
      '-lookaside',
      '-pagecache',
      '-heap',
      '-maxsize',
    ]),
);
const sqlite3: Row = (args) => {
  if (args.some((a) => a === '-version' || a === '--version' || a === '-help' || a === '--help')) return null;
  if (positionals(args, SQLITE_VALUES()).length >= 2) return null;
  return repl(
    'sqlite3 without SQL',
    'SQL given after the database file runs and exits: `sqlite3 app.db "select count(*) from users;"` ' +
      '(or `sqlite3 app.db < script.sql`).',
  );
};

const redis: Row = (args) =>
  positionals(
    args,
    new Set(['-h', '-p', '-a', '-n', '-u', '-s', '--user', '--pass', '-r', '-i', '-d', '--tls-cert', '--cacert']),
  ).length > 0 || hasAny(args, ['--help', '--version'])
    ? null
    : repl(
        'redis-cli without a command',
        'A command given on the line runs and exits: `redis-cli ping`, `redis-cli -n 0 keys "user:*"`.',
      );

const mongosh: Row = (args) =>
  startsAny(optionPart(args), ['--eval', '--file', '-f', ...HELP]) ||
  positionals(args).some((p) => /\.(?:m?js)$/.test(p))
    ? null
    : repl(
        'mongosh without --eval',
        'Code runs and exits with `mongosh "$URL" --quiet --eval "db.stats()"` or with a script file.',
      );

const rails: Row = (args) => {
  const first = positionals(args, new Set(['-e', '--environment']))[0];
  if (first === 'c' || first === 'console')
    return repl('rails console', 'Code runs and exits with `bin/rails runner "puts User.count"`.');
  if (first === 'db' || first === 'dbconsole')
    return repl(
      'rails dbconsole',
      'SQL runs through the database client with its own batch flag, e.g. `psql -c`, or with `bin/rails runner`.',
    );
  return null;
};

const django: Row = (args, cmd) => {
  const first = positionals(args)[0];
  if (first === 'shell' && !startsAny(optionPart(args), ['-c', '--command'])) {
    return repl(
      'manage.py shell',
      'Code runs and exits with `python manage.py shell -c "from app.models import X; print(X.objects.count())"`.',
    );
  }
  if (first === 'dbshell' && !cmd.stdinRedirected)
    return repl('manage.py dbshell', 'SQL can be fed on stdin: `python manage.py dbshell < query.sql`.');
  return null;
};

const php: Row = (args) => {
  const pos = positionals(args, new Set(['-c', '-d', '-f', '-r', '-t', '-z', '-S']));
  if (pos[0] === 'artisan' && pos[1] === 'tinker' && !startsAny(optionPart(args), ['--execute'])) {
    return repl('artisan tinker', 'Code runs and exits with `php artisan tinker --execute="dump(User::count())"`.');
  }
  if (hasAny(args, ['-a', '--interactive']))
    return repl('php -a', 'Code runs and exits with `php -r "echo 1;"` or `php script.php`.');
  return null;
};

const SHELL_ONLY = once(() => new Set(['-i', '-l', '--login', '--norc', '--noprofile', '--posix']));
const shell =
  (name: string): Row =>
  (args) =>
    args.length === 0 || args.every((a) => SHELL_ONLY().has(a))
      ? repl(
          `${name} without a script`,
          `A script or a command string runs and exits: \`${name} script.sh\` or \`${name} -c "…"\`.`,
        )
      : null;

const debuggerRow =
  (what: string, batch: readonly string[], instead: string): Row =>
  (args) =>
    startsAny(optionPart(args), [...batch, ...HELP]) ? null : repl(what, instead);

// ---------------------------------------------------------------------------------------------
// Remote and container shells.

const remote = (what: string, instead: string): Finding => ({
  rule: 'remote-shell',
  why: `${what} opens an interactive session that waits for input typed at the keyboard. ${instead}`,
});

const SSH_VALUES = once(() => new Set('-b -c -D -E -e -F -I -i -J -L -l -m -O -o -p -Q -R -S -W -w -B -P'.split(' ')));
const ssh: Row = (args) => {
  // -T, -N, -f, -n, -V, -G: no session (github's `ssh -T git@github.com`), forwarding only, background, no stdin, version, config dump.
  const opts = optionPart(args).filter((a) => a.startsWith('-'));
  if (opts.some((o) => /^-[46AaCgKkMqstvXxY]*[TNfnVGQO]/.test(o))) return null;
  if (positionals(args, SSH_VALUES()).length !== 1) return null;
  return remote(
    'ssh with no remote command',
    "A command given after the host runs there and returns: `ssh host 'uptime'` (or a script on stdin: " +
      '`ssh host bash -s < script.sh`).',
  );
};

/** Words of a container command after its options; `values` are the options that take a value. */
function afterContainerOptions(
  args: readonly string[],
  values: ReadonlySet<string>,
): { opts: string[]; rest: string[] } {
  const opts: string[] = [];
  let k = 0;
  for (; k < args.length; k++) {
    const a = args[k]!;
    if (a === '--') return { opts, rest: args.slice(k + 1) };
    if (!a.startsWith('-') || a === '-') break;
    opts.push(a);
    if (values.has(a)) k++;
  }
  return { opts, rest: args.slice(k) };
}

const wantsTerminal = (opts: readonly string[]): boolean => {
  const i =
    opts.some((o) => o === '--interactive' || o === '--stdin' || o === '--interactive=true' || o === '--stdin=true') ||
    inCluster(opts, 'i');
  const t = opts.some((o) => o === '--tty' || o === '--tty=true') || inCluster(opts, 't');
  return i && t;
};

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

const DOCKER_RUN_VALUES = once(
  () =>
    new Set(
      (
        '-e --env -v --volume -p --publish --name -w --workdir --network --net --entrypoint -u --user ' +
        '--env-file --mount --platform -l --label --add-host --cpus -m --memory --restart -h --hostname ' +
        '--device --cap-add --cap-drop --security-opt --shm-size --ulimit --pull --log-driver --log-opt ' +
        '--gpus --tmpfs --dns --ipc --pid --runtime --stop-signal --cidfile --volumes-from --link --expose ' +
        '--detach-keys -c --cpu-shares --memory-swap --group-add'
      ).split(' '),
    ),
);
const docker =
  (name: string): Row =>
  (args) => {
    const pos = positionals(args, new Set(['-H', '--host', '-c', '--context', '--config', '-l', '--log-level']));
    let sub = pos[0];
    let from = args.indexOf(sub ?? '') + 1;
    if (sub === 'container') {
      sub = pos[1];
      from = args.indexOf(sub ?? '', from) + 1;
    }
    if (sub !== 'run' && sub !== 'exec' && sub !== 'attach') return null;
    if (sub === 'attach')
      return remote(`${name} attach`, `\`${name} logs --tail 100 <container>\` shows its output and returns.`);
    const { opts, rest } = afterContainerOptions(args.slice(from), DOCKER_RUN_VALUES());
    if (!wantsTerminal(opts) || opts.some((o) => o === '-d' || o === '--detach')) return null;
    const inner = sub === 'run' ? rest.slice(1) : rest.slice(1);
    if (!innerWaits(inner)) return null;
    return remote(
      `${name} ${sub} -it with a shell`,
      `Without -it a command runs in the container and returns: \`${name} ` +
        `${sub === 'run' ? 'run --rm <image>' : 'exec <container>'} <command>\` (e.g. \`sh -c '…'\`).`,
    );
  };

const KUBE_VALUES = once(
  () =>
    new Set([
      '-n',
      '--namespace',
      '-c',
      '--container',
      '--context',
      '--kubeconfig',
      '-f',
      '--filename',
      '--image',
      '--restart',
      '--overrides',
      '-l',
      '--selector',
      '--pod-running-timeout',
    ]),
);
const kubectl: Row = (args) => {
  const pos = positionals(args, KUBE_VALUES());
  const sub = pos[0];
  if (sub !== 'exec' && sub !== 'run' && sub !== 'attach' && sub !== 'debug') return null;
  const dd = args.indexOf('--');
  const before = dd === -1 ? args : args.slice(0, dd);
  if (!wantsTerminal(before.filter((a) => a.startsWith('-')))) return null;
  if (sub !== 'attach' && dd !== -1 && !innerWaits(args.slice(dd + 1))) return null;
  return remote(
    `kubectl ${sub} -it`,
    "Without -it a command runs in the pod and returns: `kubectl exec web-0 -- sh -c 'ls /app'`.",
  );
};

const telnetLike =
  (name: string, instead: string): Row =>
  (args, cmd) =>
    cmd.stdinRedirected || hasAny(args, HELP) ? null : remote(name, instead);

const sftp: Row = (args, cmd) =>
  cmd.stdinRedirected || hasAny(args, ['-b', ...HELP])
    ? null
    : remote('sftp without -b', 'A batch file runs and exits: `sftp -b cmds.txt host` (or `scp file host:path`).');

// ---------------------------------------------------------------------------------------------
// Full-screen programs.

const screenRow =
  (what: string, instead: string, ok: (args: string[]) => boolean = () => false): Row =>
  (args) =>
    ok(args) || hasAny(args, HELP)
      ? null
      : {
          rule: 'full-screen',
          why: `${what} draws a full-screen display and keeps redrawing until a key is pressed to quit. ${instead}`,
        };

const PS = 'A snapshot prints and returns: `ps aux --sort=-%cpu | head -n 15`.';
const TMUX_OK = once(
  () =>
    new Set([
      'ls',
      'list-sessions',
      'list-windows',
      'list-panes',
      'send-keys',
      'send',
      'capture-pane',
      'capturep',
      'kill-session',
      'kill-server',
      'kill-window',
      'has-session',
      'has',
      'display-message',
      'display',
      'show-options',
      'set-option',
      'set',
      'split-window',
      'new-window',
      'rename-session',
      'rename-window',
      'source-file',
      'run-shell',
      'wait-for',
      'pipe-pane',
      'resize-pane',
      'select-pane',
      'select-window',
      'list-keys',
      'list-buffers',
      'show-buffer',
      'save-buffer',
      'load-buffer',
      'set-buffer',
      '-V',
    ]),
);

// ---------------------------------------------------------------------------------------------
// Manual pages.

export const MAN_INSTEAD =
  'The page prints and returns with `man -P cat <page>` (or `man <page> | head -n 200`); most commands ' +
  'also print their options with `--help`.';

const man: Row = (args, cmd, env) => {
  if (cmd.pipedOut || cmd.stdoutToFile || env.has('MANPAGER') || env.has('PAGER')) return null;
  const opts = optionPart(args);
  if (
    startsAny(opts, [
      '-P',
      '--pager',
      '-k',
      '-f',
      '-w',
      '-W',
      '-K',
      '--where',
      '--path',
      '--apropos',
      '--whatis',
      '--where-cat',
      '-t',
      '-T',
      '-H',
      '--html',
      '-Z',
      '--ditroff',
      ...HELP,
    ])
  )
    return null;
  if (opts.some((o) => /^-[a-zA-Z]*[PkfwWKtTHZ]/.test(o))) return null;
  if (
    positionals(
      args,
      new Set(['-M', '-S', '-s', '-L', '-m', '-C', '-E', '-R', '-p', '-e', '--sections', '--locale', '--manpath']),
    ).length === 0
  )
    return null;
  return {
    rule: 'manual',
    why: `man shows the page in a pager that waits for keys to scroll and quit. ${MAN_INSTEAD}`,
  };
};

const info: Row = (args, cmd) =>
  cmd.pipedOut ||
  cmd.stdoutToFile ||
  startsAny(optionPart(args), ['-o', '--output', '-w', '--where', '--location', ...HELP])
    ? null
    : {
        rule: 'manual',
        why:
          'info opens an interactive browser that waits for keys. `info <topic> | cat` (or `info -o - ' +
          '<topic>`) prints the node and returns.',
      };

// ---------------------------------------------------------------------------------------------
// Interactive sign-in.

const login = (what: string, instead: string): Finding => ({
  rule: 'login',
  why: `${what} waits for a person to sign in (a browser, a pasted code or a typed password). ${instead}`,
});

const NPM_LOGIN =
  'A token can be set without prompts: `npm config set //registry.npmjs.org/:_authToken=$NPM_TOKEN` ' +
  '(or NPM_TOKEN referenced from .npmrc).';

/** `<program> <sub …>` sign-in commands: the words that select it, what makes it non-interactive, the advice. */
const SIGN_INS: Record<
  string,
  ReadonlyArray<{ sub: readonly string[]; ok?: readonly string[]; not?: readonly string[]; instead: string }>
> = {
  gh: [
    {
      sub: ['auth', 'login'],
      ok: ['--with-token'],
      instead:
        'A token signs in without prompts: `gh auth login --with-token < token.txt`, or GH_TOKEN set in the environment.',
    },
    { sub: ['auth', 'refresh'], instead: 'GH_TOKEN set in the environment needs no refresh.' },
  ],
  glab: [
    {
      sub: ['auth', 'login'],
      ok: ['--token', '-t', '--stdin'],
      instead: 'A token signs in without prompts: `glab auth login --stdin < token.txt`.',
    },
  ],
  npm: [
    { sub: ['login'], instead: NPM_LOGIN },
    { sub: ['adduser'], instead: NPM_LOGIN },
    { sub: ['add-user'], instead: NPM_LOGIN },
  ],
  pnpm: [
    { sub: ['login'], instead: NPM_LOGIN },
    { sub: ['adduser'], instead: NPM_LOGIN },
  ],
  yarn: [
    { sub: ['login'], instead: NPM_LOGIN },
    {
      sub: ['npm', 'login'],
      instead: 'A token can be set without prompts: `yarn config set npmAuthToken "$NPM_TOKEN"`.',
    },
  ],
  docker: [
    {
      sub: ['login'],
      ok: ['--password-stdin', '-p', '--password'],
      instead: 'The password can come on stdin: `echo "$TOKEN" | docker login -u <user> --password-stdin`.',
    },
  ],
  podman: [
    {
      sub: ['login'],
      ok: ['--password-stdin', '-p', '--password'],
      instead: 'The password can come on stdin: `echo "$TOKEN" | podman login -u <user> --password-stdin`.',
    },
  ],
  az: [
    {
      sub: ['login'],
      ok: ['--service-principal', '--identity', '--federated-token'],
      instead:
        'A service principal or managed identity signs in without prompts: `az login --service-principal -u ' +
        '<app-id> -p <secret-or-cert> --tenant <tenant>`.',
    },
  ],
  gcloud: [
    {
      sub: ['auth', 'login'],
      ok: ['--cred-file'],
      instead: 'A key file signs in without prompts: `gcloud auth activate-service-account --key-file=key.json`.',
    },
    { sub: ['init'], instead: 'Settings can be made one by one: `gcloud config set project <id>`.' },
  ],
  aws: [
    {
      sub: ['configure'],
      not: ['set', 'get', 'list', 'import', 'list-profiles', 'export-credentials', 'sso', 'sso-session'],
      instead:
        'Values can be set one by one: `aws configure set region eu-west-1`, or given as AWS_* environment variables.',
    },
    {
      sub: ['sso', 'login'],
      instead:
        'Credentials can be given as AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY (or AWS_PROFILE with stored credentials).',
    },
  ],
  firebase: [
    { sub: ['login'], instead: 'A service account signs in without prompts: GOOGLE_APPLICATION_CREDENTIALS=key.json.' },
    {
      sub: ['login:ci'],
      instead: 'A service account signs in without prompts: GOOGLE_APPLICATION_CREDENTIALS=key.json.',
    },
  ],
  vercel: [{ sub: ['login'], instead: 'A token works without signing in: `vercel --token "$VERCEL_TOKEN" …`.' }],
  netlify: [{ sub: ['login'], instead: 'A token works without signing in: NETLIFY_AUTH_TOKEN in the environment.' }],
  heroku: [{ sub: ['login'], instead: 'A token works without signing in: HEROKU_API_KEY in the environment.' }],
  wrangler: [{ sub: ['login'], instead: 'A token works without signing in: CLOUDFLARE_API_TOKEN in the environment.' }],
  fly: [{ sub: ['auth', 'login'], instead: 'A token works without signing in: FLY_API_TOKEN in the environment.' }],
  flyctl: [{ sub: ['auth', 'login'], instead: 'A token works without signing in: FLY_API_TOKEN in the environment.' }],
  railway: [{ sub: ['login'], instead: 'A token works without signing in: RAILWAY_TOKEN in the environment.' }],
  supabase: [
    {
      sub: ['login'],
      ok: ['--token'],
      instead: 'A token signs in without prompts: `supabase login --token "$SUPABASE_ACCESS_TOKEN"`.',
    },
  ],
  doctl: [
    {
      sub: ['auth', 'init'],
      ok: ['-t', '--access-token'],
      instead: 'A token signs in without prompts: `doctl auth init -t "$DIGITALOCEAN_TOKEN"`.',
    },
  ],
  terraform: [
    { sub: ['login'], instead: 'A token works without signing in: TF_TOKEN_app_terraform_io in the environment.' },
  ],
  'huggingface-cli': [
    {
      sub: ['login'],
      ok: ['--token'],
      instead: 'A token signs in without prompts: `huggingface-cli login --token "$HF_TOKEN"`.',
    },
  ],
};

const SIGN_IN_VALUES = once(
  () =>
    new Set([
      '--profile',
      '--region',
      '--output',
      '--hostname',
      '-h',
      '--scopes',
      '-s',
      '--git-protocol',
      '-p',
      '-u',
      '--username',
      '--registry',
      '--scope',
      '--tenant',
      '--project',
    ]),
);

function signIn(name: string): Row | undefined {
  const rows = SIGN_INS[name];
  if (!rows) return undefined;
  return (args, cmd) => {
    const pos = positionals(args, SIGN_IN_VALUES());
    for (const r of rows) {
      if (!r.sub.every((w, k) => pos[k] === w) || r.not?.includes(pos[r.sub.length] ?? '')) continue;
      if (cmd.stdinRedirected && name !== 'docker' && name !== 'podman') return null;
      if (
        hasAny(args, HELP) ||
        (r.ok && (hasAny(args, r.ok) || r.ok.some((o) => o.startsWith('--') && hasLong(args, o))))
      )
        return null;
      return login(`${name} ${r.sub.join(' ')}`, r.instead);
    }
    return null;
  };
}

const cargoLogin: Row = (args, cmd) =>
  positionals(args)[0] === 'login' && positionals(args).length === 1 && !cmd.stdinRedirected && !hasAny(args, HELP)
    ? login(
        'cargo login without a token',
        'The token can be given on stdin or in CARGO_REGISTRY_TOKEN: `cargo login < token.txt`.',
      )
    : null;

const su: Row = (args, cmd) =>
  hasAny(args, ['-c', '--command', ...HELP]) || cmd.stdinRedirected
    ? null
    : login('su', 'A single command can run with `sudo -n <command>` where passwordless sudo is set up.');

const passwd: Row = (args, cmd) =>
  cmd.stdinRedirected || hasAny(args, ['-S', '--stdin', '-l', '-u', '-d', '-e', '-S', '--status', ...HELP])
    ? null
    : login('passwd', 'A password can be set without a prompt with `chpasswd` reading `user:password` from stdin.');

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
  set('docker', docker('docker'));
  set('podman', docker('podman'));
  set('kubectl oc', kubectl);

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
    new Set([
      'python',
      'node',
      'nodejs',
      'ipython',
      'irb',
      'pry',
      'psql',
      'mysql',
      'mariadb',
      'sqlite3',
      'mongosh',
      'mongo',
      'redis-cli',
      'lua',
      'julia',
      'R',
      'ghci',
      'iex',
      'erl',
      'scala',
      'clj',
      'clojure',
      'ocaml',
      'utop',
      'deno',
      'bun',
      'tsx',
      'ts-node',
      'php',
      'swift',
      'jshell',
      'duckdb',
      'cqlsh',
    ]),
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
