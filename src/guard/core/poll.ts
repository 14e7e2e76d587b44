// Polling: a wait followed by a check. A poll's result may still change without anything the agent does (a
// server coming up, a log growing), so polls get more identical results before a warning and a refusal.

/** What kind of command this is for the loop rules: a poll, a bare wait, or anything else. */
export type PollKind = 'poll' | 'wait' | null;

// A bare wait: only `sleep N` (optionally with `;`/`&&` and nothing else). Its result says nothing, so it is never a
// repeat alone. PowerShell's Start-Sleep [-Seconds] N (or -Milliseconds N) counts as sleep.
const BARE_WAIT = /^\s*(?:sleep\s+[\d.]+[smhd]?|wait|start-sleep(?:\s+-\w+)?\s+[\d.]+)\s*;?\s*$/i;
// A wait followed by something else: `sleep 5 && curl …`, `sleep 30; tail -3 build.log`.
const WAIT_THEN =
  /(?:^|[;&|(\n]\s*)(?:sleep\s+[\d.]+[smhd]?|[Ss]tart-[Ss]leep(?:\s+-\w+)?\s+[\d.]+)\s*(?:&&|;|\n)\s*\S/;
// A shell loop that waits: `until …; do …; done`, `while …; do sleep …; done`.
const WAIT_LOOP = /(?:^|[;&|(\n]\s*)(?:until|while)\s[\s\S]*\bdo\b[\s\S]*\bdone\b/;
// A check of something that comes up or moves by itself: a local URL or health endpoint, a log's tail, a job's status.
const CHECK = [
  // `http` is HTTPie only as a word: an `http://` URL inside a script's string is no request of the shell's.
  /\b(?:curl|wget|http(?!s?:)|nc\s+-z|Invoke-WebRequest|Invoke-RestMethod|iwr|irm|Test-NetConnection)\b[^;&|\n]*(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]|\/health|\/ready|\/status|\/ping)/i,
  /\btail\b[^;&|\n]*\.(?:log|out|txt)\b/,
  // PowerShell's tail: Get-Content (gc, cat, type) of a log with -Tail N
  /\b(?:Get-Content|gc|cat|type)\b[^;&|\n]*\.(?:log|out|txt)\b[^;&|\n]*-Tail\b|\b(?:Get-Content|gc)\b[^;&|\n]*-Tail\b[^;&|\n]*\.(?:log|out|txt)\b/i,
  /\b(?:docker(?:\s+compose)?\s+(?:logs|ps)|kubectl\s+(?:get|logs|rollout\s+status)|gh\s+run\s+(?:view|list)|pgrep|lsof\s+-i)\b/,
];

/** Classify a command for the loop rules; a cheap set of regexes, run only when a result repeats. */
export function pollKind(command: string): PollKind {
  if (BARE_WAIT.test(command)) return 'wait';
  if (WAIT_THEN.test(command) || WAIT_LOOP.test(command)) return 'poll';
  for (const re of CHECK) if (re.test(command)) return 'poll';
  return null;
}

/** Identical results of a poll before its warning and its refusal, from the user's thresholds (defaults 5 and 7:
 * refused at the 8th). */
export function pollThresholds(settings: { warn: number; block: number }): { warn: number; block: number } {
  return { warn: settings.warn + 2, block: settings.block + 3 };
}
