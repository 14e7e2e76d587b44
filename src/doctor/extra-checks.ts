// Doctor's further checks, each a kind a tool record names in `doctor.checks` (src/tools/types.ts DoctorCheck):
// the import of AGENTS.md, a hook-approval reminder, an instruction budget, our environment through the shell profile.
import { basename } from 'node:path';
import type { DoctorCheck } from '../tools/index.ts';
import { BLOCK_ID, HOOK_MARKER } from '../tools/markers.ts';
import { AGENT_ENV } from '../tools/env.ts';
import { inspectBlock } from '../edit/md-block.ts';
import { readOwnedHeader } from '../edit/owned-file.ts';
import { PROFILE_STEP, profileTarget } from '../scaffold/profile.ts';
import { valueAt } from './config-files.ts';
import type { LoadedFile } from './config-files.ts';
import { type Check, fail, note, pass, RERUN } from './types.ts';
import { obj } from '../guard/json-value.ts';

/** PreToolUse → pre_tool_use, the spelling in approval keys. */
export function snakeEvent(event: string): string {
  return event.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
}

/**
 * Pure: `<tool>.hook-approval`, a reminder (•, not a pass: approval cannot be verified). The tool records approvals as
 * `[hooks.state."<abs hooks file>:<event>:<group>:<handler>"] trusted_hash = …`; doctor can see which exist but cannot
 * recompute the hash, so it reports what it sees and says how to approve.
 */
export function approvalReminder(
  tool: string,
  how: string,
  approvals: LoadedFile | undefined,
  hooksFile: string,
  roots: readonly string[],
  events: readonly string[],
): Check {
  const id = `${tool}.hook-approval`;
  const doc = obj(approvals?.doc);
  if (!doc) return note(id, how);
  const state = obj(obj(doc.hooks)?.state) ?? {};
  const files = roots.map((r) => `${r}/${hooksFile}:`);
  const approved = events.filter((e) =>
    Object.keys(state).some(
      (k) =>
        files.some((f) => k.startsWith(`${f}${snakeEvent(e)}:`)) && typeof obj(state[k])?.trusted_hash === 'string',
    ),
  );
  const seen = approved.length
    ? `approvals are recorded for ${approved.join(', ')}` +
      `${approved.length < events.length ? ` but not ${events.filter((e) => !approved.includes(e)).join(', ')}` : ''}` +
      ` (doctor cannot tell whether they match the current entries)`
    : 'no approval is recorded for them yet';
  return note(id, `${how}; ${seen}`);
}

/** Pure: the budget in effect; the project's own setting wins over the user's. */
export function budgetOf(key: string, user: unknown, project: unknown, bytes: number): number {
  for (const doc of [project, user]) {
    const v = valueAt(doc, [key]);
    if (typeof v === 'number' && Number.isFinite(v) && v > 0) return v;
    if (typeof v === 'bigint' && v > 0n) return Number(v);
  }
  return bytes;
}

export interface ProfileInput {
  env: Record<string, string | undefined>;
  home: string;
  version: string;
  profileBlock: string;
  tilde(path: string): string;
  readAbs(path: string): string | null;
}

/** Whether the user's shell profile gives the tool's shell our environment through `snippet` (read only). */
export function profileLoads(snippet: string, p: ProfileInput): { loaded: boolean; where: string } {
  const target = profileTarget(p.env, p.home);
  if (!target)
    return {
      loaded: false,
      where: `your shell profile ($SHELL is ${p.env.SHELL ?? 'unset'}, which create-loop-guard cannot check)`,
    };
  const where = p.tilde(target.path);
  const text = p.readAbs(target.path);
  if (text === null) return { loaded: false, where };
  if (text.includes(basename(snippet))) return { loaded: true, where };
  if (target.kind === 'fish') return { loaded: readOwnedHeader(text) !== null, where };
  const state = inspectBlock(text, { id: BLOCK_ID, version: p.version, body: p.profileBlock, style: 'shell' }).state;
  return { loaded: state === 'current' || state === 'outdated' || state === 'edited', where };
}

/** Pure: `<tool>.env` for a tool whose shell takes our values only from the shell profile, through our snippet. */
export function profileEnvCheck(
  tool: string,
  label: string,
  shellLabel: string,
  snippet: string,
  text: string | null,
  version: string,
  profile: { loaded: boolean; where: string },
): Check {
  const id = `${tool}.env`;
  const header = text === null ? null : readOwnedHeader(text);
  if (text === null) return fail(id, `${snippet} is missing`, `${RERUN} to write it`);
  if (!header) return fail(id, `${snippet} has no create-loop-guard header`, `move it away, then ${RERUN}`);
  if (header.version !== version)
    return fail(
      id,
      `${snippet} is v${header.version}; this create-loop-guard is v${version}`,
      `${RERUN} to upgrade it`,
    );
  if (!profile.loaded) {
    return fail(
      id,
      `${label} has no project setting for its agent's shell environment, and ${profile.where} does not ` +
        `set it, so ${label}'s agent keeps your own pager and editor`,
      PROFILE_STEP,
    );
  }
  return pass(
    id,
    `${snippet} is current and ${profile.where} sets ` +
      `${Object.entries(AGENT_ENV)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')} in ${shellLabel}`,
  );
}

/** Pure: `<tool>.twice`, when the tool also runs another tool's hook file that holds our entries too. */
export function alsoRunsCheck(tool: string, label: string, file: string, setting: string, text: string | null): Check {
  const id = `${tool}.twice`;
  if (text === null || !text.includes(HOOK_MARKER))
    return pass(id, `${file} has no loop-guard hook, so ${label} starts the guard once per call`);
  return pass(
    id,
    `${label} also runs the hooks in ${file} (${setting}); there the guard's entry from ${file} stays quiet, ` +
      `since ${label}'s own entry guards the call, so each shell call is guarded once`,
  );
}

/** Pure: `<tool>.events`, every event in the hooks file known to the tool (an unknown one voids the whole file). */
export function knownEventsCheck(
  tool: string,
  label: string,
  file: string,
  doc: unknown,
  known: readonly string[],
  source: string,
): Check {
  const id = `${tool}.events`;
  const hooks = obj(obj(doc)?.hooks);
  if (!hooks) return note(id, `${file} has no "hooks" to check`);
  const unknown = Object.keys(hooks).filter((e) => !known.includes(e));
  if (unknown.length)
    return fail(
      id,
      `${file} names ${unknown.map((e) => `"${e}"`).join(', ')}, not an event in ${source}; ${label}` +
        ` ignores the whole file when one event is unknown to it, so no hook there runs`,
      `rename or remove ${unknown.length > 1 ? 'those events' : 'that event'} in ${file} (or update ${label})`,
    );
  return pass(id, `every event in ${file} is one ${label} knows (${source})`);
}

export type { DoctorCheck };
