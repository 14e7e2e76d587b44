// Where the stop rule reaches a tool that does not read AGENTS.md (Claude Code, Gemini CLI): pure, over the texts of
// the files the tool reads. An import of AGENTS.md (ours or the user's) or a setting naming it means the AGENTS.md
// block reaches the tool already; otherwise the rule goes in the tool's file as its own managed block, a few hundred
// bytes, where an import would put all of AGENTS.md (40 KB in a real repository) into every session.
import { posix } from 'node:path';
import { hasImportLine } from '../edit/import-line.ts';
import { isObj, parseUserFile } from '../edit/jsonc.ts';
import { hasBlock } from '../edit/md-block.ts';
import { splitBom } from '../edit/text.ts';
import type { Intent } from '../tools/index.ts';
import { BLOCK_ID } from '../tools/markers.ts';

type ImportIntent = Intent & { kind: 'import' };

/** Tokens a text adds to a model's context, estimated at 4 characters a token (English prose and Markdown). */
export function tokensOf(text: string): number {
  return Math.max(1, Math.round(text.length / 4));
}

/**
 * The intent in the file that holds the tool's memory: the file its context setting names instead of its own (Gemini
 * CLI's `contextFileName`; a block an earlier install left in the own file is then taken out, `leftIn`); its own
 * path; or an `instead` file of `alsoRead` (Claude's .claude/CLAUDE.md) when that one exists and the own file does
 * not, so no second memory file is created beside it. There a file that holds our block already keeps it, so a rerun
 * or `--remove` finds the block where the install put it (Claude Code reads both files).
 */
export function placeStopRule(intent: ImportIntent, read: (path: string) => string | null): ImportIntent {
  const named = contextFileInstead(intent, read);
  if (named !== null) {
    const line = `@${posix.relative(posix.dirname(named), importTarget(intent))}`;
    const own = read(intent.path);
    const left = own !== null && hasBlock(own, BLOCK_ID, 'markdown');
    return { ...intent, path: named, line, ...(left ? { leftIn: { path: intent.path, line: intent.line } } : {}) };
  }
  const alt = intent.alsoRead?.find((a) => a.instead);
  if (!alt) return intent;
  const own = read(intent.path);
  const there = read(alt.path);
  const ours = (text: string | null) => text !== null && hasBlock(text, BLOCK_ID, 'markdown');
  if (there === null || ours(own) || (own !== null && !ours(there))) return intent;
  const others = (intent.alsoRead ?? []).filter((a) => a !== alt);
  return { ...intent, path: alt.path, line: alt.line, alsoRead: [{ path: intent.path, line: intent.line }, ...others] };
}

/** The repository path an import line of `intent` points at (relative to the file holding it). */
export function importTarget(intent: ImportIntent): string {
  return posix.join(posix.dirname(intent.path), intent.line.replace(/^@/, ''));
}

/** The paths beyond its own that the intent reads to decide. */
export function stopRulePaths(intent: ImportIntent): string[] {
  return [
    ...(intent.alsoRead ?? []).map((a) => a.path),
    ...(intent.contextSetting ? [intent.contextSetting.path] : []),
  ];
}

/** The names a context-file setting holds (a string or a list of strings), or null when unset or unreadable. */
function contextNames(text: string | null, keys: readonly string[][]): string[] | null {
  if (text === null) return null;
  let doc: unknown;
  try {
    doc = parseUserFile(splitBom(text).rest);
  } catch {
    return null; // the plan reports a broken settings file where it edits it
  }
  for (const path of keys) {
    let v: unknown = doc;
    for (const k of path) v = isObj(v) ? v[k] : undefined;
    if (typeof v === 'string') return [v];
    if (Array.isArray(v) && v.every((n) => typeof n === 'string')) return v as string[];
  }
  return null;
}

/** A context-file name as the repository path the tool reads at the root (it joins each name to the directory; a
 *  backslash is a separator where a team on Windows wrote one), or null for one that leaves the repository. */
function repoPathOf(name: string): string | null {
  const p = posix.normalize(name.trim().replace(/\\/g, '/'));
  if (p === '.' || p === '..' || p.startsWith('../') || posix.isAbsolute(p) || /^[A-Za-z]:/.test(p)) return null;
  return p;
}

/**
 * The file the tool reads instead of the intent's own when its setting names context files, and neither that file
 * nor the import's target (AGENTS.md) is among them: Gemini CLI then never reads a GEMINI.md, so the rule goes in the
 * first named file that exists, else in the first named one. Null when the setting leaves the own file read.
 */
function contextFileInstead(intent: ImportIntent, read: (path: string) => string | null): string | null {
  if (!intent.contextSetting) return null;
  const names = contextNames(read(intent.contextSetting.path), intent.contextSetting.keys);
  if (!names?.length) return null;
  const paths = names.map(repoPathOf);
  if (paths.includes(intent.path) || paths.includes(importTarget(intent))) return null;
  const safe = paths.filter((p): p is string => p !== null);
  return safe.find((p) => read(p) !== null) ?? safe[0] ?? null;
}

/** Why the tool reads AGENTS.md already through another file or a setting (so nothing is written here), or null. */
export function readsAgentsElsewhere(intent: ImportIntent, read: (path: string) => string | null): string | null {
  const target = intent.line.replace(/^@/, '');
  for (const a of intent.alsoRead ?? []) {
    const text = read(a.path);
    if (text !== null && hasImportLine(text, a.line))
      return `${a.path} imports ${target} already (${a.line}): ${intent.reader} reads the stop rule there`;
  }
  if (intent.contextSetting) {
    const names = contextNames(read(intent.contextSetting.path), intent.contextSetting.keys);
    if (names?.some((n) => repoPathOf(n) === importTarget(intent)))
      return (
        `${intent.contextSetting.path} makes ${intent.reader} read ${target} instead of ${intent.path}: the stop ` +
        `rule reaches it there, and a ${intent.path} would not be read`
      );
  }
  return null;
}
