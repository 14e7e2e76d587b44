// Pure: are our environment keys in a tool's own config, with values that never wait for a person?
import { AGENT_ENV } from '../tools/index.ts';
import { editorWaits, pagerWaits } from './git-env.ts';
import { type Check, fail, pass, RERUN } from './types.ts';

const OFF = new Set(['off', '0', 'false', 'no', 'disable', 'disabled']);

/** Pure: a value of one of our keys that makes a command wait for a person. */
export function valueWaits(key: string, value: string): boolean {
  if (key === 'GIT_PAGER' || key === 'PAGER') return pagerWaits(value);
  if (key === 'GIT_EDITOR') return editorWaits(value);
  if (key === 'GIT_TERMINAL_PROMPT') return value.trim() !== '0';
  return false;
}

/** Pure: LOOP_GUARD set to one of the values that switch the guard off. */
export function guardSwitchedOff(value: unknown): boolean {
  return typeof value === 'string' && OFF.has(value.trim().toLowerCase());
}

function show(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
}

/**
 * `<tool>.env`: `values` is the env table from the tool's config (undefined when there is none). `where` names it
 * for messages; `extra` adds tool-specific problems (e.g. Codex's include_only dropping a key).
 */
export function envSettingsCheck(
  tool: string,
  where: string,
  values: Record<string, unknown> | undefined,
  extra: string[] = [],
  opts: { switches?: boolean } = {},
): Check {
  const id = `${tool}.env`;
  const missing: string[] = [];
  const waiting: string[] = [];
  const kept: string[] = [];
  for (const [key, ours] of Object.entries(AGENT_ENV)) {
    const v = values?.[key];
    if (typeof v !== 'string') missing.push(key);
    else if (v !== ours) (valueWaits(key, v) ? waiting : kept).push(`${key}=${JSON.stringify(v)}`);
  }
  const problems: string[] = [];
  const fixes: string[] = [];
  if (missing.length) {
    problems.push(`${where} does not set ${missing.join(', ')}`);
    fixes.push(`${RERUN} adds them`);
  }
  if (waiting.length) {
    problems.push(`${where} sets ${waiting.join(', ')}, which waits for a person`);
    fixes.push(
      `npx create-loop-guard --yes --force replaces ${waiting.length > 1 ? 'them' : 'it'} with ` +
        `${show(Object.fromEntries(waiting.map((w) => w.split('=')[0] as string).map((k) => [k, AGENT_ENV[k] as string])))}`,
    );
  }
  const switches = opts.switches !== false;
  if (switches && guardSwitchedOff(values?.LOOP_GUARD)) {
    problems.push(`${where} sets LOOP_GUARD=${JSON.stringify(values?.LOOP_GUARD)}, which switches the guard off`);
    fixes.push(`remove LOOP_GUARD from ${where}`);
  }
  if (switches && guardSwitchedOff(values?.LOOP_GUARD_HANG)) {
    problems.push(
      `${where} sets LOOP_GUARD_HANG=${JSON.stringify(values?.LOOP_GUARD_HANG)}, which switches the hang rules off`,
    );
    fixes.push(`remove LOOP_GUARD_HANG from ${where}`);
  }
  problems.push(...extra);
  if (extra.length) fixes.push(`make sure ${where} passes ${Object.keys(AGENT_ENV).join(', ')} through`);
  if (problems.length) return fail(id, problems.join('; '), fixes.join('; '));
  const note = kept.length ? ` (your own ${kept.join(', ')} kept; none of them waits)` : '';
  return pass(id, `${where} has ${show(AGENT_ENV)}${note}`);
}

/** Pure: Codex's include_only keeps only matching names, set values included; patterns are case-insensitive globs. */
export function includeOnlyDrops(patterns: unknown): string[] {
  if (!Array.isArray(patterns) || patterns.length === 0) return [];
  const res = patterns
    .filter((p): p is string => typeof p === 'string')
    .map(
      (p) =>
        new RegExp(
          `^` +
            `${p
              .replace(/[.+^${}()|[\]\\]/g, '\\$&')
              .replace(/\*/g, '.*')
              .replace(/\?/g, '.')}` +
            `$`,
          'i',
        ),
    );
  return Object.keys(AGENT_ENV).filter((k) => !res.some((r) => r.test(k)));
}
