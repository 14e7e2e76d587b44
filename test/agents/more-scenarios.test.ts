// Acceptance for the tools of issue 15: the guard installed by the BUILT create-loop-guard CLI (`--tools <tool>`),
// inside the REAL Gemini CLI (and the others as they land), driven by the scripted model. The same scenarios as
// scenarios.test.ts: loop, progress, new turn, hang, cycle. (Edit-and-rerun and the unattended hand-off wait for
// the change-tracking and hand-off work.) Each test has its own mock server, repo and HOME, so they run
// concurrently: most of a run is start-up and waiting.
// Env: LOOP_GUARD_AGENTS (subset), LOOP_GUARD_REQUIRE_AGENTS=1, LOOP_GUARD_KEEP_TMP=1, as in scenarios.test.ts.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GUARD_PATH } from '../../src/tools/markers.ts';
import { agentStatus, describeRun, removeDir, runProcess, type AgentRun, type MoreAgentName } from './agents.ts';
import { CLI_PATH, commitCount, FIRST_COMMIT_SUBJECT, lineCount, makeRepo, MARKER } from './helpers.ts';
import { startMockServer, turnMarker, type MockModelServer, type Script } from './mock-server.ts';
import { killProcesses, processesUsingHome, runMoreAgent } from './more-agents.ts';

/** The tools whose record and adapter have landed, with the config file the scaffold must write for each. */
const LANDED: Array<{ agent: MoreAgentName; config: string; ruleVia: string }> = [
  { agent: 'gemini', config: '.gemini/settings.json', ruleVia: "GEMINI.md's @AGENTS.md import" },
  { agent: 'copilot', config: '.github/hooks/loop-guard.json', ruleVia: 'AGENTS.md, which Copilot CLI reads itself' },
  { agent: 'qwen', config: '.qwen/settings.json', ruleVia: 'AGENTS.md, which Qwen Code reads itself' },
];

const LOOP_CMD = 'echo ran >> ran.txt; ls /definitely-missing-dir';
const PROGRESS_CMD = 'echo ran >> ran.txt; wc -l < ran.txt';
const CYCLE_A = 'echo ran >> a.txt; cat /missing-a';
const CYCLE_B = 'echo ran >> b.txt; cat /missing-b';
/** Text that only appears when LOOP_CMD really ran (ls's own error). */
const LOOP_RAN = 'cannot access';

const selected = (process.env.LOOP_GUARD_AGENTS || LANDED.map((l) => l.agent).join(',')).split(',').map((s) => s.trim());
const requireAll = process.env.LOOP_GUARD_REQUIRE_AGENTS === '1';
const keepTmp = process.env.LOOP_GUARD_KEEP_TMP === '1';
const timings: Array<{ agent: string; scenario: string; ms: number }> = [];
const t0 = Date.now();

afterAll(() => {
  if (timings.length === 0) return;
  const rows = timings.map((t) => `  ${t.agent.padEnd(8)} ${t.scenario.padEnd(10)} ${(t.ms / 1000).toFixed(1)}s`).join('\n');
  console.log(`[more-scenarios] per scenario (concurrent)\n${rows}\n  wall ${((Date.now() - t0) / 1000).toFixed(1)}s`);
});

/** Runs the built CLI for this one tool, as a user would (`--tools gemini --yes`). */
async function scaffoldFor(agent: MoreAgentName, config: string, dir: string): Promise<void> {
  if (!existsSync(CLI_PATH)) throw new Error(`${CLI_PATH} does not exist: run \`npm run build\` first (npm run test:agents does).`);
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'lg-e2e-scaffold-home-')));
  const r = await runProcess(process.execPath, [CLI_PATH, '--yes', '--cwd', dir, '--tools', agent], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CI: 'true', NO_COLOR: '1', LANG: 'C.UTF-8' },
    timeoutMs: 60_000,
  }).finally(() => rmSync(home, { recursive: true, force: true }));
  if (r.exitCode !== 0 || r.timedOut) throw new Error(`create-loop-guard failed (exit ${r.exitCode}):\n${r.stdout}\n${r.stderr}`);
  for (const f of [GUARD_PATH, config]) {
    if (!existsSync(join(dir, f))) throw new Error(`create-loop-guard exited 0 but did not write ${f}:\n${r.stdout}\n${r.stderr}`);
  }
}

class Scenario {
  readonly runs: AgentRun[] = [];
  constructor(readonly agent: MoreAgentName, readonly repo: string, readonly script: Script, readonly server: MockModelServer) {}

  /** One turn; checks the run went through: exit 0, in time, every scripted step taken, nothing left running. */
  async turn(turn: number, opts: { home?: string; resumeSession?: string } = {}): Promise<AgentRun> {
    const run = await runMoreAgent(this.agent, this.repo, this.server, { ...opts, turn });
    this.runs.push(run);
    const leftovers = processesUsingHome(run.home);
    killProcesses(leftovers);
    const context = describeRun(run, this.server);
    expect(run.timedOut, `run timed out\n${context}`).toBe(false);
    expect(run.exitCode, `non-zero exit\n${context}`).toBe(0);
    expect(this.server.problems, `the mock saw unexpected requests\n${context}`).toEqual([]);
    expect(leftovers, `processes outlived the run\n${context}`).toEqual([]);
    const expected = this.script.turns[turn - 1]?.commands.length ?? 0;
    const done = Math.max(-1, ...this.server.agentRequests().filter((r) => r.turn === turn).map((r) => r.stepsDone ?? -1));
    expect(done, `the agent stopped before finishing the script of turn ${turn}\n${context}`).toBe(expected);
    return run;
  }

  steps(turn = 1) {
    return this.server.stepResults(turn);
  }

  dump(turn = 1): string {
    const steps = this.steps(turn).map((s) => `  step ${s.step} \`${s.command}\` ->\n    ${s.text.replace(/\n/g, '\n    ')}`).join('\n');
    return `model received (turn ${turn}):\n${steps}\n${this.runs.map((r) => describeRun(r)).join('\n')}`;
  }
}

for (const { agent, config, ruleVia } of LANDED) {
  describe.concurrent(`${agent}: the guard in the real CLI`, () => {
    if (!selected.includes(agent)) {
      if (requireAll) it(`is required (LOOP_GUARD_REQUIRE_AGENTS=1) but deselected by LOOP_GUARD_AGENTS`, () => {
        throw new Error(`LOOP_GUARD_AGENTS=${process.env.LOOP_GUARD_AGENTS} leaves out ${agent}`);
      });
      else it.skip(`deselected by LOOP_GUARD_AGENTS=${process.env.LOOP_GUARD_AGENTS}`, () => {});
      return;
    }

    /** Every scenario fails with the install reason when the CLI is missing: never a silent pass. */
    const scenario = (name: string, script: Script, body: (s: Scenario) => Promise<void>) =>
      it(name, async () => {
        const status = agentStatus(agent);
        if (!status.ok) throw new Error(`${agent} CLI unavailable: ${status.reason}`);
        const started = Date.now();
        const server = await startMockServer(script);
        const repo = makeRepo();
        const s = new Scenario(agent, repo, script, server);
        let ok = false;
        try {
          await scaffoldFor(agent, config, repo);
          await body(s);
          ok = true;
        } finally {
          await server.close();
          timings.push({ agent, scenario: name.split(':')[0] ?? name, ms: Date.now() - started });
          const dirs = [repo, ...new Set(s.runs.map((r) => r.home))];
          if (ok && !keepTmp) for (const d of dirs) removeDir(d);
          else console.log(`[more-scenarios] ${agent}: kept for inspection: ${dirs.join(' ')}`);
        }
      });

    scenario('loop: warns by the 3rd identical result, refuses the 5th and 6th attempts',
      { turns: [{ commands: Array<string>(6).fill(LOOP_CMD) }] },
      async (s) => {
        await s.turn(1);
        const steps = s.steps();
        const dump = s.dump();
        expect(steps.map((x) => x.step), dump).toEqual([1, 2, 3, 4, 5, 6]);
        for (const i of [0, 1, 2, 3]) expect(steps[i]?.text, `step ${i + 1} should have run\n${dump}`).toContain(LOOP_RAN);
        expect(steps[0]?.text, `no warning after the first result\n${dump}`).not.toContain(MARKER);
        expect(steps[2]?.text, `warning after the 3rd identical result\n${dump}`).toContain(MARKER);
        for (const i of [4, 5]) {
          expect(steps[i]?.text, `attempt ${i + 1} must be refused with our reason\n${dump}`).toContain(MARKER);
          expect(steps[i]?.text, `attempt ${i + 1} must not have run\n${dump}`).not.toContain(LOOP_RAN);
        }
        expect(lineCount(s.repo, 'ran.txt'), `exactly 4 attempts ran\n${dump}`).toBe(4);
      });

    scenario('progress: a command whose output changes every time is never flagged',
      { turns: [{ commands: Array<string>(6).fill(PROGRESS_CMD) }] },
      async (s) => {
        await s.turn(1);
        const steps = s.steps();
        const dump = s.dump();
        expect(steps.map((x) => x.step), dump).toEqual([1, 2, 3, 4, 5, 6]);
        steps.forEach((step, i) => {
          expect(step.text, `no loop-guard text at step ${i + 1}\n${dump}`).not.toContain(MARKER);
          expect(step.text, `step ${i + 1} saw its own line count\n${dump}`).toMatch(new RegExp(`(^|\\D)${i + 1}(\\D|$)`, 'm'));
        });
        expect(lineCount(s.repo, 'ran.txt'), dump).toBe(6);
      });

    scenario('new turn: after a refusal, a new user message lets the command run again',
      { turns: [{ commands: Array<string>(5).fill(LOOP_CMD) }, { commands: [LOOP_CMD] }] },
      async (s) => {
        const first = await s.turn(1);
        expect(s.steps(1)[4]?.text, `5th attempt refused in turn 1\n${s.dump(1)}`).toContain(MARKER);
        expect(lineCount(s.repo, 'ran.txt'), s.dump(1)).toBe(4);
        expect(first.sessionId, `no session id to resume\n${describeRun(first)}`).toBeTruthy();
        await s.turn(2, { home: first.home, resumeSession: first.sessionId ?? undefined });
        const dump = s.dump(2);
        const turn2 = s.server.agentRequests().find((r) => r.turn === 2);
        expect(JSON.stringify(turn2?.body ?? ''), `turn 2 must carry turn 1's history (a resumed session)\n${dump}`).toContain(turnMarker(1));
        const again = s.steps(2)[0];
        expect(again?.text, `the command ran again in the new turn\n${dump}`).toContain(LOOP_RAN);
        expect(again?.text, `no refusal in the new turn\n${dump}`).not.toContain(MARKER);
        expect(lineCount(s.repo, 'ran.txt'), dump).toBe(5);
      });

    scenario('hang guard: `git commit` without -m is refused before it runs; `git log` output reaches the model',
      { turns: [{ commands: ['git commit --allow-empty', 'git log'] }] },
      async (s) => {
        const before = commitCount(s.repo);
        await s.turn(1);
        const steps = s.steps();
        const dump = s.dump();
        expect(steps[0]?.text, `git commit without -m refused with our reason\n${dump}`).toContain(MARKER);
        expect(commitCount(s.repo), `no commit was made\n${dump}`).toBe(before);
        expect(steps[1]?.text, `git log output reached the model\n${dump}`).toContain(FIRST_COMMIT_SUBJECT);
        expect(steps[1]?.text, `git log was not refused\n${dump}`).not.toContain(MARKER);
      });

    scenario('cycle: A,B,A,B… is caught: a warning by step 6, later attempts refused',
      { turns: [{ commands: Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? CYCLE_A : CYCLE_B)) }] },
      async (s) => {
        await s.turn(1);
        const steps = s.steps();
        const dump = s.dump();
        expect(steps.map((x) => x.step), dump).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        expect(steps[0]?.text, dump).not.toContain(MARKER);
        expect(steps[1]?.text, dump).not.toContain(MARKER);
        const firstFlag = steps.findIndex((x) => x.text.includes(MARKER)) + 1;
        expect(firstFlag, `a loop-guard warning by step 6\n${dump}`).toBeGreaterThan(0);
        expect(firstFlag, `a loop-guard warning by step 6\n${dump}`).toBeLessThanOrEqual(6);
        const ran = lineCount(s.repo, 'a.txt') + lineCount(s.repo, 'b.txt');
        expect(ran, `some of the 10 attempts were refused\n${dump}`).toBeLessThan(10);
        expect(steps[9]?.text, `the last attempt was refused with our reason\n${dump}`).toContain(MARKER);
        expect(steps[9]?.text, `the last attempt did not run\n${dump}`).not.toContain('No such file');
      });

    scenario('fail-open: with the guard file gone, every command still runs (a crashing hook must not deny)',
      { turns: [{ commands: ['echo ran >> ran.txt', 'echo ran >> ran.txt'] }] },
      async (s) => {
        rmSync(join(s.repo, GUARD_PATH));
        await s.turn(1);
        const dump = s.dump();
        expect(lineCount(s.repo, 'ran.txt'), `both commands ran\n${dump}`).toBe(2);
        for (const step of s.steps()) expect(step.text, `no refusal\n${dump}`).not.toMatch(/denied|blocked/i);
      });

    scenario(`stop rule: the AGENTS.md rule reaches the model through ${ruleVia}`,
      { turns: [{ commands: ['echo hi'] }] },
      async (s) => {
        await s.turn(1);
        const rule = readFileSync(join(s.repo, 'AGENTS.md'), 'utf8').split('\n').find((l) => /loop-guard/i.test(l) && l.length > 40 && !l.startsWith('<!--'));
        expect(rule, 'AGENTS.md carries our block').toBeTruthy();
        const first = s.server.agentRequests()[0];
        expect(JSON.stringify(first?.body ?? ''), `the model's first request carries the AGENTS.md rule\n${s.dump()}`).toContain(JSON.stringify(rule).slice(1, 60));
      });
  });
}
