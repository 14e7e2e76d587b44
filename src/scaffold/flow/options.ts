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
  /** --no-biome-edit (false) or --biome-edit (true): whether a biome config gets our entries; unset = as recorded. */
  biomeEdit?: boolean;
}

/** Whether this run leaves the biome config alone: --no-biome-edit now, or recorded by an earlier run. */
export function biomeRefused(opts: Pick<Options, 'biomeEdit'>, recorded: { biomeEdit?: false } | null): boolean {
  return opts.biomeEdit === false || (opts.biomeEdit === undefined && recorded?.biomeEdit === false);
}

/** A word as a POSIX shell reads it back: quoted when it holds anything but plain path and list characters. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The options a suggested command must repeat to act on what this run looked at: which tools, which directory. */
export function repeatedFlags(opts: Pick<Options, 'tools' | 'cwd' | 'noGit'>): string {
  return [
    opts.tools !== undefined ? ` --tools ${shellWord(opts.tools)}` : '',
    opts.cwd !== undefined ? ` --cwd ${shellWord(opts.cwd)}` : '',
    opts.noGit ? ' --no-git' : '',
  ].join('');
}
