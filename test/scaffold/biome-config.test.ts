import { describe, expect, it } from 'vitest';
import {
  addBiomeEntries,
  biomeEdit,
  inheritedList,
  biomeMarks,
  removeBiomeEntries,
  type BiomeEdit,
} from '../../src/scaffold/biome-config.ts';
import { biomeNeedsEdit } from '../../src/scaffold/biome-notice.ts';

const GEN = ['.agents/hooks/loop-guard.cjs', '.opencode/plugins/loop-guard.js'];
const edit2 = biomeEdit('biome.json', [2, 0], GEN);

/** Add, then remove with what the plan records: the text after, and the text given back. */
function roundTrip(before: string, edit: BiomeEdit = edit2): { after: string; back: string } {
  const r = addBiomeEntries(before, edit);
  if (r.outcome.status !== 'changed') throw new Error(`not changed: ${JSON.stringify(r.outcome)}`);
  const back = removeBiomeEntries(r.outcome.text, edit.key, r.added, r.containers, r.was);
  if (back.status !== 'changed') throw new Error(`not removed: ${JSON.stringify(back)}`);
  return { after: r.outcome.text, back: back.text };
}

describe('the biome config edit', () => {
  it('is needed for a biome before 2.4 or an unpinned one, not for 2.4 and later', () => {
    expect(biomeNeedsEdit([2, 0])).toBe(true);
    expect(biomeNeedsEdit([1, 9])).toBe(true);
    expect(biomeNeedsEdit(null)).toBe(true);
    expect(biomeNeedsEdit([2, 4])).toBe(false);
    expect(biomeNeedsEdit([3, 0])).toBe(false);
  });

  it('creates files.includes after "**" where the config has no files, and --remove gives the bytes back', () => {
    const before = '{\n  "$schema": "./node_modules/@biomejs/biome/configuration_schema.json",\n  "root": true\n}\n';
    const { after, back } = roundTrip(before);
    expect(JSON.parse(after).files).toEqual({
      includes: ['**', '!.agents/hooks/loop-guard.cjs', '!.opencode/plugins/loop-guard.js'],
    });
    expect(back).toBe(before);
  });

  it("a list that fits the line stays on one line, as biome prints it (the config's own lineWidth)", () => {
    const before = '{\n  "formatter": { "lineWidth": 120 },\n  "files": {\n    "ignoreUnknown": true\n  }\n}\n';
    const { after, back } = roundTrip(before);
    expect(after).toContain(
      '    "includes": ["**", "!.agents/hooks/loop-guard.cjs", "!.opencode/plugins/loop-guard.js"]\n',
    );
    expect(back).toBe(before);
  });

  it('splits a one-line files object that no longer fits, and --remove puts the one line back', () => {
    const before = '{\n  // ours\n  "files": { "ignoreUnknown": true },\n  "linter": { "enabled": true }\n}\n';
    const { after, back } = roundTrip(before);
    expect(after).toContain('  "files": {\n    "ignoreUnknown": true,\n    "includes": [\n      "**",\n');
    expect(after).toContain('// ours');
    expect(back).toBe(before);
  });

  it("appends to the user's list in its own layout (tabs) and takes out only ours", () => {
    const before = '{\n\t"files": {\n\t\t"includes": [\n\t\t\t"src/**",\n\t\t\t"!dist"\n\t\t]\n\t}\n}\n';
    const { after, back } = roundTrip(before);
    expect(JSON.parse(after).files.includes).toEqual(['src/**', '!dist', ...GEN.map((p) => `!${p}`)]);
    expect(back).toBe(before);
  });

  it('an entry the user has already is theirs: not added, not taken out', () => {
    const before = '{\n  "files": { "includes": ["**", "!.agents/hooks/loop-guard.cjs"] }\n}\n';
    const r = addBiomeEntries(before, edit2);
    expect(r.added).toEqual(['!.opencode/plugins/loop-guard.js']);
    const only = addBiomeEntries(before, biomeEdit('biome.json', null, [GEN[0] as string]));
    expect(only.outcome.status).toBe('unchanged');
  });

  it('biome 1 gets plain paths in files.ignore (it reads no biome-ignore-all marker)', () => {
    const edit = biomeEdit('biome.json', [1, 9], GEN);
    const before = '{\n  "files": {\n    "ignore": ["dist"]\n  }\n}\n';
    const { after, back } = roundTrip(before, edit);
    expect(JSON.parse(after).files.ignore).toEqual(['dist', ...GEN]);
    expect(back).toBe(before);
  });

  it('a files.includes that is not a list is a conflict with the exact entries to add', () => {
    const r = addBiomeEntries('{ "files": { "includes": "**" } }\n', edit2);
    expect(r.outcome.status).toBe('conflict');
    if (r.outcome.status === 'conflict') expect(r.outcome.fix).toContain('"!.agents/hooks/loop-guard.cjs"');
  });

  it('a lost record: our entries are found by the paths they name, and a list of "**" and ours was created by us', () => {
    const created = addBiomeEntries('{\n  "root": true\n}\n', edit2);
    if (created.outcome.status !== 'changed') throw new Error('not changed');
    expect(biomeMarks(created.outcome.text, GEN)).toEqual({
      key: ['files', 'includes'],
      entries: GEN.map((p) => `!${p}`),
      containers: ['files/includes', 'files'],
    });
    const theirs = '{ "files": { "includes": ["src/**", "!.agents/hooks/loop-guard.cjs"] } }\n';
    expect(biomeMarks(theirs, GEN)).toEqual({
      key: ['files', 'includes'],
      entries: ['!.agents/hooks/loop-guard.cjs'],
      containers: [],
    });
    expect(biomeMarks('{ "files": { "includes": ["src/**"] } }\n', GEN)).toBeNull();
  });
});

describe('inheritedList: a config whose list comes from one it extends', () => {
  const key = ['files', 'includes'] as const;
  const files: Record<string, string> = {
    'base.json': '{ "files": { "includes": ["src/**"] } }',
    'plain.json': '{ "formatter": { "indentStyle": "tab" } }',
    'nested/mid.json': '{ "extends": ["./deep.json"] }',
    'nested/deep.json': '// inherited\n{ "files": { "includes": ["lib/**"] } }',
  };
  const read = (rel: string) => files[rel.replace(/^\.\//, '')] ?? null;
  it('names the extended file that sets the list, through nested extends, and a package it cannot read', () => {
    expect(inheritedList('{ "extends": ["./base.json"] }', key, read)).toBe('./base.json');
    expect(inheritedList('{ "extends": "./nested/mid.json" }', key, read)).toBe('./nested/mid.json');
    expect(inheritedList('{ "extends": ["ultracite"] }', key, read)).toBe('ultracite');
    expect(inheritedList('{ "extends": ["./missing.json"] }', key, read)).toBe('./missing.json');
  });
  it('is null where the edit is safe: no extends, an extended file without the list, or a list of its own', () => {
    expect(inheritedList('{ "files": {} }', key, read)).toBeNull();
    expect(inheritedList('{ "extends": ["./plain.json"] }', key, read)).toBeNull();
    expect(inheritedList('{ "extends": ["./base.json"], "files": { "includes": ["**"] } }', key, read)).toBeNull();
  });
});
