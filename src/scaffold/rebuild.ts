// A lost record (.agents/loop-guard.json deleted) rebuilt from our marks in the files: hook entries that run our guard,
// our env values next to them, our import lines and blocks, our headers. Pure: the files' texts in, a record out, so
// a rerun records them again and --remove takes out what we wrote and nothing the user wrote.
import { hasBlock, removeBlock } from '../edit/md-block.ts';
import { isObj, parseUserFile } from '../edit/jsonc.ts';
import { readOwnedHeader } from '../edit/owned-file.ts';
import { splitBom } from '../edit/text.ts';
import { isTable, parseOrThrow } from '../edit/toml-scan.ts';
import { AGENT_ENV, type Intent, TOOL_NAMES, TOOLS, type ToolName } from '../tools/index.ts';
import { posix } from 'node:path';
import { BIOME_CONFIGS, BLOCK_ID, HOOK_MARKER, IGNORE_BLOCK_ID, PRETTIER_IGNORE } from '../tools/markers.ts';
import { biomeMarks } from './biome-config.ts';
import { blockStyle, handlerFor } from './intents/index.ts';
import type { Assets } from './intents/types.ts';
import type { FileRecord, Manifest } from './manifest.ts';

function valueAt(model: unknown, path: readonly string[]): unknown {
  let v = model;
  for (const k of path) v = isObj(v) ? v[k] : undefined;
  return v;
}

/** Keys of `env` that hold exactly our value: ours by their mark, since the file also runs our guard. */
function ourEnvKeys(env: unknown): string[] {
  if (!isObj(env) && !isTable(env)) return [];
  const table = env as Record<string, unknown>;
  return Object.keys(AGENT_ENV).filter((k) => table[k] === AGENT_ENV[k]);
}

/** What of one file looks like ours, or null when nothing does. */
function marks(intent: Intent, text: string): FileRecord | null {
  switch (intent.kind) {
    case 'owned':
      return readOwnedHeader(text) ? {} : null;
    case 'json': {
      if (!text.includes(HOOK_MARKER)) return null;
      const model = parseUserFile(splitBom(text).rest);
      const rec: FileRecord = {
        // Candidates only: --remove drops a container only once it holds nothing.
        containers: ['hooks', ...intent.hooks.events.map((e) => `hooks/${e.event}`)],
      };
      if (intent.env) {
        rec.env = ourEnvKeys(valueAt(model, intent.env.path));
        if (rec.env.length) rec.containers?.push(intent.env.path.join('/'));
      }
      return rec;
    }
    case 'toml-env': {
      const set = valueAt(parseOrThrow(splitBom(text).rest), ['shell_environment_policy', 'set']);
      const env = ourEnvKeys(set);
      if (!env.length) return null;
      // The table is ours to drop only when it holds nothing but our values.
      const onlyOurs = isTable(set) && Object.keys(set).every((k) => env.includes(k));
      return onlyOurs ? { env, tableCreated: true } : { env };
    }
    // A bare `@AGENTS.md` is the common pointer file people commit themselves: without our record it stays theirs.
    // The stop rule is our block there (an earlier version's import line is left to the user).
    case 'import':
      return hasBlock(text, BLOCK_ID, 'markdown') ? {} : null;
    case 'block':
      return hasBlock(text, BLOCK_ID, blockStyle(intent.template)) ? {} : null;
  }
}

/** The file holds nothing of anyone's once our part is out: empty, or (JSON) only the top-level values we ensure. A
 *  comment, a key or a value of the user's keeps it theirs. */
function nothingLeft(intent: Intent, text: string): boolean {
  if (text.trim() === '') return true;
  if (intent.kind !== 'json') return false;
  try {
    const data = JSON.parse(splitBom(text).rest) as unknown;
    if (!isObj(data)) return false;
    const top = intent.ensureTop ?? {};
    return Object.keys(data).every((k) => k in top && JSON.stringify(data[k]) === JSON.stringify(top[k]));
  } catch {
    return false;
  }
}

/** The tools whose own files carry our marks (a hook entry or a plugin of ours; the shared files say nothing). */
function toolsWithMarks(files: ReadonlyMap<string, string | null>): ToolName[] {
  return TOOL_NAMES.filter((t) =>
    TOOLS[t].intents.some((i) => {
      const text = files.get(i.path);
      if (!text || i.path.startsWith('.agents/')) return false;
      return i.kind === 'json' ? text.includes(HOOK_MARKER) : i.kind === 'owned' && readOwnedHeader(text) !== null;
    }),
  );
}

/**
 * The record an install would have written, read back from `files` (every path of every tool's intents). A file is
 * recorded as created when taking our part out leaves nothing of anyone's. Null when nothing carries our marks.
 */
export function rebuildManifest(
  files: ReadonlyMap<string, string | null>,
  intents: (tools: ToolName[]) => Intent[],
  ctx: { version: string; assets: Assets },
): Manifest | null {
  const tools = toolsWithMarks(files);
  if (!tools.length) return null;
  const out: Record<string, FileRecord> = {};
  for (const intent of intents(tools)) {
    const text = files.get(intent.path) ?? null;
    if (text === null) continue;
    let rec: FileRecord | null;
    try {
      rec = marks(intent, text);
    } catch {
      continue; // a file we cannot parse: the plan says so with its line and column
    }
    if (!rec) continue;
    if (intent.kind !== 'owned') {
      const r = handlerFor(intent).remove(intent, { before: text, force: false, ...ctx }, rec);
      if (r.kind === 'edit' && r.outcome.status === 'changed' && nothingLeft(intent, r.outcome.text))
        rec.created = true;
    }
    out[intent.path] = rec;
  }
  // Our negation blocks in .gitignore files, wherever the rules needed one.
  for (const [path, text] of files)
    if (posix.basename(path) === '.gitignore' && text && hasBlock(text, IGNORE_BLOCK_ID, 'shell'))
      out[path] = { ...(out[path] ?? {}), ignoreBlock: true };
  // Our block of generated files in .prettierignore: the file is ours to delete when nothing else is in it.
  const prettierIgnore = files.get(PRETTIER_IGNORE);
  if (prettierIgnore && hasBlock(prettierIgnore, BLOCK_ID, 'shell')) {
    const rest = removeBlock(prettierIgnore, { id: BLOCK_ID, style: 'shell' }, { force: false });
    const empty = rest.outcome.status === 'changed' && rest.outcome.text.trim() === '';
    out[PRETTIER_IGNORE] = { formatterBlock: true, ...(empty ? { created: true } : {}) };
  }
  // Our entries in a biome config: the ones naming the code files we generate.
  const generated = intents(tools).flatMap((i) => (i.kind === 'owned' && /\.(c|m)?js$/.test(i.path) ? [i.path] : []));
  for (const path of BIOME_CONFIGS) {
    const found = biomeMarks(files.get(path) ?? '', [...new Set(generated)]);
    if (found)
      out[path] = {
        formatterKey: found.key,
        formatterEntries: found.entries,
        ...(found.containers.length ? { containers: found.containers } : {}),
      };
  }
  return { version: ctx.version, tools, files: out };
}
