// Results the agent could not see whole: an output its tool cut, or a command its tool killed at a timeout.
// A repeat of either is often a loop on the missing part, so the warning says what was missing and where it is.

export type Unseen = { kind: 'truncated'; savedTo?: string } | { kind: 'timeout' };

// Each tool's own words (test/fixtures/payloads/*/captured): Codex, Claude Code (the adapter adds its saved-file
// line), OpenCode, and Claude's middle cut of a long failure.
const TRUNCATED_RE =
  /^Warning: truncated output \(original token count: \d+\)|^\.\.\.output truncated\.\.\.|Output too large[ .(]|Full output saved to:/m;
// Claude Code cuts a long failure in the middle (about 5,000 characters in), so this marker is looked for everywhere.
const MIDDLE_CUT_RE = /\n\n\.\.\. \[\d+ characters truncated\] \.\.\.\n\n/;
const SAVED_RE = /Full output saved to:?[ \t]*([^\n]+)/;
// Claude Code "Command timed out after 2m 0s", OpenCode "shell tool terminated command after exceeding timeout",
// Cursor's failure_type "timeout".
const TIMEOUT_RE =
  /^Command timed out after \S|shell tool terminated command after exceeding timeout|^timeout: Command timed out/m;
// The notes sit at the start of the output; a test log that prints these words further down is not the tool's note.
const LOOK = 2048;

/** Whether the tool cut this result or killed the command at its timeout, from the tool's own note. */
export function unseenResult(output: string): Unseen | null {
  const head = output.length > LOOK ? output.slice(0, LOOK) : output;
  if (TIMEOUT_RE.test(head)) return { kind: 'timeout' };
  if (!TRUNCATED_RE.test(head)) {
    return output.includes(' characters truncated] ...') && MIDDLE_CUT_RE.test(output) ? { kind: 'truncated' } : null;
  }
  const saved = SAVED_RE.exec(head)?.[1]?.trim();
  return saved ? { kind: 'truncated', savedTo: saved } : { kind: 'truncated' };
}
