// Codex runs a project's .codex/ hooks and config only when the user's own Codex config trusts the folder. Read only:
// doctor parses $CODEX_HOME/config.toml (default ~/.codex/config.toml) and never writes it.
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { type Check, fail, note, pass } from './types.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);

/** Codex's default budget for project instructions (`project_doc_max_bytes`). */
export const CODEX_DOC_BUDGET = 32 * 1024;

export function codexHome(env: Record<string, string | undefined>, home: string): string {
  return env.CODEX_HOME && env.CODEX_HOME !== '' ? env.CODEX_HOME : join(home, '.codex');
}

export type UserConfig = { path: string; doc: Obj } | { path: string; missing: true } | { path: string; error: string };

/** Read and parse a Codex config file; never throws. */
export function readCodexConfig(path: string): UserConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { path, missing: true };
  }
  return parseCodexConfig(path, text);
}

export function parseCodexConfig(path: string, text: string): UserConfig {
  try {
    return { path, doc: parse(text.replace(/^\uFEFF/, '')) as Obj };
  } catch (err) {
    return { path, error: ((err as Error).message.split('\n')[0] ?? 'not valid TOML').trim() };
  }
}

/** The spellings of the repo root Codex may have recorded: as given and with symlinks resolved. */
export function rootKeys(root: string): string[] {
  const keys = new Set([root.replace(/\/+$/, '')]);
  try {
    keys.add(realpathSync(root).replace(/\/+$/, ''));
  } catch {
    // the root as given is all we have
  }
  return [...keys];
}

function projectEntry(doc: Obj, roots: readonly string[]): Obj | undefined {
  const projects = obj(doc.projects);
  if (!projects) return undefined;
  for (const [key, value] of Object.entries(projects)) if (roots.includes(key.replace(/\/+$/, ''))) return obj(value);
  return undefined;
}

const TRUST_FIX = '`codex` → trust this folder, or `codex exec --trust` once';

/** Pure: `codex.trust`. */
export function trustCheck(cfg: UserConfig, roots: readonly string[], shownPath: string): Check {
  const id = 'codex.trust';
  const root = roots[0] ?? '';
  if ('missing' in cfg) {
    return fail(id, `${shownPath} does not exist, so Codex trusts no folder yet and silently skips this repo's .codex/hooks.json and .codex/config.toml`, TRUST_FIX);
  }
  if ('error' in cfg) {
    return fail(id, `cannot read ${shownPath}: ${cfg.error}; Codex cannot either, so the trust of this folder is unknown`, `fix the TOML syntax in ${shownPath}, then ${TRUST_FIX}`);
  }
  const entry = projectEntry(cfg.doc, roots);
  const level = entry?.trust_level;
  if (level === 'trusted') return pass(id, `${shownPath} trusts ${root}, so Codex loads its .codex/ hooks and config`);
  const why = level === undefined ? `has no [projects."${root}"] trust_level = "trusted"` : `sets trust_level = ${JSON.stringify(level)} for ${root}`;
  return fail(id, `${shownPath} ${why}, so Codex silently skips this repo's .codex/hooks.json and .codex/config.toml`, TRUST_FIX);
}

/** PreToolUse → pre_tool_use, the spelling in Codex's approval keys. */
export function snakeEvent(event: string): string {
  return event.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
}

/**
 * Pure: `codex.hook-approval`, a reminder (•, not a pass: approval cannot be verified). Codex records approvals as
 * `[hooks.state."<path>:<event>:<group>:<handler>"] trusted_hash = …`; doctor can see which exist but cannot
 * recompute the hash, so it reports what it sees and says how to approve.
 */
export function approvalReminder(cfg: UserConfig, roots: readonly string[], events: readonly string[]): Check {
  const id = 'codex.hook-approval';
  const how = 'Codex runs a project hook only after you approve it: open `codex`, type /hooks and trust the loop-guard entries (it asks again after every change to them)';
  if (!('doc' in cfg)) return note(id, how);
  const state = obj(obj(cfg.doc.hooks)?.state) ?? {};
  const files = roots.map((r) => `${r}/.codex/hooks.json:`);
  const approved = events.filter((e) =>
    Object.keys(state).some((k) => files.some((f) => k.startsWith(`${f}${snakeEvent(e)}:`)) && typeof obj(state[k])?.trusted_hash === 'string'),
  );
  const seen = approved.length
    ? `approvals are recorded for ${approved.join(', ')}${approved.length < events.length ? ` but not ${events.filter((e) => !approved.includes(e)).join(', ')}` : ''} (doctor cannot tell whether they match the current entries)`
    : 'no approval is recorded for them yet';
  return note(id, `${how}; ${seen}`);
}

/** Pure: Codex turns all hooks off with `[features] hooks = false` (or the old `codex_hooks`). */
export function hooksDisabled(doc: Obj | undefined): boolean {
  const features = obj(doc?.features);
  return features?.hooks === false || features?.codex_hooks === false;
}

/** Pure: the instruction budget in effect; a trusted project's own setting wins over the user's. */
export function docBudget(user: Obj | undefined, project: Obj | undefined): number {
  for (const doc of [project, user]) {
    const v = doc?.project_doc_max_bytes;
    if (typeof v === 'number' && Number.isFinite(v) && v > 0) return v;
    if (typeof v === 'bigint' && v > 0n) return Number(v);
  }
  return CODEX_DOC_BUDGET;
}
