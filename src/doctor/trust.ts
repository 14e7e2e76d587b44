// Pure: whether Gemini CLI and Copilot CLI trust a folder, from their user files and env (both skip project hooks
// silently in an untrusted folder, so a repo that looks set up can still run no guard at all).
import { dirname, sep } from 'node:path';
import { type Check, type Env, fail, pass } from './types.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);
const within = (dir: string, root: string) => root === dir || root.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/** Gemini CLI 0.61: trusted by GEMINI_CLI_TRUST_WORKSPACE=true, folder trust turned off, or a trustedFolders.json rule. */
export function geminiTrustCheck(root: string, env: Env, userSettings: unknown, trustedFolders: unknown, where: string): Check {
  const id = 'gemini.trust';
  if (env.GEMINI_CLI_TRUST_WORKSPACE === 'true') return pass(id, 'GEMINI_CLI_TRUST_WORKSPACE=true trusts every folder, so project hooks load');
  if (obj(obj(obj(userSettings)?.security)?.folderTrust)?.enabled === false) return pass(id, 'folder trust is off in ~/.gemini/settings.json, so project hooks load');
  const rules = Object.entries(obj(trustedFolders) ?? {});
  const hit = rules.find(([p, v]) => (v === 'TRUST_FOLDER' && within(p, root)) || (v === 'TRUST_PARENT' && within(dirname(p), root)));
  const denied = rules.find(([p, v]) => v === 'DO_NOT_TRUST' && within(p, root));
  if (hit && !denied) return pass(id, `${where} trusts this folder (${hit[0]}), so Gemini CLI loads .gemini/settings.json and its hooks`);
  return fail(
    id,
    `Gemini CLI does not trust this folder${denied ? ` (${where} says DO_NOT_TRUST)` : ''}, so it skips .gemini/settings.json and runs no loop-guard hook (and --skip-trust drops them silently)`,
    `start gemini here and choose "Trust folder", or add "${root}": "TRUST_FOLDER" to ${where}`,
  );
}

/** Copilot CLI 1.0: trusted by COPILOT_ALLOW_ALL=true or a trustedFolders entry in ~/.copilot/config.json. */
export function copilotTrustCheck(root: string, env: Env, config: unknown, where: string): Check {
  const id = 'copilot.trust';
  if (env.COPILOT_ALLOW_ALL === 'true') return pass(id, 'COPILOT_ALLOW_ALL=true trusts every folder, so .github/hooks load');
  const folders = obj(config)?.trustedFolders;
  const hit = Array.isArray(folders) ? folders.find((f): f is string => typeof f === 'string' && within(f, root)) : undefined;
  if (hit) return pass(id, `${where} trusts ${hit}, so Copilot CLI loads .github/hooks`);
  return fail(
    id,
    `Copilot CLI does not trust this folder, so it loads no .github/hooks and runs no loop-guard hook (it says nothing about it)`,
    `start copilot here and trust the folder, or add "${root}" to "trustedFolders" in ${where}`,
  );
}
