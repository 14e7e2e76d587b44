// What an earlier run put in place, so a key the user had before install is never treated as ours.
import { FileFormatError } from '../edit/outcome.ts';
import { jsonReason } from '../edit/excerpt.ts';
import { jsonSyntaxError, parseValue } from '../edit/jsonc.ts';
import { TOOL_NAMES, type ToolName } from '../tools/index.ts';

export { MANIFEST_PATH } from '../tools/markers.ts';
import { MANIFEST_PATH } from '../tools/markers.ts';

export interface FileRecord {
  /** We created the file (remove may delete it once nothing else is left in it). */
  created?: boolean;
  /** Env keys we set in this file. */
  env?: string[];
  /** We created the TOML table that holds our env keys. */
  tableCreated?: boolean;
  /** We added the import line. */
  importAdded?: boolean;
  /** JSON containers we created (e.g. "hooks/PreToolUse"), so --remove deletes only those once emptied. */
  containers?: string[];
  /** A .gitignore holding our negation block (lets our files past the repository's own ignore rules). */
  ignoreBlock?: boolean;
  /** A formatter's ignore file (.prettierignore) holding our block of generated files. */
  formatterBlock?: boolean;
  /** A biome config: the list we added to ("files.includes") and the entries we added there. */
  formatterKey?: string[];
  formatterEntries?: string[];
  /** The text of the config's `files` value before our edit, so --remove gives back its layout too. */
  formatterWas?: string;
}

export interface Manifest {
  version: string;
  tools: ToolName[];
  files: Record<string, FileRecord>;
  /** A run here put our block in the user's shell profile (shared by every repository on the machine). */
  shellProfile?: boolean;
  /** A hash of our part of each file as written (outdated.ts): --check tells an old version's output from an edit. */
  hashes?: Record<string, string>;
  /** Tools taken out with --remove --tools: detection does not set them up again, only --tools does. */
  removed?: ToolName[];
  /** `--no-biome-edit`: the biome config is left alone and the entries to add are printed instead. */
  biomeEdit?: false;
}

export function emptyManifest(version: string): Manifest {
  return { version, tools: [], files: {} };
}

export function parseManifest(text: string): Manifest {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    let where = '';
    try {
      parseValue(text);
    } catch (e) {
      // comment-json knows the line and column that JSON.parse only tells as an offset (or not at all).
      where = jsonSyntaxError(text, e).message;
    }
    throw new FileFormatError(
      where || `not valid JSON (${jsonReason((err as Error).message)})`,
      `delete ${MANIFEST_PATH} and rerun; it is rebuilt from the files`,
    );
  }
  const m = data as Partial<Manifest>;
  if (
    !m ||
    typeof m !== 'object' ||
    typeof m.version !== 'string' ||
    !Array.isArray(m.tools) ||
    !m.files ||
    typeof m.files !== 'object'
  ) {
    throw new FileFormatError('not a create-loop-guard manifest', `delete ${MANIFEST_PATH} and rerun`);
  }
  return {
    version: m.version,
    tools: m.tools.filter((t): t is ToolName => (TOOL_NAMES as readonly string[]).includes(t)),
    files: m.files as Record<string, FileRecord>,
    ...(m.shellProfile === true ? { shellProfile: true } : {}),
    ...(m.hashes && typeof m.hashes === 'object' ? { hashes: m.hashes } : {}),
    ...(Array.isArray(m.removed)
      ? { removed: m.removed.filter((t): t is ToolName => (TOOL_NAMES as readonly string[]).includes(t)) }
      : {}),
    ...(m.biomeEdit === false ? { biomeEdit: false as const } : {}),
  };
}

/** Stable text: sorted keys, so reruns are byte-identical. */
export function renderManifest(m: Manifest): string {
  const files: Record<string, FileRecord> = {};
  for (const path of Object.keys(m.files).sort()) {
    const rec = m.files[path] as FileRecord;
    const clean: FileRecord = {};
    if (rec.created) clean.created = true;
    if (rec.env?.length) clean.env = [...rec.env].sort();
    if (rec.tableCreated) clean.tableCreated = true;
    if (rec.importAdded) clean.importAdded = true;
    if (rec.containers?.length) clean.containers = [...new Set(rec.containers)].sort();
    if (rec.ignoreBlock) clean.ignoreBlock = true;
    if (rec.formatterBlock) clean.formatterBlock = true;
    if (rec.formatterEntries?.length) {
      clean.formatterKey = [...(rec.formatterKey ?? [])];
      clean.formatterEntries = [...rec.formatterEntries];
      if (rec.formatterWas !== undefined) clean.formatterWas = rec.formatterWas;
    }
    if (Object.keys(clean).length) files[path] = clean;
  }
  const body = {
    $comment:
      'Written by create-loop-guard: what it added to this repository, so upgrades and --remove touch only that.',
    version: m.version,
    tools: [...m.tools].sort(),
    files,
    ...(m.shellProfile ? { shellProfile: true } : {}),
    ...(m.removed?.length ? { removed: [...new Set(m.removed)].sort() } : {}),
    ...(m.biomeEdit === false ? { biomeEdit: false } : {}),
    ...(m.hashes
      ? {
          hashes: Object.fromEntries(
            Object.keys(m.hashes)
              .sort()
              .map((k) => [k, m.hashes![k]!]),
          ),
        }
      : {}),
  };
  return `${formatJson(body)}\n`;
}

/** JSON as prettier 3 prints it by default (and biome 2, but for its tabs): objects one key a line, an array of plain
 *  values on one line when it fits in 80 columns. A formatter pass over the record then changes nothing. */
export function formatJson(value: unknown, indent = '', lead = 0): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (!value.length) return '[]';
    const flat = value.every((v) => v === null || typeof v !== 'object');
    const one = `[${value.map((v) => JSON.stringify(v)).join(', ')}]`;
    // `lead` is what comes before the value on its line; a trailing comma may follow.
    if (flat && lead + one.length + 1 <= 80) return one;
    return `[\n${value.map((v) => `${inner}${formatJson(v, inner, inner.length)}`).join(',\n')}\n${indent}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (!entries.length) return '{}';
    return (
      `{\n` +
      `${entries
        .map(([k, v]) => {
          const key = `${inner}${JSON.stringify(k)}: `;
          return `${key}${formatJson(v, inner, key.length)}`;
        })
        .join(',\n')}` +
      `\n${indent}}`
    );
  }
  return JSON.stringify(value);
}
