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

/** A one-line counter on a terminal while the replays run (they take seconds); nothing at all when piped. */
function progressLine(io: IO): { update: (done: number, total: number) => void; clear: () => void } {
  if (!io.stdoutIsTTY) return { update: () => {}, clear: () => {} };
  const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
  let frame = 0;
  let text = '';
  const draw = () => io.out(`\r\u001b[2K${frames[frame++ % frames.length]} ${text}`);
  const timer = setInterval(draw, 120);
  timer.unref();
  return {
    update(done, total) {
      text = `replaying real payloads through each tool's hooks… ${done} of ${total} tool${total === 1 ? '' : 's'} done`;
      draw();
    },
    clear() {
      clearInterval(timer);
      io.out('\r\u001b[2K');
    },
  };
}

export async function doctor(
  opts: {
    json: boolean;
    cwd?: string | undefined;
    strict?: boolean | undefined;
    tools?: readonly ToolName[] | undefined;
  },
  io: IO,
  deadlineMs = DOCTOR_DEADLINE_MS,
): Promise<number> {
  const start = resolve(io.cwd, opts.cwd ?? '.');
  const root = gitRootOf(start) ?? start;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((done) => {
    timer = setTimeout(() => done(null), deadlineMs);
  });
  const progress = opts.json ? progressLine({ ...io, stdoutIsTTY: false }) : progressLine(io);
  const result = await Promise.race([
    runChecks({
      root,
      env: io.env,
      home: io.home,
      version: VERSION,
      progress: progress.update,
      ...(opts.tools ? { only: opts.tools } : {}),
    }),
    late,
  ]);
  progress.clear();
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
  const code = exitCodeOf(result.setUp, result.groups, opts.strict === true);
  if (opts.json) {
    io.out(`${JSON.stringify(jsonReport(VERSION, root, result.groups, code), null, 2)}\n`);
    return code;
  }
  if (!result.setUp) {
    io.err(notSetUpText(root));
    return code;
  }
  io.out(textReport(VERSION, root, result.groups, palette(colorEnabled(io.env, io.stdoutIsTTY)), opts.strict === true));
  return code;
}
