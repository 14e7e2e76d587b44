// What only Cline 3.0.65 needs proven in the REAL CLI (the common scenarios are Cline's row of rows.ts, run by
// scenarios.test.ts): Cline stops a run by itself at the 5th identical call in a row, and our warning at the 3rd
// identical result comes first (asserted in that order); with a reworded repeat our refusals and the plugin's stop
// end the run, not Cline's detector (read in its log); the new turn over ACP (`cline --id` cannot resume headless);
// and Cline's default backend, its hub daemon.
// Env: LOOP_GUARD_AGENTS (subset), LOOP_GUARD_REQUIRE_AGENTS=1, LOOP_GUARD_KEEP_TMP=1, as in scenarios.test.ts.
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLINE_PLUGIN } from '../../src/tools/cline.ts';
import { GUARD_PATH as CLINE_GUARD } from '../../src/tools/markers.ts';
import {
  agentStatus,
  baseEnv,
  describeRun,
  makeHome,
  removeDir,
  RUN_TIMEOUT_MS,
  runProcess,
  type AgentRun,
} from './runners/index.ts';
import { lineCount, makeRepo, MARKER, scaffold } from './helpers.ts';
import { promptFor, startMockServer, turnMarker, type MockModelServer, type Script } from './mock-server.ts';
import { runClineAcp } from './runners/index.ts';
import { CLINE_SLOW_HOST, killProcesses, processesUsingHome, runCline } from './runners/index.ts';

/** A plain failure (no class that warns early): the guard warns at the 3rd identical result, refuses after the 4th. */
const FAIL_CMD = 'echo ran >> ran.txt; echo "FAIL: expected 42, got 41"; exit 1';
/** The same command for us (`2>&1` cannot change what runs), another call for Cline's own identical-call detector. */
const FAIL_ALT = `${FAIL_CMD} 2>&1`;
/** Only a command that ran has a per-command result (`[{"query": …}]`); a skipped call is `{"error": …}`. */
const RAN = '"query":';

const selected = (process.env.LOOP_GUARD_AGENTS || 'cline').split(',').map((s) => s.trim());
const requireAll = process.env.LOOP_GUARD_REQUIRE_AGENTS === '1';
const keepTmp = process.env.LOOP_GUARD_KEEP_TMP === '1';
const timings: Array<{ scenario: string; ms: number }> = [];
const t0 = Date.now();

afterAll(() => {
  if (timings.length === 0) return;
  const rows = timings.map((t) => `  ${t.scenario.padEnd(14)} ${(t.ms / 1000).toFixed(1)}s`).join('\n');
  console.log(`[cline] per scenario (concurrent)\n${rows}\n  wall ${((Date.now() - t0) / 1000).toFixed(1)}s`);
});

/** Resolves once something listens on 127.0.0.1:port (Cline's hub daemon), or throws after `ms`. */
async function waitForPort(port: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const open = await new Promise<boolean>((resolve) => {
      const sock = connect(port, '127.0.0.1', () => {
        sock.destroy();
        resolve(true);
      });
      sock.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`nothing listened on 127.0.0.1:${port} within ${ms} ms`);
}

class Scenario {
  readonly runs: AgentRun[] = [];
  constructor(
    readonly repo: string,
    readonly script: Script,
    readonly server: MockModelServer,
  ) {}

  /** One run; checks it went through: exit 0, in time, nothing left running. `steps` = scripted steps it must reach. */
  async turn(
    turn: number,
    steps: number | null = this.script.turns[turn - 1]?.commands.length ?? 0,
  ): Promise<AgentRun> {
    const run = await runCline(this.repo, this.server, { turn });
    this.runs.push(run);
    const leftovers = processesUsingHome(run.home);
    killProcesses(leftovers);
    const context = describeRun(run, this.server);
    expect(run.timedOut, `run timed out\n${context}`).toBe(false);
    expect(run.exitCode, `non-zero exit\n${context}`).toBe(0);
    expect(this.server.problems, `the mock saw unexpected requests\n${context}`).toEqual([]);
    expect(leftovers, `processes outlived the run\n${context}`).toEqual([]);
    if (steps !== null) expect(this.done(turn), `steps taken in turn ${turn}\n${context}`).toBe(steps);
    return run;
  }

  /** Scripted steps the model got to answer in this turn (a stopped run answers fewer). */
  done(turn = 1): number {
    return Math.max(
      -1,
      ...this.server
        .agentRequests()
        .filter((r) => r.turn === turn)
        .map((r) => r.stepsDone ?? -1),
    );
  }

  steps(turn = 1) {
    return this.server.stepResults(turn);
  }

  /** Cline's own log (pino JSON lines) of the last run: where its loop detector and a plugin stop say why. */
  log(): string {
    const run = this.runs.at(-1);
    const file = run ? join(run.home, '.cline', 'data', 'logs', 'cline.log') : '';
    return file && existsSync(file) ? readFileSync(file, 'utf8') : '';
  }

  dump(turn = 1): string {
    const steps = this.steps(turn)
      .map((s) => `  step ${s.step} \`${s.command}\` ->\n    ${s.text.replace(/\n/g, '\n    ')}`)
      .join('\n');
    const log = this.log()
      .split('\n')
      .filter((l) => /Detected \d|ControlledStopError|plugin/i.test(l))
      .map((l) => l.slice(0, 300))
      .join('\n');
    return `model received (turn ${turn}):\n${steps}\n${this.runs.map((r) => describeRun(r)).join('\n')}\n--- cline.log (stops, plugin)\n${log || '(nothing)'}`;
  }
}

describe.concurrent('cline: what only Cline needs proven in the real CLI', () => {
  if (!selected.includes('cline')) {
    if (requireAll)
      it('is required (LOOP_GUARD_REQUIRE_AGENTS=1) but deselected by LOOP_GUARD_AGENTS', () => {
        throw new Error(`LOOP_GUARD_AGENTS=${process.env.LOOP_GUARD_AGENTS} leaves out cline`);
      });
    else it.skip(`deselected by LOOP_GUARD_AGENTS=${process.env.LOOP_GUARD_AGENTS}`, () => {});
    return;
  }

  /** Every scenario fails with the install reason when the CLI is missing: never a silent pass. */
  const scenario = (name: string, script: Script | ((repo: string) => Script), body: (s: Scenario) => Promise<void>) =>
    it(name, async () => {
      const status = agentStatus('cline');
      if (!status.ok) throw new Error(`cline CLI unavailable: ${status.reason}`);
      const started = Date.now();
      const repo = makeRepo();
      await scaffold(repo, 'cline', [CLINE_PLUGIN, CLINE_GUARD]);
      const s0 = typeof script === 'function' ? script(repo) : script;
      const server = await startMockServer(s0);
      const s = new Scenario(repo, s0, server);
      let ok = false;
      try {
        await body(s);
        ok = true;
      } finally {
        await server.close();
        timings.push({ scenario: name.split(':')[0] ?? name, ms: Date.now() - started });
        const dirs = [repo, ...new Set(s.runs.map((r) => r.home))];
        if (ok && !keepTmp) for (const d of dirs) removeDir(d);
        else console.log(`[cline] kept for inspection: ${dirs.join(' ')}`);
      }
    });

  scenario(
    'loop: our warning at the 3rd identical result reaches the model before Cline stops the run at the 5th identical call',
    { turns: [{ commands: Array<string>(6).fill(FAIL_CMD) }] },
    async (s) => {
      // Cline's own detector ends the run when the 5th identical call comes (exit 0): the model answers 4 results.
      await s.turn(1, 4);
      const steps = s.steps();
      const dump = s.dump();
      expect(
        steps.map((x) => x.step),
        dump,
      ).toEqual([1, 2, 3, 4]);
      for (const x of steps) expect(x.text, `step ${x.step} ran\n${dump}`).toContain(RAN);
      expect(steps[0]?.text, `no warning after the 1st result\n${dump}`).not.toContain(MARKER);
      expect(steps[1]?.text, `no warning after the 2nd result\n${dump}`).not.toContain(MARKER);
      expect(steps[2]?.text, `our warning after the 3rd identical result\n${dump}`).toContain(MARKER);
      expect(steps[2]?.text, dump).toContain('same result 3 times');
      expect(s.log(), `Cline's own stop came at the 5th identical call, after our warning\n${dump}`).toContain(
        'Detected 5 consecutive identical calls',
      );
      expect(lineCount(s.repo, 'ran.txt'), `the 5th call did not run\n${dump}`).toBe(4);
    },
  );

  scenario(
    'refusal and unattended hand-off: the 5th and 6th attempts are refused, the 7th ends the run and writes .agents/handoff.md',
    { turns: [{ commands: Array.from({ length: 9 }, (_, i) => (i % 2 ? FAIL_ALT : FAIL_CMD)) }] },
    async (s) => {
      // FAIL_ALT differs from FAIL_CMD only by `2>&1` (one command key for us, another call for Cline), so Cline's own
      // detector never fires and what stops this run is ours.
      await s.turn(1, 6);
      const steps = s.steps();
      const dump = s.dump();
      expect(
        steps.map((x) => x.step),
        dump,
      ).toEqual([1, 2, 3, 4, 5, 6]);
      expect(steps[2]?.text, `warning after the 3rd identical result\n${dump}`).toContain(MARKER);
      for (const i of [4, 5]) {
        expect(steps[i]?.text, `attempt ${i + 1} refused with our reason\n${dump}`).toContain(`${MARKER} \``);
        expect(steps[i]?.text, `attempt ${i + 1} refused with our reason\n${dump}`).toContain('was not run');
        expect(steps[i]?.text, `attempt ${i + 1} did not run\n${dump}`).not.toContain(RAN);
      }
      expect(lineCount(s.repo, 'ran.txt'), `exactly 4 attempts ran\n${dump}`).toBe(4);
      const note = join(s.repo, '.agents', 'handoff.md');
      expect(existsSync(note), `the hand-off note was written\n${dump}`).toBe(true);
      expect(readFileSync(note, 'utf8'), dump).toContain('FAIL: expected 42, got 41');
      expect(s.log(), `the run was stopped by the plugin\n${dump}`).toContain('ControlledStopError');
      expect(s.log(), `not by Cline's own detector\n${dump}`).not.toContain('Detected 5 consecutive identical calls');
    },
  );

  scenario(
    'default backend (no CLINE_SESSION_BACKEND_MODE): the first run falls back to a local host while Cline starts its hub, the second goes through the hub; the plugin refuses the 5th and 6th attempts in both',
    { turns: [0, 1].map(() => ({ commands: Array.from({ length: 6 }, (_, i) => (i % 2 ? FAIL_ALT : FAIL_CMD)) })) },
    async (s) => {
      // Every other scenario runs CLINE_SESSION_BACKEND_MODE=local. Without it Cline spawns a `cline --cline-hub-daemon`
      // (fixed port 25463) that outlives the run; this test ends it by pid. Each `cline` run is a new conversation.
      const bin = agentStatus('cline').bin as string;
      const home = makeHome('cline');
      const env = { ...baseEnv(home), ...CLINE_SLOW_HOST };
      const logFile = join(home, '.cline', 'data', 'logs', 'cline.log');
      const auth = await runProcess(
        bin,
        ['auth', '-p', 'openai', '-k', 'dummy', '-m', 'mock-model', '-b', `${s.server.baseUrl}/v1`],
        { cwd: home, env, timeoutMs: 60_000 },
      );
      expect(auth.exitCode, auth.stderr).toBe(0);
      try {
        for (const turn of [1, 2]) {
          if (turn === 2) await waitForPort(25463, 30_000);
          const run = {
            ...(await runProcess(bin, ['--json', promptFor(turn)], { cwd: s.repo, env, timeoutMs: RUN_TIMEOUT_MS })),
            agent: 'cline' as const,
            home,
            sessionId: null,
          };
          s.runs.push(run);
          const dump = s.dump(turn);
          expect(run.exitCode, dump).toBe(0);
          const steps = s.steps(turn);
          expect(
            steps.map((x) => x.step),
            dump,
          ).toEqual([1, 2, 3, 4, 5, 6]);
          expect(steps[2]?.text, dump).toContain(MARKER);
          for (const i of [4, 5])
            expect(steps[i]?.text, `turn ${turn}: attempt ${i + 1} refused\n${dump}`).toContain('was not run');
          expect(lineCount(s.repo, 'ran.txt'), dump).toBe(4 * turn);
        }
        const routes = readFileSync(logFile, 'utf8')
          .split('\n')
          .filter((l) => l.includes('runtime routing selected'));
        expect(routes.length, routes.join('\n')).toBe(2);
        expect(routes[0], 'run 1: no hub yet').not.toContain('rpcAddress');
        expect(routes[1], 'run 2: through the hub').toContain('ws://127.0.0.1:25463/hub');
      } finally {
        const leftovers = processesUsingHome(home);
        killProcesses(leftovers);
        expect(leftovers.map((p) => p.cmd).join('\n'), 'the hub daemon Cline started (ended now)').toContain(
          '--cline-hub-daemon',
        );
      }
    },
  );

  scenario(
    'new turn (over ACP, one session): after a refusal, the next user prompt lets the command run again',
    {
      turns: [
        { commands: Array.from({ length: 5 }, (_, i) => (i % 2 ? FAIL_ALT : FAIL_CMD)) },
        { commands: [FAIL_CMD] },
      ],
    },
    async (s) => {
      // `cline --id` (resume) cannot run headless in 3.0.65; its ACP mode takes a second prompt in the same session.
      const run = await runClineAcp(s.repo, s.server, [1, 2]);
      s.runs.push(run);
      const leftovers = processesUsingHome(run.home);
      killProcesses(leftovers);
      const dump = `${s.dump(1)}\n${s.dump(2)}\nstop reasons: ${JSON.stringify(run.stopReasons)}`;
      expect(run.timedOut, dump).toBe(false);
      expect(run.stopReasons, dump).toEqual(['end_turn', 'end_turn']);
      expect(leftovers, `processes outlived the run\n${dump}`).toEqual([]);
      expect(s.server.problems, dump).toEqual([]);
      expect(s.steps(1)[4]?.text, `5th attempt refused in turn 1\n${dump}`).toContain('was not run');
      expect(lineCount(s.repo, 'ran.txt'), dump).toBe(5);
      const turn2 = s.server.agentRequests().find((r) => r.turn === 2);
      expect(JSON.stringify(turn2?.body ?? ''), `turn 2 carries turn 1's history (one session)\n${dump}`).toContain(
        turnMarker(1),
      );
      const again = s.steps(2)[0];
      expect(again?.text, `the command ran again in the new turn\n${dump}`).toContain(RAN);
      expect(again?.text, `no refusal in the new turn\n${dump}`).not.toContain(MARKER);
    },
  );
});
