// Where the guard keeps its per-user files (session state, the code cache, the event log): a module of its own so the
// loader part of the guard file finds the code cache without carrying the state and lock code.
import { isAbsolute, join } from 'node:path';
import { builtin } from './builtin.ts';

/** LOOP_GUARD_STATE_DIR, else $XDG_STATE_HOME/loop-guard, else ~/.local/state/loop-guard (os.homedir()). Pure: takes env. */
export function resolveStateDir(env: NodeJS.ProcessEnv): string {
  // Relative values are ignored (as the XDG spec asks) because a hook's cwd changes with the agent's.
  const explicit = env.LOOP_GUARD_STATE_DIR;
  if (explicit && isAbsolute(explicit)) return explicit;
  const xdg = env.XDG_STATE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'loop-guard');
  return join(homeDir(), '.local', 'state', 'loop-guard');
}

/**
 * os.homedir() without loading node:os on the hot path (~0.2 ms of a hook's start-up): on POSIX, homedir() is
 * $HOME whenever that is set and not empty, so only the rare process without HOME (and Windows) loads the module.
 */
function homeDir(): string {
  const home = process.platform === 'win32' ? undefined : process.env.HOME;
  if (home) return home;
  return builtin<typeof import('node:os')>('node:os').homedir();
}
