// Builds the doctor's checklist for a repository: what is installed, and per tool whether it is wired, runs, guards,
// and leaves nothing that waits for a person. Reads the repo and the user's configs; writes only temp state dirs.
// Every per-tool fact comes from the tool records (src/tools/): this folder names no tool.
import { BLOCK_ID, isOurHookCommand, OLD_GUARD_PATH } from '../tools/markers.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { MANIFEST_PATH } from '../scaffold/manifest.ts';
import { buildAssets } from '../assets.ts';
import { GUARD_PATH, TOOL_NAMES, TOOLS, type ToolName } from '../tools/index.ts';
import { type Ctx, type DoctorInput, readAbs } from './context.ts';
import { guardSwitchedOff } from './env-settings.ts';
import { gitRunner } from './git-env.ts';
import { guardFileCheck, manifestCheck, readManifestText } from './install.ts';
import { checkIgnore, isRepoGitignore, ruleText } from '../scaffold/ignored.ts';
import { intentsFor } from '../scaffold/plan.ts';
import { agentsBlockCheck } from './instructions.ts';
import { toolGroup } from './tool-group.ts';
import { type Check, type Env, fail, type Group, note, pass, RERUN } from './types.ts';
import { settle } from './verdict.ts';

export type { DoctorInput } from './context.ts';

export interface DoctorResult {
  /** false: no manifest, no guard file, no hook entries, no plugin: nothing to check. */
  setUp: boolean;
  groups: Group[];
}

// ───────────────────────────── discovery ─────────────────────────────

/** Tools with our traces in the repo: recorded in the manifest, or our hook entries / plugin found in place. */
export function configuredTools(read: (rel: string) => string | null, manifestTools: readonly ToolName[]): ToolName[] {
  const found = new Set<ToolName>(manifestTools);
  const mentions = (rel: string) => isOurHookCommand(read(rel));
  for (const t of TOOL_NAMES) {
    const { mentions: files = [], exists = [] } = TOOLS[t].doctor.traces;
    if (files.some(mentions) || exists.some((rel) => read(rel) !== null)) found.add(t);
  }
  return TOOL_NAMES.filter((t) => found.has(t));
}

// ───────────────────────────── the list ─────────────────────────────

/** `repo.ignored`: no installed file is one git would leave out of a commit, so a clone has them all. */
function ignoredCheck(root: string, paths: readonly string[]): Check {
  const rules = checkIgnore(root, paths);
  if (rules === null)
    return note('repo.ignored', 'git could not say which installed files it ignores (not a git repository?)');
  if (!rules.length) return pass('repo.ignored', 'git ignores none of the installed files, so every clone gets them');
  const shared = rules.filter((r) => isRepoGitignore(r.source));
  const list = rules.map((r) => `${r.path} (${ruleText(r)})`).join(', ');
  return shared.length
    ? fail(
        'repo.ignored',
        `git ignores ${list}, so a clone lacks ${rules.length > 1 ? 'them' : 'it'} and its hooks find no guard`,
        `${RERUN} to add a negation block to the repository's .gitignore; then commit`,
      )
    : fail(
        'repo.ignored',
        `git ignores ${list} by a rule of this machine's, so \`git add -A\` here leaves ` +
          `${rules.length > 1 ? 'them' : 'it'} out of the commit`,
        'take the rule out (or git add -f those files), then commit',
      );
}

export async function runChecks(input: DoctorInput): Promise<DoctorResult> {
  const { root } = input;
  const read = (rel: string) => readAbs(join(root, rel));
  const manifestRead = readManifestText(read(MANIFEST_PATH));
  const tools = input.only
    ? [...input.only]
    : configuredTools(read, 'manifest' in manifestRead ? manifestRead.manifest.tools : []);
  const guardText = read(GUARD_PATH);
  if ('missing' in manifestRead && guardText === null && read(OLD_GUARD_PATH) === null && !tools.length)
    return { setUp: false, groups: [] };

  const base: Env = {};
  for (const [k, v] of Object.entries(input.env)) if (typeof v === 'string') base[k] = v;
  const stateRoot = mkdtempSync(join(tmpdir(), 'loop-guard-doctor-'));
  const tilde = (p: string) => {
    const rel = relative(input.home, p);
    return rel && !rel.startsWith('..') && !rel.startsWith('/') ? `~/${rel}` : p;
  };
  try {
    const ctx: Ctx = {
      ...input,
      base,
      stateRoot,
      assets: buildAssets(input.version),
      git: gitRunner(root),
      read,
      tilde,
    };
    const repo: Check[] = [manifestCheck(manifestRead, input.version)];
    if (tools.some((t) => TOOLS[t].intents.some((i) => i.path === GUARD_PATH)) || guardText !== null)
      repo.push(guardFileCheck(guardText, ctx.assets.guard, input.version, read(OLD_GUARD_PATH) !== null));
    repo.push(
      agentsBlockCheck(read('AGENTS.md'), {
        id: BLOCK_ID,
        version: input.version,
        body: ctx.assets.agentsBlock,
        style: 'markdown',
      }),
    );
    repo.push(
      guardSwitchedOff(base.LOOP_GUARD)
        ? fail(
            'repo.switch',
            `LOOP_GUARD=${base.LOOP_GUARD} in this environment switches the guard off for every agent started from it`,
            'unset LOOP_GUARD (and remove it from your shell profile)',
          )
        : pass('repo.switch', 'LOOP_GUARD is not switched off in this environment'),
    );
    repo.push(
      ignoredCheck(
        root,
        [...new Set([...intentsFor(tools, read).map((i) => i.path), MANIFEST_PATH])].filter((p) => read(p) !== null),
      ),
    );
    if (!tools.length)
      repo[0] = fail(
        'repo.manifest',
        `${MANIFEST_PATH} records no agent tool and no loop-guard hook entries were found`,
        `${RERUN} --tools ${TOOL_NAMES.join(',')} (the ones you use)`,
      );
    let done = 0;
    input.progress?.(0, tools.length);
    const results = await Promise.all(
      tools.map((t) =>
        toolGroup(ctx, t).then((checks) => {
          input.progress?.(++done, tools.length, TOOLS[t].label);
          return checks;
        }),
      ),
    );
    const groups: Group[] = [{ name: 'repo', label: 'Repository', checks: repo }];
    for (const [i, t] of tools.entries()) groups.push({ name: t, label: TOOLS[t].label, checks: results[i] ?? [] });
    return { setUp: true, groups: settle(groups) };
  } finally {
    rmSync(stateRoot, { recursive: true, force: true });
  }
}
