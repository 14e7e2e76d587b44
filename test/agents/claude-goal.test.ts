// Issue 31 in the REAL Claude Code CLI: `claude -p "/goal <condition>"` with a condition that cannot be met. /goal is a
// session Stop hook: after each turn a separate evaluator request judges the condition, and "not met" starts another
// turn with no prompt from a person (docs/judging.md, "Loops that outlive a session"). Each turn the scripted model
// runs the same failing command once and says it still fails; nothing changes in the tree. The guard must count across
// those continuations (no person wrote) and its hand-off must end the run: no further turn, no further evaluation.
// The control, without the guard, shows what the hand-off saves: the goal goes on until the scripted evaluator calls
// it met at its 8th check (the bound that ends the control; a real evaluator would go on saying "not met").
// Env: LOOP_GUARD_AGENTS (claude runs it), LOOP_GUARD_REQUIRE_AGENTS=1, LOOP_GUARD_KEEP_TMP=1, as in scenarios.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentStatus, describeRun, killProcesses, processesUsingHome, removeDir, runClaude } from './runners/index.ts';
import { lineCount, makeRepo, MARKER, scaffold } from './helpers.ts';
import { startMockServer } from './mock-server.ts';

const FAILING = 'echo ran >> ran.txt; echo "FAIL src/sum.test.js: expected 2 to be 3"; exit 1';
const GOAL = '/goal npm test passes';
/** The control's bound: the scripted evaluator says "met" at this check. */
const MET_AT = 8;

const selected = (process.env.LOOP_GUARD_AGENTS || 'claude').split(',').map((s) => s.trim());
const requireAll = process.env.LOOP_GUARD_REQUIRE_AGENTS === '1';
const keepTmp = process.env.LOOP_GUARD_KEEP_TMP === '1';
const figures: string[] = [];

afterAll(() => {
  if (figures.length) console.log(`[claude /goal] figures\n${figures.join('\n')}`);
});

/** The stream-json result line: how Claude Code says the run ended. */
function resultOf(stdout: string): Record<string, unknown> {
  const line = stdout
    .split('\n')
    .filter((l) => l.includes('"type":"result"'))
    .at(-1);
  return line ? (JSON.parse(line) as Record<string, unknown>) : {};
}

/** Each tool result Claude Code streamed, in order (stream-json `user` lines). */
function toolResults(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith('{"type":"user"'))
    .flatMap((l) => {
      const content = (JSON.parse(l) as { message?: { content?: unknown } }).message?.content;
      return Array.isArray(content)
        ? content.filter((b) => b?.type === 'tool_result').map((b) => String(b.content))
        : [];
    });
}

describe('claude: /goal with a goal that cannot be met (issue 31)', () => {
  if (!selected.includes('claude')) {
    if (requireAll)
      it('is required (LOOP_GUARD_REQUIRE_AGENTS=1) but deselected by LOOP_GUARD_AGENTS', () => {
        throw new Error(`LOOP_GUARD_AGENTS=${process.env.LOOP_GUARD_AGENTS} leaves out claude`);
      });
    else it.skip(`deselected by LOOP_GUARD_AGENTS=${process.env.LOOP_GUARD_AGENTS}`, () => {});
    return;
  }

  for (const guarded of [true, false]) {
    const name = guarded
      ? 'with the guard: the continuations keep the count, the command runs 4 times, the hand-off ends the goal'
      : `control, no guard: the goal starts turn after turn until the evaluator's ${MET_AT}th check`;
    it(name, async () => {
      const status = agentStatus('claude');
      if (!status.ok) throw new Error(`claude CLI unavailable: ${status.reason}`);
      const server = await startMockServer({
        turns: [{ commands: [FAILING], finalText: 'npm test still fails: expected 2 to be 3.' }],
        goalVerdict: { ok: false, reason: 'the transcript shows npm test failing', metAfter: MET_AT },
      });
      const repo = makeRepo();
      let home: string | undefined;
      let ok = false;
      try {
        if (guarded) await scaffold(repo, 'claude', ['.agents/hooks/loop-guard.cjs', '.claude/settings.json']);
        const run = await runClaude(repo, server, { promptPrefix: GOAL });
        home = run.home;
        const leftovers = processesUsingHome(run.home);
        killProcesses(leftovers);
        const context = describeRun(run, server);
        expect(run.timedOut, `run timed out\n${context}`).toBe(false);
        expect(run.exitCode, context).toBe(0);
        expect(server.problems, `the mock saw unexpected requests\n${context}`).toEqual([]);
        expect(leftovers, `processes outlived the run\n${context}`).toEqual([]);
        const asks = server.agentRequests().filter((r) => r.reply.startsWith('tool:')).length;
        const checks = server.requests.filter((r) => r.kind === 'evaluator').length;
        const requests = server.agentRequests().length + checks;
        const ran = lineCount(repo, 'ran.txt');
        const result = resultOf(run.stdout);
        figures.push(
          `  ${guarded ? 'guarded' : 'control'}: ${asks} turns asked, the command ran ${ran}×, ${checks} goal checks, ` +
            `${requests} model requests in all, ended: ${String(result.terminal_reason ?? result.subtype)}`,
        );
        if (!guarded) {
          expect(checks, `the goal went on to the ${MET_AT}th check\n${context}`).toBe(MET_AT);
          expect(ran, `one run per turn, none refused\n${context}`).toBe(MET_AT);
          ok = true;
          return;
        }
        const steps = toolResults(run.stdout);
        // A failing test allows two refusals before the hand-off (docs/judging.md, the hand-off ladder).
        expect(ran, `the command ran 4 times in ${asks} turns\n${context}`).toBe(4);
        expect(asks, `7 turns asked: 4 ran, the 5th and 6th refused, the 7th handed off\n${context}`).toBe(7);
        expect(checks, `no goal check after the hand-off\n${context}`).toBe(6);
        expect(result.terminal_reason, `the hand-off ended the run\n${context}`).toBe('hook_stopped');
        const refused = `${MARKER} \`${FAILING}\` was not run`;
        expect(steps.slice(4), `the 5th and 6th asks refused, the 7th handed off\n${context}`).toEqual([
          expect.stringContaining(refused),
          expect.stringContaining(refused),
          expect.stringContaining('this turn stops here'),
        ]);
        const note = readFileSync(join(repo, '.agents', 'handoff.md'), 'utf8');
        expect(note, 'the hand-off note names the command').toContain(FAILING);
        ok = true;
      } finally {
        await server.close();
        const dirs = [repo, ...(home ? [home] : [])];
        if (ok && !keepTmp) for (const d of dirs) removeDir(d);
        else console.log(`[claude /goal] kept for inspection: ${dirs.join(' ')}`);
      }
    });
  }
});
