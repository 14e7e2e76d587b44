// Commands that keep running in the foreground (followers, watchers, servers), as tables by program name.
import { baseName } from '../shell/split.ts';
import { hasAny, hasLong, inCluster, NPM_VALUE_OPTS, once, positionals } from './argv.ts';

// ---------------------------------------------------------------------------------------------
// Commands that keep running: followers, watchers, servers.

export interface LongRun {
  rule: 'follow' | 'watch' | 'watch-mode' | 'dev-server' | 'endless';
  why: string;
  /** Whether starting it in the background is the advice (not for followers, watch, or compose's own -d). */
  hint: boolean;
}

const SERVER_WHY = 'a server keeps running until it is stopped, so this call would not return.';
const WATCH_WHY =
  'watch mode keeps running and rebuilds on every change, so this call would not return. A single run ' +
  'without the watch flag reports once and exits.';
const FOLLOW_WHY =
  'following a log waits for new lines and never exits on its own. The same command without ' +
  '-f/--follow prints what is there now and returns; to wait for one line, a time limit bounds it: ' +
  '`timeout 60 tail -f app.log | grep -m1 ready`.';

const server = (): LongRun => ({ rule: 'dev-server', why: SERVER_WHY, hint: true });
/** The server verdict, for a script body that starts one (hang/scripts.ts). */
export const serverRun = server;
const watcher = (): LongRun => ({ rule: 'watch-mode', why: WATCH_WHY, hint: true });
const follower = (): LongRun => ({ rule: 'follow', why: FOLLOW_WHY, hint: false });

/** Package-script names that by convention start a server or a watcher. */
const LONG_SCRIPTS = new Map<string, LongRun['rule']>([
  ['dev', 'dev-server'],
  ['develop', 'dev-server'],
  // `start` runs the app itself (usually a server), like `dev`; a one-shot start script is rare.
  ['start', 'dev-server'],
  ['preview', 'dev-server'],
  ['serve', 'dev-server'],
  ['start:dev', 'dev-server'],
  ['dev:server', 'dev-server'],
  ['storybook', 'dev-server'],
  ['watch', 'watch-mode'],
  ['test:watch', 'watch-mode'],
]);

/** Subcommands of each package manager that are not script names. */
// Built on first use, like the tables below: an event that never reaches them does not pay for their sets.
const PM_BUILTINS = once(
  (): Record<string, ReadonlySet<string>> => ({
    npm: new Set(), // npm only runs scripts through run/run-script/test/start
    pnpm: new Set(
      (
        'add i install update up upgrade remove rm uninstall un link ln unlink import rebuild rb prune fetch ' +
        'patch patch-commit audit list ls outdated why exec dlx create init publish pack store env setup ' +
        'config c root bin licenses deploy doctor server help install-test it'
      ).split(' '),
    ),
    yarn: new Set(
      (
        'add install remove upgrade up info init create dlx exec run workspace workspaces why config cache ' +
        'pack publish bin link unlink set plugin npm version node constraints help global ' +
        'upgrade-interactive dedupe rebuild explain patch patch-commit stage search tag team owner login ' +
        'logout audit list licenses outdated import generate-lock-entry check autoclean policy'
      ).split(' '),
    ),
    bun: new Set(
      (
        'run test x add a install i remove rm update link unlink pm build init create c upgrade repl exec ' +
        'outdated publish patch audit info why help'
      ).split(' '),
    ),
  }),
);

/** For npm/pnpm/yarn/bun: the script being run and the words after it, or null. */
export function packageScript(name: string, args: string[]): { script: string; rest: string[] } | null {
  const builtins = PM_BUILTINS()[name];
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
  if (word === 'test' || word === 't' || word === 'tst' || word === 'start')
    return { script: word, rest: args.slice(k + 1) };
  if (name === 'npm' || builtins.has(word)) return null;
  return { script: word, rest: args.slice(k + 1) };
}

function wantsWatch(args: readonly string[]): boolean {
  return args.some((a) => a === '--watch' || a === '--watchAll' || a === '--watch=true' || a === '--watchAll=true');
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

type Rule = (args: string[]) => LongRun | null;

const endless = (why: string): LongRun => ({ rule: 'endless', why, hint: false });
// Windows ping sends 4 and exits; its `-n 4` is a count (Linux -n takes no value, so `4` would be a stray host there).
const pingBounded = (args: string[]): boolean =>
  hasAny(args, HELP_FLAGS) ||
  ['c', 'w', 'o'].some((l) => inCluster(args, l, 'iIlMpQsStTW')) ||
  args.some((a, k) => /^[-/]n$/i.test(a) && /^\d+$/.test(args[k + 1] ?? '') && k + 2 < args.length);
const HELP_FLAGS = ['-V', '--help', '-h'];
const listener: Rule = (args) =>
  inCluster(args, 'l', 'pswiIqOPTVx') || hasAny(args, ['--listen'])
    ? {
        rule: 'dev-server',
        why: 'nc -l listens for connections until it is stopped, so this call would not return.',
        hint: true,
      }
    : null;
type ServerRule = (first: string | undefined, pos: string[], args: string[]) => LongRun | null;

const followIf =
  (test: (args: string[]) => boolean): Rule =>
  (args) =>
    test(args) ? follower() : null;
const watchIf =
  (test: (args: string[]) => boolean): Rule =>
  (args) =>
    test(args) ? watcher() : null;
const serveOn =
  (...subcommands: string[]): ServerRule =>
  (first) =>
    first !== undefined && subcommands.includes(first) ? server() : null;
const alwaysServer: ServerRule = () => server();

/** Commands that keep running, by program name; checked before the watch-flag and server tables. */
const FOREGROUND = once(
  (): Record<string, Rule> => ({
    tail: followIf((args) => hasLong(args, '--follow') || inCluster(args, 'f', 'ncs') || inCluster(args, 'F', 'ncs')),
    journalctl: followIf((args) => hasLong(args, '--follow') || inCluster(args, 'f', 'unptSUoDMgIi')),
    watch: (args) => {
      const pos = positionals(args, new Set(['-n', '--interval', '-q', '--equexit']));
      if (pos.length === 0) return null;
      return {
        rule: 'watch',
        why:
          'watch reruns its command until someone presses Ctrl-C, so this call would not return. Running the ' +
          'command once shows its current state; a bounded loop polls a few times: `for i in 1 2 3 4 5; do ' +
          '<command>; sleep 2; done`.',
        hint: false,
      };
    },
    ping: (args) =>
      pingBounded(args)
        ? null
        : endless(
            'ping without a count sends packets until it is stopped, so this call would not return. `ping -c 3 ' +
              'host` sends three and exits (`-w 5` bounds it to five seconds).',
          ),
    ping6: (args) =>
      pingBounded(args)
        ? null
        : endless(
            'ping without a count sends packets until it is stopped, so this call would not return. `ping -c 3 ' +
              'host` sends three and exits.',
          ),
    nc: listener,
    ncat: listener,
    netcat: listener,
    nodemon: watcher,
    'ts-node-dev': watcher,
    tsnd: watcher,
    'node-dev': watcher,
    node: watchIf((args) => args.some((a) => a === '--watch' || a.startsWith('--watch-path'))),
    tsx: watchIf((args) => positionals(args)[0] === 'watch' || hasAny(args, ['--watch'])),
    cargo: watchIf((args) => positionals(args)[0] === 'watch'),
    ptw: watcher,
    'pytest-watch': watcher,
  }),
);

/** Servers by program name, given the first positional word (options that take a value skipped). */
const SERVERS = once(
  (): Record<string, ServerRule> => ({
    next: serveOn('dev', 'start'),
    nuxt: serveOn('dev', 'preview'),
    nuxi: serveOn('dev', 'preview'),
    astro: serveOn('dev', 'preview'),
    remix: serveOn('dev'),
    'react-router': serveOn('dev'),
    wrangler: serveOn('dev'),
    vercel: serveOn('dev'),
    netlify: serveOn('dev'),
    storybook: serveOn('dev'),
    fastapi: serveOn('dev', 'run'),
    // Bare vite (or vite <root>) starts the dev server; build and optimize are one-shot.
    vite: (first, _pos, args) =>
      hasAny(args, ['-v']) ? null : first === undefined || !['build', 'optimize'].includes(first) ? server() : null,
    parcel: (first) => (first === 'watch' ? watcher() : first === 'build' ? null : server()),
    webpack: serveOn('serve', 'server'),
    rspack: serveOn('serve', 'server'),
    ng: serveOn('serve', 's'),
    'vue-cli-service': serveOn('serve'),
    gatsby: serveOn('develop', 'serve'),
    ember: serveOn('serve', 's', 'server'),
    expo: serveOn('start'),
    'react-native': serveOn('start'),
    firebase: serveOn('serve', 'emulators:start'),
    'http.server': alwaysServer,
    SimpleHTTPServer: alwaysServer,
    'http-server': alwaysServer,
    'live-server': alwaysServer,
    serve: alwaysServer,
    uvicorn: alwaysServer,
    gunicorn: alwaysServer,
    hypercorn: alwaysServer,
    daphne: alwaysServer,
    'waitress-serve': alwaysServer,
    'start-storybook': alwaysServer,
    'jupyter-lab': alwaysServer,
    'jupyter-notebook': alwaysServer,
    flask: serveOn('run'),
    'manage.py': serveOn('runserver', 'runserver_plus'),
    'django-admin': serveOn('runserver', 'runserver_plus'),
    rails: (first, _pos, args) =>
      (first === 's' || first === 'server') && !hasAny(args, ['-d', '--daemon']) ? server() : null,
    php: (first, pos, args) => (hasAny(args, ['-S']) || (first === 'artisan' && pos[1] === 'serve') ? server() : null),
    hugo: serveOn('server', 'serve'),
    jekyll: serveOn('server', 'serve', 's'),
    mkdocs: serveOn('server', 'serve'),
    zola: serveOn('server', 'serve'),
    mdbook: serveOn('server', 'serve'),
    trunk: serveOn('server', 'serve'),
    jupyter: serveOn('notebook', 'lab', 'server'),
    streamlit: serveOn('run'),
  }),
);

export function longRunner(name: string, args: string[]): LongRun | null {
  if (name === 'bun' && hasAny(args, ['--watch', '--hot'])) return watcher();
  // Package scripts: npm run dev, pnpm dev, yarn workspace web dev, bun run watch, …
  const script = packageScript(name, args);
  if (script) {
    // `npm run dev -- --help` passes --help to the script, which prints its usage and exits.
    if (script.rest.some((a) => a === '--help' || a === '-h' || a === '--version')) return null;
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

  const foreground = Object.hasOwn(FOREGROUND(), name) ? FOREGROUND()[name] : undefined;
  if (foreground) return foreground(args);
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

  const serverRule = Object.hasOwn(SERVERS(), name) ? SERVERS()[name] : undefined;
  if (serverRule) {
    const pos = positionals(args, SERVER_VALUE_OPTS());
    return serverRule(pos[0], pos, args);
  }
  if (name.endsWith('-dev-server')) return server();
  return null;
}

/** Options of the server CLIs above that take a value, so the value is not taken for a subcommand. */
const SERVER_VALUE_OPTS = once(
  () =>
    new Set([
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
    ]),
);

function containerFinding(name: string, args: string[]): LongRun | null {
  const pos = positionals(
    args,
    new Set([
      '-f',
      '--file',
      '-p',
      '--project-name',
      '-n',
      '--namespace',
      '-c',
      '--context',
      '--container',
      '-H',
      '--host',
    ]),
  );
  const logs = pos.includes('logs');
  if (logs) {
    // -f here means --follow (docker compose -f <file> before `logs` is skipped above as a value).
    const afterLogs = args.slice(args.indexOf('logs') + 1);
    if (hasLong(afterLogs, '--follow') || inCluster(afterLogs, 'f', 'ncl')) return follower();
    return null;
  }
  if (name === 'kubectl' || name === 'oc') {
    return pos[0] === 'port-forward'
      ? {
          rule: 'dev-server',
          why: 'a port-forward stays open until it is stopped, so this call would not return.',
          hint: true,
        }
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
    why:
      '`compose up` without -d stays attached to the containers and does not return while they run. ' +
      '`docker compose up -d` starts them and returns; `docker compose logs --tail 100` shows their output.',
    hint: false,
  };
}
