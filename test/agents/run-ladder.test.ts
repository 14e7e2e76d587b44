// `create-loop-guard run` (the BUILT CLI) driving each REAL agent CLI against the scripted model (mock-server.ts):
// a verifier that needs a variable the agent can never see climbs four rungs and hands off; a 401 halts at once; a
// task the model fixes on rung 2 passes; a budget smaller than one request is cut and halts. The repo has the guard
// installed, as a user's would. Env: LOOP_GUARD_AGENTS=claude,codex (subset), LOOP_GUARD_KEEP_TMP=1.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clineConfiguredModel } from '../../src/run/cline-model.ts';
import { defaultTableText } from '../../src/run/policy.ts';
import { CLI_PATH, makeRepo, scaffold } from './helpers.ts';
import { promptFor, startMockServer, type MockModelServer, type Script } from './mock-server.ts';
import { MOCK_SMALL, RUN_SUITE_AGENTS, type RunAgentName, runSetup } from './run-env.ts';
import { agentStatus, killProcesses, processesUsingHome, removeDir, runProcess } from './runners/index.ts';

const selected = (process.env.LOOP_GUARD_AGENTS || RUN_SUITE_AGENTS.join(',')).split(',').map((s) => s.trim());
const keepTmp = process.env.LOOP_GUARD_KEEP_TMP === '1';
const figures: string[] = [];

afterAll(() => {
  if (figures.length) console.log(`[agents] run ladder figures\n${figures.join('\n')}`);
});

const NEVER = `test -n "$LG_NEVER_SET" || { echo "LG_NEVER_SET is not set: cannot reach the staging database"; exit 1; }`;
/** Fails twice; the second objection carries the scripted model's marker of turn 2, which only the state file of
 *  rung 2 (approaches tried and rejected, with their errors) hands the model: turn 2 writes the file. */
const FIXED_ON_RUNG_2 =
  'n=$(cat .verify-count 2>/dev/null || echo 0); n=$((n+1)); echo $n > .verify-count; test -f done.txt && exit 0; ' +
  'if [ $n -ge 2 ]; then echo "done.txt is still missing [lg-e2e turn 2]"; else echo "done.txt is missing"; fi; exit 1';
/** Six agent rungs before the hand-off (the default table has four): room for a 5th and a 6th identical run. */
const SIX_RUNGS = [
  'rung  failures  action             share  turns',
  '0     0         attempt            0.20   -',
  '1     1         retry-with-reason  0.10   -',
  '2     2         fresh-context      0.20   -',
  '3     3         fresh-context      0.20   -',
  '4     4         fresh-context      0.20   -',
  '5     5         fresh-context      0.10   -',
  '6     6+        hand-off           0.00   -',
  '',
].join('\n');
/** Tools whose JSON carries no token usage: `run` refuses `--budget` for them (docs/run.md), so no budget test. */
const UNMETERED: RunAgentName[] = ['copilot'];
/** Tools whose money is checked against the scripted model's own token counts (Chat Completions usage). */
const CHAT_USAGE_CHECKED: RunAgentName[] = ['cline'];
/** Tools that report tokens on stdout only at the end, metered meanwhile from their session file (session-meter.ts),
 *  with the price of one scripted request (10 in, 5 out): mock-model at $3/$15, gemini-2.5-pro at the built-in list's
 *  $1.25/$10. */
const SESSION_METERED: Partial<Record<RunAgentName, number>> = { codex: 0.000105, gemini: 0.0000625 };
/** LOOP_GUARD_SAVE_SESSIONS=<dir>: copy the session files of the metered budget case there (test/run/fixtures/). */
const saveSessions = process.env.LOOP_GUARD_SAVE_SESSIONS;
/** Chat Completions usage with a cache: 1234 prompt tokens of which 1000 cached, 100 cache writes, 56 out. */
const CACHED_USAGE = { prompt: 1234, completion: 56, cached: 1000, cacheWrite: 100 };
/** One such request at mock-model's prices ($3 in, $0.30 cache read, $15 out): 234 uncached in, 1000 read, 56 out. */
const CACHED_REQUEST_USD = (234 * 3 + 1000 * 0.3 + 56 * 15) / 1e6;
/** A kilo run starts a Bun server (12–100 s, proof.md): six of them need more than the other tools' limit. */
const LADDER_TIMEOUT_MS: Partial<Record<RunAgentName, number>> = { kilo: 1_500_000, cline: 900_000 };

interface RunResult {
  code: number | null;
  lines: Array<Record<string, unknown>>;
  stderr: string;
  terminal: string;
}

async function runLadder(
  agent: RunAgentName,
  script: Script,
  verify: string,
  more: string[] = [],
  prepare?: (repo: string, tableLines: string[]) => void,
  /** Called with the agent's HOME before it is removed (its session files). */
  inspectHome?: (home: string) => void,
): Promise<{ r: RunResult; server: MockModelServer; repo: string; smaller: string }> {
  const server = await startMockServer(script);
  const repo = makeRepo();
  await scaffold(repo, agent, ['.agents/hooks/loop-guard.cjs']);
  const setup = await runSetup(agent, repo, server);
  // The table's smaller model for tools that have no default one (their models are the user's provider pairs).
  if (setup.tableLines.length) {
    mkdirSync(join(repo, '.agents'), { recursive: true });
    writeFileSync(join(repo, '.agents/recovery.txt'), `${defaultTableText([])}${setup.tableLines.join('\n')}\n`);
  }
  prepare?.(repo, setup.tableLines);
  // mock-model is the scripted model's name: priced like a mid-size model so the money is visible.
  const prices = join(setup.home, 'prices.json');
  writeFileSync(
    prices,
    JSON.stringify({
      models: [
        { match: 'mock-model', input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 },
        // The table's smaller model (run-env.ts MOCK_SMALL), priced as a small one.
        { match: MOCK_SMALL, input: 1, cacheRead: 0.1, cacheWrite: 1.25, output: 5 },
      ],
    }),
  );
  try {
    const p = await runProcess(
      process.execPath,
      [
        CLI_PATH,
        'run',
        '--agent',
        agent,
        '--task',
        promptFor(1),
        '--verify',
        verify,
        '--json',
        '--prices',
        prices,
        '--step',
        'e2e',
        ...more,
        '--',
        ...setup.extra,
      ],
      { cwd: repo, env: setup.env, timeoutMs: LADDER_TIMEOUT_MS[agent] ?? 480_000 },
    );
    killProcesses(processesUsingHome(setup.home));
    const terminalPath = join(repo, '.agents/run/escalated.tsv');
    const r = {
      code: p.exitCode,
      lines: p.stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>),
      stderr: p.stderr,
      terminal: existsSync(terminalPath) ? readFileSync(terminalPath, 'utf8') : '',
    };
    inspectHome?.(setup.home);
    return { r, server, repo, smaller: setup.smaller };
  } finally {
    await server.close();
    if (!keepTmp) removeDir(setup.home);
  }
}

/** The session files a CLI wrote under its HOME: Codex's rollouts, Gemini CLI's chats. */
function sessionFiles(home: string): string[] {
  const walk = (d: string): string[] =>
    existsSync(d)
      ? readdirSync(d, { withFileTypes: true }).flatMap((e) =>
          e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)],
        )
      : [];
  return walk(home).filter((f) => /\/(rollout-[^/]*|chats\/session-[^/]*)\.jsonl$/.test(f));
}

const bodyText = (body: unknown) => JSON.stringify(body ?? '');
/** The model a request asked for: the body's `model`, or the Gemini API's URL (`/models/<model>:…`). */
const modelOf = (q: { body: unknown; url: string }) =>
  (q.body as { model?: string } | null)?.model ?? /\/models\/([^/:]+):/.exec(q.url)?.[1];
/** The rungs' money as `run` priced it; `$?` when no agent rung was priced (a JSON without token usage). */
const money = (lines: Array<Record<string, unknown>>) => {
  const priced = lines.filter((l) => l.action !== 'hand-off' && typeof l.spentUsd === 'number');
  return priced.length ? `$${priced.reduce((s, l) => s + (l.spentUsd as number), 0).toFixed(6)}` : '$?';
};

for (const agent of RUN_SUITE_AGENTS) {
  const status = agentStatus(agent);
  const skip = !selected.includes(agent) || !status.ok;
  describe.skipIf(skip)(`run --agent ${agent} (${status.version})`, () => {
    it('a verifier needing a variable the agent never sees: four rungs, the hand-off line, exit 4', async () => {
      let clineModel: string | undefined;
      const { r, server, repo, smaller } = await runLadder(
        agent,
        { turns: [{ commands: ['echo tried >> attempts.txt'], finalText: 'I checked the database settings.' }] },
        NEVER,
        [],
        undefined,
        (home) => {
          if (agent === 'cline') clineModel = clineConfiguredModel({ HOME: home }, [], home);
        },
      );
      const context = `${r.stderr}\n${server.problems.join('\n')}`;
      expect(r.code, context).toBe(4);
      // Cline saves a run's -m as its own model: after rung 3's smaller one, the model `cline auth` set is back.
      if (agent === 'cline') expect(clineModel, context).toBe('mock-model');
      expect(
        r.lines.map((l) => l.action),
        context,
      ).toEqual(['attempt', 'retry-with-reason', 'fresh-context', 'smallest-step', 'hand-off']);
      expect(r.stderr.split('\n').filter((l) => l.startsWith('rung '))).toHaveLength(5);
      expect(r.terminal).toBe(
        'ESCALATED\te2e\t4 failures: LG_NEVER_SET is not set: cannot reach the staging database\n',
      );
      // Every rung ran the scripted command: four agent sessions.
      expect(readFileSync(join(repo, 'attempts.txt'), 'utf8').split('\n').filter(Boolean)).toHaveLength(4);
      const agentReqs = server.agentRequests();
      const has = (text: string) => agentReqs.filter((q) => bodyText(q.body).includes(text));
      // What each rung's prompt carries, as the model received it.
      expect(has('Address that specific objection').length, context).toBeGreaterThan(0);
      expect(has('Do not repeat any of them').length).toBeGreaterThan(0);
      const smallest = has('smallest change that could possibly work');
      expect(smallest.length).toBeGreaterThan(0);
      // Rung 3 runs the smaller model; no earlier rung does.
      expect(new Set(smallest.map(modelOf)), context).toEqual(new Set([smaller]));
      const earlier = agentReqs.filter((q) => !bodyText(q.body).includes('smallest change'));
      expect(earlier.some((q) => modelOf(q) === smaller)).toBe(false);
      // Gemini CLI: the stats of rung 3 name the model that served (the API's modelVersion), and it is priced by it
      // (gemini-2.5-flash at $0.30/$2.50 per million: the built-in list): 10 in, 5 out per request.
      if (agent === 'gemini') {
        const rung3 = r.lines[3] ?? {};
        expect(rung3, context).toMatchObject({ action: 'smallest-step', model: 'gemini-2.5-flash' });
        expect(rung3.spentUsd).toBeCloseTo((smallest.length * (10 * 0.3 + 5 * 2.5)) / 1e6, 9);
      }
      if (!keepTmp) removeDir(repo);
      figures.push(
        `  ${agent.padEnd(7)} env-var   rungs climbed 4, exit ${r.code}, model requests ${agentReqs.length}, money ${money(r.lines)}`,
      );
    });

    it('a rung that re-runs the same failing command with nothing changed is refused from the 5th run', async () => {
      // The side effect lives outside the repository, so running the command changes nothing the guard looks at.
      const outside = mkdtempSync(join(tmpdir(), 'lg-e2e-ran-'));
      const ranFile = join(outside, 'ran.txt');
      const command = `echo ran >> ${ranFile}; false`;
      const { r, server, repo } = await runLadder(
        agent,
        { turns: [{ commands: [command], finalText: 'I ran the check again.' }] },
        NEVER,
        [],
        (dir, lines) => {
          mkdirSync(join(dir, '.agents'), { recursive: true });
          writeFileSync(join(dir, '.agents/recovery.txt'), `${SIX_RUNGS}${lines.join('\n')}\n`);
        },
      );
      const context = `${r.stderr}\n${server.problems.join('\n')}`;
      expect(r.code, context).toBe(4);
      expect(
        r.lines.map((l) => `${l.rung} ${l.outcome}`),
        context,
      ).toEqual(['0 climb', '1 climb', '2 climb', '3 climb', '4 climb', '5 climb', '6 escalated']);
      // Six agent sessions asked for the command; it ran four times: the 5th and 6th were refused.
      const ran = existsSync(ranFile) ? readFileSync(ranFile, 'utf8').split('\n').filter(Boolean).length : 0;
      expect(ran, context).toBe(4);
      // Which rung saw the refusal: each rung's agent log holds what the agent streamed.
      const refusal = 'was not run: its last';
      const saw = [0, 1, 2, 3, 4, 5].filter((n) =>
        readFileSync(join(repo, `.agents/run/e2e/rung-${n}.agent.log`), 'utf8').includes(refusal),
      );
      expect(saw, context).toEqual([4, 5]);
      // And the model was told: a request after the refusal carries the guard's message.
      const told = server.agentRequests().filter((q) => bodyText(q.body).includes(refusal));
      expect(told.length, context).toBeGreaterThan(0);
      figures.push(
        `  ${agent.padEnd(7)} repeat    ran ${ran} times over ${r.lines.length - 1} agent rungs, refused on rungs ${saw.join(', ')}, exit ${r.code}, model requests ${server.agentRequests().length}`,
      );
      removeDir(outside);
      if (!keepTmp) removeDir(repo);
    });

    it('a verifier failing with 401 Unauthorized halts at once: one agent run, exit 4, the class in the line', async () => {
      const { r, server, repo } = await runLadder(
        agent,
        { turns: [{ commands: ['echo tried >> attempts.txt'] }] },
        'echo "curl: (22) The requested URL returned error: 401 Unauthorized"; exit 22',
      );
      expect(r.code, r.stderr).toBe(4);
      expect(r.lines).toHaveLength(1);
      expect(r.lines[0]).toMatchObject({ rung: 0, outcome: 'halt', class: 'auth' });
      expect(r.terminal).toMatch(/^ESCALATED\te2e\tauth: curl: \(22\).*401 Unauthorized\n$/);
      expect(readFileSync(join(repo, 'attempts.txt'), 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
      if (!keepTmp) removeDir(repo);
      figures.push(
        `  ${agent.padEnd(7)} 401       agent runs 1, model requests ${server.agentRequests().length}, exit ${r.code}`,
      );
    });

    it("the agent's own refusal by a rule halts as scope: one agent run, exit 4, the class in the line", async () => {
      const refusal = "I can't do this: the repository's PreToolUse hook blocks every network call (team policy).";
      const { r, server, repo } = await runLadder(
        agent,
        { turns: [{ commands: ['echo tried >> attempts.txt'], finalText: refusal }] },
        NEVER,
      );
      const context = `${r.stderr}\n${server.problems.join('\n')}`;
      expect(r.code, context).toBe(4);
      expect(r.lines, context).toHaveLength(1);
      expect(r.lines[0]).toMatchObject({ rung: 0, outcome: 'halt', class: 'scope' });
      expect(r.terminal).toBe(`ESCALATED\te2e\tscope: the agent refused: ${refusal}\n`);
      expect(readFileSync(join(repo, 'attempts.txt'), 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
      figures.push(
        `  ${agent.padEnd(7)} scope     agent runs 1, model requests ${server.agentRequests().length}, exit ${r.code}`,
      );
      if (!keepTmp) removeDir(repo);
    });

    it('a task the scripted model fixes on rung 2 (from the state file): exit 0 after two rungs', async () => {
      const { r, server, repo } = await runLadder(
        agent,
        { turns: [{ commands: ['echo tried >> attempts.txt'] }, { commands: ['echo ok > done.txt'] }] },
        FIXED_ON_RUNG_2,
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.lines.map((l) => `${l.rung} ${l.outcome}`)).toEqual(['0 climb', '1 climb', '2 pass']);
      expect(existsSync(join(repo, '.agents/run/e2e'))).toBe(false);
      if (!keepTmp) removeDir(repo);
      figures.push(
        `  ${agent.padEnd(7)} rung-2    exit ${r.code} after ${r.lines.length - 1} rungs, model requests ${server.agentRequests().length}, money ${money(r.lines)}`,
      );
    });

    it.runIf(CHAT_USAGE_CHECKED.includes(agent))(
      "the money is the scripted model's own token counts: 1234 in (1000 of them cached), 56 out per request",
      async () => {
        // The mock also reports 100 cache writes (prompt_tokens_details.cache_write_tokens), which Cline 3.0.65's
        // OpenAI-compatible provider drops: they stay in its inputTokens, priced as input.
        const { r, server, repo } = await runLadder(
          agent,
          {
            turns: [{ commands: ['echo tried >> attempts.txt'] }],
            chatUsage: CACHED_USAGE,
          },
          'echo "curl: (22) The requested URL returned error: 401 Unauthorized"; exit 22',
        );
        expect(r.code, r.stderr).toBe(4);
        const requests = server.agentRequests().length;
        expect(r.lines[0]).toMatchObject({ rung: 0, requests, model: 'mock-model' });
        expect(r.lines[0]?.spentUsd).toBeCloseTo(requests * CACHED_REQUEST_USD, 6);
        figures.push(
          `  ${agent.padEnd(7)} usage     ${requests} requests of 1234 in (1000 cached) / 56 out, spent $${String(r.lines[0]?.spentUsd)}`,
        );
        if (!keepTmp) removeDir(repo);
      },
    );

    it.runIf(CHAT_USAGE_CHECKED.includes(agent))(
      'without -m, the model cline auth left on disk prices each request as it streams: rung 0 is cut by one request',
      async () => {
        // Eight scripted commands (nine requests); rung 0's share is 2.5 requests' worth ($0.004605 of $0.01842).
        const commands = Array.from({ length: 8 }, (_, i) => `echo step${i} >> attempts.txt`);
        const share = 2.5 * CACHED_REQUEST_USD;
        const { r, server, repo } = await runLadder(agent, { turns: [{ commands }], chatUsage: CACHED_USAGE }, NEVER, [
          '--budget',
          (share / 0.25).toFixed(6),
        ]);
        const context = `${r.stderr}\n${server.problems.join('\n')}`;
        expect(r.code, context).toBe(4);
        expect(r.lines, context).toHaveLength(1);
        const line = r.lines[0] ?? {};
        expect(line).toMatchObject({ rung: 0, outcome: 'halt', class: 'budget', model: 'mock-model', requests: 3 });
        expect(line.notes).toContain('stopped at its share ($0.004605)');
        // Cut by the 3rd request's usage event: the money of 3 requests, past the share by less than one request.
        expect(line.spentUsd).toBeCloseTo(3 * CACHED_REQUEST_USD, 6);
        expect(r.stderr).toContain('$0.005526 of $0.004605  3 requests');
        // The scripted model served those 3, and at most the one already asked for when the group was ended.
        const served = server.agentRequests().length;
        expect(served, context).toBeGreaterThanOrEqual(3);
        expect(served, context).toBeLessThanOrEqual(4);
        figures.push(
          `  ${agent.padEnd(7)} no -m     share $${String(line.budgetUsd)}, spent $${String(line.spentUsd)}, model requests ${served} (of 9 scripted), exit ${r.code}`,
        );
        if (!keepTmp) removeDir(repo);
      },
    );

    it.runIf(SESSION_METERED[agent] !== undefined)(
      'a first rung whose share holds 2.5 requests, metered from the session file: cut after the 3rd of 7, halt budget',
      async () => {
        const perRequest = SESSION_METERED[agent] as number;
        // Rung 0's share (0.25 of the budget) is 2.5 requests: the 3rd crosses it, and no 4th may be served.
        const budget = (2.5 * perRequest) / 0.25;
        const commands = [1, 2, 3, 4, 5, 6].map((n) => `echo step${n} >> attempts.txt`);
        const { r, server, repo } = await runLadder(
          agent,
          { turns: [{ commands, finalText: 'All steps ran.' }] },
          NEVER,
          ['--budget', budget.toFixed(8)],
          undefined,
          (home) => {
            if (!saveSessions) return;
            const dir = join(saveSessions, agent);
            mkdirSync(dir, { recursive: true });
            for (const f of sessionFiles(home)) cpSync(f, join(dir, basename(f)));
          },
        );
        const context = `${r.stderr}\n${server.problems.join('\n')}`;
        expect(r.code, context).toBe(4);
        const requests = server.agentRequests().length;
        expect(requests, context).toBe(3);
        expect(r.lines, context).toHaveLength(1);
        const line = r.lines[0] ?? {};
        expect(line, context).toMatchObject({ rung: 0, outcome: 'halt', class: 'budget', requests: 3 });
        // Priced as the file recorded them, to the millionth of a dollar `run` rounds to.
        expect(line.spentUsd).toBe(Math.round(3 * perRequest * 1e6) / 1e6);
        // Within one request of the share: over it, by less than one request.
        expect((line.spentUsd as number) - (line.budgetUsd as number)).toBeGreaterThan(0);
        expect((line.spentUsd as number) - (line.budgetUsd as number)).toBeLessThan(perRequest);
        expect(String(line.notes), context).toContain('stopped at its share');
        expect(r.terminal).toContain('\tbudget: budget exhausted');
        figures.push(
          `  ${agent.padEnd(7)} metered   share $${String(line.budgetUsd)} (2.5 requests), spent $${String(line.spentUsd)}, model requests ${requests} (of 7 scripted), exit ${r.code}`,
        );
        if (!keepTmp) removeDir(repo);
      },
    );

    it.skipIf(UNMETERED.includes(agent))(
      'a budget smaller than one request: the rung is cut and the run halts as budget exhausted',
      async () => {
        const { r, server, repo } = await runLadder(
          agent,
          {
            turns: [
              { commands: ['echo tried >> attempts.txt', 'echo again >> attempts.txt', 'echo more >> attempts.txt'] },
            ],
          },
          NEVER,
          ['--budget', '0.0001'],
        );
        expect(r.code, r.stderr).toBe(4);
        expect(r.lines).toHaveLength(1);
        expect(r.lines[0]).toMatchObject({ rung: 0, outcome: 'halt', class: 'budget' });
        expect(r.terminal).toContain('\tbudget: budget exhausted');
        const requests = server.agentRequests().length;
        figures.push(
          `  ${agent.padEnd(7)} budget    share $${String(r.lines[0]?.budgetUsd)}, spent $${String(r.lines[0]?.spentUsd)}, model requests ${requests} (of 4 scripted), exit ${r.code}`,
        );
        if (!keepTmp) removeDir(repo);
      },
    );
  });
}
