// What every check of one doctor run shares: the repository, the user's environment, a throw-away state root, and
// the readers; plus the runner that replays hook commands in a state dir of their own.
import { mkdtempSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { readConfig } from '../scaffold/read-config.ts';
import type { buildAssets } from '../assets.ts';
import { TOOL_NAMES, TOOLS, type ToolName } from '../tools/index.ts';
import type { Git } from './git-env.ts';
import { type ProcResult, runShell } from './exec.ts';
import type { Env } from './types.ts';

export interface DoctorInput {
  root: string;
  env: Record<string, string | undefined>;
  home: string;
  version: string;
  /** Called as each tool's checks (the replays) finish: `done` of `total`, and the one that just finished. */
  progress?: ((done: number, total: number, label?: string) => void) | undefined;
  /** --tools: check these tools, whether or not the repository shows them set up. */
  only?: readonly ToolName[];
}

export interface Ctx extends DoctorInput {
  /** The user's environment as the agent tools inherit it (strings only). */
  base: Env;
  stateRoot: string;
  assets: ReturnType<typeof buildAssets>;
  git: Git;
  read(rel: string): string | null;
  /** `~/x` for a path under $HOME, for messages. */
  tilde(path: string): string;
}

/** A config file's text; null when missing or not a regular file under the size cap (a FIFO would hang doctor). */
export function readAbs(path: string): string | null {
  try {
    return readConfig(path, path);
  } catch {
    return null;
  }
}

export function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The guard's own switches, and every variable that would make the replay run as another tool or in another state
 *  dir: what any tool gives its hooks (`hookEnv`) or marks its payloads with (`identityEnv`). */
export const REPLAY_STRIP: readonly string[] = [
  ...new Set([
    'LOOP_GUARD',
    'LOOP_GUARD_WARN',
    'LOOP_GUARD_BLOCK',
    'LOOP_GUARD_HANG',
    'LOOP_GUARD_HANDOFF',
    'LOOP_GUARD_STATE_DIR',
    ...TOOL_NAMES.flatMap((t) => [
      ...Object.keys(TOOLS[t].doctor.hookEnv ?? {}),
      ...(TOOLS[t].doctor.identityEnv ?? []),
    ]),
  ]),
];

/** The user's environment for a child of doctor: a fresh state dir, none of REPLAY_STRIP but what `extra` sets. */
export function childEnv(ctx: Ctx, extra: Env = {}): Env {
  const dir = mkdtempSync(join(ctx.stateRoot, 'state-'));
  // The replay's hand-off note goes to the throw-away dir too: doctor never writes into the repository.
  const env: Env = {
    ...ctx.base,
    ...extra,
    LOOP_GUARD_STATE_DIR: dir,
    XDG_STATE_HOME: dir,
    LOOP_GUARD_HANDOFF_DIR: dir,
  };
  for (const k of REPLAY_STRIP) if (!(k in extra) && k !== 'LOOP_GUARD_STATE_DIR') delete env[k];
  return env;
}

/** A runner for hook commands with a fresh, throw-away state dir, so the replay never touches the user's counts. */
export function hookRunner(ctx: Ctx, extra: Env): (command: string, input: string) => Promise<ProcResult> {
  const env = childEnv(ctx, extra);
  return (command, input) => runShell(command, { cwd: ctx.root, env, input });
}
