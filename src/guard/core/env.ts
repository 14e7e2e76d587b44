/** The variables that make git and pagers non-interactive for an agent's shell (shared by the scaffolder and the OpenCode plugin). */
export const AGENT_ENV: Readonly<Record<string, string>> = {
  GIT_PAGER: 'cat',
  PAGER: 'cat',
  GIT_TERMINAL_PROMPT: '0',
  GIT_EDITOR: 'true',
};
