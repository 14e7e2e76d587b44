// Values shared by the scaffolder and the guard: pure data, so both may import it (the guard bundles it).
/** The variables that make git and pagers non-interactive for an agent's shell (shared by the scaffolder and the
 * OpenCode plugin). */
export const AGENT_ENV: Readonly<Record<string, string>> = {
  GIT_PAGER: 'cat',
  PAGER: 'cat',
  GIT_TERMINAL_PROMPT: '0',
  GIT_EDITOR: 'true',
};

/** The guard's default thresholds (LOOP_GUARD_WARN, LOOP_GUARD_BLOCK), also written into the AGENTS.md block. */
export const DEFAULT_WARN = 3;
export const DEFAULT_BLOCK = 4;
/** Refused attempts in one user turn before the guard stops the turn and writes .agents/handoff.md (LOOP_GUARD_HANDOFF;
 * 0 = never). */
export const DEFAULT_HANDOFF = 2;
