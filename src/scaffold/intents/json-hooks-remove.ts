// Taking our hook entries and environment keys back out of a JSON/JSONC config, leaving every byte of the user's.
import type { EditOutcome } from '../../edit/outcome.ts';
import { splitBom } from '../../edit/text.ts';
import {
  applyAndVerify,
  commentProbe,
  commentsOf,
  comparePathsDesc,
  type HasComment,
  isObj,
  type JsonObject,
  type Op,
  pathLabel,
  same,
} from '../../edit/jsonc.ts';
import { parseEditable, planEventRemoval } from './json-hooks.ts';

export interface RemoveSpec {
  marker: string;
  ownedEnv?: { path: string[]; values: Record<string, string> };
  ensureTop?: Record<string, unknown>;
  /**
   * Containers an earlier merge created (see createdContainers): only these are deleted once emptied. Without it,
   * any container emptied by the removal goes.
   */
  created?: string[][];
}

/**
 * Take out everything ours: entries whose command contains the marker (and a group, event or hooks object left
 * empty only if it became empty because of us), and env keys in `ownedEnv` whose value still equals ours. Returns
 * { status: 'unchanged' } when nothing is ours. `becameEmpty`: the result holds nothing but `ensureTop` values (and
 * no comments), so a caller that created the file may delete it.
 */
export function removeFromJson(before: string, spec: RemoveSpec): { outcome: EditOutcome; becameEmpty: boolean } {
  const { bom, rest: body } = splitBom(before);
  const model = parseEditable(
    body,
    `Write that spot in plain JSON (or JSONC), or delete by hand every hook entry whose command contains "${spec.marker}".`,
  );
  const ops: Op[] = [];
  const hasComment = commentProbe(body);
  const hooks = model.hooks;
  if (isObj(hooks)) {
    const events = Object.keys(hooks);
    const perEvent = events.map((event) => ({
      event,
      ...planEventRemoval(hooks[event], ['hooks', event], spec.marker, hasComment),
    }));
    const mayDrop = (path: string[]) => createdByUs(spec.created, path);
    if (events.length > 0 && perEvent.every((r) => r.emptied) && !hasComment(['hooks']) && mayDrop(['hooks']))
      ops.push({ kind: 'remove', path: ['hooks'] });
    else
      for (const r of perEvent)
        ops.push(
          ...(r.emptied && mayDrop(['hooks', r.event]) ? [{ kind: 'remove', path: ['hooks', r.event] } as Op] : r.ops),
        );
  }
  if (spec.ownedEnv) ops.push(...planEnvRemoval(model, spec.ownedEnv, hasComment, spec.created));
  if (ops.length === 0) return { outcome: { status: 'unchanged', text: before, notes: [] }, becameEmpty: false };

  ops.sort((a, b) => comparePathsDesc(a.path, b.path));
  const done = applyAndVerify(body, model, ops);
  if ('problem' in done) {
    return {
      outcome: {
        status: 'conflict',
        reason: `Could not take loop-guard's entries out of this file: ${done.problem}.`,
        fix:
          `Delete by hand every hook entry whose command contains "${spec.marker}"` +
          `${spec.ownedEnv ? ` and the ${pathLabel(spec.ownedEnv.path)} keys ${Object.keys(spec.ownedEnv.values).join(', ')}` : ''}` +
          `.`,
      },
      becameEmpty: false,
    };
  }
  const rest: JsonObject = { ...done.model };
  for (const [key, value] of Object.entries(spec.ensureTop ?? {})) if (same(rest[key], value)) delete rest[key];
  if (isObj(rest.hooks) && Object.keys(rest.hooks).length === 0) delete rest.hooks;
  const becameEmpty = Object.keys(rest).length === 0 && commentsOf(done.text).length === 0;
  return { outcome: { status: 'changed', text: bom + done.text, notes: [] }, becameEmpty };
}

function planEnvRemoval(
  model: JsonObject,
  owned: { path: string[]; values: Record<string, string> },
  hasComment: HasComment,
  created?: string[][],
): Op[] {
  const chain: JsonObject[] = [model];
  for (const seg of owned.path) {
    const next = chain[chain.length - 1]![seg];
    if (!isObj(next)) return [];
    chain.push(next);
  }
  const env = chain[chain.length - 1]!;
  const ours = Object.keys(env).filter((k) => k in owned.values && env[k] === owned.values[k]);
  if (ours.length === 0) return [];
  const mayDrop = (path: string[]) => createdByUs(created, path);
  if (
    ours.length < Object.keys(env).length ||
    owned.path.length === 0 ||
    hasComment(owned.path) ||
    !mayDrop(owned.path)
  ) {
    return ours.map((k) => ({ kind: 'remove', path: [...owned.path, k] }));
  }
  // The env object (and any parent holding only it) became empty because of us, so it goes too.
  let depth = owned.path.length;
  while (
    depth > 1 &&
    Object.keys(chain[depth - 1]!).length === 1 &&
    !hasComment(owned.path.slice(0, depth - 1)) &&
    mayDrop(owned.path.slice(0, depth - 1))
  )
    depth--;
  return [{ kind: 'remove', path: owned.path.slice(0, depth) }];
}

/**
 * Whether --remove may drop the container at `path`: we created it (or no record says who did). A container the user
 * had before us stays, even empty, so --remove gives back exactly their file.
 */
function createdByUs(created: string[][] | undefined, path: string[]): boolean {
  return !created || created.some((c) => c.length === path.length && c.every((seg, i) => seg === path[i]));
}
