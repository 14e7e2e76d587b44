// Where the guard keeps its per-user files (session state, the code cache, the event log): a module of its own so the
// loader part of the guard file finds the code cache without carrying the state and lock code.
import { posix, win32 } from 'node:path';
import { builtin } from './builtin.ts';

/**
 * LOOP_GUARD_STATE_DIR, else on Windows %LOCALAPPDATA%\loop-guard (the per-user, non-roaming folder), else
 * $XDG_STATE_HOME/loop-guard, else ~/.local/state/loop-guard (os.homedir()). Pure: takes env and platform.
 */
export function resolveStateDir(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
  home: () => string = () => homeDir(platform),
): string {
  // Relative values are ignored (as the XDG spec asks) because a hook's cwd changes with the agent's.
  if (platform === 'win32') {
    const explicit = windowsAbsolute(env.LOOP_GUARD_STATE_DIR);
    if (explicit) return explicit;
    // XDG is a Unix convention: Git Bash may set it, to a path Node cannot open, so Windows goes by its own folder.
    const local = windowsAbsolute(env.LOCALAPPDATA);
    if (local) return win32.join(local, 'loop-guard');
    const profile = windowsAbsolute(env.USERPROFILE);
    if (profile) return win32.join(profile, 'AppData', 'Local', 'loop-guard');
    return win32.join(home(), 'AppData', 'Local', 'loop-guard');
  }
  const explicit = env.LOOP_GUARD_STATE_DIR;
  if (explicit && posix.isAbsolute(explicit)) return explicit;
  const xdg = env.XDG_STATE_HOME;
  if (xdg && posix.isAbsolute(xdg)) return posix.join(xdg, 'loop-guard');
  return posix.join(home(), '.local', 'state', 'loop-guard');
}

/**
 * A Windows path with a drive (`C:\…`), a share (`\\server\share\…`) or a long-path prefix (`\\?\C:\…`), as given;
 * Git Bash's `/c/Users/…` as `C:\Users\…`. Undefined for a relative or drive-relative value (`C:x`, `\x`), whose
 * meaning depends on the current directory of a drive.
 */
export function windowsAbsolute(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const msys = /^\/([A-Za-z])(?:\/(.*))?$/.exec(value);
  if (msys) return `${msys[1]!.toUpperCase()}:\\${(msys[2] ?? '').replace(/\//g, '\\')}`;
  if (/^[A-Za-z]:[\\/]/.test(value) || /^[\\/]{2}[^\\/]/.test(value)) return value;
  return undefined;
}

/**
 * os.homedir() without loading node:os on the hot path (~0.2 ms of a hook's start-up): on POSIX, homedir() is
 * $HOME whenever that is set and not empty, so only the rare process without HOME (and Windows) loads the module.
 */
function homeDir(platform: NodeJS.Platform): string {
  const home = platform === 'win32' ? undefined : process.env.HOME;
  if (home) return home;
  return builtin<typeof import('node:os')>('node:os').homedir();
}
