// What pager and editor git would pick inside an agent's shell (the user's environment plus what the tool sets),
// and whether that waits for a person. Asks git itself (`git var`), so config files, PAGER and defaults all count.
import { AGENT_ENV, TOOLS, type ToolName } from '../tools/index.ts';
import { type ProcOptions, type ProcResult, runProcess } from './exec.ts';
import { type Check, type Env, fail, pass } from './types.ts';

export { editorWaits, pagerWaits } from '../tools/env-waits.ts';
import { editorWaits, pagerWaits } from '../tools/env-waits.ts';

export type Git = (args: readonly string[], env: Env) => Promise<ProcResult>;

export function gitRunner(cwd: string, timeoutMs?: number): Git {
  return (args, env) =>
    runProcess('git', args, { cwd, env, ...(timeoutMs ? { timeoutMs } : {}) } satisfies ProcOptions);
}

export interface Overlay {
  /** Variables the tool puts into its shell, applied over the user's environment. */
  env: Env;
  /** Where they come from, for messages, e.g. `.claude/settings.json env`. */
  source: string;
  /** Variables the tool itself forces after the config (Codex: PAGER/GIT_PAGER). */
  forced?: Env;
  forcedBy?: string;
}

/** Pure: where the value git uses comes from, in git's own order of precedence. */
export function winner(
  key: 'GIT_PAGER' | 'GIT_EDITOR',
  overlay: Overlay,
  base: Env,
  config: { pager?: string; editor?: string },
): string {
  if (overlay.forced?.[key] !== undefined) return `${key} forced by ${overlay.forcedBy}`;
  if (overlay.env[key] !== undefined) return `${key} from ${overlay.source}`;
  if (base[key] !== undefined) return `${key} from your environment`;
  const cfg = key === 'GIT_PAGER' ? config.pager : config.editor;
  if (cfg !== undefined)
    return `core.${key === 'GIT_PAGER' ? 'pager' : 'editor'} from your git config, because ${key} is not set`;
  const fallbacks = key === 'GIT_PAGER' ? ['PAGER'] : ['VISUAL', 'EDITOR'];
  for (const f of fallbacks)
    if (overlay.env[f] !== undefined || base[f] !== undefined) return `${f}, because ${key} is not set`;
  return `git's built-in default, because ${key} is not set`;
}

/** One fix for every variable that needs one: the tool's way of setting them, naming each once. */
function fixFor(tool: ToolName, keys: readonly string[]): string {
  return TOOLS[tool].doctor.envFix(
    keys.map((key) => [key, AGENT_ENV[key] ?? (key === 'GIT_PAGER' ? 'cat' : 'true')] as const),
  );
}

/** `<tool>.git`: run `git var GIT_PAGER` / `GIT_EDITOR` with the overlay applied. */
export async function gitEnvCheck(
  tool: ToolName,
  label: string,
  base: Env,
  overlay: Overlay,
  git: Git,
): Promise<Check> {
  const id = `${tool}.git`;
  const env: Env = { ...base, ...overlay.env, ...(overlay.forced ?? {}) };
  const version = await git(['--version'], env);
  if (version.spawnError || version.status !== 0)
    return pass(id, 'git is not installed here, so no git pager or editor can wait');
  const [pager, editor, corePager, coreEditor] = await Promise.all([
    git(['var', 'GIT_PAGER'], env),
    git(['var', 'GIT_EDITOR'], env),
    git(['config', '--get', 'core.pager'], env),
    git(['config', '--get', 'core.editor'], env),
  ]);
  const config = {
    ...(corePager.status === 0 ? { pager: corePager.stdout.trim() } : {}),
    ...(coreEditor.status === 0 ? { editor: coreEditor.stdout.trim() } : {}),
  };
  const problems: string[] = [];
  const missing: string[] = [];
  const seen: string[] = [];

  const p = pager.stdout.trim();
  if (pager.status === 0) {
    const from = winner('GIT_PAGER', overlay, base, config);
    if (pagerWaits(p)) {
      problems.push(`git would page through \`${p}\` (${from}), which waits for a keypress`);
      missing.push('GIT_PAGER');
    } else seen.push(`pager \`${p || 'cat'}\``);
  } else seen.push('no pager');

  // `git var GIT_EDITOR` fails when no editor can be used (e.g. a dumb terminal): git then refuses instead of waiting.
  if (editor.status === 0) {
    const e = editor.stdout.trim();
    const from = winner('GIT_EDITOR', overlay, base, config);
    if (editorWaits(e)) {
      problems.push(`git would open the editor \`${e}\` (${from}), which waits for a person`);
      missing.push('GIT_EDITOR');
    } else seen.push(`editor \`${e}\``);
  } else seen.push('no editor (git refuses to open one)');

  if (problems.length) return fail(id, `in ${label} ${problems.join('; ')}`, fixFor(tool, missing));
  return pass(id, `git in ${label} uses ${seen.join(' and ')}: nothing waits for a person`);
}
