// Issue 31 in the REAL Codex CLI: a session resumed headless (`codex exec resume <id> "<prompt>"`, a new process,
// the same session id) keeps its count when the prompt is the same one (docs/judging.md, "Loops that outlive a
// session": "the same prompt from a new agent process in the same session (a resume) | goes on"), and starts over
// when the resumed turn brings another prompt (the control: "a different prompt | a fresh start").
// Each run: the scripted model asks for one failing command 3 times, then answers with text. One HOME (the state
// folder lives in it, as one user's does), one repository, nothing changed in between, default settings. The command
// fails with a missing path, a failure retrying cannot fix: one refusal, then the hand-off (ladder.ts, handoffAfter),
// which Codex gets as the deny and a SIGINT (exit 1), as in one session.
// Env: LOOP_GUARD_AGENTS (codex runs it), LOOP_GUARD_REQUIRE_AGENTS=1, LOOP_GUARD_KEEP_TMP=1, as in scenarios.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  agentStatus,
  describeRun,
  killProcesses,
  processesUsingHome,
  removeDir,
  runCodex,
  type AgentRun,
} from './runners/index.ts';
import { lineCount, makeRepo, MARKER, scaffold } from './helpers.ts';
import { startMockServer, turnMarker, type MockModelServer, type StepResult } from './mock-server.ts';

const LOOP_CMD = 'echo ran >> ran.txt; ls /definitely-missing-dir';
/** Text that only appears when LOOP_CMD really ran (ls's own error). */
const LOOP_RAN = 'cannot access';
const ASKS = 3;

const selected = (process.env.LOOP_GUARD_AGENTS || 'codex').split(',').map((s) => s.trim());
const requireAll = process.env.LOOP_GUARD_REQUIRE_AGENTS === '1';
const keepTmp = process.env.LOOP_GUARD_KEEP_TMP === '1';
const figures: string[] = [];

afterAll(() => {
  if (figures.length) console.log(`[codex resume] figures (${ASKS} asks per run)\n${figures.join('\n')}`);
});

/** What one run did: its exit, how many model requests it made, and what each step's call got back. */
interface RunFigures {
  run: AgentRun;
  requests: number;
  steps: StepResult[];
  /** The body of the run's first model request, as JSON. */
  firstBody: string;
}

/** One headless run that must go through (exit 0 or `exitCode`, in time, every step asked, nothing left running). */
async function exec(
  repo: string,
  server: MockModelServer,
  turn: number,
  opts: { home?: string; resumeSession?: string | undefined; exitCode?: number; done?: number } = {},
): Promise<RunFigures> {
  const { exitCode = 0, done = ASKS, ...runOpts } = opts;
  const before = server.agentRequests().length;
  const run = await runCodex(repo, server, { ...runOpts, turn });
  const leftovers = processesUsingHome(run.home);
  killProcesses(leftovers);
  const context = describeRun(run, server);
  expect(run.timedOut, `run timed out\n${context}`).toBe(false);
  expect(run.exitCode, `exit status\n${context}`).toBe(exitCode);
  expect(server.problems, `the mock saw unexpected requests\n${context}`).toEqual([]);
  expect(leftovers, `processes outlived the run\n${context}`).toEqual([]);
  const mine = server.agentRequests().slice(before);
  const reported = Math.max(-1, ...mine.map((r) => r.stepsDone ?? -1));
  expect(reported, `every scripted step was asked\n${context}`).toBe(done);
  // Copied now: the resumed run's requests (the same prompt, so the same turn marker) replace these in the mock.
  return {
    run,
    requests: mine.length,
    // This run's steps only: the ones its requests reported (a same-prompt resume shares run 1's turn marker).
    steps: server
      .stepResults(turn)
      .filter((s) => s.step <= reported)
      .map((s) => ({ ...s })),
    firstBody: JSON.stringify(mine[0]?.body ?? ''),
  };
}

function dump(label: string, f: RunFigures): string {
  const steps = f.steps.map((s) => `  step ${s.step}: ${s.text.slice(0, 400).replace(/\n/g, ' | ')}`).join('\n');
  return `${label} (exit ${f.run.exitCode}, ${f.requests} model requests):\n${steps}`;
}

describe('codex: a resumed session and its count (issue 31)', () => {
  if (!selected.includes('codex')) {
    if (requireAll)
      it('is required (LOOP_GUARD_REQUIRE_AGENTS=1) but deselected by LOOP_GUARD_AGENTS', () => {
        throw new Error(`LOOP_GUARD_AGENTS=${process.env.LOOP_GUARD_AGENTS} leaves out codex`);
      });
    else it.skip(`deselected by LOOP_GUARD_AGENTS=${process.env.LOOP_GUARD_AGENTS}`, () => {});
    return;
  }

  for (const control of [false, true]) {
    const name = control
      ? 'resume with a new prompt: the count starts over, all 6 asks run'
      : 'resume with the same prompt: the count goes on, the command runs 4 times in all, the 5th is refused, the 6th hands off';
    it(name, async () => {
      const status = agentStatus('codex');
      if (!status.ok) throw new Error(`codex CLI unavailable: ${status.reason}`);
      const commands = Array.from({ length: ASKS }, () => LOOP_CMD);
      // Turn 2's script only answers the control's new prompt; the same prompt resumed is turn 1 again.
      const server = await startMockServer({ turns: [{ commands }, { commands }] });
      const repo = makeRepo();
      let first: RunFigures | undefined;
      let ok = false;
      try {
        await scaffold(repo, 'codex', ['.agents/hooks/loop-guard.cjs', '.codex/hooks.json', '.codex/config.toml']);
        first = await exec(repo, server, 1);
        const one = dump('run 1', first);
        for (const s of first.steps) expect(s.text, `run 1 step ${s.step} ran\n${one}`).toContain(LOOP_RAN);
        expect(first.steps[0]?.text, `no warning after the first result\n${one}`).not.toContain(MARKER);
        expect(first.steps[2]?.text, `warned on the 3rd identical result\n${one}`).toContain(MARKER);
        expect(lineCount(repo, 'ran.txt'), one).toBe(ASKS);
        const id = first.run.sessionId;
        expect(id, `no thread id to resume\n${describeRun(first.run)}`).toBeTruthy();

        // The same session in a new `codex exec resume` process: the same prompt (turn 1) or a new one (turn 2).
        const turn = control ? 2 : 1;
        const resumed = await exec(repo, server, turn, {
          home: first.run.home,
          resumeSession: id ?? undefined,
          // The hand-off interrupts `codex exec` (stop-codex.ts): exit 1, as in the unattended scenario.
          exitCode: control ? 0 : 1,
          // …before any request reports the 6th ask's result: the last request is the one that asked for it.
          done: control ? ASKS : ASKS - 1,
        });
        const both = `${one}\n${dump('resumed', resumed)}\n${describeRun(resumed.run, server)}`;
        expect(
          resumed.firstBody.split(LOOP_RAN).length - 1,
          `the resumed run's first request carries run 1's ${ASKS} results (a resumed session)\n${both}`,
        ).toBeGreaterThanOrEqual(ASKS);
        expect(resumed.firstBody, both).toContain(turnMarker(1));
        const ran = lineCount(repo, 'ran.txt');
        const refused = resumed.steps.filter((s) => !s.text.includes(LOOP_RAN)).length;
        figures.push(
          `  ${control ? 'control, new prompt' : 'same prompt        '}: run 1 ${first.requests} requests, ` +
            `resumed ${resumed.requests} requests (exit ${resumed.run.exitCode}); the command ran ${ran}× in ` +
            `${2 * ASKS} asks, ${refused} refused${control ? '' : ' and the last handed off'}`,
        );
        if (control) {
          for (const s of resumed.steps) {
            expect(s.text, `resumed step ${s.step} ran\n${both}`).toContain(LOOP_RAN);
            expect(s.text, `resumed step ${s.step}: not refused\n${both}`).not.toContain('was not run');
          }
          expect(resumed.steps[0]?.text, `the count started over: no warning\n${both}`).not.toContain(MARKER);
          expect(resumed.steps[2]?.text, `the count started over: 3, not 6\n${both}`).toContain(
            'the same result 3 times in a row',
          );
          expect(ran, both).toBe(2 * ASKS);
        } else {
          expect(resumed.steps[0]?.text, `the 4th ask ran\n${both}`).toContain(LOOP_RAN);
          expect(resumed.steps[0]?.text, `the 4th ask is warned: the count went on\n${both}`).toContain(
            'the same result 4 times in a row',
          );
          expect(resumed.steps[1]?.text, `the 5th ask refused with our reason\n${both}`).toContain(MARKER);
          expect(resumed.steps[1]?.text, `the 5th ask did not run\n${both}`).not.toContain(LOOP_RAN);
          // The 6th is the hand-off: the deny, then the SIGINT, so no model request reports its result.
          expect(resumed.requests, `no model request after the 6th ask: the run ended there\n${both}`).toBe(ASKS);
          expect(ran, `the command ran 4 times in ${2 * ASKS} asks\n${both}`).toBe(4);
          const twin = JSON.parse(readFileSync(join(repo, '.agents', 'handoff.json'), 'utf8')) as {
            handoffs: Array<{
              session: string;
              refused: Array<{ command: string; refusals: number; results: number }>;
            }>;
          };
          const last = twin.handoffs.at(-1);
          expect(last?.session, `the hand-off is the resumed session's\n${both}`).toBe(id);
          expect(last?.refused[0], `4 results, then a refusal and the hand-off\n${both}`).toMatchObject({
            command: LOOP_CMD,
            refusals: 2,
            results: 4,
          });
        }
        ok = true;
      } finally {
        await server.close();
        const dirs = [repo, ...(first ? [first.run.home] : [])];
        if (ok && !keepTmp) for (const d of dirs) removeDir(d);
        else console.log(`[codex resume] kept for inspection: ${dirs.join(' ')}`);
      }
    });
  }
});
