import { describe, expect, it } from 'vitest';
import { biomeNotice, biomeVersion } from '../../src/scaffold/biome-notice.ts';

describe('the biome notice', () => {
  it('reads the pinned version from $schema, else from package.json', () => {
    expect(biomeVersion('{ "$schema": "https://biomejs.dev/schemas/2.2.5/schema.json" }', null)).toEqual([2, 2]);
    expect(biomeVersion('{}', '{ "devDependencies": { "@biomejs/biome": "^2.6.8" } }')).toEqual([2, 6]);
    expect(biomeVersion('{}', '{}')).toBeNull();
  });

  it('gives an older or unpinned biome the exact files.includes entries; a newer one only says it is covered', () => {
    const files = ['.agents/hooks/loop-guard.cjs', '.opencode/plugins/loop-guard.js'];
    const old = biomeNotice('biome.json', [2, 2], files);
    expect(old).toContain('biome 2.2');
    expect(old).toContain('"!.agents/hooks/loop-guard.cjs", "!.opencode/plugins/loop-guard.js"');
    expect(biomeNotice('biome.jsonc', null, files)).toContain('not pinned');
    const now = biomeNotice('biome.json', [2, 6], files);
    expect(now).toContain('leaves them alone');
    expect(now).not.toContain('"!');
  });
});
