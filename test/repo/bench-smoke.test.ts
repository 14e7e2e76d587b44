// The start-up benchmarks run in CI as a smoke run only: one round, the running Node, and nothing asserted on time,
// only that each prints what the README says it prints (a benchmark that no longer runs is found here, not later).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { requireBuilt } from '../helpers/paths.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const major = process.versions.node.split('.')[0] ?? '20';

describe('benchmarks (smoke run, no timing asserted)', () => {
  requireBuilt();

  it('bench/guard.mjs prints one table: every event and the floor row for both CA settings, then the summary lines', () => {
    const env = {
      ...process.env,
      BENCH_RUNS: '1',
      BENCH_PRIOR: '10',
      BENCH_NODES: major,
      BENCH_PLUGIN: '0',
      BENCH_METRIC: 'cpu',
    };
    const r = spawnSync(process.execPath, [join(root, 'bench', 'guard.mjs')], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    for (const event of ['pre', 'post', 'user-turn', 'load only (floor)']) {
      for (const ca of ['unset', 'set'])
        expect(r.stdout).toMatch(
          new RegExp(`^${event.replace(/[()]/g, '\\$&')} +v${major}\\.\\S+ +${ca} +[\\d.]+ +[\\d.]+ +[\\d.]+ `, 'm'),
        );
    }
    expect(r.stdout).toMatch(/^worst event ratio: +[\d.]+ +\(goal ≤ 1\.10\)$/m);
    expect(r.stdout).toMatch(/^10 prior events ÷ short session: +[\d.]+ /m);
  }, 150_000);

  it('bench/plugin.mjs in summary mode prints the four plugin figures', () => {
    const env = { ...process.env, BENCH_CALLS: '40', BENCH_WARMUP: '5', BENCH_JSON: '1' };
    const r = spawnSync(process.execPath, [join(root, 'bench', 'plugin.mjs')], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const figures = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
    expect(Object.keys(figures).sort()).toEqual(['after30kMean', 'after30kP99', 'pairMean', 'pairP99']);
    for (const v of Object.values(figures)) expect(typeof v === 'number' && v > 0).toBe(true);
  }, 150_000);
});
