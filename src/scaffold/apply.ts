// Writes a plan: every file is replaced atomically (temp file + rename in the same directory), modes kept.
import { chmodSync, lstatSync, mkdirSync, readdirSync, realpathSync, renameSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { FileChange } from './plan.ts';

export class ApplyError extends Error {
  constructor(
    public readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
    this.name = 'ApplyError';
  }
}

function inside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Where to write: through a symlink only if it stays in the repository (a rename would otherwise replace the link, and following it would edit a file elsewhere). */
export function writeTarget(root: string, change: FileChange): string {
  const abs = change.home ? change.path : resolve(root, change.path);
  let st;
  try {
    st = lstatSync(abs);
  } catch {
    return abs;
  }
  if (!st.isSymbolicLink()) return abs;
  let real: string;
  try {
    real = realpathSync(abs);
  } catch {
    throw new ApplyError(change.path, 'is a broken symlink; replace it with a file or remove it, then rerun');
  }
  // Dotfile managers link rc files from elsewhere on purpose, so $HOME files may point anywhere.
  if (!change.home && !inside(realpathSync(root), real)) {
    throw new ApplyError(change.path, `is a symlink to ${real}, outside the repository; writing through it would change a file that is not part of this repo. Edit that file by hand or replace the link with a file.`);
  }
  return real;
}

function existingMode(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o7777;
  } catch {
    return undefined;
  }
}

/** Directories we may create, removed again by --remove only when left empty. */
const OUR_DIRS = ['.agents/hooks', '.agents', '.opencode/plugins', '.opencode', '.cursor', '.codex', '.claude'];

export interface ApplyResult {
  written: string[];
  removed: string[];
}

export function applyPlan(root: string, changes: readonly FileChange[]): ApplyResult {
  const writes = changes.filter((c) => (c.action === 'create' || c.action === 'update') && c.after !== null);
  const removals = changes.filter((c) => c.action === 'remove');
  const staged: Array<{ tmp: string; target: string; change: FileChange }> = [];
  try {
    // Stage every new file first, so a failure part-way leaves the repository exactly as it was.
    for (const change of writes) {
      const target = writeTarget(root, change);
      mkdirSync(dirname(target), { recursive: true });
      const tmp = join(dirname(target), `.${basename(target)}.loop-guard-${process.pid}-${staged.length}.tmp`);
      const mode = existingMode(target) ?? change.mode ?? 0o644;
      writeFileSync(tmp, change.after as string, { mode });
      chmodSync(tmp, mode);
      staged.push({ tmp, target, change });
    }
    for (const s of staged) renameSync(s.tmp, s.target);
  } catch (err) {
    for (const s of staged) {
      try {
        unlinkSync(s.tmp);
      } catch {
        // already renamed or never written
      }
    }
    if (err instanceof ApplyError) throw err;
    throw new ApplyError(staged.at(-1)?.change.path ?? '(plan)', (err as Error).message);
  }
  const removed: string[] = [];
  for (const change of removals) {
    const target = writeTarget(root, change);
    try {
      unlinkSync(target);
      removed.push(change.path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new ApplyError(change.path, (err as Error).message);
    }
  }
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
