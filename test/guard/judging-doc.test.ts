// docs/judging.md says exactly what the guard does: every normalization rule with its description and example,
// every hang rule and every failure class are there, as the code has them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FAILURE_ADVICE } from '../../src/guard/core/classify.ts';
import { HANG_RULES } from '../../src/guard/core/hang/rules.ts';
import { normalizeRules } from '../../src/guard/core/normalize.ts';

const doc = readFileSync(new URL('../../docs/judging.md', import.meta.url), 'utf8');
// The control characters of the examples are written as escapes in the doc.
const shown = (s: string) =>
  s
    .replace(/\x1b/g, '\\e')
    .replace(/\x07/g, '\\a')
    .replace(/\x08/g, '\\b')
    .replace(/\x00/g, '\\0')
    .replace(/\r/g, '\\r');

describe('docs/judging.md', () => {
  it.each(normalizeRules().map((r) => [r.name, r] as const))(
    'normalization rule %s: description and example',
    (name, r) => {
      const at = doc.indexOf(`#### \`${name}\``);
      expect(at, `no section for ${name}`).toBeGreaterThan(-1);
      const section = doc.slice(at, doc.indexOf('\n#### ', at + 1) === -1 ? undefined : doc.indexOf('\n#### ', at + 1));
      expect(section).toContain(r.description);
      expect(section).toContain(`# before\n${shown(r.example.before)}\n# after\n${r.example.after}\n`);
    },
  );
  it('lists the rules in the order they run, and no rule the code does not have', () => {
    const inDoc = [...doc.matchAll(/^#### `([\w-]+)`$/gm)].map((m) => m[1]);
    expect(inDoc).toEqual(normalizeRules().map((r) => r.name));
  });
  it.each(HANG_RULES.map((r) => r.rule))('hang rule %s', (rule) => {
    expect(doc).toContain(`\`${rule}\``);
  });
  it.each(Object.keys(FAILURE_ADVICE))('failure class %s', (cls) => {
    expect(doc).toMatch(new RegExp(`^\\| \`${cls}\` \\|`, 'm'));
  });
});
