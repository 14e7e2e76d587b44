// Which file a tool that reads one instructions file a folder (Codex) reads at the repository's root, and what an
// install changes there: AGENTS.override.md, else AGENTS.md, else the first name of its fallback list
// (`project_doc_fallback_filenames` in the repository's .codex/config.toml, then the user's) that exists. Pure.
import { isTable, parseOrThrow } from '../edit/toml-scan.ts';

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
