// ESLint with type information (typescript-eslint's `parserOptions.project` or `projectService`) parses each file its
// config reaches inside a TypeScript project. Our generated code is in none, so it fails to parse there, and no comment
// in a file can turn a parse error off (the `/* eslint-disable */` marker silences rules only). The repository's config
// is code, so it is not edited: the run says what to add. Pure, over a reader of repository files.
import { posix } from 'node:path';

export const ESLINT_CONFIGS = [
  'eslint.config.js',
  'eslint.config.mjs',
  'eslint.config.cjs',
  'eslint.config.ts',
  'eslint.config.mts',
  'eslint.config.cts',
];

/** What asks ESLint for type information: the parser options, the project service, or a type-checked preset. */
const TYPED = /\bprojectService\b|\bparserOptions\b[\s\S]{0,400}?\bproject\b|TypeChecked\b/;
/** A module the config loads from the repository itself (`./.eslint`, `./eslint/base.js`). */
const LOCAL = /\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|\b(?:import|require)\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
const RESOLVE = ['', '.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '/index.ts', '/index.js', '/index.mjs'];
/** How far the search follows local imports, and how many files it reads at most. */
const DEPTH = 3;
const MAX_FILES = 40;

export interface TypedLint {
  /** The config file at the root. */
  config: string;
  /** The file that asks for type information: the config, or a module it loads. */
  where: string;
  /** The generated files whose folder no file of the config names (an ignore of the user's would). */
  reached: string[];
}

/**
 * The root ESLint config when it, or a local module it loads, parses with type information, with the generated files
 * whose top folder (`.agents`, `.opencode`) none of those files names; null when it does not, or names them all.
 */
export function typedLint(read: (path: string) => string | null, generated: readonly string[]): TypedLint | null {
  const config = ESLINT_CONFIGS.find((f) => read(f) !== null);
  if (!config || !generated.length) return null;
  const seen = new Set<string>();
  const texts: string[] = [];
  let where: string | undefined;
  let frontier = [config];
  for (let depth = 0; depth < DEPTH && frontier.length; depth++) {
    const next: string[] = [];
    for (const file of frontier) {
      if (seen.has(file) || seen.size >= MAX_FILES) continue;
      seen.add(file);
      const text = read(file);
      if (text === null) continue;
      texts.push(text);
      if (where === undefined && TYPED.test(text)) where = file;
      for (const m of text.matchAll(LOCAL)) {
        const base = posix.normalize(posix.join(posix.dirname(file), (m[1] ?? m[2]) as string));
        if (base.startsWith('../')) continue;
        const found = RESOLVE.map((ext) => base + ext).find((p) => read(p) !== null);
        if (found) next.push(found);
      }
    }
    frontier = next;
  }
  const reached = generated.filter((g) => !texts.some((t) => t.includes(g.split('/')[0] as string)));
  return where === undefined || !reached.length ? null : { config, where, reached };
}

/**
 * What the run says about such a config: why the generated files fail its lint, then the ignore that fixes it. A
 * config may give the type information to its .ts files only, which the text does not tell reliably: hence "where".
 */
export function typedLintNotice(found: TypedLint): string {
  const via = found.where === found.config ? '' : ` (set in ${found.where})`;
  const one = found.reached.length === 1;
  const ignores = quoted(found.reached);
  return (
    `ESLint config ${found.config} parses with type information${via}: where that reaches ` +
    `${found.reached.join(', ')}, \`eslint .\` fails to parse ${one ? 'it' : 'them'} (in no TypeScript project), ` +
    `and no comment in a file can stop a parse error.\n  Before the pull request runs lint, add ` +
    `${one ? 'it' : 'them'} to the config's ignores: { ignores: [${ignores}] }`
  );
}

/** The same fix as a next step after writing, where the notice before the plan may have scrolled away. */
export function typedLintStep(found: TypedLint): string {
  const files = found.reached.length === 1 ? 'a file' : 'files';
  return (
    `ESLint: add ${quoted(found.reached)} to the ignores of ${found.config} before you commit, if its type-aware ` +
    `parsing reaches them (it fails on ${files} in no TypeScript project).`
  );
}

const quoted = (paths: readonly string[]): string => paths.map((p) => JSON.stringify(p)).join(', ');
