// Acceptance: the guard installed by the built create-loop-guard CLI, inside the REAL Claude Code,
// Codex and OpenCode CLIs, driven by the scripted model in mock-server.ts.
// Asserts are substring checks on our own marker (`loop-guard:`), because each CLI wraps hook output
// differently, plus side effects on disk (a refused command must not have run).
//
// Env: LOOP_GUARD_AGENTS=claude,codex (subset), LOOP_GUARD_REQUIRE_AGENTS=1 (a deselected agent fails),
// LOOP_GUARD_KEEP_TMP=1 (keep every temp repo/HOME; failed scenarios always keep theirs).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { agentStatus, AGENT_NAMES, describeRun, guardSettingsEnv, openCodeWarmTemplate, removeDir, runAgent, type AgentName, type AgentRun, type RunOptions } from './agents.ts';
import { commitCount, FIRST_COMMIT_SUBJECT, lineCount, makeRepo, MARKER, scaffold } from './helpers.ts';
import { startMockServer, turnMarker, type MockModelServer, type Script, type StepResult, type ToolStep } from './mock-server.ts';

const LOOP_CMD = 'echo ran >> ran.txt; ls /definitely-missing-dir';
const PROGRESS_CMD = 'echo ran >> ran.txt; wc -l < ran.txt';
const CYCLE_A = 'echo ran >> a.txt; cat /missing-a';
const CYCLE_B = 'echo ran >> b.txt; cat /missing-b';
/** Text that only appears when LOOP_CMD really ran (ls's own error). */
const LOOP_RAN = 'cannot access';

/** The test the edit scenarios rerun: the same output every time, failing or green. */
const TEST_CMD = 'sh test.sh';
const FAIL_TEXT = 'FAIL: expected 42, got 41';
const GREEN_TEXT = 'ok: 42 passed';

/** The agent's own edit tool, changing app.js from `const v = k;` to `const v = k+1;` (Codex: apply_patch, offered to catalog models only). */
function editStep(agent: AgentName, repo: string, k: number): ToolStep {
  const [from, to] = [`const v = ${k};`, `const v = ${k + 1};`];
  if (agent === 'claude') return { name: 'Edit', input: { file_path: join(repo, 'app.js'), old_string: from, new_string: to } };
  if (agent === 'codex') return { name: 'apply_patch', input: `*** Begin Patch\n*** Update File: app.js\n@@\n-${from}\n+${to}\n*** End Patch\n`, custom: true };
  return { name: 'edit', input: { filePath: join(repo, 'app.js'), oldString: from, newString: to } };
}

/** app.js and test.sh, and what each agent needs to use its edit tool headless. */
function prepareEdits(agent: AgentName, repo: string, green: boolean): void {
  writeFileSync(join(repo, 'app.js'), 'const v = 0;\nmodule.exports = { v };\n');
  writeFileSync(join(repo, 'test.sh'), green ? `echo "${GREEN_TEXT}"\n` : `echo "${FAIL_TEXT}"\nexit 1\n`);
  if (agent === 'claude') {
    // In -p mode an edit needs acceptEdits (an allow rule alone is refused); added to the scaffolded settings.
    const path = join(repo, '.claude', 'settings.json');
    const settings = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    writeFileSync(path, JSON.stringify({ ...settings, permissions: { defaultMode: 'acceptEdits' } }, null, 2));
  }
  if (agent === 'codex') {
    // Codex offers apply_patch only to a model in its catalog: the mock answers whatever the name.
    const path = join(repo, '.codex', 'config.toml');
    writeFileSync(path, `model = "gpt-5.5"\n${readFileSync(path, 'utf8')}`);
  }
}

const selected = (process.env.LOOP_GUARD_AGENTS || AGENT_NAMES.join(',')).split(',').map((s) => s.trim());
const requireAll = process.env.LOOP_GUARD_REQUIRE_AGENTS === '1';
const keepTmp = process.env.LOOP_GUARD_KEEP_TMP === '1';

let server: MockModelServer;
const timings: Array<{ agent: AgentName; scenario: string; totalMs: number; runMs: number[] }> = [];
let tmpDirs: string[] = [];

beforeAll(async () => {
  server = await startMockServer();
});

afterEach((ctx) => {
  delete guardSettingsEnv.LOOP_GUARD_HANDOFF;
  const failed = ctx.task.result?.state === 'fail';
  if (failed || keepTmp) {
    if (tmpDirs.length > 0) console.log(`[agents] kept for inspection: ${tmpDirs.join(' ')}`);
  } else {
    for (const d of tmpDirs) removeDir(d);
  }
  tmpDirs = [];
});

afterAll(async () => {
  await server?.close();
  if (timings.length === 0) return;
  const s = (ms: number) => `${(ms / 1000).toFixed(1)}s`;
  const rows = timings.map((t) => `  ${t.agent.padEnd(9)} ${t.scenario.padEnd(10)} total ${s(t.totalMs).padStart(7)}   agent runs ${t.runMs.map(s).join(' + ')}`);
  const perAgent = AGENT_NAMES.map((a) => [a, timings.filter((t) => t.agent === a).reduce((n, t) => n + t.totalMs, 0)] as const)
    .filter(([, ms]) => ms > 0).map(([a, ms]) => `${a} ${s(ms)}`).join(', ');
  console.log(`[agents] timings\n${rows.join('\n')}\n  per agent: ${perAgent}`);
});

/** One scenario's context: a scaffolded repo, the script, and the runs made so far. */
class Scenario {
  readonly runs: AgentRun[] = [];
  constructor(readonly agent: AgentName, readonly repo: string, readonly script: Script) {}

  /** Runs one turn and checks the run itself went through: exit 0, no timeout, every scripted step taken. */
  async turn(turn: number, opts: Omit<RunOptions, 'turn'> = {}): Promise<AgentRun> {
    const run = await runAgent(this.agent, this.repo, server, { ...opts, turn });
    this.runs.push(run);
    tmpDirs.push(run.home);
    const context = describeRun(run, server);
    expect(run.timedOut, `run timed out\n${context}`).toBe(false);
    expect(run.exitCode, `non-zero exit\n${context}`).toBe(0);
    expect(server.problems, `the mock saw unexpected requests\n${context}`).toEqual([]);
    const expected = this.script.turns[turn - 1]?.commands.length ?? 0;
    const done = Math.max(-1, ...server.agentRequests().filter((r) => r.turn === turn).map((r) => r.stepsDone ?? -1));
    expect(done, `the agent stopped before finishing the script of turn ${turn}\n${context}`).toBe(expected);
    return run;
  }

  steps(turn = 1): StepResult[] {
    return server.stepResults(turn);
  }

  /** A readable dump of what the model got back per step, for assertion messages. */
  dump(turn = 1): string {
    const runs = this.runs.map((r) => describeRun(r)).join('\n');
    const steps = this.steps(turn).map((s) => `  step ${s.step} \`${s.command}\` ->\n    ${s.text.replace(/\n/g, '\n    ')}`).join('\n');
    return `model received (turn ${turn}):\n${steps}\n${runs}`;
  }
}

for (const agent of AGENT_NAMES) {
  describe(agent, () => {
    if (!selected.includes(agent)) {
      if (requireAll) it(`is required (LOOP_GUARD_REQUIRE_AGENTS=1) but deselected by LOOP_GUARD_AGENTS`, () => {
        throw new Error(`LOOP_GUARD_AGENTS=${process.env.LOOP_GUARD_AGENTS} leaves out ${agent}`);
      });
      else it.skip(`deselected by LOOP_GUARD_AGENTS=${process.env.LOOP_GUARD_AGENTS}`, () => {});
      return;
    }
    const status = agentStatus(agent);

    if (agent === 'opencode' && status.ok) {
      // Warm OpenCode's plugin-SDK install once, outside the scenario timings.
      beforeAll(async () => {
        const t0 = Date.now();
        const warm = await openCodeWarmTemplate();
        console.log(`[agents] OpenCode warm template ${warm ? 'ready' : 'UNAVAILABLE (runs will be slower)'} in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
      }, 300_000);
    }

    /** Every scenario fails with the install reason when the CLI is missing: never a silent pass. */
    const scenario = (name: string, scriptOf: Script | ((repo: string) => Script), body: (s: Scenario) => Promise<void>) =>
      it(name, async () => {
        if (!status.ok) throw new Error(`${agent} CLI unavailable: ${status.reason}`);
        const t0 = Date.now();
        const repo = makeRepo();
        tmpDirs.push(repo);
        await scaffold(repo);
        const script = typeof scriptOf === 'function' ? scriptOf(repo) : scriptOf;
        server.setScript(script);
        const s = new Scenario(agent, repo, script);
        try {
          await body(s);
        } finally {
          timings.push({ agent, scenario: name.split(':')[0] ?? name, totalMs: Date.now() - t0, runMs: s.runs.map((r) => r.durationMs) });
        }
      });

    scenario('loop: warns after the 3rd identical result, refuses the 5th and 6th attempts',
      { turns: [{ commands: Array<string>(6).fill(LOOP_CMD) }] },
      async (s) => {
        // Refusals only: the hand-off that would end this run is handoff.test.ts's subject.
        guardSettingsEnv.LOOP_GUARD_HANDOFF = '0';
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

        // The same session, continued headless with a second prompt (claude --resume, codex exec resume, opencode --session).
        await s.turn(2, { home: first.home, resumeSession: first.sessionId ?? undefined });
        const dump = s.dump(2);
        const turn2 = server.agentRequests().find((r) => r.turn === 2);
        expect(JSON.stringify(turn2?.body ?? ''), `turn 2 must carry turn 1's history (a resumed session)\n${dump}`)
          .toContain(turnMarker(1));
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
        guardSettingsEnv.LOOP_GUARD_HANDOFF = '0';
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

    // Issue 9: change is progress. The model edits with the agent's own edit tool between reruns of the same test.
    const editCycle = (green: boolean) => (repo: string): Script => {
      prepareEdits(agent, repo, green);
      // Claude Code refuses an edit of a file the session has not read ("File has not been read yet").
      const commands: Array<string | ToolStep> = agent === 'claude' ? [{ name: 'Read', input: { file_path: join(repo, 'app.js') } }, TEST_CMD] : [TEST_CMD];
      for (let k = 0; k < 5; k++) commands.push(editStep(agent, repo, k), TEST_CMD);
      return { turns: [{ commands }] };
    };

    scenario('edits: the same failing test rerun after each edit with the edit tool is never refused',
      editCycle(false),
      async (s) => {
        await s.turn(1);
        const dump = s.dump();
        const tests = s.steps().filter((x) => x.command === TEST_CMD);
        expect(tests.length, dump).toBe(6);
        for (const t of tests) {
          expect(t.text, `step ${t.step}: the test ran\n${dump}`).toContain(FAIL_TEXT);
          expect(t.text, `step ${t.step}: not refused\n${dump}`).not.toContain('was not run');
          expect(t.text, `step ${t.step}: no repeat warning\n${dump}`).not.toContain('same result');
        }
        expect(readFileSync(join(s.repo, 'app.js'), 'utf8'), `the five edits were made\n${dump}`).toContain('const v = 5;');
      });

    scenario('edits: a green test rerun after each of several edits is never warned',
      editCycle(true),
      async (s) => {
        await s.turn(1);
        const dump = s.dump();
        const steps = s.steps();
        expect(steps.filter((x) => x.command === TEST_CMD).length, dump).toBe(6);
        for (const x of steps) expect(x.text, `step ${x.step}: no loop-guard text\n${dump}`).not.toContain(MARKER);
        for (const t of steps.filter((x) => x.command === TEST_CMD)) expect(t.text, dump).toContain(GREEN_TEXT);
        expect(readFileSync(join(s.repo, 'app.js'), 'utf8'), `the five edits were made\n${dump}`).toContain('const v = 5;');
      });
  });
}
