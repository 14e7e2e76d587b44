// One file's planned change: what every mode's plan is made of (its own module so helpers of the plan can use it).
export type Action = 'create' | 'update' | 'noop' | 'conflict' | 'remove';

export interface FileChange {
  /** Repo-relative path (absolute for a file in $HOME). */
  path: string;
  action: Action;
  before: string | null;
  /** null when the file is deleted. */
  after: string | null;
  /** One line on what happens to this file. */
  reason: string;
  /** Things the user should know, one sentence each. */
  notes: string[];
  /** For conflicts: exactly what to do by hand. */
  fix?: string;
  /** File mode for a file we create. */
  mode?: number;
  /** A file outside the repository (the shell profile). */
  home?: boolean;
  /** A built file we ship (the guard, the plugin): reports summarize it instead of printing every line. */
  generated?: boolean;
  /** A file an older version installed under a name we no longer use (see legacy.ts). */
  retired?: boolean;
}
