// Commands for a CLI that can lose a command's output (AgentRow.slowPipes). Qwen Code 0.24.4 settles a headless shell
// call on the child's 'exit' without waiting for its pipes (ShellExecutionService.childProcessFallback with
// streamStdout off), so a command that exits right after writing is sometimes recorded as "Output: (empty)". That
// splits a loop's run of identical results, and two in a row make a loop of a progress session. For such a CLI the
// scripted commands run project scripts that pause after writing, so the output arrives first (a `sleep` in the
// command itself would make the command a poll, which the guard counts differently). Each script keeps the command's
// output and exit status.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Each scripted command, and the same command with its writing part in a pausing script (below). */
const PAUSED: Record<string, string> = {
  'echo ran >> ran.txt; ls /definitely-missing-dir': 'echo ran >> ran.txt; ./check.sh',
  'echo ran >> ran.txt; wc -l < ran.txt': 'echo ran >> ran.txt; ./count.sh',
  'echo ran >> a.txt; cat /missing-a': 'echo ran >> a.txt; ./missing-a.sh',
  'echo ran >> b.txt; cat /missing-b': 'echo ran >> b.txt; ./missing-b.sh',
  'echo ran >> ran.txt; echo "FAIL src/sum.test.js: expected 2 to be 3"; exit 1': 'echo ran >> ran.txt; ./fail.sh',
  // Run once (the hang-guard scenario), so a pause in the command itself cannot make it a poll.
  'git log': 'git log; sleep 1',
};

const SCRIPTS: Record<string, string> = {
  'check.sh': '#!/bin/sh\nls /definitely-missing-dir\ns=$?\nsleep 1\nexit $s\n',
  'count.sh': '#!/bin/sh\nwc -l < ran.txt\nsleep 1\n',
  'missing-a.sh': '#!/bin/sh\ncat /missing-a\ns=$?\nsleep 1\nexit $s\n',
  'missing-b.sh': '#!/bin/sh\ncat /missing-b\ns=$?\nsleep 1\nexit $s\n',
  'fail.sh': '#!/bin/sh\necho "FAIL src/sum.test.js: expected 2 to be 3"\nsleep 1\nexit 1\n',
};

/** `command` as a slow-pipes CLI should run it (the same command when it has no pausing form). */
export function paused(command: string): string {
  return PAUSED[command] ?? command;
}

/** Writes the pausing scripts into `repo` (executable), for the commands `paused` returns. */
export function writePausedScripts(repo: string): void {
  for (const [name, text] of Object.entries(SCRIPTS)) writeFileSync(join(repo, name), text, { mode: 0o755 });
}
