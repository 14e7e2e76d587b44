// The real-world corpus (test/fixtures/corpus, copied from public repositories) through the WHOLE pipeline: each file placed where it lives in a
// repository, then the BUILT CLI run on it: install, rerun, --check, --remove. The editors have their own
// function-level corpus tests (test/edit/*-corpus.test.ts); this proves the CLI around them keeps the promise.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseJsonc, tokenize } from 'comment-json';
import { diffChars } from 'diff';
import { parse as parseToml } from 'smol-toml';
import { beforeAll, describe, expect as globalExpect, it, type ExpectStatic } from 'vitest';
import { AGENT_ENV, HOOK_MARKER, TOOLS, type ToolName } from '../../src/tools/index.ts';
import { expectStableRerun, fixtureRepo, readTree, requireCli, runCliAsync } from '../helpers/cli.ts';

beforeAll(requireCli);

const CORPUS = fileURLToPath(new URL('../fixtures/corpus/', import.meta.url));

/**
 * Shapes the CLI refuses with a conflict (exit 1, names the file and a fix) instead of merging:
 * 'category/file' → why. Empty: every corpus file merges. A new conflict is a failure until it is listed here on purpose.
 */
const CONFLICTS: Record<string, string> = {};

type Check = 'json' | 'toml' | 'markdown' | 'untouched';

interface Case {
  /** corpus file, relative to test/fixtures/corpus */
  file: string;
  category: string;
  /** where it is placed in the temp repository */
  target: string;
  /** directories to create so the right tool is detected */
  dirs: string[];
  /** --tools when detection alone would not pick the tool that edits the file */
  tools: ToolName[] | null;
  /** the tools the CLI must report */
  expectTools: ToolName[];
  check: Check;
  /** the tool whose intent edits the target (for checking our entries are there) */
  editor: ToolName | null;
}

/** MANIFEST.tsv: file name → the path it had in its repository. */
function manifest(): Map<string, { category: string; path: string }> {
  const rows = readFileSync(join(CORPUS, 'MANIFEST.tsv'), 'utf8').trimEnd().split('\n').slice(1);
  return new Map(
    rows.map((row) => {
      const [category, file, , path] = row.split('\t') as [string, string, string, string];
      return [file, { category, path }];
    }),
  );
}

/** Where each kind of corpus file goes, and what is promised about it. */
function placeCase(category: string, name: string, realPath: string): Case {
  const file = `${category}/${name}`;
  const base = { file, category, dirs: [] as string[], tools: null as ToolName[] | null };
  switch (category) {
    case 'claude-settings':
      // Local settings are the user's own: we never edit them, so they only need to survive untouched.
      if (name.endsWith('settings.local.json')) {
        return {
          ...base,
          target: '.claude/settings.local.json',
          expectTools: ['claude'],
          check: 'untouched',
          editor: null,
        };
      }
      if (name.endsWith('settings.json'))
        return { ...base, target: '.claude/settings.json', expectTools: ['claude'], check: 'json', editor: 'claude' };
      break;
    case 'codex-config':
      return { ...base, target: '.codex/config.toml', expectTools: ['codex'], check: 'toml', editor: 'codex' };
    case 'codex-hooks':
      return { ...base, target: '.codex/hooks.json', expectTools: ['codex'], check: 'json', editor: 'codex' };
    case 'cursor-hooks':
      return { ...base, target: '.cursor/hooks.json', expectTools: ['cursor'], check: 'json', editor: 'cursor' };
    case 'opencode':
      // OpenCode gets a plugin file; its config is only read for detection and must stay as it was.
      if (/opencode\.jsonc?$/.test(realPath))
        return { ...base, target: realPath, expectTools: ['opencode'], check: 'untouched', editor: null };
      break;
    case 'agents-md':
      // AGENTS.md alone detects no tool: Codex is named, which uses AGENTS.md and nothing else of Markdown.
      if (name.endsWith('AGENTS.md'))
        return {
          ...base,
          target: 'AGENTS.md',
          tools: ['codex'],
          expectTools: ['codex'],
          check: 'markdown',
          editor: null,
        };
      if (name.endsWith('CLAUDE.md'))
        return {
          ...base,
          target: 'CLAUDE.md',
          dirs: ['.claude'],
          expectTools: ['claude'],
          check: 'markdown',
          editor: 'claude',
        };
      break;
  }
  throw new Error(
    `corpus file ${file} (${realPath}): no rule for where it goes in a repository; add one to test/cli/corpus.test.ts`,
  );
}

const MANIFEST = manifest();
const CATEGORIES = readdirSync(CORPUS, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();
const FILES = CATEGORIES.flatMap((c) =>
  readdirSync(join(CORPUS, c))
    .sort()
    .map((n) => ({ category: c, name: n })),
);
const CASES: Case[] = FILES.map(({ category, name }) => placeCase(category, name, MANIFEST.get(name)?.path ?? ''));

// ---- comparing what the user had with what is there after ---------------------------------------------------

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The first path where `a` is not contained in `b`, or null: every key of an object is in `b` with a contained
 * value, every array is a subsequence (in order) of `b`'s, every scalar equal.
 */
function missing(a: unknown, b: unknown, path = '$'): string | null {
  if (Array.isArray(a)) {
    if (!Array.isArray(b)) return `${path} (was an array)`;
    let j = 0;
    for (let i = 0; i < a.length; i++) {
      while (j < b.length && missing(a[i], b[j]) !== null) j++;
      if (j === b.length) return `${path}[${i}] = ${JSON.stringify(a[i])}`;
      j++;
    }
    return null;
  }
  if (isObject(a)) {
    if (!isObject(b)) return `${path} (was an object)`;
    for (const [k, v] of Object.entries(a)) {
      if (!Object.hasOwn(b, k)) return `${path}.${k} (key gone)`;
      const m = missing(v, b[k], `${path}.${k}`);
      if (m) return m;
    }
    return null;
  }
  return Object.is(a, b) ? null : `${path}: ${JSON.stringify(a)} → ${JSON.stringify(b)}`;
}

const ourHook = (v: unknown): boolean =>
  isObject(v) && typeof v.command === 'string' && v.command.includes(HOOK_MARKER);
const ourGroup = (v: unknown): boolean =>
  isObject(v) && Array.isArray(v.hooks) && v.hooks.length > 0 && v.hooks.every(ourHook);
const isEmpty = (v: unknown): boolean =>
  Array.isArray(v) ? v.length === 0 : isObject(v) && Object.keys(v).length === 0;

/** The value without what we add (hook entries and groups, our env values, Cursor's version: 1), and without containers that held only those. */
function withoutOurs(v: unknown, topExtra: Record<string, unknown> = {}): unknown {
  if (Array.isArray(v)) return v.filter((x) => !ourHook(x) && !ourGroup(x)).map((x) => withoutOurs(x));
  if (!isObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (AGENT_ENV[k] !== undefined && x === AGENT_ENV[k]) continue;
    if (Object.hasOwn(topExtra, k) && Object.is(topExtra[k], x)) continue;
    const s = withoutOurs(x);
    if (isEmpty(s) && !isEmpty(x)) continue;
    out[k] = s;
  }
  return out;
}

const plainJson = (text: string): unknown =>
  JSON.parse(JSON.stringify(parseJsonc(text.replace(/^\uFEFF/, ''), null, true)));

function jsonComments(text: string): string[] {
  return (tokenize(text.replace(/^\uFEFF/, '')) as Array<{ type: string; value: string }>)
    .filter((t) => t.type === 'LineComment' || t.type === 'BlockComment')
    .map((t) => `${t.type}:${t.value}`);
}

const lines = (text: string): string[] => text.split(/\r?\n/);
const tomlComments = (text: string): string[] => lines(text).filter((l) => l.trimStart().startsWith('#'));
const htmlComments = (text: string): string[] => lines(text).filter((l) => l.includes('<!--'));

/** Every item of `want` appears in `have`, in order. */
function expectInOrder(expect: ExpectStatic, want: string[], have: string[], what: string): void {
  let at = 0;
  for (const w of want) {
    const i = have.indexOf(w, at);
    expect(i, `${what}: ${JSON.stringify(w)} is gone`).toBeGreaterThanOrEqual(0);
    at = i + 1;
  }
}

function hookSpec(tool: ToolName, path: string) {
  for (const intent of TOOLS[tool].intents) if (intent.kind === 'json' && intent.path === path) return intent;
  return undefined;
}

/** Our hook command is in the file once for every event we hook. */
function expectOurHooks(expect: ExpectStatic, value: unknown, tool: ToolName, path: string): void {
  const intent = hookSpec(tool, path);
  if (!intent?.hooks) return;
  const hooks = (value as { hooks: Record<string, unknown[]> }).hooks;
  for (const { event } of intent.hooks.events) {
    const entries = (hooks[event] ?? []).flatMap((g) =>
      intent.hooks!.style === 'flat' ? [g] : ((g as { hooks?: unknown[] }).hooks ?? []),
    );
    expect(
      entries.filter((e) => ourHook(e) && (e as { command: string }).command === intent.hooks!.command),
      `${path}: our ${event} hook`,
    ).toHaveLength(1);
  }
}

// ---- the per-file proof ---------------------------------------------------------------------------------------

function setUp(c: Case): { dir: string; original: string } {
  const dir = fixtureRepo(null);
  const original = readFileSync(join(CORPUS, c.file), 'utf8');
  for (const d of c.dirs) mkdirSync(join(dir, d), { recursive: true });
  mkdirSync(dirname(join(dir, c.target)), { recursive: true });
  writeFileSync(join(dir, c.target), original);
  return { dir, original };
}

function checkMerged(expect: ExpectStatic, c: Case, before: string, after: string): void {
  checkContent(expect, c, before, after);
  // Additions only: not one character of theirs is taken out.
  expect(
    diffChars(before, after)
      .filter((p) => p.removed)
      .map((p) => p.value),
    `${c.target}: removed text`,
  ).toEqual([]);
}

function checkContent(expect: ExpectStatic, c: Case, before: string, after: string): void {
  switch (c.check) {
    case 'untouched':
      expect(after).toBe(before);
      return;
    case 'json': {
      expect(() => parseJsonc(after), `${c.target} parses`).not.toThrow();
      const was = plainJson(before);
      const now = plainJson(after);
      expect(missing(was, now), `${c.target}: a value of theirs is gone or changed`).toBeNull();
      const top = c.editor === 'cursor' ? { version: 1 } : {};
      expect(missing(withoutOurs(now, top), was), `${c.target}: something not ours was added`).toBeNull();
      expectInOrder(expect, jsonComments(before), jsonComments(after), `${c.target} comment`);
      expectOurHooks(expect, now, c.editor!, c.target);
      return;
    }
    case 'toml': {
      const was = parseToml(before);
      const now = parseToml(after);
      expect(missing(was, now), `${c.target}: a value of theirs is gone or changed`).toBeNull();
      expect(missing(withoutOurs(now), was), `${c.target}: something not ours was added`).toBeNull();
      expectInOrder(expect, tomlComments(before), tomlComments(after), `${c.target} comment`);
      const set =
        (now as { shell_environment_policy?: { set?: Record<string, unknown> } }).shell_environment_policy?.set ?? {};
      expect(Object.keys(set)).toEqual(expect.arrayContaining(Object.keys(AGENT_ENV)));
      return;
    }
    case 'markdown': {
      expectInOrder(expect, lines(before), lines(after), `${c.target} line`);
      expectInOrder(expect, htmlComments(before), htmlComments(after), `${c.target} comment`);
      if (c.target === 'AGENTS.md') expect(after).toMatch(/^<!-- loop-guard:begin v=/m);
      // CLAUDE.md carries the stop rule as its own block, unless it already imports AGENTS.md (which has it).
      if (c.target === 'CLAUDE.md') expect(after).toMatch(/^(<!-- loop-guard:begin v=|@AGENTS\.md\r?$)/m);
      return;
    }
  }
}

describe('the corpus', () => {
  it('every file has a MANIFEST.tsv row, and every row a file', () => {
    globalExpect(FILES.length).toBeGreaterThanOrEqual(60);
    globalExpect(FILES.map((f) => f.name).sort()).toEqual([...MANIFEST.keys()].sort());
    for (const { category, name } of FILES) globalExpect(MANIFEST.get(name)?.category, name).toBe(category);
  });

  it('every listed conflict is a corpus file', () => {
    for (const name of Object.keys(CONFLICTS))
      globalExpect(
        CASES.map((c) => c.file),
        name,
      ).toContain(name);
  });
});

/** What the CLI always installs for a tool: its first owned file (the shared guard, or OpenCode's plugin). */
function ownedOf(tool: ToolName): string {
  const owned = TOOLS[tool].intents.find((i) => i.kind === 'owned');
  if (!owned) throw new Error(`${tool} installs no file of its own`);
  return owned.path;
}

// Install keeps every key, value and comment; rerun is a no-op; --check is clean; --remove restores the tree.
describe.concurrent('install, rerun, --check, --remove', () => {
  it.for(CASES)('$file → $target', async (c, { expect }) => {
    const toolArgs = c.tools ? ['--tools', c.tools.join(',')] : [];
    const { dir, original } = setUp(c);
    const before = readTree(dir);

    const apply = await runCliAsync(['--yes', ...toolArgs], { cwd: dir });
    if (c.file in CONFLICTS) {
      // A shape the CLI refuses: it must say which file and what to do, and write nothing.
      expect(apply.status).toBe(1);
      expect(apply.stdout).toContain(c.target);
      expect(apply.stdout).toMatch(/fix: \S/);
      expect(readTree(dir)).toEqual(before);
      return;
    }
    expect(apply.stderr).toBe('');
    expect(apply.status, apply.stdout).toBe(0);
    // Local settings are not ours to plan: they do not even appear in the report.
    if (c.target.endsWith('.local.json')) expect(apply.stdout).not.toContain(c.target);
    const installed = readTree(dir);
    for (const t of c.expectTools) {
      expect(apply.stdout).toMatch(new RegExp(`^  ${TOOLS[t].label} `, 'm'));
      expect(installed.has(ownedOf(t)), ownedOf(t)).toBe(true);
    }
    checkMerged(expect, c, original, installed.get(c.target) ?? '');

    await expectStableRerun(dir, installed);

    const remove = await runCliAsync(['--remove', '--yes'], { cwd: dir });
    expect(remove.stderr).toBe('');
    expect(remove.status, remove.stdout).toBe(0);
    expect(readTree(dir)).toEqual(before);
    // Kept for a look when something failed; ~0.3 MB each otherwise.
    rmSync(dir, { recursive: true, force: true });
  });
});
