// The audit's V8 setting (src/audit/tier-up.ts): its flag is one the Node that runs the CLI knows (the CI Node matrix
// runs this file under 20, 22 and 24), it goes back to V8's default after LATE_BYTES, and the CLI's --json stays clean
// with it set.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATE_BYTES, LATE_FACTOR, lateTierUp, type TierFlag, tierFlag } from '../../src/audit/tier-up.ts';
import { requireCli, runCli } from '../helpers/cli.ts';
import { nodeBin } from '../helpers/paths.ts';
import { fixtureHome, homeEnv } from './fixtures.ts';

const version = spawnSync(nodeBin, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();

let home: string;
let cwd: string;
beforeAll(() => {
  requireCli();
  home = fixtureHome();
  cwd = mkdtempSync(join(tmpdir(), 'lg-tier-cwd-'));
});
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

describe('the audit optimizes later while it reads the first part of a history', () => {
  it(`node ${version}: the flag is one its V8 knows, set early and back, and its default is the one set back`, () => {
    const tier = tierFlag(version);
    // Every major the package supports has one: without it the audit of a small history costs a third more CPU.
    expect(tier, `no V8 flag for node ${version}`).toBeDefined();
    const { late, back, shown } = tier as TierFlag;
    const set = (f: string) => `require('node:v8').setFlagsFromString(${JSON.stringify(f)})`;
    const r = spawnSync(nodeBin, ['-e', `${set(late)}; ${set(back)}; console.log('ok')`], { encoding: 'utf8' });
    // V8 answers a flag it does not know with "Error: unrecognized flag" on stderr, and ignores it.
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('ok\n');
    // What is set back is the value this V8 starts with.
    const options = spawnSync(nodeBin, ['--v8-options'], { encoding: 'utf8', maxBuffer: 1 << 26 }).stdout;
    expect(options).toContain(`${shown}\n`);
    expect(shown).toBe(`default: ${back}`);
  });

  it('set at once, back to the default once LATE_BYTES are read, and only once', () => {
    const calls: string[] = [];
    const tierUp = lateTierUp('20.20.2', (f) => calls.push(f));
    expect(calls).toEqual([`--interrupt-budget=${67_584 * LATE_FACTOR}`]);
    tierUp(LATE_BYTES - 1);
    expect(calls).toHaveLength(1);
    tierUp(LATE_BYTES);
    tierUp(Number.POSITIVE_INFINITY);
    expect(calls).toEqual([`--interrupt-budget=${67_584 * LATE_FACTOR}`, '--interrupt-budget=67584']);
  });

  it("Node 22 raises TurboFan's count, Node 24 runs on Maglev alone until LATE_BYTES; an unknown major: nothing", () => {
    const calls: string[] = [];
    for (const v of ['21.7.3', '23.11.0', '26.0.0']) lateTierUp(v, (f) => calls.push(f))(Number.POSITIVE_INFINITY);
    expect(calls).toEqual([]);
    lateTierUp('22.23.3', (f) => calls.push(f))(LATE_BYTES);
    expect(calls).toEqual([
      `--invocation-count-for-turbofan=${3_000 * LATE_FACTOR}`,
      '--invocation-count-for-turbofan=3000',
    ]);
    calls.length = 0;
    const tierUp = lateTierUp('24.21.0', (f) => calls.push(f));
    expect(calls).toEqual(['--no-turbofan']);
    tierUp(LATE_BYTES);
    expect(calls).toEqual(['--no-turbofan', '--turbofan']);
  });

  it(`node ${version}: audit --all --json prints the report alone, nothing on stderr`, () => {
    const r = runCli(['audit', '--all', '--json'], { cwd, env: homeEnv(home) });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout) as { loops: unknown[] };
    expect(report.loops.length).toBeGreaterThan(0);
  });
});
