// Remote and container shells that wait for a person: ssh with no remote command, telnet, sftp and ftp without a
// batch, docker/podman run or exec -it and kubectl exec -it with a shell. Rows of the interactive table
// (interactive.ts), which passes in how it judges the program a container runs.
import { hasAny, HELP, inCluster, once, optionPart, positionals } from './argv.ts';
import type { Finding, Row } from './types.ts';

/** Whether a program run inside a container, with a terminal attached, would wait (the table's REPL rows decide). */
export type InnerWaits = (inner: readonly string[]) => boolean;

export const remote = (what: string, instead: string): Finding => ({
  rule: 'remote-shell',
  why: `${what} opens an interactive session that waits for input typed at the keyboard. ${instead}`,
});

const SSH_VALUES = once(() => new Set('-b -c -D -E -e -F -I -i -J -L -l -m -O -o -p -Q -R -S -W -w -B -P'.split(' ')));
export const ssh: Row = (args) => {
  // -T, -N, -f, -n, -V, -G: no session (github's `ssh -T git@github.com`), forwarding only, background, no stdin,
  // version, config dump.
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
export const docker =
  (name: string, innerWaits: InnerWaits): Row =>
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
    // The first word after the options is the image (run) or the container (exec); the rest is what runs in it.
    if (!innerWaits(rest.slice(1))) return null;
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
export const kubectl =
  (innerWaits: InnerWaits): Row =>
  (args) => {
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

export const telnetLike =
  (name: string, instead: string): Row =>
  (args, cmd) =>
    cmd.stdinRedirected || hasAny(args, HELP) ? null : remote(name, instead);

export const sftp: Row = (args, cmd) =>
  cmd.stdinRedirected || hasAny(args, ['-b', ...HELP])
    ? null
    : remote('sftp without -b', 'A batch file runs and exits: `sftp -b cmds.txt host` (or `scp file host:path`).');
