// --remove leaves nothing of ours: the hand-off notes the guard wrote go with the rest (once the install is gone,
// .agents/.gitignore no longer keeps them out of `git add -A`); a note that is no longer the guard's stays.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { HANDOFF_JSON, HANDOFF_NOTE } from '../../src/guard/core/ladder.ts';
import { writeHandoff } from '../../src/guard/handoff-note.ts';
import { HANDOFF_FILES } from '../../src/scaffold/handoff-files.ts';
import { fixtureRepo, readTree, requireCli, runCli } from '../helpers/cli.ts';

beforeAll(requireCli);

const record = {
  at: '2026-11-30T10:00:00.000Z',
  tool: 'claude',
  session: 's1',
  command: 'npm test',
  refused: [{ command: 'npm test', refusals: 3, results: 4, lastLines: 'AssertionError: expected 2 to be 3' }],
  tried: [],
};

describe('--remove and the hand-off notes', () => {
  it('names the paths the guard writes', () => {
    expect(HANDOFF_FILES).toEqual([HANDOFF_NOTE, HANDOFF_JSON]);
  });

  it('deletes the notes the guard wrote, and the tree is the one before the install', () => {
    const dir = fixtureRepo(null);
    writeFileSync(join(dir, 'README.md'), '# app\n');
    const before = readTree(dir);
    expect(runCli(['--yes', '--tools', 'claude'], { cwd: dir }).status).toBe(0);
    expect(writeHandoff(dir, record)).toBe(join(dir, HANDOFF_NOTE));
    const r = runCli(['--remove', '--yes'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\.agents\/handoff\.md/);
    expect([...readTree(dir).keys()]).toEqual([...before.keys()]);
  });

  it('keeps a file at those paths that the guard did not write', () => {
    const dir = fixtureRepo(null);
    expect(runCli(['--yes', '--tools', 'claude'], { cwd: dir }).status).toBe(0);
    writeFileSync(join(dir, HANDOFF_NOTE), '# my own notes\n');
    writeFileSync(join(dir, HANDOFF_JSON), '{"mine": true}\n');
    expect(runCli(['--remove', '--yes'], { cwd: dir }).status).toBe(0);
    const tree = readTree(dir);
    expect(tree.get(HANDOFF_NOTE)).toBe('# my own notes\n');
    expect(tree.get(HANDOFF_JSON)).toBe('{"mine": true}\n');
  });
});
