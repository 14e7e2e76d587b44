// Lists the scaffolder derives from the tool records, so a tool added tomorrow is covered as much as the first four:
// OUR_DIRS (swept for our temp files after a crash, removed by --remove when left empty) and USER_LEVEL_FILES.
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dirsOf, OUR_DIRS } from '../../src/scaffold/apply.ts';
import { USER_LEVEL_FILES } from '../../src/scaffold/paths.ts';
import { TOOL_NAMES, TOOLS } from '../../src/tools/index.ts';

describe('OUR_DIRS', () => {
  it('holds the directory of every file a record writes', () => {
    for (const t of TOOL_NAMES)
      for (const i of TOOLS[t].intents)
        if (dirname(i.path) !== '.') expect(OUR_DIRS, `${t} ${i.path}`).toContain(dirname(i.path));
    expect(OUR_DIRS).toEqual(
      expect.arrayContaining(['.agents/hooks', '.agents', '.gemini', '.qwen', '.github/hooks', '.github']),
    );
  });
  it('lists a child before its parent, so --remove can empty both', () => {
    expect(dirsOf(['a/b/c/f', 'a/g', 'h'])).toEqual(['a/b/c', 'a/b', 'a']);
    for (const [i, d] of OUR_DIRS.entries())
      for (const earlier of OUR_DIRS.slice(0, i))
        expect(d.startsWith(`${earlier}/`), `${d} after its parent ${earlier}`).toBe(false);
  });
});

describe('USER_LEVEL_FILES', () => {
  it("every record's user-level configs, the first four tools' as before", () => {
    expect(USER_LEVEL_FILES).toEqual(
      expect.arrayContaining([
        '.claude/settings.json',
        '.codex/config.toml',
        '.cursor/hooks.json',
        '.config/opencode/opencode.json',
      ]),
    );
    for (const t of TOOL_NAMES) {
      expect(TOOLS[t].userLevel.length, t).toBeGreaterThan(0);
      for (const f of TOOLS[t].userLevel) expect(USER_LEVEL_FILES).toContain(f);
    }
  });
});
