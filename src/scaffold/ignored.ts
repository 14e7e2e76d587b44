// What git would leave out of a commit among the files we write, and how to let them in: a managed negation block in
// the repository's own .gitignore that holds the rule (so a fresh clone of the committed install has the guard), or,
// when the rule is personal (a global excludes file, .git/info/exclude) or cannot be undone, a refusal naming it.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { removeBlock } from '../edit/md-block.ts';
import { IGNORE_BLOCK_ID } from '../tools/markers.ts';

/** One ignore rule that matches one of our files, as `git check-ignore -v` names it. */
export interface IgnoreRule {
  path: string;
  /** The file the rule is in, as git names it (repo-relative, or absolute for a global excludes file). */
  source: string;
  line: number;
  pattern: string;
}

export function ruleText(r: IgnoreRule): string {
  return `${r.source}:${r.line}:${r.pattern}`;
}

/** `git check-ignore -v -n` over `paths` in `cwd`: the paths an ignore rule (not a negation) matches. */
export function checkIgnore(cwd: string, paths: readonly string[], gitArgs: string[] = []): IgnoreRule[] | null {
  if (!paths.length) return [];
  const r = spawnSync('git', [...gitArgs, 'check-ignore', '-v', '-n', '-z', '--stdin'], {
    cwd,
    input: paths.map((p) => `${p}\0`).join(''),
    encoding: 'utf8',
    env: { ...process.env, GIT_DIR: undefined, GIT_WORK_TREE: undefined } as NodeJS.ProcessEnv,
  });
  // 0: some ignored, 1: none; anything else (no git, not a repository) means we cannot tell.
  if (r.status !== 0 && r.status !== 1) return null;
  const f = r.stdout.split('\0');
  const out: IgnoreRule[] = [];
  for (let i = 0; i + 3 < f.length; i += 4) {
    const [source, line, pattern, path] = f.slice(i, i + 4) as [string, string, string, string];
    if (source === '' || pattern.startsWith('!')) continue;
    out.push({ path, source, line: Number(line), pattern });
  }
  return out;
}

/** A rule in a .gitignore of the repository (which every clone has), not a personal one. */
export function isRepoGitignore(source: string): boolean {
  return !source.startsWith('/') && !source.startsWith('.git/') && posix.basename(source) === '.gitignore';
}

function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let d = posix.dirname(path); d !== '.' && d !== ''; d = posix.dirname(d)) out.unshift(d);
  return out;
}

/** The .gitignore files that can hold a rule for `paths`: one in the root and in each directory on their way. */
export function gitignoresFor(paths: readonly string[]): string[] {
  const out = new Set<string>(['.gitignore']);
  for (const p of paths) for (const d of ancestors(p)) out.add(`${d}/.gitignore`);
  return [...out];
}

export interface IgnorePlan {
  /** .gitignore path → the body of our negation block there (null: no block wanted). */
  blocks: Map<string, string | null>;
  /** Rules a block cannot undo: personal ones, or ones our negations did not beat. */
  refused: IgnoreRule[];
  /** .gitignore path → the project policy each block changes, in words (shown with the plan). */
  notes: Map<string, string[]>;
}

/** What letting these files past one rule changes for everyone who clones, in words. */
export function policyNote(rule: Pick<IgnoreRule, 'source' | 'line' | 'pattern'>, paths: readonly string[]): string {
  const list = paths.map((p) => `\`${p}\``).join(', ');
  return (
    `${list} will be shared with everyone who clones; today \`${rule.pattern}\` (${rule.source}:${rule.line}) ` +
    `keeps ${paths.length === 1 ? 'it' : 'them'} out of git, personal to each checkout`
  );
}

/** A file's text without our block, for asking git what the user's own rules say. */
function withoutOurBlock(text: string): string {
  try {
    const r = removeBlock(text, { id: IGNORE_BLOCK_ID, style: 'shell' }, { force: true });
    return r.outcome.status === 'changed' ? r.outcome.text : text;
  } catch {
    return text;
  }
}

/** The rules of the repository's .gitignore files (`texts`: path → text, null = absent), asked in a scratch repository
 *  holding only those files, so neither our own block nor this machine's personal excludes take part. */
function scratchCheck(
  texts: ReadonlyMap<string, string | null>,
  paths: readonly string[],
  dirs: readonly string[] = [],
): IgnoreRule[] | null {
  const dir = mkdtempSync(join(tmpdir(), 'loop-guard-ignore-'));
  try {
    if (spawnSync('git', ['init', '-q'], { cwd: dir }).status !== 0) return null;
    // Directories are asked as they are on disk: git reads `dir/` with a slash as matching `dir/*` too.
    for (const d of dirs) mkdirSync(join(dir, d), { recursive: true });
    for (const [rel, text] of texts) {
      if (text === null) continue;
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), text);
    }
    return checkIgnore(dir, [...paths, ...dirs], ['-c', 'core.excludesFile=/dev/null']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The negation lines that let `rel` (relative to the .gitignore's directory) in, given which of its directories the
 *  user's rules ignore: each ignored directory is let in, its other contents ignored again, so nothing else moves. */
function negations(rel: string, ignoredDirs: ReadonlySet<string>): { dirs: string[]; file: string } {
  const dirs: string[] = [];
  const up = ancestors(rel);
  const first = up.findIndex((d) => ignoredDirs.has(d));
  if (first !== -1) for (const d of up.slice(first)) dirs.push(d);
  return { dirs, file: `!/${rel}` };
}

/**
 * Which of `targets` (repo-relative files we write) git would ignore, and the blocks that let them in.
 * `read` gives a repository file's text as the plan will leave it (null = absent); `recorded` names the .gitignore
 * files an earlier run put a block in, so a block no longer needed is taken out. Null when git cannot tell.
 */
export function planIgnores(
  root: string,
  targets: readonly string[],
  read: (rel: string) => string | null,
  recorded: readonly string[],
): IgnorePlan | null {
  const blocks = new Map<string, string | null>();
  const notes = new Map<string, string[]>();
  for (const r of recorded) blocks.set(r, null);
  const real = checkIgnore(root, targets);
  if (real === null) return null;
  const refused = real.filter((r) => !isRepoGitignore(r.source));
  const personal = new Set(refused.map((r) => r.path));
  // Judged by the rules alone, tracked or not, so the block does not come and go with `git add` (a tracked file the
  // rules ignore gets its negation line too, which changes nothing for git but keeps the block stable).
  const wanted = targets.filter((t) => !personal.has(t));

  const files = gitignoresFor(wanted);
  const texts = new Map(files.map((f) => [f, ((t) => (t === null ? null : withoutOurBlock(t)))(read(f))]));
  const dirsOf = [...new Set(wanted.flatMap((t) => ancestors(t)))];
  const found = scratchCheck(texts, wanted, dirsOf);
  if (found === null) return null;
  const isDir = new Set(dirsOf);
  const ignoredDirs = new Set(found.filter((r) => isDir.has(r.path)).map((r) => r.path));
  const byFile = new Map<string, IgnoreRule[]>();
  for (const r of found)
    if (!isDir.has(r.path) && isRepoGitignore(r.source)) byFile.set(r.source, [...(byFile.get(r.source) ?? []), r]);

  const after = new Map(texts);
  for (const [source, rules] of byFile) {
    const base = posix.dirname(source) === '.' ? '' : `${posix.dirname(source)}/`;
    const dirSet = new Set<string>();
    const fileLines: string[] = [];
    const local = new Set([...ignoredDirs].filter((d) => d.startsWith(base)).map((d) => d.slice(base.length)));
    for (const r of rules) {
      const n = negations(r.path.slice(base.length), local);
      for (const d of n.dirs) dirSet.add(d);
      fileLines.push(n.file);
    }
    // Parents before children, so a deeper directory is let in after its parent's contents were ignored again.
    const dirLines = [...dirSet]
      .sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b))
      .flatMap((d) => [`!/${d}/`, `/${d}/*`]);
    const body = [
      '# Lets in the files create-loop-guard writes, which the rules above would keep out of every clone.',
      ...dirLines,
      ...[...new Set(fileLines)].sort(),
    ].join('\n');
    blocks.set(source, body);
    const byRule = new Map<string, { rule: IgnoreRule; paths: string[] }>();
    for (const r of rules) {
      const key = `${r.line}:${r.pattern}`;
      byRule.set(key, { rule: r, paths: [...(byRule.get(key)?.paths ?? []), r.path] });
    }
    notes.set(
      source,
      [...byRule.values()].map((g) => policyNote(g.rule, g.paths)),
    );
    const text = after.get(source) ?? '';
    after.set(source, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${body}\n`);
  }
  // What our blocks could not let in (a rule in a deeper .gitignore wins over ours, a negation git does not allow).
  const still = byFile.size ? (scratchCheck(after, wanted, dirsOf) ?? []).filter((r) => !isDir.has(r.path)) : [];
  if (still === null) return null;
  for (const r of still) if (!refused.some((x) => x.path === r.path)) refused.push(r);
  return { blocks, refused, notes };
}
