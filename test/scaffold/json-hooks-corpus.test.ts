// Real-world settings files (test/fixtures/corpus, copied from public repositories): every one must merge, keep all it had, and come back byte-for-byte.
import { describe, expect, test } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse, tokenize } from 'comment-json';
import { diffChars, structuredPatch } from 'diff';
import { mergeJson, type HookEntrySpec, type MergeSpec } from '../../src/scaffold/intents/json-hooks.ts';
import { removeFromJson, type RemoveSpec } from '../../src/scaffold/intents/json-hooks-remove.ts';
import { AGENT_ENV, HOOK_MARKER, TOOLS, type ToolRecord } from '../../src/tools/index.ts';

const CORPUS = fileURLToPath(new URL('../fixtures/corpus/', import.meta.url));
// The specs the product uses, so the corpus is merged exactly as the CLI merges it.
const MARKER = HOOK_MARKER;
const claudeEnv = { ...AGENT_ENV };
const jsonHooks = (tool: ToolRecord, path: string): HookEntrySpec => {
  const intent = tool.intents.find((i) => i.kind === 'json' && i.path === path);
  if (intent?.kind !== 'json') throw new Error(`no ${path} intent`);
  return intent.hooks;
};
const claudeHooks = jsonHooks(TOOLS.claude, '.claude/settings.json');
const codexHooks = jsonHooks(TOOLS.codex, '.codex/hooks.json');
const cursorHooks = jsonHooks(TOOLS.cursor, '.cursor/hooks.json');

const categories: Array<{ dir: string; merge: MergeSpec; remove: RemoveSpec }> = [
  {
    dir: 'claude-settings',
    merge: { hooks: claudeHooks, env: { path: ['env'], values: claudeEnv, owned: [], force: false } },
    remove: { marker: MARKER, ownedEnv: { path: ['env'], values: claudeEnv } },
  },
  { dir: 'codex-hooks', merge: { hooks: codexHooks }, remove: { marker: MARKER } },
  {
    dir: 'cursor-hooks',
    merge: { hooks: cursorHooks, ensureTop: { version: 1 } },
    remove: { marker: MARKER, ensureTop: { version: 1 } },
  },
];

/**
 * Files where a container written on one line grows on that line, so a line changes by more than a
 * comma (still insertions only): a minified file, and a Cursor file with one-line event arrays.
 */
const INLINE: Record<string, string> = {
  'wshobson__agents__.claude__settings.json': 'minified: everything is one line',
  '540__ai-development-training__.cursor__hooks.json': '"postToolUse": [{ … }] is one line; ours joins it',
};

const files = (dir: string): string[] => readdirSync(CORPUS + dir).sort();
const read = (dir: string, name: string): string => readFileSync(`${CORPUS}${dir}/${name}`, 'utf8');
const plain = (text: string): unknown => JSON.parse(JSON.stringify(parse(text.replace(/^\uFEFF/, ''), null, true)));

/** Every leaf of a value with its path, so "nothing of theirs changed" can be checked key by key. */
function leaves(v: unknown, path: string[] = [], out = new Map<string, unknown>()): Map<string, unknown> {
  if (v !== null && typeof v === 'object') {
    const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v);
    if (entries.length === 0) out.set(JSON.stringify(path), Array.isArray(v) ? [] : {});
    for (const [k, x] of entries) leaves(x, [...path, k], out);
  } else {
    out.set(JSON.stringify(path), v);
  }
  return out;
}

function comments(text: string): string[] {
  return (tokenize(text.replace(/^\uFEFF/, '')) as Array<{ type: string; value: string }>)
    .filter((t) => t.type === 'LineComment' || t.type === 'BlockComment')
    .map((t) => `${t.type}:${t.value}`);
}

function expectAdditionsOnly(before: string, after: string, inline: boolean): void {
  expect(diffChars(before, after).filter((p) => p.removed)).toEqual([]);
  if (inline) return;
  for (const hunk of structuredPatch('a', 'b', before, after).hunks) {
    // Hunk lines keep a CRLF file's `\r`; it is not part of what changed.
    const minus = hunk.lines.filter((l) => l.startsWith('-')).map((l) => l.slice(1).replace(/\r$/, ''));
    const plus = hunk.lines.filter((l) => l.startsWith('+')).map((l) => l.slice(1).replace(/\r$/, ''));
    for (const old of minus) {
      const i = plus.findIndex((neu) => neu.endsWith(',') && neu.slice(0, -1) === old);
      expect(i, `line ${JSON.stringify(old)} changed by more than a trailing comma`).toBeGreaterThanOrEqual(0);
      plus.splice(i, 1);
    }
  }
}

/** Our entries in the merged value, event by event: exactly one each, with our command. */
function ourEntries(value: unknown, spec: HookEntrySpec): Record<string, unknown[]> {
  const hooks = (value as { hooks: Record<string, unknown[]> }).hooks;
  const out: Record<string, unknown[]> = {};
  for (const [event, arr] of Object.entries(hooks)) {
    const entries =
      spec.style === 'flat'
        ? arr
        : arr.flatMap((g) => ((g as { hooks?: unknown[] }).hooks ?? []).map((h) => ({ ...(h as object), group: g })));
    const ours = entries.filter((e) => String((e as { command?: unknown }).command ?? '').includes(spec.marker));
    if (ours.length > 0) out[event] = ours;
  }
  return out;
}

function checkFile(before: string, merge: MergeSpec, remove: RemoveSpec, inline: boolean): string {
  const r = mergeJson(before, merge);
  expect(r.outcome.status).toBe('changed');
  if (r.outcome.status !== 'changed') throw new Error('unreachable');
  const after = r.outcome.text;

  // Parses, and every key path and value of theirs is still there and equal.
  const value = plain(after);
  const now = leaves(value);
  for (const [path, v] of leaves(plain(before))) expect(now.get(path), path).toEqual(v);

  // Exactly one entry of ours per event, with our command and timeout.
  const spec = merge.hooks!;
  const ours = ourEntries(value, spec);
  expect(Object.keys(ours).sort()).toEqual(spec.events.map((e) => e.event).sort());
  for (const ev of spec.events) {
    expect(ours[ev.event], ev.event).toHaveLength(1);
    const entry = ours[ev.event]![0] as {
      command: string;
      timeout: number;
      matcher?: string;
      group?: { matcher?: string };
    };
    expect(entry.command).toBe(spec.command);
    expect(entry.timeout).toBe(spec.timeout);
    expect(spec.style === 'flat' ? entry.matcher : entry.group?.matcher).toBe(ev.matcher);
  }

  expect(comments(after)).toEqual(expect.arrayContaining(comments(before)));
  expectAdditionsOnly(before, after, inline);

  const again = mergeJson(after, merge);
  expect(again.outcome).toEqual({ status: 'unchanged', text: after, notes: [] });

  const back = removeFromJson(after, remove);
  expect(back.outcome.status).toBe('changed');
  if (back.outcome.status === 'changed') expect(back.outcome.text).toBe(before);
  expect(back.becameEmpty).toBe(false);
  return after;
}

describe.each(categories)('$dir', ({ dir, merge, remove }) => {
  test('the corpus directory is there', () => {
    expect(files(dir).length).toBeGreaterThan(0);
  });

  test.each(files(dir))('%s', (name) => {
    checkFile(read(dir, name), merge, remove, name in INLINE);
  });

  test.each(files(dir))('%s with CRLF line endings', (name) => {
    const crlf = read(dir, name).replace(/\r?\n/g, '\r\n');
    const after = checkFile(crlf, merge, remove, name in INLINE);
    expect(after.replace(/\r\n/g, '')).not.toContain('\n');
  });
});

describe('claude-settings env', () => {
  test('a user env value different from ours is kept and reported, never overwritten', () => {
    const name = '1iveowl__PlatformPlatform__.claude__settings.json';
    const before = read('claude-settings', name).replace('"ENABLE_TOOL_SEARCH": "true"', '"GIT_PAGER": "delta"');
    const r = mergeJson(before, categories[0]!.merge);
    expect(r.kept).toEqual([{ key: 'GIT_PAGER', value: 'delta' }]);
    expect(r.setKeys).toEqual(['PAGER', 'GIT_TERMINAL_PROMPT', 'GIT_EDITOR']);
    expect((plain(r.outcome.status === 'changed' ? r.outcome.text : '') as { env: object }).env).toMatchObject({
      GIT_PAGER: 'delta',
    });
  });
});

describe('opencode (no hooks; the parser must read JSONC with comments and trailing commas)', () => {
  test.each(files('opencode'))('%s', (name) => {
    const text = read('opencode', name);
    expect(() => parse(text)).not.toThrow();
    expect(mergeJson(text, {}).outcome).toEqual({ status: 'unchanged', text, notes: [] });
    expect(removeFromJson(text, { marker: MARKER }).outcome).toEqual({ status: 'unchanged', text, notes: [] });
  });

  test('a top-level key can still be added to them without touching the rest', () => {
    for (const name of files('opencode')) {
      const text = read('opencode', name);
      const r = mergeJson(text, { ensureTop: { loopGuard: true } });
      expect(r.outcome.status, name).toBe('changed');
      if (r.outcome.status !== 'changed') continue;
      expect(diffChars(text, r.outcome.text).filter((p) => p.removed)).toEqual([]);
      expect(comments(r.outcome.text)).toEqual(comments(text));
      expect(plain(r.outcome.text)).toEqual({ ...(plain(text) as object), loopGuard: true });
    }
  });
});
