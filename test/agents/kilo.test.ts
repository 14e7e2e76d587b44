// Acceptance for Kilo CLI 7.7.7: the guard installed by the BUILT create-loop-guard CLI (`--tools kilo`, which writes
// .kilo/plugins/loop-guard.js), inside the REAL `kilo run`, driven by the scripted model. The scenarios of
// scenarios.test.ts and handoff.test.ts: loop, progress, new turn, hang, cycle, edit-and-rerun (failing and green),
// the unattended hand-off (Kilo's stop is `client.session.abort`), plus the plugin's shell environment and the
// AGENTS.md rule. A Kilo run takes 12–30 s, mostly start-up, so the scenarios run concurrently, each with its own
// mock server, repo and HOME, at most LOOP_GUARD_KILO_JOBS (default 3) agent runs at a time.
// Env: LOOP_GUARD_AGENTS (kilo must be in it, when set), LOOP_GUARD_REQUIRE_AGENTS=1, LOOP_GUARD_KEEP_TMP=1.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENT_ENV } from '../../src/tools/env.ts';
import { KILO_PLUGIN } from '../../src/tools/kilo.ts';
import { agentStatus, describeRun, removeDir, runProcess, type AgentRun } from './agents.ts';
import { CLI_PATH, commitCount, FIRST_COMMIT_SUBJECT, lineCount, makeRepo, MARKER } from './helpers.ts';
import { startMockServer, turnMarker, type MockModelServer, type Script, type ToolStep } from './mock-server.ts';
import { killProcesses, processesUsingHome, runKilo } from './more-agents.ts';

const LOOP_CMD = 'echo ran >> ran.txt; ls /definitely-missing-dir';
const PROGRESS_CMD = 'echo ran >> ran.txt; wc -l < ran.txt';
const CYCLE_A = 'echo ran >> a.txt; cat /missing-a';
const CYCLE_B = 'echo ran >> b.txt; cat /missing-b';
/** Text that only appears when LOOP_CMD really ran (ls's own error). */
const LOOP_RAN = 'cannot access';
const TEST_CMD = 'sh test.sh';
const FAIL_TEXT = 'FAIL: expected 42, got 41';
const GREEN_TEXT = 'ok: 42 passed';
/** Fails like a test run (no class that climbs faster), so the whole ladder shows before the hand-off. */
const HANDOFF_CMD = 'echo ran >> ran.txt; echo "FAIL src/sum.test.js: expected 2 to be 3"; exit 1';
const HANDOFF_TEXT = 'expected 2 to be 3';
const HANDOFF_ASKS = 20;
/** Refusals only: the hand-off that would end these runs is the unattended scenario's subject. */
const NO_HANDOFF = { LOOP_GUARD_HANDOFF: '0' };

const selected = (process.env.LOOP_GUARD_AGENTS || 'kilo').split(',').map((s) => s.trim());
const requireAll = process.env.LOOP_GUARD_REQUIRE_AGENTS === '1';
const keepTmp = process.env.LOOP_GUARD_KEEP_TMP === '1';
const jobs = Math.max(1, Number(process.env.LOOP_GUARD_KILO_JOBS) || 3);
const timings: Array<{ scenario: string; ms: number; runs: number[] }> = [];
const figures: string[] = [];
const t0 = Date.now();

afterAll(() => {
  if (!timings.length) return;
  const s = (ms: number) => `${(ms / 1000).toFixed(1)}s`;
  const rows = timings.map((t) => `  ${t.scenario.padEnd(12)} ${s(t.ms).padStart(6)}   kilo runs ${t.runs.map(s).join(' + ')}`).join('\n');
  const runTotal = timings.reduce((n, t) => n + t.runs.reduce((a, b) => a + b, 0), 0);
  console.log(`[kilo] per scenario (${jobs} runs at a time)\n${rows}\n  kilo runs total ${s(runTotal)}, wall ${s(Date.now() - t0)}${figures.length ? `\n${figures.join('\n')}` : ''}`);
});

/** At most `n` agent runs at once: Kilo boots a Bun server per run, and CI has 2 cores. */
function limiter(n: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (active < n) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await fn();
    } finally {
      // A freed slot goes straight to the next waiter, so no newcomer can slip past the limit.
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}
const slot = limiter(jobs);

/** Runs the built CLI for Kilo alone, as a user would (`--tools kilo --yes`). */
async function scaffoldKilo(dir: string): Promise<void> {
  if (!existsSync(CLI_PATH)) throw new Error(`${CLI_PATH} does not exist: run \`npm run build\` first (npm run test:agents does).`);
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'lg-e2e-scaffold-home-')));
  const r = await runProcess(process.execPath, [CLI_PATH, '--yes', '--cwd', dir, '--tools', 'kilo'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CI: 'true', NO_COLOR: '1', LANG: 'C.UTF-8' },
    timeoutMs: 60_000,
  }).finally(() => rmSync(home, { recursive: true, force: true }));
  if (r.exitCode !== 0 || r.timedOut) throw new Error(`create-loop-guard failed (exit ${r.exitCode}):\n${r.stdout}\n${r.stderr}`);
  for (const f of [KILO_PLUGIN, 'AGENTS.md']) {
    if (!existsSync(join(dir, f))) throw new Error(`create-loop-guard exited 0 but did not write ${f}:\n${r.stdout}\n${r.stderr}`);
  }
}

class Scenario {
  readonly runs: AgentRun[] = [];
  constructor(readonly repo: string, readonly script: Script, readonly server: MockModelServer) {}

  /** One `kilo run`, in a slot; nothing it started may outlive it. */
  async run(turn: number, opts: { home?: string; resumeSession?: string; guardEnv?: Record<string, string> } = {}): Promise<AgentRun> {
    const run = await slot(() => runKilo(this.repo, this.server, { ...opts, turn }));
    this.runs.push(run);
    const leftovers = processesUsingHome(run.home);
    killProcesses(leftovers);
    expect(leftovers, `processes outlived the run\n${describeRun(run, this.server)}`).toEqual([]);
    return run;
  }

  /** One turn that must go through: exit 0, in time, every scripted step taken. */
  async turn(turn: number, opts: { home?: string; resumeSession?: string; guardEnv?: Record<string, string> } = {}): Promise<AgentRun> {
    const run = await this.run(turn, opts);
    const context = describeRun(run, this.server);
    expect(run.timedOut, `run timed out\n${context}`).toBe(false);
    expect(run.exitCode, `non-zero exit\n${context}`).toBe(0);
    expect(this.server.problems, `the mock saw unexpected requests\n${context}`).toEqual([]);
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

/** Kilo's edit tool (OpenCode's): changes app.js from `const v = k;` to `const v = k+1;`. */
function editStep(repo: string, k: number): ToolStep {
  return { name: 'edit', input: { filePath: join(repo, 'app.js'), oldString: `const v = ${k};`, newString: `const v = ${k + 1};` } };
}

function editScript(green: boolean) {
  return (repo: string): Script => {
    writeFileSync(join(repo, 'app.js'), 'const v = 0;\nmodule.exports = { v };\n');
    writeFileSync(join(repo, 'test.sh'), green ? `echo "${GREEN_TEXT}"\n` : `echo "${FAIL_TEXT}"\nexit 1\n`);
    const commands: Array<string | ToolStep> = [TEST_CMD];
    for (let k = 0; k < 5; k++) commands.push(editStep(repo, k), TEST_CMD);
    return { turns: [{ commands }] };
  };
}

describe.concurrent('kilo: the guard in the real CLI', () => {
  if (!selected.includes('kilo')) {
    if (requireAll) it('is required (LOOP_GUARD_REQUIRE_AGENTS=1) but deselected by LOOP_GUARD_AGENTS', () => {
      throw new Error(`LOOP_GUARD_AGENTS=${process.env.LOOP_GUARD_AGENTS} leaves out kilo`);
    });
    else it.skip(`deselected by LOOP_GUARD_AGENTS=${process.env.LOOP_GUARD_AGENTS}`, () => {});
    return;
  }

  /** Every scenario fails with the install reason when the CLI is missing: never a silent pass. */
  const scenario = (name: string, scriptOf: Script | ((repo: string) => Script), body: (s: Scenario) => Promise<void>) =>
    it(name, async () => {
      const status = agentStatus('kilo');
      if (!status.ok) throw new Error(`kilo CLI unavailable: ${status.reason}`);
      const started = Date.now();
      const repo = makeRepo();
      let s: Scenario | null = null;
      let server: MockModelServer | null = null;
      let ok = false;
      try {
        await scaffoldKilo(repo);
        const script = typeof scriptOf === 'function' ? scriptOf(repo) : scriptOf;
        server = await startMockServer(script);
        s = new Scenario(repo, script, server);
        await body(s);
        ok = true;
      } finally {
        await server?.close();
        timings.push({ scenario: name.split(':')[0] ?? name, ms: Date.now() - started, runs: s?.runs.map((r) => r.durationMs) ?? [] });
        const dirs = [repo, ...new Set(s?.runs.map((r) => r.home) ?? [])];
        if (ok && !keepTmp) for (const d of dirs) removeDir(d);
        else console.log(`[kilo] kept for inspection: ${dirs.join(' ')}`);
      }
    });

  // Started first: it holds two runs, the first of which ends only at the hand-off.
  scenario(`unattended: ${HANDOFF_ASKS} asks for one failing command end within 8 model requests (session.abort) with a hand-off note; the next session reads it`,
    { turns: [{ commands: Array<string>(HANDOFF_ASKS).fill(HANDOFF_CMD) }, { commands: ['cat .agents/handoff.md'] }] },
    async (s) => {
      const run = await s.run(1);
      const requests = s.server.agentRequests().filter((r) => r.turn === 1).length;
      const context = `${describeRun(run, s.server)}\n${s.dump(1)}`;
      figures.push(`  hand-off: ${requests} model requests, command ran ${lineCount(s.repo, 'ran.txt')}×, kilo exit ${run.exitCode}`);
      expect(run.timedOut, `run timed out\n${context}`).toBe(false);
      expect(requests, `the run ended within 8 model requests\n${context}`).toBeLessThanOrEqual(8);
      expect(lineCount(s.repo, 'ran.txt'), `the command ran 4 times\n${context}`).toBe(4);
      // What an aborted `kilo run` says (7.7.7): exit 1 with MessageAbortedError on its JSON stream.
      expect(run.exitCode, `an aborted kilo run exits 1\n${context}`).toBe(1);
      expect(run.stdout, context).toContain('MessageAbortedError');

      const note = readFileSync(join(s.repo, '.agents', 'handoff.md'), 'utf8');
      expect(note, 'the note names the refused command').toContain('echo ran >> ran.txt');
      expect(note, 'the note shows the failure').toContain(HANDOFF_TEXT);
      const twin = JSON.parse(readFileSync(join(s.repo, '.agents', 'handoff.json'), 'utf8')) as { handoffs: Array<{ tool: string; refused: Array<{ refusals: number }> }> };
      expect(twin.handoffs.at(-1)?.tool, "the note is Kilo's, from Kilo's build of the plugin").toBe('kilo');
      expect(twin.handoffs.at(-1)?.refused[0]?.refusals, 'two refusals, then the hand-off').toBe(3);

      // A fresh session (new HOME, nothing resumed): AGENTS.md carries the rule, and the file is there to read.
      await s.turn(2);
      const first = s.server.agentRequests().find((r) => r.turn === 2);
      expect(JSON.stringify(first?.body ?? ''), `the next session's first request carries the AGENTS.md hand-off rule\n${s.dump(2)}`).toContain('.agents/handoff.md');
      const read = s.steps(2)[0]?.text ?? '';
      expect(read, `the next session read the note\n${s.dump(2)}`).toContain(HANDOFF_TEXT);
      expect(read, 'reading the note is never refused').not.toContain(MARKER);
    });

  scenario('new turn: after a refusal, a new user message in the same session lets the command run again',
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

  scenario('loop: warns on the 3rd identical result, refuses the 5th and 6th attempts',
    { turns: [{ commands: Array<string>(6).fill(LOOP_CMD) }] },
    async (s) => {
      await s.turn(1, { guardEnv: NO_HANDOFF });
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

  scenario('cycle: A,B,A,B… is caught: a warning by step 6, later attempts refused',
    { turns: [{ commands: Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? CYCLE_A : CYCLE_B)) }] },
    async (s) => {
      await s.turn(1, { guardEnv: NO_HANDOFF });
      const steps = s.steps();
      const dump = s.dump();
      expect(steps.map((x) => x.step), dump).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(steps[0]?.text, dump).not.toContain(MARKER);
      expect(steps[1]?.text, dump).not.toContain(MARKER);
      const firstFlag = steps.findIndex((x) => x.text.includes(MARKER)) + 1;
      expect(firstFlag, `a loop-guard warning by step 6\n${dump}`).toBeGreaterThan(0);
      expect(firstFlag, `a loop-guard warning by step 6\n${dump}`).toBeLessThanOrEqual(6);
      expect(lineCount(s.repo, 'a.txt') + lineCount(s.repo, 'b.txt'), `some of the 10 attempts were refused\n${dump}`).toBeLessThan(10);
      expect(steps[9]?.text, `the last attempt was refused with our reason\n${dump}`).toContain(MARKER);
      expect(steps[9]?.text, `the last attempt did not run\n${dump}`).not.toContain('No such file');
    });

  scenario('edits: the same failing test rerun after each edit with Kilo\'s edit tool is never refused',
    editScript(false),
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
    editScript(true),
    async (s) => {
      await s.turn(1);
      const dump = s.dump();
      const steps = s.steps();
      expect(steps.filter((x) => x.command === TEST_CMD).length, dump).toBe(6);
      for (const x of steps) expect(x.text, `step ${x.step}: no loop-guard text\n${dump}`).not.toContain(MARKER);
      for (const t of steps.filter((x) => x.command === TEST_CMD)) expect(t.text, dump).toContain(GREEN_TEXT);
      expect(readFileSync(join(s.repo, 'app.js'), 'utf8'), `the five edits were made\n${dump}`).toContain('const v = 5;');
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

  scenario("env and rule: the plugin's shell.env reaches Kilo's shell, and the AGENTS.md rule reaches the model",
    { turns: [{ commands: [`echo ${Object.keys(AGENT_ENV).map((k) => `${k}=$${k}`).join(' ')}`] }] },
    async (s) => {
      await s.turn(1);
      const dump = s.dump();
      const text = s.steps()[0]?.text ?? '';
      for (const [k, v] of Object.entries(AGENT_ENV)) expect(text, `${k}=${v} in Kilo's shell\n${dump}`).toContain(`${k}=${v}`);
      const rule = readFileSync(join(s.repo, 'AGENTS.md'), 'utf8').split('\n').find((l) => /loop-guard/i.test(l) && l.length > 40 && !l.startsWith('<!--'));
      expect(rule, 'AGENTS.md carries our block').toBeTruthy();
      const first = s.server.agentRequests()[0];
      expect(JSON.stringify(first?.body ?? ''), `the model's first request carries the AGENTS.md rule\n${dump}`).toContain(JSON.stringify(rule).slice(1, 60));
    });
});
