// `create-loop-guard doctor`: proves the installed guard works in this repo, on this machine. Read-only.
import { resolve } from 'node:path';
import { VERSION } from '../assets.ts';
import { EXIT } from '../exit-codes.ts';
import { gitRootOf } from '../guard/git-root.ts';
import { runChecks } from './checks.ts';
import { exitCodeOf, jsonReport, notSetUpText, textReport } from '../report/doctor.ts';
import { colorEnabled, palette } from '../report/colors.ts';
import type { IO } from '../io.ts';
import type { ToolName } from '../tools/names.ts';

/** doctor as a whole ends within this long, whatever the hooks it runs do (each also has its own timeout). */
export const DOCTOR_DEADLINE_MS = 90_000;

export async function doctor(
  opts: { json: boolean; cwd?: string; tools?: readonly ToolName[] },
  io: IO,
  deadlineMs = DOCTOR_DEADLINE_MS,
): Promise<number> {
  const start = resolve(io.cwd, opts.cwd ?? '.');
  const root = gitRootOf(start) ?? start;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((done) => {
    timer = setTimeout(() => done(null), deadlineMs);
  });
  const result = await Promise.race([
    runChecks({ root, env: io.env, home: io.home, version: VERSION, ...(opts.tools ? { only: opts.tools } : {}) }),
    late,
  ]);
  clearTimeout(timer);
  if (result === null) {
    const text = `the checks did not finish within ${deadlineMs / 1000} s (a hook command that never ends?); stopped.`;
    io.err(`create-loop-guard doctor: ${text}\n`);
    if (opts.json) {
      const report = {
        version: VERSION,
        root,
        tools: [],
        exitCode: EXIT.error,
        messages: [{ level: 'error', code: 'deadline', text }],
      };
      io.out(`${JSON.stringify(report, null, 2)}\n`);
    }
    return EXIT.error;
  }
  const code = exitCodeOf(result.setUp, result.groups);
  if (opts.json) {
    io.out(`${JSON.stringify(jsonReport(VERSION, root, result.groups, code), null, 2)}\n`);
    return code;
  }
  if (!result.setUp) {
    io.err(notSetUpText(root));
    return code;
  }
  io.out(textReport(VERSION, root, result.groups, palette(colorEnabled(io.env, io.stdoutIsTTY))));
  return code;
}
