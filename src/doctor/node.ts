// Does each configured hook command start, as the tool starts it? Runs the command itself (so PATH, quoting and the
// file path are all exercised) with an empty payload, which a working guard answers by allowing.
import { describeExit, lastLines, type ProcResult } from './exec.ts';
import { type Check, fail, pass, RERUN } from './types.ts';

/** The guard is built for Node 18 and later. */
export const MIN_NODE_MAJOR = 18;

export type RunCommand = (command: string, input: string) => Promise<ProcResult>;

/** Pure: read `command -v node; node --version` output into path and major version. */
export function parseNodeProbe(stdout: string): { path: string; version: string; major: number } | null {
  const [path, version] = stdout
    .trim()
    .split('\n')
    .map((s) => s.trim());
  const m = /^v(\d+)\./.exec(version ?? '');
  if (!path || !m) return null;
  return { path, version: version as string, major: Number(m[1]) };
}

/** Pure: why a hook command that ran the empty payload failed, in words. */
export function explainFailure(r: ProcResult, command: string): { message: string; fix: string } {
  const err = `${r.stderr}\n${r.stdout}`;
  if (r.status === 127 || /node: (command )?not found|node: No such file/.test(err)) {
    return {
      message: `\`node\` is not on the PATH the hook runs with: \`${command}\` ${describeExit(r)}`,
      fix:
        'install Node.js 18+ so that `node` is on the PATH of the shell the agent tool starts from (GUI apps ' +
        'may see a shorter PATH than your terminal)',
    };
  }
  if (/Cannot find module|ERR_MODULE_NOT_FOUND|ENOENT/.test(err)) {
    return {
      message: `the hook command points at a file that is not there: \`${command}\` ${describeExit(r)}`,
      fix: `${RERUN} to reinstall .agents/hooks/loop-guard.cjs and the hook entries`,
    };
  }
  return { message: `\`${command}\` ${describeExit(r)}`, fix: `${RERUN} --force to reinstall the guard` };
}

/** Every distinct command must exit 0 on an empty payload; the probe names the node it found. */
export async function nodeCheck(tool: string, commands: readonly string[], run: RunCommand): Promise<Check> {
  const id = `${tool}.node`;
  const distinct = [...new Set(commands)];
  if (!distinct.length)
    return fail(id, 'no loop-guard hook command to run (see the hooks check)', `${RERUN} to add the hook entries`);
  const probe = await run('command -v node && node --version', '');
  const found = probe.status === 0 ? parseNodeProbe(probe.stdout) : null;
  for (const command of distinct) {
    const r = await run(command, '{}');
    if (r.status !== 0 || r.timedOut || r.spawnError) {
      const { message, fix } = explainFailure(r, command);
      return fail(id, message, fix);
    }
  }
  if (found && found.major < MIN_NODE_MAJOR) {
    return fail(
      id,
      `the hook runs ${found.path} ${found.version}; the guard needs Node ${MIN_NODE_MAJOR} or later`,
      `install Node.js ${MIN_NODE_MAJOR}+ and put it first on your PATH`,
    );
  }
  const which = found
    ? `node ${found.version} (${found.path})`
    : `node (${lastLines(probe.stdout, 1) || 'path not reported'})`;
  return pass(id, `the hook command${distinct.length > 1 ? 's run' : ' runs'} with ${which}`);
}
