// Where a run may work: the repository root (or an explicitly accepted non-git directory), never $HOME or a
// directory holding the user's own tool configs, and every path checked through every parent to stay inside it.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, realpathSync, type Stats, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { gitRootOf } from '../guard/git-root.ts';
import { TOOL_NAMES, TOOLS } from '../tools/index.ts';

/** A refusal that is the user's input, not a broken file: exit 2 with this message. */
export class RootError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RootError';
  }
}

/** A path whose resolution leaves the repository: exit 2 naming the link. */
export class EscapeError extends Error {
  constructor(
    public readonly path: string,
    public readonly link: string,
    public readonly real: string,
  ) {
    super(
      `${path}: ${link} is a symlink to ${real}, outside the repository; writing through it would change ` +
        `files that are not part of this repo. Replace the link with a real directory or file, or edit by ` +
        `hand.`,
    );
    this.name = 'EscapeError';
  }
}

/** Per-user config files of the agent tools (the records' `userLevel`): a directory where these are the user's own is
 * $HOME-like, not a project. */
export const USER_LEVEL_FILES: readonly string[] = TOOL_NAMES.flatMap((t) => TOOLS[t].userLevel);

function real(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

export function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

export interface RootChoice {
  root: string;
  note?: string;
}

/**
 * The directory a run works in. No git repository: refused unless the user named an existing directory with --cwd and
 * said --no-git. $HOME (or a directory whose tool configs are the user-level ones) is refused: installing there would
 * make every project on the machine run a hook file that exists only in that one directory.
 */
export function chooseRoot(cwd: string, opts: { cwd?: string; noGit?: boolean }, home: string): RootChoice {
  const start = resolve(cwd, opts.cwd ?? '.');
  let st: Stats;
  try {
    st = statSync(start);
  } catch {
    throw new RootError(`${start} does not exist; nothing was created. Pass --cwd an existing directory.`);
  }
  if (!st.isDirectory()) throw new RootError(`${start} is not a directory. Pass --cwd a repository directory.`);
  const git = gitRootOf(start) ?? null;
  let root: string;
  let note: string | undefined;
  if (git) {
    root = git;
    if (git !== start) note = `Working in the repository root ${git} (the nearest parent with .git).`;
  } else if (opts.cwd !== undefined && opts.noGit) {
    root = start;
    note = `No git repository: working in ${start} as you asked (--no-git).`;
  } else {
    throw new RootError(
      `no git repository at or above ${start}. create-loop-guard sets up one repository; run it in one, ` +
        `or, for a directory that is not under git, pass both --cwd ${opts.cwd ?? '.'} and --no-git.`,
    );
  }
  refuseUserLevel(root, home);
  const outer = git ? superprojectOf(root) : undefined;
  if (outer) {
    const rel = relative(start, outer) || '.';
    const sub =
      `This is a submodule of ${rel}; installing into the submodule (run in ${rel} to set up the outer ` +
      `repository instead).`;
    note = note ? `${note}\n${sub}` : sub;
  }
  return note ? { root, note } : { root };
}

/** The repository a submodule checkout belongs to (its `.git` is a file then), or undefined. */
function superprojectOf(root: string): string | undefined {
  try {
    if (!lstatSync(join(root, '.git')).isFile()) return undefined;
  } catch {
    return undefined;
  }
  // A worktree's .git is a file too: only git tells a submodule apart.
  const r = spawnSync('git', ['rev-parse', '--show-superproject-working-tree'], { cwd: root, encoding: 'utf8' });
  const outer = r.status === 0 ? r.stdout.trim() : '';
  return outer ? outer : undefined;
}

function refuseUserLevel(root: string, home: string): void {
  const r = real(root) ?? root;
  const h = real(home) ?? home;
  const why =
    'A user-level install would put the hooks in your personal tool configs, so every project on this ' +
    'machine would run a hook file that exists only here; that is not supported. Run create-loop-guard ' +
    'inside each repository instead.';
  if (r === h) throw new RootError(`${root} is your home directory, not a project. ${why}`);
  for (const rel of USER_LEVEL_FILES) {
    const inRoot = join(r, rel);
    if (!existsSync(inRoot)) continue;
    if (real(inRoot) === real(join(h, rel)))
      throw new RootError(`${root}/${rel} is your user-level ${rel.split('/')[0]} config, not a project's. ${why}`);
  }
}

/**
 * Resolve a repo-relative path component by component; throw EscapeError at the first symlink that leads outside the
 * root. Returns the absolute path, through in-repo links, to read or write.
 */
export function insidePath(root: string, rel: string): string {
  const realRoot = real(root) ?? root;
  const parts = rel.split('/').filter(Boolean);
  let cur = realRoot;
  for (let i = 0; i < parts.length; i++) {
    const next = join(cur, parts[i] as string);
    let lst: Stats;
    try {
      lst = lstatSync(next);
    } catch {
      // Missing from here on: the rest will be created inside `cur`, which is inside.
      return join(next, ...parts.slice(i + 1));
    }
    if (lst.isSymbolicLink()) {
      const target = real(next);
      const shown = parts.slice(0, i + 1).join('/');
      if (target === null) {
        if (i === parts.length - 1) return next; // a broken final link is reported by apply
        throw new EscapeError(rel, shown, '(a missing target)');
      }
      if (!isInside(realRoot, target)) throw new EscapeError(rel, shown, target);
      cur = target;
    } else cur = next;
  }
  return cur;
}

/**
 * Why the installed hook could not run from this repository, or null. Node refuses to start an ES module whose path
 * holds a backslash (ERR_INVALID_MODULE_SPECIFIER), so a `.mjs` guard there would fail on every call; quotes, `$`,
 * spaces, newlines and unicode are safe because every hook command quotes the expanded directory.
 */
export function hookPathProblem(root: string, guardPath: string): string | null {
  if (guardPath.endsWith('.mjs') && root.includes('\\')) {
    return (
      `the repository path ${JSON.stringify(root)} contains a backslash, and Node cannot run an ES module ` +
      `hook (${guardPath}) from such a path: every hook call would fail. Move or rename the directory ` +
      `without the backslash and rerun.`
    );
  }
  return null;
}

/** Each path's real file relative to the root, for the paths that are symlinks (or under one) in the repository. */
export function repoRealPaths(root: string, rels: readonly string[]): Map<string, string> {
  const realRoot = real(root) ?? root;
  const out = new Map<string, string>();
  for (const rel of rels) {
    const abs = insidePath(root, rel);
    const r = relative(realRoot, real(abs) ?? abs)
      .split(sep)
      .join('/');
    if (r !== rel) out.set(rel, r);
  }
  return out;
}
