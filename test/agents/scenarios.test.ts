// Acceptance: the guard installed by the BUILT create-loop-guard CLI (`--tools <agent>`), inside each REAL agent CLI,
// driven by the scripted model in mock-server.ts. One table (rows.ts) × one list of scenarios: loop, progress, new
// turn, hang, cycle, edit-and-rerun (failing and green), fail-open, the stop rule, and the unattended hand-off.
// Asserts are substring checks on our own marker (`loop-guard:`), because each CLI wraps hook output differently,
// plus side effects on disk (a refused command must not have run). Each scenario has its own mock server, repo and
// HOME, so a row's scenarios may run concurrently.
//
// Env: LOOP_GUARD_AGENTS=claude,gemini (subset), LOOP_GUARD_REQUIRE_AGENTS=1 (a deselected agent fails),
// LOOP_GUARD_KEEP_TMP=1 (keep every temp repo/HOME; failed scenarios always keep theirs).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUARD_PATH } from '../../src/tools/markers.ts';
import { agentStatus, describeRun, removeDir, runAgent, type AgentRun, type RunOptions } from './runners/index.ts';
import { commitCount, FIRST_COMMIT_SUBJECT, lineCount, makeRepo, MARKER, scaffold } from './helpers.ts';
import {
  startMockServer,
  turnMarker,
  type MockModelServer,
  type Script,
  type StepResult,
  type ToolStep,
} from './mock-server.ts';
import { killProcesses, processesUsingHome } from './runners/index.ts';
import { ROWS, type AgentRow, type ScenarioId } from './rows.ts';
import { paused, writePausedScripts } from './slow-pipes.ts';

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

/** Unattended: fails like a test run (no class that climbs faster), asked for 20 times by a model stuck in a loop. */
const FAILING = 'echo ran >> ran.txt; echo "FAIL src/sum.test.js: expected 2 to be 3"; exit 1';
const FAILURE_TEXT = 'expected 2 to be 3';
const ASKS = 20;
/** Restart loop: headless runs of the agent with one prompt. */
const RUNS = 7;

const selected = (process.env.LOOP_GUARD_AGENTS || ROWS.map((r) => r.agent).join(',')).split(',').map((s) => s.trim());
const requireAll = process.env.LOOP_GUARD_REQUIRE_AGENTS === '1';
const keepTmp = process.env.LOOP_GUARD_KEEP_TMP === '1';
const timings: Array<{ agent: string; scenario: string; totalMs: number; runMs: number[] }> = [];
const figures: string[] = [];

afterAll(() => {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)}s`;
  if (timings.length) {
    const rows = timings.map(
      (t) =>
        `  ${t.agent.padEnd(9)} ${t.scenario.padEnd(11)} total ${s(t.totalMs).padStart(7)}   agent runs ${t.runMs.map(s).join(' + ')}`,
    );
    const agents = [...new Set(timings.map((t) => t.agent))];
    const perAgent = agents
      .map((a) => `${a} ${s(timings.filter((t) => t.agent === a).reduce((n, t) => n + t.totalMs, 0))}`)
      .join(', ');
    console.log(
      `[agents] timings (a row's scenarios may overlap)\n${rows.join('\n')}\n  summed per agent: ${perAgent}`,
    );
  }
  if (figures.length)
    console.log(`[agents] hand-off figures (${ASKS} asks of one failing command)\n${figures.join('\n')}`);
});

/** At most `n` calls of the returned function's argument at once; a freed slot goes straight to the next waiter. */
function limiter(n: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (active < n) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

/** One scenario's context: its scaffolded repo, script, mock server, settings, and the runs made so far. */
class Scenario {
  readonly runs: AgentRun[] = [];
  constructor(
    readonly row: AgentRow,
    readonly repo: string,
    readonly script: Script,
    readonly server: MockModelServer,
    readonly guardEnv: Record<string, string>,
    readonly slot: <T>(fn: () => Promise<T>) => Promise<T>,
  ) {}

  /** One run, with whatever it left behind killed (and returned). */
  async run(
    turn: number,
    opts: Omit<RunOptions, 'turn' | 'guardEnv'> & { guardEnvExtra?: Record<string, string> } = {},
  ): Promise<{ run: AgentRun; leftovers: Array<{ pid: number; cmd: string }> }> {
    const { guardEnvExtra, ...rest } = opts;
    const guardEnv = { ...this.guardEnv, ...guardEnvExtra };
    const run = await this.slot(() => runAgent(this.row.agent, this.repo, this.server, { ...rest, turn, guardEnv }));
    this.runs.push(run);
    const leftovers = processesUsingHome(run.home);
    killProcesses(leftovers);
    return { run, leftovers };
  }

  /** One turn that must go through: exit 0, in time, every scripted step taken, nothing left running. */
  async turn(turn: number, opts: Omit<RunOptions, 'turn' | 'guardEnv'> = {}): Promise<AgentRun> {
    const { run, leftovers } = await this.run(turn, opts);
    const context = describeRun(run, this.server);
    expect(run.timedOut, `run timed out\n${context}`).toBe(false);
    expect(run.exitCode, `non-zero exit\n${context}`).toBe(0);
    expect(this.server.problems, `the mock saw unexpected requests\n${context}`).toEqual([]);
    expect(leftovers, `processes outlived the run\n${context}`).toEqual([]);
    const expected = this.script.turns[turn - 1]?.commands.length ?? 0;
    const done = Math.max(
      -1,
      ...this.server
        .agentRequests()
        .filter((r) => r.turn === turn)
        .map((r) => r.stepsDone ?? -1),
    );
    expect(done, `the agent stopped before finishing the script of turn ${turn}\n${context}`).toBe(expected);
    return run;
  }

  steps(turn = 1): StepResult[] {
    return this.server.stepResults(turn);
  }

  /** A readable dump of what the model got back per step, for assertion messages. */
  dump(turn = 1): string {
    const steps = this.steps(turn)
      .map((s) => `  step ${s.step} \`${s.command}\` ->\n    ${s.text.replace(/\n/g, '\n    ')}`)
      .join('\n');
    return `model received (turn ${turn}):\n${steps}\n${this.runs.map((r) => describeRun(r)).join('\n')}`;
  }
}

/** app.js and test.sh for the edit scenarios, plus what the row's edit tool needs headless. */
function editScript(row: AgentRow, repo: string, green: boolean): Script {
  writeFileSync(join(repo, 'app.js'), 'const v = 0;\nmodule.exports = { v };\n');
  const pause = row.slowPipes ? 'sleep 1\n' : '';
  writeFileSync(
    join(repo, 'test.sh'),
    green ? `echo "${GREEN_TEXT}"\n${pause}` : `echo "${FAIL_TEXT}"\n${pause}exit 1\n`,
  );
  row.prepareEdits?.(repo);
  const commands: Array<string | ToolStep> = [...(row.beforeEdits?.(repo) ?? []), TEST_CMD];
  for (let k = 0; k < 5; k++) commands.push(row.edit(repo, `const v = ${k};`, `const v = ${k + 1};`), TEST_CMD);
  return { turns: [{ commands }] };
}

/** A shell edit of `file`, as real agents make them: `sed -i` and a heredoc Python script, taking turns. */
function shellEdit(file: string, k: number): string {
  const [from, to] = [`const v = ${k};`, `const v = ${k + 1};`];
  return k % 2 === 0
    ? `sed -i 's/${from}/${to}/' ${file}`
    : `python3 - <<'PY'\np = '${file}'\ns = open(p).read()\nopen(p, 'w').write(s.replace('${from}', '${to}'))\nPY`;
}

/** The failing test rerun after each of five edits of `file` made through the shell, not the edit tool. */
function shellEditScript(repo: string, file: string): Script {
  mkdirSync(dirname(join(repo, file)), { recursive: true });
  writeFileSync(join(repo, file), 'const v = 0;\nmodule.exports = { v };\n');
  writeFileSync(join(repo, 'test.sh'), `echo "${FAIL_TEXT}"\nexit 1\n`);
  const commands: string[] = [TEST_CMD];
  for (let k = 0; k < 5; k++) commands.push(shellEdit(file, k), TEST_CMD);
  return { turns: [{ commands }] };
}

/** `script` with each command that writes and exits run through its pausing script (slow-pipes.ts). */
function withPausedCommands(script: Script): Script {
  return {
    ...script,
    turns: script.turns.map((t) => ({
      ...t,
      commands: t.commands.map((c) => (typeof c === 'string' ? paused(c) : c)),
    })),
  };
}

/** `n` asks for one command, worded as the row's model repeats it. */
function repeated(row: AgentRow, command: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => row.repeat?.(command, i) ?? command);
}

function gitStatus(dir: string): string {
  return execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir },
  });
}

// A command left out of slow-pipes.ts would run as is there and bring back the lost-output flake.
it('a slow-pipes CLI runs each command the scenarios repeat through a pausing script', () => {
  for (const c of [LOOP_CMD, PROGRESS_CMD, CYCLE_A, CYCLE_B, FAILING])
    expect(paused(c), c).toMatch(/; \.\/[a-z-]+\.sh$/);
});

for (const row of ROWS) {
  const { agent } = row;
  (row.concurrent ? describe.concurrent : describe)(`${agent}: the guard in the real CLI`, () => {
    if (!selected.includes(agent)) {
      if (requireAll)
        it('is required (LOOP_GUARD_REQUIRE_AGENTS=1) but deselected by LOOP_GUARD_AGENTS', () => {
          throw new Error(`LOOP_GUARD_AGENTS=${process.env.LOOP_GUARD_AGENTS} leaves out ${agent}`);
        });
      else it.skip(`deselected by LOOP_GUARD_AGENTS=${process.env.LOOP_GUARD_AGENTS}`, () => {});
      return;
    }
    const status = agentStatus(agent);
    const slot = row.jobs ? limiter(row.jobs) : <T>(fn: () => Promise<T>) => fn();
    if (row.warm && status.ok) {
      beforeAll(async () => {
        const t0 = Date.now();
        const warm = await row.warm!();
        console.log(
          `[agents] ${agent} warm-up ${warm ? 'ready' : 'UNAVAILABLE (runs will be slower)'} in ${((Date.now() - t0) / 1000).toFixed(1)}s`,
        );
      }, 300_000);
    }

    /** Every scenario fails with the install reason when the CLI is missing: never a silent pass. */
    const scenario = (
      id: ScenarioId,
      name: string,
      scriptOf: Script | ((repo: string) => Script),
      body: (s: Scenario) => Promise<void>,
      guardEnv: Record<string, string> = {},
    ) => {
      const why = row.skip?.[id];
      if (why) return it.skip(`${id}: ${why}`, () => {});
      return it(`${id}: ${name}`, async () => {
        if (!status.ok) throw new Error(`${agent} CLI unavailable: ${status.reason}`);
        const started = Date.now();
        const server = await startMockServer();
        const repo = makeRepo();
        let s: Scenario | undefined;
        let ok = false;
        try {
          await scaffold(repo, agent, row.writes);
          const asked = typeof scriptOf === 'function' ? scriptOf(repo) : scriptOf;
          if (row.slowPipes) writePausedScripts(repo);
          const script = row.slowPipes ? withPausedCommands(asked) : asked;
          server.setScript(script);
          s = new Scenario(row, repo, script, server, guardEnv, slot);
          await body(s);
          ok = true;
        } finally {
          await server.close();
          timings.push({
            agent,
            scenario: id,
            totalMs: Date.now() - started,
            runMs: s?.runs.map((r) => r.durationMs) ?? [],
          });
          const dirs = [repo, ...new Set(s?.runs.map((r) => r.home) ?? [])];
          if (ok && !keepTmp) for (const d of dirs) removeDir(d);
          else console.log(`[agents] ${agent}: kept for inspection: ${dirs.join(' ')}`);
        }
      });
    };

    scenario(
      'loop',
      'warns by the 3rd identical result, refuses the 5th and 6th attempts',
      { turns: [{ commands: repeated(row, LOOP_CMD, 6) }] },
      async (s) => {
        await s.turn(1);
        const steps = s.steps();
        const dump = s.dump();
        expect(
          steps.map((x) => x.step),
          dump,
        ).toEqual([1, 2, 3, 4, 5, 6]);
        for (const i of [0, 1, 2, 3])
          expect(steps[i]?.text, `step ${i + 1} should have run\n${dump}`).toContain(LOOP_RAN);
        expect(steps[0]?.text, `no warning after the first result\n${dump}`).not.toContain(MARKER);
        expect(steps[2]?.text, `warning after the 3rd identical result\n${dump}`).toContain(MARKER);
        for (const i of [4, 5]) {
          expect(steps[i]?.text, `attempt ${i + 1} must be refused with our reason\n${dump}`).toContain(MARKER);
          expect(steps[i]?.text, `attempt ${i + 1} must not have run\n${dump}`).not.toContain(LOOP_RAN);
        }
        expect(lineCount(s.repo, 'ran.txt'), `exactly 4 attempts ran\n${dump}`).toBe(4);
      },
      // Refusals only: the hand-off that would end this run is the unattended scenario's subject.
      { LOOP_GUARD_HANDOFF: '0' },
    );

    scenario(
      'progress',
      'a command whose output changes every time is never flagged',
      { turns: [{ commands: repeated(row, PROGRESS_CMD, 6) }] },
      async (s) => {
        await s.turn(1);
        const steps = s.steps();
        const dump = s.dump();
        expect(
          steps.map((x) => x.step),
          dump,
        ).toEqual([1, 2, 3, 4, 5, 6]);
        steps.forEach((step, i) => {
          expect(step.text, `no loop-guard text at step ${i + 1}\n${dump}`).not.toContain(MARKER);
          expect(step.text, `step ${i + 1} saw its own line count\n${dump}`).toMatch(
            new RegExp(`(^|\\D)${i + 1}(\\D|$)`, 'm'),
          );
        });
        expect(lineCount(s.repo, 'ran.txt'), dump).toBe(6);
      },
    );

    scenario(
      'new turn',
      'after a refusal, a new user message lets the command run again',
      { turns: [{ commands: repeated(row, LOOP_CMD, 5) }, { commands: [LOOP_CMD] }] },
      async (s) => {
        const first = await s.turn(1);
        expect(s.steps(1)[4]?.text, `5th attempt refused in turn 1\n${s.dump(1)}`).toContain(MARKER);
        expect(lineCount(s.repo, 'ran.txt'), s.dump(1)).toBe(4);
        expect(first.sessionId, `no session id to resume\n${describeRun(first)}`).toBeTruthy();
        // The same session, continued headless with a second prompt (each runner's resume flag).
        await s.turn(2, { home: first.home, resumeSession: first.sessionId ?? undefined });
        const dump = s.dump(2);
        const turn2 = s.server.agentRequests().find((r) => r.turn === 2);
        expect(
          JSON.stringify(turn2?.body ?? ''),
          `turn 2 must carry turn 1's history (a resumed session)\n${dump}`,
        ).toContain(turnMarker(1));
        const again = s.steps(2)[0];
        expect(again?.text, `the command ran again in the new turn\n${dump}`).toContain(LOOP_RAN);
        expect(again?.text, `no refusal in the new turn\n${dump}`).not.toContain(MARKER);
        expect(lineCount(s.repo, 'ran.txt'), dump).toBe(5);
      },
    );

    scenario(
      'hang guard',
      '`git commit` without -m is refused before it runs (Claude Code: runs, its GIT_EDITOR=true aborts it at once); `git log` output reaches the model (in a "type": "module" package)',
      { turns: [{ commands: ['git commit --allow-empty', 'git log'] }] },
      async (s) => {
        // An ES-module package: a plugin loader (Cline's jiti, OpenCode's and Kilo's Bun) must still run our files.
        writeFileSync(join(s.repo, 'package.json'), '{ "name": "fixture", "type": "module" }\n');
        const before = commitCount(s.repo);
        await s.turn(1);
        const steps = s.steps();
        const dump = s.dump();
        if (agent === 'claude') {
          expect(steps[0]?.text, `git commit ran and git aborted it\n${dump}`).toContain('empty commit message');
          expect(steps[0]?.text, `not refused: git's editor cannot wait in Claude Code\n${dump}`).not.toContain(MARKER);
        } else expect(steps[0]?.text, `git commit without -m refused with our reason\n${dump}`).toContain(MARKER);
        expect(commitCount(s.repo), `no commit was made\n${dump}`).toBe(before);
        expect(steps[1]?.text, `git log output reached the model\n${dump}`).toContain(FIRST_COMMIT_SUBJECT);
        expect(steps[1]?.text, `git log was not refused\n${dump}`).not.toContain(MARKER);
      },
    );

    scenario(
      'cycle',
      'A,B,A,B… is caught: a warning by step 6, later attempts refused',
      { turns: [{ commands: Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? CYCLE_A : CYCLE_B)) }] },
      async (s) => {
        await s.turn(1);
        const steps = s.steps();
        const dump = s.dump();
        expect(
          steps.map((x) => x.step),
          dump,
        ).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        expect(steps[0]?.text, dump).not.toContain(MARKER);
        expect(steps[1]?.text, dump).not.toContain(MARKER);
        const firstFlag = steps.findIndex((x) => x.text.includes(MARKER)) + 1;
        expect(firstFlag, `a loop-guard warning by step 6\n${dump}`).toBeGreaterThan(0);
        expect(firstFlag, `a loop-guard warning by step 6\n${dump}`).toBeLessThanOrEqual(6);
        const ran = lineCount(s.repo, 'a.txt') + lineCount(s.repo, 'b.txt');
        expect(ran, `some of the 10 attempts were refused\n${dump}`).toBeLessThan(10);
        expect(steps[9]?.text, `the last attempt was refused with our reason\n${dump}`).toContain(MARKER);
        expect(steps[9]?.text, `the last attempt did not run\n${dump}`).not.toContain('No such file');
      },
      { LOOP_GUARD_HANDOFF: '0' },
    );

    // Change is progress (issue 9): the model edits with the agent's own edit tool between reruns of the same test.
    scenario(
      'edits',
      'the same failing test rerun after each edit with the edit tool is never refused',
      (repo) => editScript(row, repo, false),
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
        expect(readFileSync(join(s.repo, 'app.js'), 'utf8'), `the five edits were made\n${dump}`).toContain(
          'const v = 5;',
        );
      },
    );

    // The model fixes the file through the shell between identical failing runs: only the tree look sees the change.
    // Outside git the file is three levels down, below what the plain look lists: the edit's named file is watched.
    for (const [id, git, file] of [
      ['shell edits', true, 'app.js'],
      ['shell edits, no git', false, 'src/lib/core/app.js'],
    ] as const) {
      scenario(
        id,
        `the same failing test rerun after each \`sed -i\` / heredoc edit of ${file} is never refused (${git ? 'in a git repository' : 'in a folder outside git'})`,
        (repo) => {
          if (!git) rmSync(join(repo, '.git'), { recursive: true, force: true });
          return shellEditScript(repo, file);
        },
        async (s) => {
          await s.turn(1);
          const dump = s.dump();
          expect(existsSync(join(s.repo, '.git')), dump).toBe(git);
          const tests = s.steps().filter((x) => x.command === TEST_CMD);
          expect(tests.length, dump).toBe(6);
          for (const t of tests) {
            expect(t.text, `step ${t.step}: the test ran\n${dump}`).toContain(FAIL_TEXT);
            expect(t.text, `step ${t.step}: not refused\n${dump}`).not.toContain('was not run');
            expect(t.text, `step ${t.step}: no repeat warning\n${dump}`).not.toContain('same result');
          }
          expect(readFileSync(join(s.repo, file), 'utf8'), `the five shell edits were made\n${dump}`).toContain(
            'const v = 5;',
          );
        },
      );
    }

    scenario(
      'green edits',
      'a green test rerun after each of several edits is never warned',
      (repo) => editScript(row, repo, true),
      async (s) => {
        await s.turn(1);
        const dump = s.dump();
        const steps = s.steps();
        expect(steps.filter((x) => x.command === TEST_CMD).length, dump).toBe(6);
        for (const x of steps) expect(x.text, `step ${x.step}: no loop-guard text\n${dump}`).not.toContain(MARKER);
        for (const t of steps.filter((x) => x.command === TEST_CMD)) expect(t.text, dump).toContain(GREEN_TEXT);
        expect(readFileSync(join(s.repo, 'app.js'), 'utf8'), `the five edits were made\n${dump}`).toContain(
          'const v = 5;',
        );
      },
    );

    scenario(
      'fail-open',
      'with the guard file gone, every command still runs (a crashing hook must not deny; a plugin loader says why)',
      { turns: [{ commands: ['echo ran >> ran.txt', 'echo ran >> ran.txt'] }] },
      async (s) => {
        rmSync(join(s.repo, row.guardFile ?? GUARD_PATH));
        const run = await s.turn(1);
        const dump = s.dump();
        expect(lineCount(s.repo, 'ran.txt'), `both commands ran\n${dump}`).toBe(2);
        // A plugin's loader says in the tool's own log that the guard is not active, and why.
        if (row.loaderLog)
          expect(row.loaderLog(run), `the loader's message in ${row.agent}'s log\n${dump}`).toMatch(
            /loop-guard: not active, \S*\.agents\/hooks\/loop-guard\.cjs did not load/,
          );
        for (const step of s.steps()) {
          expect(step.text, `no refusal\n${dump}`).not.toMatch(/denied|blocked/i);
          expect(step.text, `no loop-guard text\n${dump}`).not.toContain(MARKER);
        }
      },
    );

    scenario(
      'stop rule',
      `the AGENTS.md rule reaches the model through ${row.ruleVia}`,
      { turns: [{ commands: ['echo hi'] }] },
      async (s) => {
        await s.turn(1);
        const rule = readFileSync(join(s.repo, 'AGENTS.md'), 'utf8')
          .split('\n')
          .find((l) => /loop-guard/i.test(l) && l.length > 40 && !l.startsWith('<!--'));
        expect(rule, 'AGENTS.md carries our block').toBeTruthy();
        const first = s.server.agentRequests()[0];
        expect(
          JSON.stringify(first?.body ?? ''),
          `the model's first request carries the AGENTS.md rule\n${s.dump()}`,
        ).toContain(JSON.stringify(rule).slice(1, 60));
      },
    );

    // Loops that outlive a session: a shell loop restarts the agent with the same prompt, each run asks once for the
    // same failing command, nothing changes in between. The count goes on across runs (one state folder, as one user
    // has); the controls (an edit before each run, a new prompt each run) are never refused.
    const restartLoop = (id: ScenarioId, name: string, control?: 'edits' | 'new prompts') =>
      scenario(id, name, { turns: Array.from({ length: RUNS }, () => ({ commands: [FAILING] })) }, async (s) => {
        const state = mkdtempSync(join(tmpdir(), 'lg-loop-state-'));
        const results: string[] = [];
        let ranBefore = 0;
        try {
          for (let i = 0; i < RUNS; i++) {
            if (control === 'edits') writeFileSync(join(s.repo, 'app.js'), `const v = ${i};\n`);
            const before = s.server.agentRequests().length;
            const { run, leftovers } = await s.run(control === 'new prompts' ? i + 1 : 1, {
              guardEnvExtra: { LOOP_GUARD_STATE_DIR: state },
            });
            const ran = lineCount(s.repo, 'ran.txt');
            // A run whose ask did not run was refused (or stopped by the hand-off before it ran).
            results.push(
              `run ${i + 1}: exit ${run.exitCode}, ${s.server.agentRequests().length - before} model requests, ` +
                `${ran > ranBefore ? 'ran' : 'refused'}`,
            );
            ranBefore = ran;
            expect(run.timedOut, `run ${i + 1} timed out\n${describeRun(run, s.server)}`).toBe(false);
            expect(leftovers, `processes outlived run ${i + 1}`).toEqual([]);
          }
        } finally {
          rmSync(state, { recursive: true, force: true });
        }
        const requests = s.server.agentRequests().length;
        const ran = lineCount(s.repo, 'ran.txt');
        const refused = results.filter((r) => r.endsWith('refused')).length;
        figures.push(`  ${agent.padEnd(9)} ${id}: ran ${ran}×, ${requests} model requests, ${refused} runs refused`);
        const context = `${results.join('\n')}\n${describeRun(s.runs.at(-1) as AgentRun, s.server)}`;
        if (control) {
          expect(refused, `never refused\n${context}`).toBe(0);
          expect(ran, context).toBe(RUNS);
          return;
        }
        expect(ran, `the failing command ran at most 4 times in ${RUNS} runs\n${context}`).toBe(4);
        expect(refused, `the later runs were refused\n${context}`).toBe(RUNS - 4);
        const note = readFileSync(join(s.repo, '.agents', 'handoff.md'), 'utf8');
        expect(note, 'the hand-off note names the command').toContain('echo ran >> ran.txt');
      });
    restartLoop(
      'restart loop',
      `${RUNS} headless runs with one prompt, one failing ask each: it runs 4 times, later runs are refused`,
    );
    restartLoop('restart loop, edits', `${RUNS} runs with an edit before each: never refused`, 'edits');
    restartLoop('restart loop, new prompts', `${RUNS} runs with a new prompt each: never refused`, 'new prompts');

    // Issue 11: nobody writes again in an unattended run, so the ladder's last rung must really end it (each tool's
    // own stop), leave the note, and the next session must start from the note.
    scenario(
      'unattended',
      `${ASKS} asks for one failing command end within 8 model requests with a hand-off note; the next session reads it`,
      { turns: [{ commands: repeated(row, FAILING, ASKS) }, { commands: ['cat .agents/handoff.md'] }] },
      async (s) => {
        const { run, leftovers } = await s.run(1);
        const requests = s.server.agentRequests().filter((r) => r.turn === 1).length;
        const context = `${describeRun(run, s.server)}\nsteps:\n${s
          .steps(1)
          .map((x) => `  ${x.step}: ${x.text.slice(0, 300).replace(/\n/g, ' | ')}`)
          .join('\n')}`;
        // Recorded before the asserts, so a run against an older build (LOOP_GUARD_CLI) still gives its "before" figure.
        figures.push(
          `  ${agent.padEnd(9)} ${requests} model requests, command ran ${lineCount(s.repo, 'ran.txt')}×, exit ${run.exitCode}`,
        );
        expect(run.timedOut, `run timed out\n${context}`).toBe(false);
        expect(leftovers, `processes outlived the stopped run\n${context}`).toEqual([]);
        expect(requests, `the run ended within 8 model requests\n${context}`).toBeLessThanOrEqual(8);
        expect(lineCount(s.repo, 'ran.txt'), `the command ran 4 times\n${context}`).toBe(4);
        if (row.stopped)
          expect(run.exitCode, `how a run the hand-off ends exits\n${context}`).toBe(row.stopped.exitCode);
        if (row.stopped?.stdout) expect(run.stdout, context).toContain(row.stopped.stdout);

        const notePath = join(s.repo, '.agents', 'handoff.md');
        expect(existsSync(notePath), `the hand-off note was written\n${context}`).toBe(true);
        const note = readFileSync(notePath, 'utf8');
        expect(note, 'the note names the refused command').toContain('echo ran >> ran.txt');
        expect(note, 'the note shows the failure').toContain(FAILURE_TEXT);
        const twin = JSON.parse(readFileSync(join(s.repo, '.agents', 'handoff.json'), 'utf8')) as {
          handoffs: Array<{ tool: string; refused: Array<{ command: string; refusals: number }> }>;
        };
        expect(twin.handoffs.at(-1)?.tool).toBe(agent);
        expect(twin.handoffs.at(-1)?.refused[0]?.refusals, 'two refusals, then the hand-off').toBe(3);
        expect(gitStatus(s.repo), 'the note is kept out of git').not.toContain('handoff');
        figures.push(
          `  ${agent.padEnd(9)} note ${Buffer.byteLength(note)} B + json ${Buffer.byteLength(readFileSync(join(s.repo, '.agents', 'handoff.json')))} B`,
        );

        // A fresh session (new HOME, nothing resumed): the instructions it loads carry the rule, and the file is there to read.
        const { run: next, leftovers: nextLeftovers } = await s.run(2);
        const first = s.server.agentRequests().find((r) => r.turn === 2);
        const nextContext = describeRun(next, s.server);
        expect(nextLeftovers, `processes outlived the next session\n${nextContext}`).toEqual([]);
        expect(
          JSON.stringify(first?.body ?? ''),
          `the first request of the next session carries the AGENTS.md hand-off rule\n${nextContext}`,
        ).toContain('.agents/handoff.md');
        if (row.noteVia)
          expect(
            JSON.stringify(first?.body ?? ''),
            `the next session's first request carries the hand-off note (${row.noteVia})\n${nextContext}`,
          ).toContain('the loop guard stopped the last session here');
        const read = s.steps(2)[0]?.text ?? '';
        expect(read, `the next session read the note\n${nextContext}`).toContain(FAILURE_TEXT);
        expect(read, 'reading the note is never refused').not.toContain(MARKER);
      },
    );
  });
}
