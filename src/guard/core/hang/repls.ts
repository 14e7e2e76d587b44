// REPLs, database shells and debuggers: they wait for a person unless given a script, a command or a file.
import { hasAny, HELP, once, optionPart, positionals, startsAny } from './argv.ts';
import type { Finding, Row } from './types.ts';

export const repl = (what: string, instead: string): Finding => ({
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

const PY_VALUES = once(() => new Set(['-W', '-X', '-c', '-m', '-Q']));
export const python: Row = (args) => {
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
export const node: Row = (args) => {
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
export const bare = (
  what: string,
  instead: string,
  runs: readonly string[] = [],
  valueOpts: readonly string[] = [],
): Row => {
  const values = new Set(valueOpts);
  return (args) => {
    const { opts, positional } = leading(args, values);
    if (positional || startsAny(opts, [...runs, ...HELP])) return null;
    return repl(what, instead);
  };
};

/** A REPL whatever its arguments, unless one of `runs` is given. */
export const always =
  (what: string, instead: string, runs: readonly string[] = []): Row =>
  (args) =>
    startsAny(optionPart(args), [...runs, ...HELP]) ? null : repl(what, instead);

export const psql: Row = (args) => {
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

export const mysql: Row = (args) => {
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
export const sqlite3: Row = (args) => {
  if (args.some((a) => a === '-version' || a === '--version' || a === '-help' || a === '--help')) return null;
  if (positionals(args, SQLITE_VALUES()).length >= 2) return null;
  return repl(
    'sqlite3 without SQL',
    'SQL given after the database file runs and exits: `sqlite3 app.db "select count(*) from users;"` ' +
      '(or `sqlite3 app.db < script.sql`).',
  );
};

export const redis: Row = (args) =>
  positionals(
    args,
    new Set(['-h', '-p', '-a', '-n', '-u', '-s', '--user', '--pass', '-r', '-i', '-d', '--tls-cert', '--cacert']),
  ).length > 0 || hasAny(args, ['--help', '--version'])
    ? null
    : repl(
        'redis-cli without a command',
        'A command given on the line runs and exits: `redis-cli ping`, `redis-cli -n 0 keys "user:*"`.',
      );

export const mongosh: Row = (args) =>
  startsAny(optionPart(args), ['--eval', '--file', '-f', ...HELP]) ||
  positionals(args).some((p) => /\.(?:m?js)$/.test(p))
    ? null
    : repl(
        'mongosh without --eval',
        'Code runs and exits with `mongosh "$URL" --quiet --eval "db.stats()"` or with a script file.',
      );

export const rails: Row = (args) => {
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

export const django: Row = (args, cmd) => {
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

export const php: Row = (args) => {
  const pos = positionals(args, new Set(['-c', '-d', '-f', '-r', '-t', '-z', '-S']));
  if (pos[0] === 'artisan' && pos[1] === 'tinker' && !startsAny(optionPart(args), ['--execute'])) {
    return repl('artisan tinker', 'Code runs and exits with `php artisan tinker --execute="dump(User::count())"`.');
  }
  if (hasAny(args, ['-a', '--interactive']))
    return repl('php -a', 'Code runs and exits with `php -r "echo 1;"` or `php script.php`.');
  return null;
};

export const SHELL_ONLY = once(() => new Set(['-i', '-l', '--login', '--norc', '--noprofile', '--posix']));
export const shell =
  (name: string): Row =>
  (args) =>
    args.length === 0 || args.every((a) => SHELL_ONLY().has(a))
      ? repl(
          `${name} without a script`,
          `A script or a command string runs and exits: \`${name} script.sh\` or \`${name} -c "…"\`.`,
        )
      : null;

export const debuggerRow =
  (what: string, batch: readonly string[], instead: string): Row =>
  (args) =>
    startsAny(optionPart(args), [...batch, ...HELP]) ? null : repl(what, instead);
