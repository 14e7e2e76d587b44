// Real `.codex/config.toml` files from public repositories: merge, rerun and remove must keep them intact.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { diffChars, diffLines } from 'diff';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { mergeCodexEnv, removeCodexEnv } from '../../src/scaffold/intents/toml-env.ts';

const dir = fileURLToPath(new URL('../fixtures/corpus/codex-config/', import.meta.url));
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.toml'))
  .sort();
const values = { GIT_PAGER: 'cat', PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', GIT_EDITOR: 'true' };

type Variant = { name: string; of: (text: string) => string };
const variants: Variant[] = [
  { name: 'as is', of: (t) => t },
  // The same files as a Windows editor would save them, to prove CRLF survives.
  { name: 'CRLF', of: (t) => t.replace(/\r?\n/g, '\r\n') },
  // A BOM and no final newline together are the awkward end of the range.
  { name: 'BOM, no final newline', of: (t) => '\uFEFF' + t.replace(/(\r?\n)+$/, '') },
];

/** The parsed original with our keys added, i.e. exactly what the merged file must parse to. */
function plusOurs(doc: Record<string, any>, keys: string[]): Record<string, unknown> {
  const policy = (doc['shell_environment_policy'] ??= {});
  const set = (policy['set'] ??= {});
  for (const k of keys) set[k] = values[k as keyof typeof values];
  return doc;
}

function commentLines(text: string): string[] {
  return text.split(/\r?\n/).filter((l) => l.trimStart().startsWith('#'));
}

it('finds the corpus', () => {
  expect(files.length).toBeGreaterThanOrEqual(15);
});

describe.each(files)('%s', (file) => {
  const raw = readFileSync(dir + file, 'utf8');

  it.each(variants)('$name', ({ of }) => {
    const before = of(raw);
    const r = mergeCodexEnv(before, { values, owned: [], force: false });
    expect(r.outcome.status).toBe('changed');
    if (r.outcome.status !== 'changed') return;
    const after = r.outcome.text;

    // Parses, and everything that was there is still there with the same value.
    const parsedAfter = parse(after) as Record<string, unknown>;
    const hadBefore = Object.keys(
      ((parse(before) as Record<string, any>)['shell_environment_policy']?.['set'] ?? {}) as object,
    );
    const ours = Object.keys(values).filter((k) => !hadBefore.includes(k));
    expect(r.setKeys).toEqual(ours);
    expect(parsedAfter).toEqual(plusOurs(parse(before), ours));

    // Every comment line survives verbatim, in order.
    const afterComments = commentLines(after);
    let at = 0;
    for (const c of commentLines(before)) {
      at = afterComments.indexOf(c, at);
      expect(at, c).toBeGreaterThanOrEqual(0);
      at++;
    }

    // Additions only: no character of the original is removed, and no line except an extended inline set.
    expect(diffChars(before, after).filter((p) => p.removed)).toEqual([]);
    const removedLines = diffLines(before.replace(/\r\n/g, '\n'), after.replace(/\r\n/g, '\n'))
      .filter((p) => p.removed)
      .flatMap((p) => p.value.split('\n').filter(Boolean));
    const lastLine = before
      .replace(/(\r?\n)+$/, '')
      .split(/\r?\n/)
      .pop();
    // A file without a final newline gets one on its old last line, which the line diff shows as a change.
    expect(removedLines.filter((l) => !/^\s*set\s*=\s*\{/.test(l) && l !== lastLine)).toEqual([]);

    // New lines keep the file's line ending.
    if (before.includes('\r\n')) expect(after.replace(/\r\n/g, '')).not.toContain('\n');

    // Rerun: unchanged, byte-identical.
    const again = mergeCodexEnv(after, { values, owned: r.setKeys, force: false });
    expect(again.outcome).toEqual({ status: 'unchanged', text: after, notes: [] });
    expect(again.setKeys).toEqual(r.setKeys);

    // Remove gives back the original bytes.
    const mine = Object.fromEntries(r.setKeys.map((k) => [k, values[k as keyof typeof values]]));
    const back = removeCodexEnv(after, { values: mine, createdTable: r.createdTable });
    expect(back.outcome.status).toBe('changed');
    if (back.outcome.status === 'changed') expect(back.outcome.text).toBe(before);
  });
});
