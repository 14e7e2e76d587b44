// doctor's reading of a hook command line, on the guard's shell splitter: what runs, with which environment.
import { describe, expect, it } from 'vitest';
import { runsOurFile, splitHookLine } from '../../src/doctor/hook-command.ts';

const ROOT = '/repo';
const GUARD = '/repo/.agents/hooks/loop-guard.cjs';
const VARS = { CLAUDE_PROJECT_DIR: ROOT };

describe('runsOurFile', () => {
  it.each([
    ['node "$CLAUDE_PROJECT_DIR/.agents/hooks/loop-guard.cjs" claude', {}],
    ['node "${CLAUDE_PROJECT_DIR}"/.agents/hooks/loop-guard.cjs claude', {}],
    ['node "$(git rev-parse --show-toplevel 2>/dev/null || pwd)/.agents/hooks/loop-guard.cjs" codex', {}],
    ['node .agents/hooks/loop-guard.cjs cursor', {}],
    ['LOOP_GUARD_HANG=off node .agents/hooks/loop-guard.cjs claude', { LOOP_GUARD_HANG: 'off' }],
    ['export LOOP_GUARD_WARN=2; node .agents/hooks/loop-guard.cjs claude', { LOOP_GUARD_WARN: '2' }],
    ['env LOOP_GUARD_BLOCK=6 /usr/bin/node --no-warnings .agents/hooks/loop-guard.cjs x', { LOOP_GUARD_BLOCK: '6' }],
    ['cd /tmp && node /repo/.agents/hooks/loop-guard.cjs claude 2>/dev/null', {}],
  ])('%s runs the guard', (line, assignments) => {
    expect(runsOurFile(line, GUARD, ROOT, VARS)).toEqual({ assignments });
  });

  it.each([
    'echo node .agents/hooks/loop-guard.cjs',
    'node "$(cat path.txt)/.agents/hooks/loop-guard.cjs" claude',
    'node `pwd`/.agents/hooks/loop-guard.cjs claude',
    'node other/.agents/hooks/loop-guard.cjs claude',
    'node "echo; .agents/hooks/loop-guard.cjs" claude',
  ])('%s does not', (line) => {
    expect(runsOurFile(line, GUARD, ROOT, VARS)).toBeNull();
  });
});

describe('splitHookLine', () => {
  it('quotes keep separators inside a word; unknown variables expand to nothing, as in sh', () => {
    expect(splitHookLine('printf "a; b" | node $NOPE/x.cjs', {}, ROOT)).toEqual([
      { assignments: {}, words: ['printf', 'a; b'] },
      { assignments: {}, words: ['node', '/x.cjs'] },
    ]);
  });
});
