// A cheap fingerprint of the working tree, taken only when a result repeats: has anything changed since the
// previous identical result (a `sed -i`, a generator, a formatter run through the shell)?
import type { Stats } from 'node:fs';
import { builtin } from './builtin.ts';
import { hash64 } from './core/hash.ts';

/** git gets this long; a tree it cannot describe in time is "unknown", which never counts as a change. */
export const TREE_LOOK_TIMEOUT_MS = 1500;
/** At most this many listed paths are stat'ed (size and mtime), so a huge dirty tree costs a bounded amount. */
export const MAX_STAT_PATHS = 512;
/** Outside git: at most this many entries of the top two levels. */
const MAX_PLAIN_ENTRIES = 2000;

/** Fields before the path in each porcelain v2 record type (ordinary, renamed, unmerged, untracked). */
const PATH_FIELD: Readonly<Record<string, number>> = { '1': 8, '2': 9, u: 10, '?': 1 };

type Fs = typeof import('node:fs');
type ChildProcess = typeof import('node:child_process');
// Loaded only here, on the repeat path: the common path loads neither module.
const load = builtin;

function statLine(fs: Fs, path: string): string {
  let st: Stats | undefined;
  try {
    st = fs.lstatSync(path);
  } catch {
    return `${path}\t-`;
  }
  return `${path}\t${st.size}\t${st.mtimeMs}`;
}

/** git status (porcelain v2, with the HEAD commit) plus size and mtime of each listed path; null when this is not a git
 * tree. */
function gitLook(dir: string, fs: Fs, skip: ReadonlySet<string>): string | null | undefined {
  const { spawnSync } = load<ChildProcess>('node:child_process');
  const r = spawnSync(
    'git',
    [
      '--no-optional-locks',
      'status',
      '--porcelain=v2',
      '--branch',
      '-z',
      '--untracked-files=normal',
      '--ignore-submodules=dirty',
    ],
    {
      cwd: dir,
      encoding: 'utf8',
      timeout: TREE_LOOK_TIMEOUT_MS,
      maxBuffer: 8 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' },
    },
  );
  if (r.error) return (r.error as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
  if (r.status === 128) return null; // not a repository
  if (r.status !== 0 || typeof r.stdout !== 'string') return undefined;
  const parts: string[] = [];
  let n = 0;
  for (const rec of r.stdout.split('\0')) {
    if (rec.startsWith('#')) parts.push(rec); // branch head and upstream
    if (rec.startsWith('#') || rec === '') continue;
    // v2 records put the path after a fixed number of fields, so a path with spaces stays whole.
    const fields = PATH_FIELD[rec[0] ?? ''];
    if (fields === undefined) continue; // a rename's original path, already covered by its record
    const path = rec.split(' ').slice(fields).join(' ');
    if (skip.has(path)) continue;
    parts.push(rec);
    if (n++ < MAX_STAT_PATHS) parts.push(statLine(fs, `${dir}/${path}`));
  }
  return parts.join('\n');
}

/** Outside git: names, sizes and mtimes of the top two levels (hidden entries and node_modules skipped). */
function plainLook(dir: string, fs: Fs, skip: ReadonlySet<string>): string | undefined {
  const lines: string[] = [];
  const walk = (d: string, depth: number) => {
    let names: string[];
    try {
      names = fs.readdirSync(d).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (lines.length >= MAX_PLAIN_ENTRIES || name.startsWith('.') || name === 'node_modules') continue;
      const p = `${d}/${name}`;
      if (skip.has(p.slice(dir.length + 1))) continue;
      lines.push(statLine(fs, p));
      if (depth < 1) {
        try {
          if (fs.lstatSync(p).isDirectory()) walk(p, depth + 1);
        } catch {
          // gone meanwhile
        }
      }
    }
  };
  walk(dir, 0);
  return lines.length ? lines.join('\n') : undefined;
}

/** The fingerprint of the tree at `dir`, or undefined when there is no such directory or it cannot be read in time. */
export function treeFingerprint(
  dir: string | undefined,
  skip: readonly string[] = [],
  watch: readonly string[] = [],
): string | undefined {
  try {
    if (!dir) return undefined;
    const fs = load<Fs>('node:fs');
    if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return undefined;
    // Paths the command writes itself, relative to the directory as git lists them.
    const prefix = `${dir.replace(/\/+$/, '')}/`;
    const skipped = new Set(skip.map((p) => (p.startsWith(prefix) ? p.slice(prefix.length) : p)));
    const git = gitLook(dir, fs, skipped);
    if (git === undefined) return undefined;
    let text = git ?? plainLook(dir, fs, skipped);
    // Files a shell edit named: seen wherever they are, even outside git or below the plain look's two levels.
    if (watch.length) {
      const watched = watch.map((p) => statLine(fs, p.startsWith('/') ? p : `${prefix}${p}`)).join('\n');
      text = text === undefined ? watched : `${text}\n${watched}`;
    }
    return text === undefined ? undefined : hash64(text);
  } catch {
    return undefined;
  }
}
