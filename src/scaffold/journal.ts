// All or nothing across kills: before the first change, a journal lists every staged temp file, its target, the
// removals and the directories we create. A run killed while staging is rolled back (temps and new directories go);
// one killed after the journal says "commit" is rolled forward (the remaining renames and removals are done). The next
// run of any mode does this first, then sweeps temp files of ours that no journal names.
import {
  closeSync,
  existsSync,
  fsyncSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

export const JOURNAL_FILE = '.loop-guard-journal.json';
/** Our temp files: `.<name>.loop-guard-<pid>-<n>.tmp`. */
export const TEMP_PATTERN = /^\..*\.loop-guard-(\d+)-\d+\.tmp$/;

export interface JournalData {
  state: 'staging' | 'commit';
  writes: Array<{ tmp: string; target: string }>;
  removals: string[];
  /** Directories this run creates, parents first. */
  dirs: string[];
}

/** Fault injection for the kill tests: SIGKILL ourselves at the Nth file-system step when LOOP_GUARD_TEST_KILL_AT=N. */
export class Steps {
  private n = 0;
  private readonly killAt: number;
  constructor(env: Record<string, string | undefined>) {
    this.killAt = Number.parseInt(env.LOOP_GUARD_TEST_KILL_AT ?? '', 10);
  }
  step(): void {
    this.n += 1;
    if (this.n === this.killAt) process.kill(process.pid, 'SIGKILL');
  }
}

export function journalPath(root: string): string {
  return join(root, JOURNAL_FILE);
}

/** Write the journal atomically (temp + rename) and durably (fsync of the temp, then of the folder after the rename),
 *  so a reader, or the run after a power cut, sees the old state or the new one. */
export function writeJournal(root: string, data: JournalData): void {
  const path = journalPath(root);
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w', 0o644);
  try {
    writeSync(fd, `${JSON.stringify(data)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  fsyncDir(dirname(path));
}

/** fsync a folder, so names created or renamed in it survive a power cut (a no-op where folders cannot be opened). */
export function fsyncDir(dir: string): void {
  let fd: number;
  try {
    fd = openSync(dir, 'r');
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch (err) {
    // Some file systems (and Windows) refuse fsync on a folder; the file's own fsync is what they offer.
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'EPERM' && code !== 'EISDIR' && code !== 'EBADF') throw err;
  } finally {
    closeSync(fd);
  }
}

export function clearJournal(root: string): void {
  try {
    unlinkSync(journalPath(root));
  } catch {
    // already gone
  }
}

function readJournal(root: string): JournalData | null {
  let text: string;
  try {
    text = readFileSync(journalPath(root), 'utf8');
  } catch {
    return null;
  }
  try {
    const d = JSON.parse(text) as JournalData;
    if (
      (d.state === 'staging' || d.state === 'commit') &&
      Array.isArray(d.writes) &&
      Array.isArray(d.removals) &&
      Array.isArray(d.dirs)
    )
      return d;
  } catch {
    // a torn journal cannot exist (it is renamed into place); treat garbage as nothing to do
  }
  return null;
}

function unlinkQuiet(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // not there
  }
}

/** Undo a staging run: drop its temp files and the directories it created (only if empty). */
export function rollBack(data: JournalData): void {
  for (const w of data.writes) unlinkQuiet(w.tmp);
  for (const d of [...data.dirs].reverse()) {
    try {
      rmdirSync(d);
    } catch {
      // not empty or not there: leave it
    }
  }
}

/** Finish a committed run: every staged temp still present is renamed over its target; removals done. */
export function rollForward(data: JournalData): void {
  for (const w of data.writes) if (existsSync(w.tmp)) renameSync(w.tmp, w.target);
  for (const r of data.removals) unlinkQuiet(r);
}

export interface Recovery {
  /** What the previous run's journal asked for, if there was one. */
  journal?: 'rolled-back' | 'rolled-forward';
  /** Leftover temp files of ours removed. */
  swept: string[];
}

/** Run under the repository lock, before anything else: finish or undo an interrupted run, sweep our temp files. */
export function recover(root: string, dirs: readonly string[]): Recovery {
  const out: Recovery = { swept: [] };
  const data = readJournal(root);
  if (data) {
    if (data.state === 'commit') {
      rollForward(data);
      out.journal = 'rolled-forward';
    } else {
      rollBack(data);
      out.journal = 'rolled-back';
    }
  }
  clearJournal(root);
  unlinkQuiet(`${journalPath(root)}.tmp`);
  for (const rel of ['', ...dirs]) {
    const dir = join(root, rel);
    let names: string[];
    try {
      if (lstatSync(dir).isSymbolicLink()) continue;
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const m = TEMP_PATTERN.exec(name);
      // Under the repository lock no other run of ours is writing here, so every match is a leftover.
      if (!m) continue;
      unlinkQuiet(join(dir, name));
      out.swept.push(rel ? `${rel}/${name}` : name);
    }
  }
  return out;
}
