// The config files doctor reads for a tool, by the names its record gives them: where each is (home, moved by an
// environment variable), how messages name it, its parsed content, and the record's rules about its settings.
import { jsonReason } from '../edit/excerpt.ts';
import { tomlReason } from '../edit/toml-scan.ts';
import { join } from 'node:path';
import { parse as parseJsonc } from 'comment-json';
import { parse as parseToml } from 'smol-toml';
import type { ConfigFile, ConfigRule, ToolRecord } from '../tools/index.ts';
import { type Check, fail } from './types.ts';
import { obj } from '../guard/json-value.ts';

export interface LoadedFile {
  /** Repo-relative path for a repo file, else the absolute path. */
  path: string;
  /** How messages name it: the repo-relative path, `~/…`, or `$VAR/…` when a variable moved it. */
  shown: string;
  text: string | null;
  /** The parsed document; undefined when missing or unparsable. */
  doc?: unknown;
  /** Why there is no doc: 'does not exist', 'is not valid JSON (…)'; for TOML the parser's first line. */
  problem?: string;
}

export interface Where {
  root: string;
  home: string;
  env: Record<string, string | undefined>;
  /** `~/x` for a path under $HOME. */
  tilde(path: string): string;
}

/** Pure: where a config file is and how to name it. */
export function locate(file: ConfigFile, where: Where): { abs: string; rel?: string; shown: string } {
  for (const m of file.movedBy ?? []) {
    const value = where.env[m.env];
    if (value === undefined || value === '' || !file.path.startsWith(m.dir)) continue;
    const rest = file.path.slice(m.dir.length);
    return { abs: value + rest, shown: `$${m.env}${rest}` };
  }
  if (file.path.startsWith('~/')) {
    const abs = join(where.home, file.path.slice(2));
    return { abs, shown: where.tilde(abs) };
  }
  return { abs: join(where.root, file.path), rel: file.path, shown: file.path };
}

export function parseText(path: string, text: string | null): { doc?: unknown; problem?: string } {
  if (text === null) return { problem: 'does not exist' };
  const clean = text.replace(/^\uFEFF/, '');
  if (path.endsWith('.toml')) {
    try {
      return { doc: parseToml(clean) };
    } catch (err) {
      const e = err as { message?: string; line?: number; column?: number };
      const at = typeof e.line === 'number' ? ` (line ${e.line}, column ${e.column})` : '';
      const what = ((e.message ?? '').split('\n')[0] || 'not valid TOML')
        .trim()
        .replace(/^Invalid TOML document: /, '');
      const reason = typeof e.line === 'number' ? tomlReason(clean, what, e as { line: number; column: number }) : what;
      return { problem: `${reason}${at}` };
    }
  }
  try {
    return { doc: parseJsonc(clean, undefined, true) };
  } catch (err) {
    const e = err as { message?: string; line?: number; column?: number };
    const at =
      typeof e.line === 'number' && typeof e.column === 'number' ? ` at line ${e.line}, column ${e.column + 1}` : '';
    return { problem: `is not valid JSON${at} (${jsonReason(e.message ?? String(err))})` };
  }
}

/** Every file a record names: 'hooks' (its json intent's file), 'env' (its toml-env intent's file) and its `files`. */
export function loadFiles(
  record: ToolRecord,
  where: Where,
  read: (abs: string) => string | null,
): Map<string, LoadedFile> {
  const named: Array<[string, ConfigFile]> = [];
  for (const intent of record.intents) {
    if (intent.kind === 'json') named.push(['hooks', { path: intent.path }]);
    if (intent.kind === 'toml-env') named.push(['env', { path: intent.path }]);
  }
  named.push(...Object.entries(record.doctor.files ?? {}));
  const out = new Map<string, LoadedFile>();
  for (const [name, file] of named) {
    const at = locate(file, where);
    const text = read(at.abs);
    out.set(name, { path: at.rel ?? at.abs, shown: at.shown, text, ...parseText(file.path, text) });
  }
  return out;
}

export function valueAt(doc: unknown, key: readonly string[]): unknown {
  let cur: unknown = doc;
  for (const k of key) cur = obj(cur)?.[k];
  return cur;
}

/** Pure: the first rule broken, looking file by file in the order the rules name them; null when none is. */
export function brokenRule(
  id: string,
  rules: readonly ConfigRule[],
  files: ReadonlyMap<string, LoadedFile>,
): Check | null {
  const order = [...new Set(rules.flatMap((r) => r.in))];
  for (const name of order) {
    const file = files.get(name);
    if (!file || file.doc === undefined) continue;
    for (const rule of rules) {
      if (!rule.in.includes(name)) continue;
      const v = valueAt(file.doc, rule.key);
      const broken = (rule.is !== undefined && v === rule.is) || (rule.isNot !== undefined && v !== rule.isNot);
      if (broken)
        return fail(id, rule.message.replaceAll('{file}', file.shown), rule.fix.replaceAll('{file}', file.shown));
    }
  }
  return null;
}

/** The string values of an object (an env table). */
export function stringsOf(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(obj(v) ?? {})) if (typeof x === 'string') out[k] = x;
  return out;
}
