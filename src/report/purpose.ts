// What each file we own is for, in a few words: the preview names it instead of printing the file.
import { CLINE_PLUGIN } from '../tools/cline.ts';
import { CURSOR_ENV_SNIPPET } from '../tools/cursor.ts';
import { KILO_PLUGIN } from '../tools/kilo.ts';
import {
  AGENTS_GITIGNORE,
  GITATTRIBUTES,
  GUARD_PATH,
  MANIFEST_PATH,
  OLD_CLINE_GUARD_PATH,
  OLD_GUARD_PATH,
} from '../tools/markers.ts';
import { OPENCODE_PLUGIN } from '../tools/opencode.ts';

const PURPOSE: Record<string, string> = {
  [GUARD_PATH]: 'the guard every hook runs',
  [OLD_GUARD_PATH]: 'the guard under its old name',
  [OLD_CLINE_GUARD_PATH]: 'the old copy of the guard for Cline (now loaded from the one guard)',
  [CLINE_PLUGIN]: 'loads the guard into Cline',
  [OPENCODE_PLUGIN]: 'loads the guard into OpenCode, with the environment',
  [KILO_PLUGIN]: 'loads the guard into Kilo, with the environment',
  [GITATTRIBUTES]: 'marks the guard file as generated (folded in diffs)',
  [CURSOR_ENV_SNIPPET]: "the environment for Cursor's agent shell",
  [AGENTS_GITIGNORE]: 'keeps the hand-off note out of git',
  [MANIFEST_PATH]: 'what create-loop-guard owns here',
};

export function purposeOf(path: string): string | undefined {
  return PURPOSE[path];
}

/** The plan's short reasons, as a sentence a newcomer reads. */
const REASON: Record<string, string> = {
  hooks: 'hooks that run the guard',
  'hooks and environment': 'hooks that run the guard, and the environment',
  '[shell_environment_policy] set': 'the environment, in [shell_environment_policy] set',
  'stop rule': 'the stop rule, as a managed block',
  '@AGENTS.md import': 'imports AGENTS.md (@AGENTS.md)',
};

export function reasonWords(reason: string): string {
  return REASON[reason] ?? reason;
}
