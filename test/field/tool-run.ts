// One way to run a repository's own tool (its formatter or a linter, from our devDependencies) over an installed
// layout: a clean environment, HOME in the tree so no user config leaks in, colour off, the output in one string.
import { spawn } from 'node:child_process';

/** Runs `bin` with `args` in `cwd`; resolves with its exit status and its stdout and stderr together. */
export function runTool(bin: string, args: string[], cwd: string): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, {
      cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, NO_COLOR: '1', CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, out }));
  });
}
