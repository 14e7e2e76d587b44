// Which file a tool that reads one instructions file a folder (Codex) reads at the repository's root, and what an
// install changes there: AGENTS.override.md, else AGENTS.md, else the first name of its fallback list
// (`project_doc_fallback_filenames` in the repository's .codex/config.toml, then the user's) that exists. Pure.
import { hasBlock } from '../edit/md-block.ts';
import { isTable, parseOrThrow } from '../edit/toml-scan.ts';
import { BLOCK_ID } from '../tools/markers.ts';

const hasOurBlock = (text: string) => hasBlock(text, BLOCK_ID, 'markdown');

/** The fallback names a config sets, with the file that sets them; null when none does (or it cannot be read). */
export function fallbackNames(
  key: string,
  configs: ReadonlyArray<{ path: string; text: string | null }>,
): { names: string[]; from: string } | null {
  for (const { path, text } of configs) {
    if (text === null) continue;
    let doc: unknown;
    try {
      doc = parseOrThrow(text);
    } catch {
      continue; // a broken config is reported where the plan edits it
    }
    const v = isTable(doc) ? doc[key] : undefined;
    if (Array.isArray(v) && v.length && v.every((n) => typeof n === 'string'))
      return { names: v as string[], from: path };
  }
  return null;
}

/**
 * What the install changes in what Codex reads at the root, in words for the plan (on AGENTS.md's line), or null.
 * `exists` is about the tree before the install.
 */
export function docNote(
  label: string,
  key: string,
  exists: (path: string) => boolean,
  fallback: { names: string[]; from: string } | null,
): string | null {
  if (exists('AGENTS.override.md'))
    return (
      `${label} reads AGENTS.override.md instead of AGENTS.md in this folder, so the stop rule does not reach ` +
      `${label} here: copy the loop-guard block of AGENTS.md into AGENTS.override.md`
    );
  if (exists('AGENTS.md') || !fallback) return null;
  const used = fallback.names.find((n) => exists(n));
  if (!used) return null;
  return (
    `${label} reads ${used} today (${key} in ${fallback.from}) because there is no AGENTS.md; ` +
    `once AGENTS.md exists it reads AGENTS.md instead (one file a folder), so the stop rule reaches ${label} and ` +
    `${used} no longer does: put ${used}'s text in AGENTS.md (or link ${used} to it) to keep both`
  );
}

/** The notes each tool with a fallback list gets on AGENTS.md's line; `read` gives a config's text (or null). */
export function docNotes(
  tools: ReadonlyArray<{ label: string; docFallback?: { key: string; configs: Array<{ path: string }> } }>,
  exists: (path: string) => boolean,
  read: (config: { path: string; movedBy?: { env: string; dir: string } }) => { shown: string; text: string | null },
): string[] {
  return tools.flatMap((t) => {
    if (!t.docFallback) return [];
    const { key, configs } = t.docFallback;
    const texts = configs.map((c) => {
      const r = read(c);
      return { path: r.shown, text: r.text };
    });
    const note = docNote(t.label, key, exists, fallbackNames(key, texts));
    return note ? [note] : [];
  });
}

type DocTool = {
  label: string;
  docFallback?: { key: string; configs: Array<{ path: string }> };
  intents: ReadonlyArray<{ kind: string }>;
};

/** The repository's own configs of a fallback list (a user's config is personal: the repository cannot rely on it). */
function repoConfigs(tool: DocTool): string[] {
  return (tool.docFallback?.configs ?? []).map((c) => c.path).filter((p) => !p.startsWith('~/'));
}

/** The paths `fallbackDoc` reads beyond AGENTS.md: the repository's configs, the names they list, the override. */
export function fallbackDocPaths(tools: readonly DocTool[], read: (path: string) => string | null): string[] {
  return tools.flatMap((t) => {
    if (!t.docFallback) return [];
    const configs = repoConfigs(t);
    const names =
      fallbackNames(
        t.docFallback.key,
        configs.map((path) => ({ path, text: read(path) })),
      )?.names ?? [];
    return [...configs, ...names, 'AGENTS.override.md'];
  });
}

/**
 * The file the AGENTS.md block goes in instead of a new AGENTS.md, with the words for its line in the plan, or null.
 * Only where the repository's own config makes its tool (Codex) read a fallback file today, there is no AGENTS.md, and
 * every other chosen tool reads a file of its own (an `import` intent: Claude Code, Gemini CLI): a new AGENTS.md would
 * take the fallback file's place, and no chosen tool needs AGENTS.md itself.
 */
export function fallbackDoc(
  tools: readonly DocTool[],
  read: (path: string) => string | null,
): { path: string; note: string } | null {
  const tool = tools.find((t) => t.docFallback);
  if (!tool?.docFallback) return null;
  if (tools.some((t) => t !== tool && !t.intents.some((i) => i.kind === 'import'))) return null;
  if (read('AGENTS.md') !== null || read('AGENTS.override.md') !== null) return null;
  const { key } = tool.docFallback;
  const fallback = fallbackNames(
    key,
    repoConfigs(tool).map((path) => ({ path, text: read(path) })),
  );
  const used = fallback?.names.find((n) => read(n) !== null);
  if (!fallback || !used) return null;
  return {
    path: used,
    note:
      `${tool.label} reads ${used} (${key} in ${fallback.from}) because there is no AGENTS.md: the stop rule goes ` +
      `there, and no AGENTS.md is created (it would take ${used}'s place for ${tool.label})`,
  };
}

/** Fallback files of the repository's configs that hold our block (written there by an earlier run): kept planned,
 *  so a rerun keeps the block current, `--remove` takes it out and a lost record still finds it. */
export function fallbackBlocks(tools: readonly DocTool[], read: (path: string) => string | null): string[] {
  return fallbackDocPaths(tools, read).filter((p) => {
    const text = read(p);
    return p !== 'AGENTS.override.md' && !repoConfigsOf(tools).includes(p) && text !== null && hasOurBlock(text);
  });
}

function repoConfigsOf(tools: readonly DocTool[]): string[] {
  return tools.flatMap(repoConfigs);
}
