// Our hook entries and environment keys in a JSON/JSONC config (.claude/settings.json, .codex/hooks.json,
// .cursor/hooks.json): what to add, what counts as ours, and how to take it back out. The splicing is edit/jsonc.ts.
import type { HookEntrySpec } from '../../tools/types.ts';
import { envPolicy, type EnvPolicySpec } from './env-policy.ts';
import { FileFormatError, type EditOutcome } from '../../edit/outcome.ts';
import { splitBom } from '../../edit/text.ts';
import { excerpt, lineColumn } from '../../edit/excerpt.ts';
import { parseCst } from '../../edit/jsonc-scan.ts';
import {
  applyAndVerify,
  clone,
  commentProbe,
  comparePathsDesc,
  type HasComment,
  isObj,
  type Json,
  type JsonObject,
  type Op,
  parseUserFile,
  type Path,
  pathLabel,
  same,
  typeName,
} from '../../edit/jsonc.ts';

export type { HookEntrySpec } from '../../tools/types.ts';

export interface EnvSpec extends EnvPolicySpec {
  /** Key path of the env object, e.g. ['env'] for .claude/settings.json. */
  path: string[];
}

export interface JsonEditResult {
  outcome: EditOutcome;
  /** env keys that are ours after this edit: the ones set now, plus owned ones still holding our value */
  setKeys: string[];
  /** keys whose user value was kept: { key, value } */
  kept: Array<{ key: string; value: string }>;
}

export interface MergeSpec {
  hooks?: HookEntrySpec;
  env?: EnvSpec;
  /** top-level keys to add only if absent, e.g. { version: 1 } for Cursor */
  ensureTop?: Record<string, unknown>;
}

/** Paths of the containers (hooks, hooks.<event>, the env path and its parents) `after` has and `before` did not. */
export function createdContainers(before: string | null, after: string, spec: MergeSpec): string[][] {
  const has = (model: unknown, path: string[]): boolean => {
    let cur: unknown = model;
    for (const seg of path) {
      if (!cur || typeof cur !== 'object' || Array.isArray(cur) || !(seg in (cur as object))) return false;
      cur = (cur as Record<string, unknown>)[seg];
    }
    return true;
  };
  const parse = (text: string | null): unknown =>
    text === null || text.trim() === '' ? {} : parseUserFile(splitBom(text).rest);
  const b = parse(before);
  const a = parse(after);
  const candidates: string[][] = [];
  if (spec.hooks) {
    candidates.push(['hooks']);
    for (const e of spec.hooks.events) candidates.push(['hooks', e.event]);
  }
  if (spec.env) for (let i = 1; i <= spec.env.path.length; i++) candidates.push(spec.env.path.slice(0, i));
  return candidates.filter((path) => has(a, path) && !has(b, path));
}

// ───────────────────────────── planning ─────────────────────────────

function isOurs(entry: unknown, marker: string): entry is JsonObject {
  return isObj(entry) && typeof entry.command === 'string' && entry.command.includes(marker);
}

/** A missing or catch-all matcher counts as "no matcher" for events that take none. */
function matcherFits(actual: Json | undefined, wanted: string | undefined): boolean {
  return wanted === undefined ? actual === undefined || actual === '' || actual === '*' : actual === wanted;
}

interface EditPlan {
  /** Key-level changes (set, add or drop a key) that shift no array index, applied first. */
  edits: Op[];
  /** Removals, applied next in descending path order so earlier indices stay valid. */
  removals: Op[];
  /** New members and array items, applied last, in order. */
  appends: Op[];
  notes: string[];
}

function setField(plan: EditPlan, path: Path, obj: JsonObject, key: string, value: Json): void {
  // Paths into existing entries carry array indices, so these must run before any removal shifts them.
  if (!(key in obj)) plan.edits.push({ kind: 'add', path, key, value });
  else if (!same(obj[key], value)) plan.edits.push({ kind: 'set', path: [...path, key], value });
}

function newEntry(spec: HookEntrySpec, matcher: string | undefined): JsonObject {
  const shells = spec.shells ?? {};
  if (spec.style === 'flat') {
    return matcher === undefined
      ? { command: spec.command, ...shells, timeout: spec.timeout }
      : { command: spec.command, ...shells, matcher, timeout: spec.timeout };
  }
  const hook: JsonObject = { type: 'command', command: spec.command, ...shells, timeout: spec.timeout };
  return matcher === undefined ? { hooks: [hook] } : { matcher, hooks: [hook] };
}

/** Removal of every entry of ours in one event's array; `emptied` when nothing of the user's is left in it. */
export function planEventRemoval(
  arr: Json | undefined,
  path: Path,
  marker: string,
  hasComment: HasComment,
): { ops: Op[]; emptied: boolean } {
  if (!Array.isArray(arr)) return { ops: [], emptied: false };
  const ops: Op[] = [];
  let gone = 0;
  arr.forEach((el, gi) => {
    if (isObj(el) && Array.isArray(el.hooks)) {
      const hooks = el.hooks;
      const ours = hooks.flatMap((h, hi) => (isOurs(h, marker) ? [hi] : []));
      if (ours.length === 0) return;
      if (ours.length === hooks.length) {
        ops.push({ kind: 'remove', path: [...path, gi] });
        gone++;
      } else {
        for (const hi of ours) ops.push({ kind: 'remove', path: [...path, gi, 'hooks', hi] });
      }
    } else if (isOurs(el, marker)) {
      ops.push({ kind: 'remove', path: [...path, gi] });
      gone++;
    }
  });
  return { ops, emptied: arr.length > 0 && gone === arr.length && !hasComment(path) };
}

function planNestedEvent(
  plan: EditPlan,
  arr: Json[],
  path: Path,
  spec: HookEntrySpec,
  matcher: string | undefined,
): void {
  const hits: Array<{ gi: number; hi: number }> = [];
  arr.forEach((el, gi) => {
    if (isObj(el) && Array.isArray(el.hooks)) {
      for (const [hi, h] of el.hooks.entries()) if (isOurs(h, spec.marker)) hits.push({ gi, hi });
    }
    // An entry of ours sitting directly in the event array is the wrong shape; it is replaced below.
    else if (isOurs(el, spec.marker)) plan.removals.push({ kind: 'remove', path: [...path, gi] });
  });
  const group = (gi: number): JsonObject => arr[gi] as JsonObject;
  const groupHooks = (gi: number): Json[] => group(gi).hooks as Json[];
  const oursOnly = (gi: number): boolean => groupHooks(gi).every((h) => isOurs(h, spec.marker));
  const fits = (gi: number): boolean => matcherFits(group(gi).matcher, matcher);
  const keeper =
    hits.find((h) => fits(h.gi) && oursOnly(h.gi)) ?? hits.find((h) => fits(h.gi)) ?? hits.find((h) => oursOnly(h.gi));
  if (keeper) {
    const entryPath = [...path, keeper.gi, 'hooks', keeper.hi];
    const entry = groupHooks(keeper.gi)[keeper.hi] as JsonObject;
    setField(plan, entryPath, entry, 'type', 'command');
    setField(plan, entryPath, entry, 'command', spec.command);
    for (const [k, v] of Object.entries(spec.shells ?? {})) setField(plan, entryPath, entry, k, v);
    setField(plan, entryPath, entry, 'timeout', spec.timeout);
    // Only a group holding nothing but ours gets its matcher fixed; a user's group is never changed.
    if (!fits(keeper.gi)) {
      if (matcher === undefined) plan.edits.push({ kind: 'remove', path: [...path, keeper.gi, 'matcher'] });
      else setField(plan, [...path, keeper.gi], group(keeper.gi), 'matcher', matcher);
    }
  }
  const extra = hits.filter((h) => h !== keeper);
  for (const gi of new Set(extra.map((h) => h.gi))) {
    if (gi !== keeper?.gi && oursOnly(gi)) plan.removals.push({ kind: 'remove', path: [...path, gi] });
    else
      for (const h of extra.filter((x) => x.gi === gi))
        plan.removals.push({ kind: 'remove', path: [...path, gi, 'hooks', h.hi] });
  }
  // Ours goes in its own group even when the user has one with the same matcher: their group stays
  // byte-for-byte theirs, and --remove can take ours out without touching it.
  if (!keeper) plan.appends.push({ kind: 'add', path, value: newEntry(spec, matcher) });
}

function planFlatEvent(
  plan: EditPlan,
  arr: Json[],
  path: Path,
  spec: HookEntrySpec,
  matcher: string | undefined,
): void {
  const hits = arr.flatMap((el, i) => (isOurs(el, spec.marker) ? [i] : []));
  const keeper = hits.find((i) => matcherFits((arr[i] as JsonObject).matcher, matcher)) ?? hits[0];
  if (keeper !== undefined) {
    const entry = arr[keeper] as JsonObject;
    const entryPath = [...path, keeper];
    setField(plan, entryPath, entry, 'command', spec.command);
    for (const [k, v] of Object.entries(spec.shells ?? {})) setField(plan, entryPath, entry, k, v);
    if (matcher !== undefined) setField(plan, entryPath, entry, 'matcher', matcher);
    else if ('matcher' in entry) plan.edits.push({ kind: 'remove', path: [...entryPath, 'matcher'] });
    setField(plan, entryPath, entry, 'timeout', spec.timeout);
  } else {
    plan.appends.push({ kind: 'add', path, value: newEntry(spec, matcher) });
  }
  for (const i of hits) if (i !== keeper) plan.removals.push({ kind: 'remove', path: [...path, i] });
}

function planHooks(plan: EditPlan, root: JsonObject, spec: HookEntrySpec, hasComment: HasComment): void {
  const shape =
    spec.style === 'nested' ? 'hook groups ({ "matcher"?, "hooks": [ … ] })' : 'hook entries ({ "command", … })';
  if (!('hooks' in root)) {
    const hooks: JsonObject = {};
    for (const ev of spec.events) hooks[ev.event] = [newEntry(spec, ev.matcher)];
    plan.appends.push({ kind: 'add', path: [], key: 'hooks', value: hooks });
    return;
  }
  const hooks = root.hooks;
  if (!isObj(hooks)) {
    throw new FileFormatError(
      `\`hooks\` is ${typeName(hooks)}; it should be an object mapping event names to arrays of ${shape}.`,
      'Change "hooks" to an object such as { "PreToolUse": [ … ] }, or remove it.',
    );
  }
  const wanted = new Set(spec.events.map((e) => e.event));
  for (const ev of spec.events) {
    const arr = hooks[ev.event];
    if (arr === undefined) {
      plan.appends.push({ kind: 'add', path: ['hooks'], key: ev.event, value: [newEntry(spec, ev.matcher)] });
    } else if (!Array.isArray(arr)) {
      throw new FileFormatError(
        `\`hooks.${ev.event}\` is ${typeName(arr)}; it should be an array of ${shape}.`,
        `Change "hooks.${ev.event}" to an array: [ … ].`,
      );
    } else if (spec.style === 'nested') {
      planNestedEvent(plan, arr, ['hooks', ev.event], spec, ev.matcher);
    } else {
      planFlatEvent(plan, arr, ['hooks', ev.event], spec, ev.matcher);
    }
  }
  // Entries an earlier version put under events this version no longer uses are stale, so they go.
  for (const event of Object.keys(hooks)) {
    if (wanted.has(event)) continue;
    const r = planEventRemoval(hooks[event], ['hooks', event], spec.marker, hasComment);
    if (r.ops.length === 0) continue;
    plan.removals.push(...(r.emptied ? [{ kind: 'remove', path: ['hooks', event] } as Op] : r.ops));
    plan.notes.push(`Removed loop-guard's hook from hooks.${event}, which this version no longer uses.`);
  }
}

function planEnv(
  plan: EditPlan,
  root: JsonObject,
  spec: EnvSpec,
): { setKeys: string[]; kept: Array<{ key: string; value: string }> } {
  const setKeys: string[] = [];
  const kept: Array<{ key: string; value: string }> = [];
  const label = pathLabel(spec.path);
  let node: JsonObject = root;
  for (let i = 0; i < spec.path.length; i++) {
    const seg = spec.path[i]!;
    const next = node[seg];
    if (next === undefined) {
      let value: JsonObject = { ...spec.values };
      for (let j = spec.path.length - 1; j > i; j--) value = { [spec.path[j]!]: value };
      if (Object.keys(spec.values).length > 0)
        plan.appends.push({ kind: 'add', path: spec.path.slice(0, i), key: seg, value });
      return { setKeys: Object.keys(spec.values), kept };
    }
    if (!isObj(next)) {
      const where = pathLabel(spec.path.slice(0, i + 1));
      throw new FileFormatError(
        `\`${where}\` is ${typeName(next)}; it should be an object of environment variables (name → string).`,
        `Change "${where}" to an object such as { "GIT_PAGER": "cat" }, or remove it.`,
      );
    }
    node = next;
  }
  const env = node;
  const policy = envPolicy(spec, (key) => ({ has: env[key] !== undefined, value: env[key] }));
  for (const step of policy.steps) {
    const { key, value } = step;
    if (step.action === 'add') plan.appends.push({ kind: 'add', path: spec.path, key, value });
    else if (step.action === 'replace') {
      plan.edits.push({ kind: 'set', path: [...spec.path, key], value });
      if (step.forced)
        plan.notes.push(
          `Replaced your ${label}.${key}=${JSON.stringify(step.current)} with ${JSON.stringify(value)} (--force).`,
        );
    } else if (step.action === 'keep') {
      const theirs = typeof step.current === 'string' ? step.current : JSON.stringify(step.current);
      kept.push({ key, value: theirs });
      plan.notes.push(
        step.changed
          ? `Kept your ${label}.${key}=${JSON.stringify(theirs)}: you changed loop-guard's ` +
              `${JSON.stringify(value)}, so it is yours now (--force puts ours back).`
          : `Kept your ${label}.${key}=${JSON.stringify(theirs)}; loop-guard would set ${JSON.stringify(value)}` +
              ` (use --force to replace it).`,
      );
    }
  }
  setKeys.push(...policy.setKeys);
  // A key we set earlier but no longer want is ours to take back out.
  for (const key of spec.owned) {
    if (!(key in spec.values) && key in node) {
      plan.removals.push({ kind: 'remove', path: [...spec.path, key] });
      plan.notes.push(`Removed ${label}.${key}, which loop-guard set earlier and no longer needs.`);
    }
  }
  return { setKeys, kept };
}

/** Checks the merged value against the spec itself, independently of how the plan was made. */
function hooksProblem(model: JsonObject, spec: HookEntrySpec): string | null {
  const hooks = model.hooks;
  if (!isObj(hooks)) return 'no hooks object';
  const wanted = new Map(spec.events.map((e) => [e.event, e.matcher]));
  for (const [event, arr] of Object.entries(hooks)) {
    if (!Array.isArray(arr)) continue;
    const found: Array<{ entry: JsonObject; matcher: Json | undefined }> = [];
    for (const el of arr) {
      if (spec.style === 'flat' && isOurs(el, spec.marker)) found.push({ entry: el, matcher: el.matcher });
      if (spec.style === 'nested' && isObj(el) && Array.isArray(el.hooks)) {
        for (const h of el.hooks) if (isOurs(h, spec.marker)) found.push({ entry: h, matcher: el.matcher });
      }
    }
    if (!wanted.has(event)) {
      if (found.length > 0) return `a stale entry in hooks.${event}`;
      continue;
    }
    if (found.length !== 1) return `${found.length} entries in hooks.${event}`;
    const { entry, matcher } = found[0]!;
    const shellsStale = Object.entries(spec.shells ?? {}).some(([k, v]) => entry[k] !== v);
    if (entry.command !== spec.command || entry.timeout !== spec.timeout || shellsStale)
      return `a stale entry in hooks.${event}`;
    if (!matcherFits(matcher, wanted.get(event))) return `the wrong matcher in hooks.${event}`;
  }
  for (const event of wanted.keys()) if (!Array.isArray(hooks[event])) return `no hooks.${event}`;
  return null;
}

/** The least a person adds by hand: one line per hook event (the entry to append to its array) and the env keys. */
function snippet(spec: MergeSpec): string {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(spec.ensureTop ?? {}))
    lines.push(`  top level: ${JSON.stringify(key)}: ${JSON.stringify(value)}`);
  if (spec.env) lines.push(`  ${pathLabel(spec.env.path)}: ${JSON.stringify(spec.env.values).replace(/,/g, ', ')}`);
  if (spec.hooks)
    for (const ev of spec.hooks.events)
      lines.push(`  hooks.${ev.event}[] += ${JSON.stringify(newEntry(spec.hooks, ev.matcher))}`);
  return lines.join('\n');
}

/**
 * The user's JSONC as a model, once our byte-level scanner can read it too (an edit splices bytes); else the
 * FileFormatError that points at the spot, with `fix`.
 */
export function parseEditable(body: string, fix: string): JsonObject {
  const model = parseUserFile(body);
  try {
    parseCst(body);
  } catch (err) {
    throw unreadable(body, err, fix);
  }
  return model;
}

/** A file comment-json reads but our byte-level scanner cannot: bad input at a line and column, not a conflict. */
function unreadable(body: string, err: unknown, fix: string): FileFormatError {
  const message = err instanceof Error ? err.message : String(err);
  const offset = Number(/at offset (\d+)/.exec(message)?.[1] ?? Number.NaN);
  const what = message.replace(/ at offset \d+/, '');
  if (Number.isNaN(offset))
    return new FileFormatError(`create-loop-guard cannot edit this file byte by byte: ${what}`, fix);
  const { line, column } = lineColumn(body, offset);
  return new FileFormatError(
    `line ${line}, column ${column}: ${what}; the file parses, but create-loop-guard edits JSON byte by ` +
      `byte and cannot read this spot\n${excerpt(body, line, column)}`,
    fix,
  );
}

// ───────────────────────────── API ─────────────────────────────

/**
 * Merge our hooks and env into `before` (null: the file does not exist, so create it with 2-space indent, LF and a
 * final newline). Throws FileFormatError if `before` does not parse as JSONC or its top level is not an object, or
 * `hooks`, an event's value or env has a wrong type (saying which key and what it should be).
 */
export function mergeJson(before: string | null, spec: MergeSpec): JsonEditResult {
  const { bom, rest: body } = splitBom(before ?? '{}\n');
  const model = parseEditable(
    body,
    `Write that spot in plain JSON (or JSONC), or add loop-guard's entries by hand:\n${snippet(spec)}`,
  );
  const plan: EditPlan = { edits: [], removals: [], appends: [], notes: [] };
  for (const [key, value] of Object.entries(spec.ensureTop ?? {})) {
    if (!(key in model)) plan.appends.push({ kind: 'add', path: [], key, value: clone(value as Json) });
  }
  const env = spec.env ? planEnv(plan, model, spec.env) : { setKeys: [], kept: [] };
  if (spec.hooks) planHooks(plan, model, spec.hooks, commentProbe(body));
  const ops = [...plan.edits, ...[...plan.removals].sort((a, b) => comparePathsDesc(a.path, b.path)), ...plan.appends];
  const result = (outcome: EditOutcome): JsonEditResult => ({ outcome, setKeys: env.setKeys, kept: env.kept });
  if (ops.length === 0) return result({ status: 'unchanged', text: before ?? '', notes: plan.notes });

  const done = applyAndVerify(body, model, ops);
  const shape = 'problem' in done || !spec.hooks ? null : hooksProblem(done.model, spec.hooks);
  if ('problem' in done || shape !== null) {
    return result({
      status: 'conflict',
      reason:
        `Could not merge loop-guard's settings into this file: ` +
        `${'problem' in done ? done.problem : `the result would have ${shape}`}.`,
      fix: `Add these by hand:\n${snippet(spec)}`,
    });
  }
  return result({ status: 'changed', text: bom + done.text, notes: plan.notes });
}
