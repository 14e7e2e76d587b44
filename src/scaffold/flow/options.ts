// The install run's options, as cli.ts parses them from argv.
export type Mode = 'apply' | 'check' | 'remove';

export interface Options {
  mode: Mode;
  yes: boolean;
  dryRun: boolean;
  force: boolean;
  json: boolean;
  shellProfile: boolean;
  /** --check: fail on outdated too. */
  strict?: boolean;
  /** Show full diffs of our own files and the ownership record (--diff / --verbose). */
  diff?: boolean;
  cwd?: string;
  /** Accept a --cwd directory that is not under git. */
  noGit?: boolean;
  tools?: string;
}
