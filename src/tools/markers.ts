// What marks a file, a hook entry or a block as ours: the scaffolder, doctor and the reports all ask here.

/** The marker in every hook command that identifies our entries (lefthook-style fingerprint: the hook path). */
export const HOOK_MARKER = '.agents/hooks/loop-guard';
/** Where the guard file goes in a repository. */
export const GUARD_PATH = '.agents/hooks/loop-guard.cjs';
/** Where versions before the switch to CommonJS put it: a rerun removes it (when ours), --remove too. */
export const OLD_GUARD_PATH = '.agents/hooks/loop-guard.mjs';
/** Where versions before the one guard file put Cline's copy of the guard: a rerun removes it (when ours), --remove
 * too. */
export const OLD_CLINE_GUARD_PATH = '.agents/hooks/loop-guard-cline.cjs';
/** The id in our managed blocks' markers (AGENTS.md, shell profile). */
export const BLOCK_ID = 'loop-guard';
/** The id of our negation block in a .gitignore (its own id: the same file may also hold our lines,
 * .agents/.gitignore). */
export const IGNORE_BLOCK_ID = 'loop-guard-unignore';
/** Keeps the hand-off note (.agents/handoff.md and .json) out of git: a file of ours, so --check and --remove cover
 * it. */
export const AGENTS_GITIGNORE = '.agents/.gitignore';
/** Marks the guard file as generated (linguist-generated), so GitHub folds it in pull-request diffs: our block
 * there. */
export const GITATTRIBUTES = '.gitattributes';
/** Where our block of generated files goes when the repository has a prettier config. */
export const PRETTIER_IGNORE = '.prettierignore';

/** The biome configs at a repository's root that may get our entries (biome-config.ts). */
export const BIOME_CONFIGS = ['biome.json', 'biome.jsonc'] as const;
/** Where the ownership manifest lives. */
export const MANIFEST_PATH = '.agents/loop-guard.json';

/** A hook command (or a config file's text) is ours when it runs our guard file. */
export function isOurHookCommand(command: unknown): boolean {
  return typeof command === 'string' && command.includes(HOOK_MARKER);
}
