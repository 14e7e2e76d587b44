// claude.node / codex.node / cursor.node: the configured command runs, with a node found on the hook's PATH.
import { beforeAll, describe, expect, it } from 'vitest';
import { explainFailure, nodeCheck, parseNodeProbe } from '../../src/doctor/node.ts';
import { runShell } from '../../src/doctor/exec.ts';
import { builtGuard, requireBuilt, tempDir } from '../helpers/sandbox.ts';

beforeAll(requireBuilt);

const runner = (PATH: string) => {
  const state = tempDir('lg-doctor-state-');
  return (command: string, input: string) =>
    runShell(command, { cwd: state, env: { PATH, LOOP_GUARD_STATE_DIR: state }, input });
};

describe('nodeCheck', () => {
  it('passes and names the node it ran', async () => {
    const c = await nodeCheck('claude', [`node "${builtGuard}" claude`], runner(process.env.PATH ?? ''));
    expect(c).toMatchObject({ id: 'claude.node', ok: true });
    expect(c.message).toMatch(/runs with node v\d+\.\d+\.\d+ \(\/.*node\)/);
  });

  it('fails when node is not on the PATH the hook gets', async () => {
    const c = await nodeCheck('codex', [`node "${builtGuard}" codex`], runner('/nonexistent'));
    expect(c.ok).toBe(false);
    expect(c.message).toContain('`node` is not on the PATH the hook runs with');
    expect(c.fix).toContain('install Node.js');
  });

  it('fails when the command points at a moved file', async () => {
    const c = await nodeCheck('cursor', ['node .agents/hooks/loop-guard.cjs cursor'], runner(process.env.PATH ?? ''));
    expect(c.ok).toBe(false);
    expect(c.message).toContain('points at a file that is not there');
  });

  it('fails when there is no command to run', async () => {
    expect((await nodeCheck('claude', [], runner(''))).ok).toBe(false);
  });
});

describe('pure parts', () => {
  it('parseNodeProbe', () => {
    expect(parseNodeProbe('/usr/bin/node\nv20.1.0\n')).toEqual({
      path: '/usr/bin/node',
      version: 'v20.1.0',
      major: 20,
    });
    expect(parseNodeProbe('')).toBeNull();
  });
  it('explainFailure tells the three causes apart', () => {
    const r = (status: number, stderr: string) => ({ status, stdout: '', stderr, timedOut: false });
    expect(explainFailure(r(127, 'sh: 1: node: not found'), 'c').message).toContain('not on the PATH');
    expect(explainFailure(r(1, "Error: Cannot find module '/x'"), 'c').message).toContain('not there');
    expect(explainFailure(r(3, 'boom'), 'c').message).toContain('exited 3: boom');
  });
});
