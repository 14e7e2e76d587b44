// OUR_DIRS comes from the records: every directory a tool's file goes into is swept for our temp files after a crash
// and removed by --remove when left empty, for a tool added tomorrow as much as for the first four.
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dirsOf, OUR_DIRS } from '../../src/scaffold/apply.ts';
import { TOOL_NAMES, TOOLS } from '../../src/tools/index.ts';

describe('OUR_DIRS', () => {
  it('holds the directory of every file a record writes', () => {
    for (const t of TOOL_NAMES) for (const i of TOOLS[t].intents) if (dirname(i.path) !== '.') expect(OUR_DIRS, `${t} ${i.path}`).toContain(dirname(i.path));
    expect(OUR_DIRS).toEqual(expect.arrayContaining(['.agents/hooks', '.agents', '.gemini', '.qwen', '.github/hooks', '.github']));
  });
  it('lists a child before its parent, so --remove can empty both', () => {
    expect(dirsOf(['a/b/c/f', 'a/g', 'h'])).toEqual(['a/b/c', 'a/b', 'a']);
    for (const [i, d] of OUR_DIRS.entries()) for (const earlier of OUR_DIRS.slice(0, i)) expect(d.startsWith(`${earlier}/`), `${d} after its parent ${earlier}`).toBe(false);
  });
});
