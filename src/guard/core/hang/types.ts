// Shapes shared by the hang rules.
import type { SimpleCommand } from '../shell/split.ts';
import type { GuardToolFacts } from '../types.ts';

/** What the rules know about the call: whether it already runs in the background, and the calling tool's facts. */
export type HangContext = Pick<GuardToolFacts, 'longRunsReturn' | 'backgroundOption' | 'shellEnv'> & {
  /** The call runs in the background (Claude run_in_background). */
  background: boolean;
  /** Where a package script or make target can be looked up; without it, script names decide. */
  files?: ProjectFiles;
};

/** One rule's reason to refuse a simple command. */
export interface Finding {
  rule: string;
  why: string;
}

/** The project's files, for the rare rule that judges a package script or make target by what it runs. */
export interface ProjectFiles {
  /** The text of a file of the command's directory (its head), or undefined. */
  read(name: string): string | undefined;
}

/** One program's row in the table of programs that wait for a person: its finding, or null when it asks nothing. */
export type Row = (args: string[], cmd: SimpleCommand, env: Map<string, string>) => Finding | null;
