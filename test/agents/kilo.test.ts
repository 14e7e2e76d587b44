// What only Kilo CLI 7.7.7 needs proven in the REAL `kilo run` (the common scenarios are Kilo's row of rows.ts, run by
// scenarios.test.ts): the plugin's `shell.env` hook reaches Kilo's shell, so the commands the model runs get our
// environment (AGENT_ENV) the way a hook-based tool's profile gives it.
// Env: LOOP_GUARD_AGENTS (kilo must be in it, when set), LOOP_GUARD_REQUIRE_AGENTS=1, LOOP_GUARD_KEEP_TMP=1.
import { describe, expect, it } from 'vitest';
import { AGENT_ENV } from '../../src/tools/env.ts';
import { KILO_PLUGIN } from '../../src/tools/kilo.ts';
import { agentStatus, describeRun, removeDir, type AgentRun } from './runners/index.ts';
import { makeRepo, scaffold } from './helpers.ts';
import { startMockServer, type Script } from './mock-server.ts';
import { killProcesses, processesUsingHome, runKilo } from './runners/index.ts';

const selected = (process.env.LOOP_GUARD_AGENTS || 'kilo').split(',').map((s) => s.trim());
const requireAll = process.env.LOOP_GUARD_REQUIRE_AGENTS === '1';
const keepTmp = process.env.LOOP_GUARD_KEEP_TMP === '1';

describe('kilo: what only Kilo needs proven in the real CLI', () => {
  if (!selected.includes('kilo')) {
    if (requireAll)
      it('is required (LOOP_GUARD_REQUIRE_AGENTS=1) but deselected by LOOP_GUARD_AGENTS', () => {
        throw new Error(`LOOP_GUARD_AGENTS=${process.env.LOOP_GUARD_AGENTS} leaves out kilo`);
      });
    else it.skip(`deselected by LOOP_GUARD_AGENTS=${process.env.LOOP_GUARD_AGENTS}`, () => {});
    return;
  }

  it("env: the plugin's shell.env reaches Kilo's shell", async () => {
    const status = agentStatus('kilo');
    if (!status.ok) throw new Error(`kilo CLI unavailable: ${status.reason}`);
    const script: Script = {
      turns: [
        {
          commands: [
            `echo ${Object.keys(AGENT_ENV)
              .map((k) => `${k}=$${k}`)
              .join(' ')}`,
          ],
        },
      ],
    };
    const repo = makeRepo();
    const server = await startMockServer(script);
    let run: AgentRun | undefined;
    let ok = false;
    try {
      await scaffold(repo, 'kilo', [KILO_PLUGIN, 'AGENTS.md']);
      run = await runKilo(repo, server, { turn: 1 });
      const leftovers = processesUsingHome(run.home);
      killProcesses(leftovers);
      const context = describeRun(run, server);
      expect(run.timedOut, `run timed out\n${context}`).toBe(false);
      expect(run.exitCode, `non-zero exit\n${context}`).toBe(0);
      expect(server.problems, `the mock saw unexpected requests\n${context}`).toEqual([]);
      expect(leftovers, `processes outlived the run\n${context}`).toEqual([]);
      const text = server.stepResults(1)[0]?.text ?? '';
      for (const [k, v] of Object.entries(AGENT_ENV))
        expect(text, `${k}=${v} in Kilo's shell\n${context}`).toContain(`${k}=${v}`);
      ok = true;
    } finally {
      await server.close();
      const dirs = [repo, ...(run ? [run.home] : [])];
      if (ok && !keepTmp) for (const d of dirs) removeDir(d);
      else console.log(`[kilo] kept for inspection: ${dirs.join(' ')}`);
    }
  });
});
