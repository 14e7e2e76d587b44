// `create-loop-guard doctor`: proves the installed guard works in this repo, on this machine. Read-only.
import { resolve } from 'node:path';
import { VERSION } from '../assets.ts';
import { findGitRoot } from '../scaffold/detect.ts';
import { runChecks } from './checks.ts';
import { exitCodeOf, jsonReport, notSetUpText, textReport } from '../report/doctor.ts';
import { colorEnabled, palette } from '../report/colors.ts';
import type { IO } from '../io.ts';

export async function doctor(opts: { json: boolean; cwd?: string }, io: IO): Promise<number> {
  const start = resolve(io.cwd, opts.cwd ?? '.');
  const root = findGitRoot(start) ?? start;
  const result = await runChecks({ root, env: io.env, home: io.home, version: VERSION });
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
