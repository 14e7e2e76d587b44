// Two file operations that differ on Windows: replacing a file by rename, and opening one without following a link.
// Pure of process.platform: each takes the platform (and the fs calls), so the Windows paths are tested on Linux.
import { constants, lstatSync, openSync, renameSync } from 'node:fs';
import { sleep } from './sleep.ts';

/**
 * Errors that, on Windows, mean "someone has the file open", not "this cannot work": a rename over a file another
 * process holds without FILE_SHARE_DELETE (a virus scanner, an indexer, an editor) fails EPERM, EACCES or EBUSY
 * until it lets go, and so does creating a file whose name is pending deletion.
 */
export function busyCodes(platform: NodeJS.Platform): readonly string[] {
  return platform === 'win32' ? ['EPERM', 'EACCES', 'EBUSY'] : [];
}

/** Tries of a rename that Windows reports busy, with waits of 2, 4, 8, 16, 32 ms between them (≈ 60 ms at most). */
const RENAME_TRIES = 6;

/**
 * rename(from, to), replacing `to`: atomic on every platform, but on Windows retried while another process holds
 * `to` open (see busyCodes). Throws the last error when it still fails, as renameSync does.
 */
export function renameReplacing(
  from: string,
  to: string,
  platform: NodeJS.Platform = process.platform,
  rename: (a: string, b: string) => void = renameSync,
  wait: (ms: number) => void = sleep,
): void {
  const busy = busyCodes(platform);
  for (let n = 1; ; n++) {
    try {
      rename(from, to);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException | null)?.code ?? '';
      if (n >= RENAME_TRIES || !busy.includes(code)) throw error;
      wait(2 ** n);
    }
  }
}

/**
 * open(path, flags) that refuses a symbolic link: with O_NOFOLLOW where the platform has it; on Windows, which has
 * none, by an lstat first (a link made between the two calls still gets through: on Windows making one needs the
 * right to, and the folders read this way are the user's own).
 */
export function openNoFollow(
  path: string,
  flags: number,
  mode?: number,
  noFollow: number = constants.O_NOFOLLOW ?? 0,
  lstat: (p: string) => { isSymbolicLink(): boolean } = lstatSync,
  open: (p: string, f: number, m?: number) => number = openSync,
): number {
  if (noFollow === 0) {
    let link = false;
    try {
      link = lstat(path).isSymbolicLink();
    } catch {
      // Missing: the open decides (ENOENT, or a create).
    }
    if (link) throw Object.assign(new Error(`ELOOP: a symbolic link, not followed: ${path}`), { code: 'ELOOP' });
  }
  return open(path, flags | noFollow, mode);
}
