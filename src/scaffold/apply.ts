// Writes a plan all or nothing: a journal first (scaffold/journal.ts), then every file staged as a temp file in its
// target's directory and made durable (fsync of the temp and of its directory), then the journal flips to "commit"
// and the temps are renamed over their targets. A kill or a power cut at any point is undone or finished by the next
// run, and never renames an empty temp over a user's config.
import {
  chmodSync,
  closeSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmdirSync,
  type Stats,
  statSync,
  openSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { clearJournal, fsyncDir, type JournalData, rollBack, Steps, writeJournal } from './journal.ts';
import { EscapeError, insidePath } from './paths.ts';
import { TOOL_NAMES, TOOLS } from '../tools/index.ts';
import { AGENTS_GITIGNORE, MANIFEST_PATH, OLD_GUARD_PATH } from '../tools/markers.ts';
import type { FileChange } from './plan.ts';

export class ApplyError extends Error {
  constructor(
    public readonly path: string,
    message: string,
    /** True when the failure left files changed (the next run finishes the job from the journal). */
    public readonly partial = false,
  ) {
    super(`${path}: ${message}`);
    this.name = 'ApplyError';
  }
}

/** Where to write: resolved through every parent, and refused when any link on the way leads outside the repository. */
export function writeTarget(root: string, change: FileChange): string {
  let abs: string;
  if (change.home) abs = change.path;
  else {
    try {
      abs = insidePath(root, change.path);
    } catch (err) {
      if (err instanceof EscapeError) throw new ApplyError(change.path, err.message.slice(change.path.length + 2));
      throw err;
    }
  }
  let st: Stats;
  try {
    st = lstatSync(abs);
  } catch {
    return abs;
  }
  if (st.isSymbolicLink()) {
    // Dotfile managers link rc files from elsewhere on purpose, so $HOME files may point anywhere.
    try {
      return realpathSync(abs);
    } catch {
      throw new ApplyError(change.path, 'is a broken symlink; replace it with a file or remove it, then rerun');
    }
  }
  if (!st.isFile())
    throw new ApplyError(change.path, 'is not a regular file; replace it with one (or remove it) and rerun');
  return abs;
}

function existingMode(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o7777;
  } catch {
    return undefined;
  }
}

/** Every directory a path lies in, deepest first (so a child is emptied before its parent). */
export function dirsOf(paths: readonly string[]): string[] {
  const dirs = new Set<string>();
  for (const p of paths) for (let d = dirname(p); d !== '.' && d !== '/' && d !== ''; d = dirname(d)) dirs.add(d);
  return [...dirs].sort((a, b) => b.split('/').length - a.split('/').length || a.localeCompare(b));
}

/** Directories we may create (the ones the records' files lie in): temp files are swept there after a crash, and
 *  --remove takes one out again only when it is left empty. */
export const OUR_DIRS: readonly string[] = dirsOf([
  ...TOOL_NAMES.flatMap((t) => TOOLS[t].intents.map((i) => i.path)),
  AGENTS_GITIGNORE,
  MANIFEST_PATH,
  OLD_GUARD_PATH,
]);

export interface ApplyResult {
  written: string[];
  removed: string[];
}

/** The missing ancestors of `dir`, parents first. */
function missingDirs(dir: string): string[] {
  const out: string[] = [];
  let d = dir;
  for (;;) {
    try {
      lstatSync(d);
      break;
    } catch {
      out.unshift(d);
      const up = dirname(d);
      if (up === d) break;
      d = up;
    }
  }
  return out;
}

/** Create `path` (it must not exist) holding `text`, with `mode`, and fsync it before it is closed. */
function writeDurably(path: string, text: string, mode: number): void {
  const fd = openSync(path, 'wx', mode);
  try {
    const data = Buffer.from(text, 'utf8');
    for (let off = 0; off < data.length; ) off += writeSync(fd, data, off, data.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  chmodSync(path, mode);
}

/** The folders whose entries must be durable: each temp's folder, and the parent of each folder we created. */
function durableDirs(temps: readonly string[], created: readonly string[]): string[] {
  const out = new Set<string>();
  for (const d of created) out.add(dirname(d));
  for (const t of temps) out.add(dirname(t));
  return [...out];
}

export function applyPlan(
  root: string,
  changes: readonly FileChange[],
  env: Record<string, string | undefined> = {},
): ApplyResult {
  const steps = new Steps(env);
  const writes = changes.filter((c) => (c.action === 'create' || c.action === 'update') && c.after !== null);
  const removals = changes.filter((c) => c.action === 'remove');
  const staged = writes.map((change, i) => {
    const target = writeTarget(root, change);
    return { change, target, tmp: join(dirname(target), `.${basename(target)}.loop-guard-${process.pid}-${i}.tmp`) };
  });
  const removeTargets = removals.map((change) => ({ change, target: writeTarget(root, change) }));
  const dirs: string[] = [];
  for (const s of staged) for (const d of missingDirs(dirname(s.target))) if (!dirs.includes(d)) dirs.push(d);
  const journal: JournalData = {
    state: 'staging',
    writes: staged.map((s) => ({ tmp: s.tmp, target: s.target })),
    removals: removeTargets.map((r) => r.target),
    dirs,
  };

  let current = '(journal)';
  try {
    writeJournal(root, journal);
    steps.step();
    for (const d of dirs) {
      current = d;
      mkdirSync(d);
      steps.step();
    }
    for (const s of staged) {
      current = s.change.path;
      // A generated file takes our mode (the guard used to be 0755); a user's file keeps its own.
      const mode = (s.change.generated ? s.change.mode : undefined) ?? existingMode(s.target) ?? s.change.mode ?? 0o644;
      writeDurably(s.tmp, s.change.after as string, mode);
      steps.step();
    }
    // The temps' names, and the folders created for them, are durable before the journal says "commit".
    for (const d of durableDirs(
      staged.map((s) => s.tmp),
      dirs,
    )) {
      current = d;
      fsyncDir(d);
    }
    current = '(journal)';
    writeJournal(root, { ...journal, state: 'commit' });
    steps.step();
  } catch (err) {
    rollBack(journal);
    clearJournal(root);
    throw new ApplyError(current, (err as Error).message);
  }

  // Committed: from here a failure is finished by the next run, and the message says so.
  try {
    for (const s of staged) {
      current = s.change.path;
      renameSync(s.tmp, s.target);
      steps.step();
    }
  } catch (err) {
    throw new ApplyError(
      current,
      `${(err as Error).message}; the files before it were written, and the next run of create-loop-guard finishes the rest`,
      true,
    );
  }
  const removed: string[] = [];
  for (const r of removeTargets) {
    try {
      unlinkSync(r.target);
      removed.push(r.change.path);
      steps.step();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        throw new ApplyError(r.change.path, (err as Error).message, true);
    }
  }
  clearJournal(root);
  steps.step();
  if (removed.length) {
    for (const dir of OUR_DIRS) {
      const abs = join(root, dir);
      try {
        if (readdirSync(abs).length === 0) rmdirSync(abs);
      } catch {
        // not there, or not empty: leave it
      }
    }
  }
  return { written: staged.map((s) => s.change.path), removed };
}
