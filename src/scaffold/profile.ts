// The opt-in shell profile (Cursor's agent shell has no project setting for its environment): where it is, and
// whether ours is there.
import { basename, join } from 'node:path';
import { hasBlock } from '../edit/md-block.ts';
import { readOwnedHeader } from '../edit/owned-file.ts';
import { AGENT_ENV } from '../tools/env.ts';
import { BLOCK_ID } from '../tools/markers.ts';

export interface ProfileTarget {
  /** Absolute path of the rc file (bash/zsh) or the fish conf.d file. */
  path: string;
  kind: 'block' | 'fish';
}

/** The rc file for the user's shell, from $SHELL. */
export function profileTarget(env: Record<string, string | undefined>, home: string): ProfileTarget | null {
  const shell = basename(env.SHELL ?? '');
  if (shell === 'bash') return { path: join(home, '.bashrc'), kind: 'block' };
  if (shell === 'zsh') return { path: join(env.ZDOTDIR || home, '.zshrc'), kind: 'block' };
  if (shell === 'fish')
    return {
      path: join(env.XDG_CONFIG_HOME || join(home, '.config'), 'fish', 'conf.d', 'loop-guard.fish'),
      kind: 'fish',
    };
  return null;
}

/** Our block (or our fish file) is already in the user's profile. */
export function hasProfileBlock(text: string | null): boolean {
  return text !== null && (hasBlock(text, BLOCK_ID, 'shell') || readOwnedHeader(text) !== null);
}

/** The shell-profile line that gives Cursor's agent shell our environment (Cursor has no project setting for it). */
export const PROFILE_LINE = `[ -n "$CURSOR_AGENT" ] && export ${Object.entries(AGENT_ENV)
  .map(([k, v]) => `${k}=${v}`)
  .join(' ')}`;

/** What to do when Cursor's agent shell lacks the environment: the install's next steps and doctor say the same. */
export const PROFILE_STEP = `npx create-loop-guard --shell-profile, or add this line to your shell profile: ${PROFILE_LINE}`;
