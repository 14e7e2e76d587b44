// Pure: whether a tool trusts this folder, from the user's trust file and environment, by the file's shape (the tool
// record's `doctor.trust` names the kind and gives the words). Tools that skip project hooks silently in an untrusted
// folder make a repository that looks set up run no guard at all.
import { dirname, sep } from 'node:path';
import type { TrustFacts } from '../tools/index.ts';
import type { LoadedFile } from './config-files.ts';
import { valueAt } from './config-files.ts';
import { type Check, type Env, fail, pass } from './types.ts';
import { type Obj, obj } from '../guard/json-value.ts';

const within = (dir: string, root: string) => root === dir || root.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/** `{name}` placeholders filled in. */
export function fill(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{(\w+)\}/g, (m, k: string) => values[k] ?? m);
}

export interface TrustInput {
  /** The repository root, symlinks resolved, and the spellings a projects table may use. */
  root: string;
  roots: readonly string[];
  env: Env;
  files: ReadonlyMap<string, LoadedFile>;
}

/** `<tool>.trust`. */
export function trustCheck(tool: string, facts: TrustFacts, input: TrustInput): Check {
  const id = `${tool}.trust`;
  const file = input.files.get(facts.file);
  const shown = file?.shown ?? facts.file;
  switch (facts.kind) {
    case 'projects-table':
      return projectsTable(id, facts.texts, file, shown, input.roots);
    case 'folder-rules': {
      const t = facts.texts;
      if (input.env[facts.allEnv] === 'true') return pass(id, t.all);
      const off = input.files.get(facts.off.file);
      if (valueAt(off?.doc, facts.off.key) === facts.off.is)
        return pass(id, fill(t.off, { file: off?.shown ?? facts.off.file }));
      const rules = Object.entries(obj(file?.doc) ?? {});
      const root = input.root;
      const hit = rules.find(
        ([p, v]) => (v === 'TRUST_FOLDER' && within(p, root)) || (v === 'TRUST_PARENT' && within(dirname(p), root)),
      );
      const denied = rules.find(([p, v]) => v === 'DO_NOT_TRUST' && within(p, root));
      if (hit && !denied) return pass(id, fill(t.trusted, { file: shown, hit: hit[0] }));
      return fail(
        id,
        fill(t.untrusted, { denied: denied ? fill(t.denied, { file: shown }) : '' }),
        fill(t.fix, { root, file: shown }),
      );
    }
    case 'folder-list': {
      const t = facts.texts;
      if (input.env[facts.allEnv] === 'true') return pass(id, t.all);
      const folders = obj(file?.doc)?.[facts.key];
      const hit = Array.isArray(folders)
        ? folders.find((f): f is string => typeof f === 'string' && within(f, input.root))
        : undefined;
      if (hit) return pass(id, fill(t.trusted, { file: shown, hit }));
      return fail(id, t.untrusted, fill(t.fix, { root: input.root, file: shown }));
    }
  }
}

function projectEntry(doc: Obj, roots: readonly string[]): Obj | undefined {
  const projects = obj(doc.projects);
  if (!projects) return undefined;
  for (const [key, value] of Object.entries(projects)) if (roots.includes(key.replace(/\/+$/, ''))) return obj(value);
  return undefined;
}

/** TOML `[projects."<root>"] trust_level = "trusted"`, under any spelling of the root. */
function projectsTable(
  id: string,
  t: Extract<TrustFacts, { kind: 'projects-table' }>['texts'],
  file: LoadedFile | undefined,
  shown: string,
  roots: readonly string[],
): Check {
  const root = roots[0] ?? '';
  if (!file || file.text === null) return fail(id, fill(t.missing, { file: shown }), t.fix);
  if (file.doc === undefined)
    return fail(
      id,
      fill(t.unreadable, { file: shown, error: file.problem ?? 'not valid TOML' }),
      `fix the TOML syntax in ${shown}, then ${t.fix}`,
    );
  const level = projectEntry(obj(file.doc) ?? {}, roots)?.trust_level;
  if (level === 'trusted') return pass(id, fill(t.trusted, { file: shown, root }));
  const why =
    level === undefined
      ? `has no [projects."${root}"] trust_level = "trusted"`
      : `sets trust_level = ${JSON.stringify(level)} for ${root}`;
  return fail(id, fill(t.untrusted, { file: shown, why }), t.fix);
}

/** The spellings of the repo root a projects table may have recorded: as given and with symlinks resolved. */
export function rootKeys(root: string, realpath: (p: string) => string): string[] {
  const keys = new Set([root.replace(/\/+$/, '')]);
  try {
    keys.add(realpath(root).replace(/\/+$/, ''));
  } catch {
    // the root as given is all we have
  }
  return [...keys];
}
