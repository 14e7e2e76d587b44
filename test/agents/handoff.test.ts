// Issue 11, unattended: the scripted model asks for the same failing command 20 times, as a model stuck in a
// loop would in `claude -p` / `codex exec` / `opencode run` with nobody there to write again. The guard must end
// the run (the ladder's hand-off) within 8 model requests, with the command run 4 times, and leave
// .agents/handoff.md naming the command and its failure; a follow-up session gets the note through AGENTS.md.
//
// Env as in scenarios.test.ts (LOOP_GUARD_AGENTS, LOOP_GUARD_KEEP_TMP). Prints the request counts for the README.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentStatus, AGENT_NAMES, describeRun, openCodeWarmTemplate, removeDir, runAgent } from './agents.ts';
import { lineCount, makeRepo, MARKER, scaffold } from './helpers.ts';
import { startMockServer, type MockModelServer } from './mock-server.ts';

/** Fails like a test run: no class that climbs faster (auth, network, missing command/file), so the full ladder shows. */
const FAILING = 'echo ran >> ran.txt; echo "FAIL src/sum.test.js: expected 2 to be 3"; exit 1';
const FAILURE_TEXT = 'expected 2 to be 3';
const ASKS = 20;

const selected = (process.env.LOOP_GUARD_AGENTS || AGENT_NAMES.join(',')).split(',').map((s) => s.trim());
const keepTmp = process.env.LOOP_GUARD_KEEP_TMP === '1';

let server: MockModelServer;
const figures: string[] = [];

beforeAll(async () => {
  server = await startMockServer();
});

afterAll(async () => {
  await server?.close();
  if (figures.length) console.log(`[agents] hand-off figures (${ASKS} asks of one failing command)\n${figures.join('\n')}`);
});

for (const agent of AGENT_NAMES) {
  describe(agent, () => {
    const status = agentStatus(agent);
    if (!selected.includes(agent)) {
      it.skip(`deselected by LOOP_GUARD_AGENTS=${process.env.LOOP_GUARD_AGENTS}`, () => {});
      return;
    }
    if (agent === 'opencode' && status.ok) beforeAll(async () => void (await openCodeWarmTemplate()), 300_000);

    it(`unattended: ${ASKS} asks for one failing command end within 8 model requests with a hand-off note; the next session reads it`, async () => {
      if (!status.ok) throw new Error(`${agent} CLI unavailable: ${status.reason}`);
      const repo = makeRepo();
      const dirs = [repo];
      try {
        await scaffold(repo);
        server.setScript({ turns: [{ commands: Array<string>(ASKS).fill(FAILING) }, { commands: ['cat .agents/handoff.md'] }] });

        const run = await runAgent(agent, repo, server, { turn: 1 });
        dirs.push(run.home);
        const requests = server.agentRequests().filter((r) => r.turn === 1).length;
        const context = `${describeRun(run, server)}\nsteps:\n${server.stepResults(1).map((s) => `  ${s.step}: ${s.text.slice(0, 300).replace(/\n/g, ' | ')}`).join('\n')}`;
        // Recorded before the asserts, so a run against an older build (LOOP_GUARD_CLI) still gives its "before" figure.
        figures.push(`  ${agent.padEnd(9)} ${requests} model requests, command ran ${lineCount(repo, 'ran.txt')}×, exit ${run.exitCode}`);
        expect(run.timedOut, `run timed out\n${context}`).toBe(false);
        expect(requests, `the run ended within 8 model requests\n${context}`).toBeLessThanOrEqual(8);
        expect(lineCount(repo, 'ran.txt'), `the command ran 4 times\n${context}`).toBe(4);

        const notePath = join(repo, '.agents', 'handoff.md');
        expect(existsSync(notePath), `the hand-off note was written\n${context}`).toBe(true);
        const note = readFileSync(notePath, 'utf8');
        expect(note, 'the note names the refused command').toContain('echo ran >> ran.txt');
        expect(note, 'the note shows the failure').toContain(FAILURE_TEXT);
        const twin = JSON.parse(readFileSync(join(repo, '.agents', 'handoff.json'), 'utf8')) as { handoffs: Array<{ tool: string; refused: Array<{ command: string; refusals: number }> }> };
        expect(twin.handoffs.at(-1)?.tool).toBe(agent);
        expect(twin.handoffs.at(-1)?.refused[0]?.refusals, 'two refusals, then the hand-off').toBe(3);
        const status = spawnGitStatus(repo);
        expect(status, 'the note is kept out of git').not.toContain('handoff');
        figures.push(`  ${agent.padEnd(9)} note ${Buffer.byteLength(note)} B + json ${Buffer.byteLength(readFileSync(join(repo, '.agents', 'handoff.json')))} B`);

        // A fresh session (new HOME, nothing resumed): the instructions it loads carry the rule, and the file is there to read.
        const next = await runAgent(agent, repo, server, { turn: 2 });
        dirs.push(next.home);
        const first = server.agentRequests().find((r) => r.turn === 2);
        const nextContext = describeRun(next, server);
        expect(JSON.stringify(first?.body ?? ''), `the first request of the next session carries the AGENTS.md hand-off rule\n${nextContext}`).toContain('.agents/handoff.md');
        const read = server.stepResults(2)[0]?.text ?? '';
        expect(read, `the next session read the note\n${nextContext}`).toContain(FAILURE_TEXT);
        expect(read, 'reading the note is never refused').not.toContain(MARKER);
      } finally {
        if (!keepTmp) for (const d of dirs) removeDir(d);
        else console.log(`[agents] kept: ${dirs.join(' ')}`);
      }
    });
  });
}

function spawnGitStatus(dir: string): string {
  return execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir } });
}
