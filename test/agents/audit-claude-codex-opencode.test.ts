// `create-loop-guard audit` against transcripts the REAL Claude Code, Codex and OpenCode CLIs wrote: with no guard
// installed, one session loops on a failing command and one makes progress, both in one isolated HOME; the built
// CLI's `audit --json` on that HOME must find the loop (right command, right count) and nothing in the other.
//
// LOOP_GUARD_SAVE_TRANSCRIPTS=<dir>: also copy the transcripts the CLIs wrote into <dir>/<tool>/ (how the fixtures in
// test/fixtures/transcripts/ were made; their temp paths were then rewritten as test/fixtures/PROVENANCE.md says).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentStatus,
  AGENT_NAMES,
  guardSettingsEnv,
  describeRun,
  openCodeWarmTemplate,
  removeDir,
  runAgent,
  type AgentRun,
  type FirstAgentName,
} from './runners/index.ts';
import { listFiles, LOOP_CMD, PROGRESS_CMD, runAudit as audit, saveTranscripts } from './audit-helpers.ts';
import { makeRepo, scaffold } from './helpers.ts';
import { startMockServer, type MockModelServer } from './mock-server.ts';

const ATTEMPTS = 6;

const selected = (process.env.LOOP_GUARD_AGENTS || AGENT_NAMES.join(',')).split(',').map((s) => s.trim());
const keepTmp = process.env.LOOP_GUARD_KEEP_TMP === '1';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockServer();
  // This file proves what audit reads, refusals included; the hand-off that would end the guarded run early is the `unattended` scenario of scenarios.test.ts.
  guardSettingsEnv.LOOP_GUARD_HANDOFF = '0';
});
afterAll(async () => {
  await server?.close();
});

/** Where each CLI keeps its sessions inside an isolated HOME (the same places audit looks). */
const SESSION_ROOTS: Record<FirstAgentName, string[]> = {
  claude: ['.claude/projects'],
  codex: ['.codex/sessions'],
  opencode: ['.local/share/opencode/storage', '.local/share/opencode/opencode.db'],
};

for (const agent of AGENT_NAMES) {
  describe(`audit: ${agent}`, () => {
    if (!selected.includes(agent)) {
      it.skip(`deselected by LOOP_GUARD_AGENTS=${process.env.LOOP_GUARD_AGENTS}`, () => {});
      return;
    }
    const status = agentStatus(agent);
    if (agent === 'opencode' && status.ok) beforeAll(async () => void (await openCodeWarmTemplate()), 300_000);

    it('finds the loop in the looping session, nothing in the progress session, and what the installed guard stopped', async () => {
      if (!status.ok) throw new Error(`${agent} CLI unavailable: ${status.reason}`);
      const loopRepo = makeRepo();
      const progressRepo = makeRepo();
      const guardedRepo = makeRepo();
      let home: string | undefined;
      const runs: AgentRun[] = [];
      try {
        // No scaffold: the guard is not installed, so every attempt really runs.
        server.setScript({ turns: [{ commands: Array<string>(ATTEMPTS).fill(LOOP_CMD) }] });
        const loop = await runAgent(agent, loopRepo, server);
        runs.push(loop);
        home = loop.home;
        expect(loop.exitCode, describeRun(loop, server)).toBe(0);
        server.setScript({ turns: [{ commands: Array<string>(ATTEMPTS).fill(PROGRESS_CMD) }] });
        const progress = await runAgent(agent, progressRepo, server, { home });
        runs.push(progress);
        expect(progress.exitCode, describeRun(progress, server)).toBe(0);

        const files = SESSION_ROOTS[agent].flatMap((r) => listFiles(join(home as string, r)));
        expect(files.length, `the CLI wrote its sessions under ${SESSION_ROOTS[agent].join(', ')}`).toBeGreaterThan(0);
        saveTranscripts(agent, home, files, `loop repo ${loopRepo}, progress repo ${progressRepo}, home ${home}`);

        // Default scope: this repository only.
        const inLoop = await audit(home, loopRepo);
        expect(inLoop.exitCode, inLoop.stderr).toBe(0);
        const report = JSON.parse(inLoop.stdout) as {
          loops: Array<Record<string, unknown>>;
          totals: Record<string, unknown>;
        };
        expect(report.loops.length, inLoop.stdout).toBe(1);
        const found = report.loops[0] as Record<string, unknown> & {
          guard: { warnAt: number; refuseAt: number; handoffAt: number };
        };
        expect(found.tool).toBe(agent);
        expect(found.command).toBe(LOOP_CMD);
        expect(found.repeats).toBe(ATTEMPTS);
        expect(found.guard.warnAt).toBe(2); // a missing file: retrying cannot fix it, so the guard warns one result early
        expect(found.guard.refuseAt).toBe(5);
        expect(found.guard.handoffAt).toBe(6); // retrying cannot fix it: one refusal, then the hand-off
        expect(found.project).toBe(loopRepo);

        const inProgress = await audit(home, progressRepo);
        expect(inProgress.exitCode, inProgress.stderr).toBe(0);
        const quiet = JSON.parse(inProgress.stdout) as { loops: unknown[]; totals: { sessions: number } };
        expect(quiet.loops, inProgress.stdout).toEqual([]);
        expect(quiet.totals.sessions, inProgress.stdout).toBe(1);

        const all = await audit(home, progressRepo, ['--all']);
        const everything = JSON.parse(all.stdout) as { loops: unknown[]; totals: { sessions: number } };
        expect(everything.loops.length, all.stdout).toBe(1);
        expect(everything.totals.sessions, all.stdout).toBe(2);

        // With the guard installed, the same loop is stopped, and audit shows it from the guard's own event log.
        await scaffold(guardedRepo);
        server.setScript({ turns: [{ commands: Array<string>(ATTEMPTS).fill(LOOP_CMD) }] });
        const guarded = await runAgent(agent, guardedRepo, server, { home });
        expect(guarded.exitCode, describeRun(guarded, server)).toBe(0);
        const stopped = await audit(home, guardedRepo);
        const after = JSON.parse(stopped.stdout) as {
          loops: Array<{ repeats: number; guard: { refuseAt: number } }>;
          guard: { warnings: number; refusals: number; refusedInTranscripts: number };
        };
        expect(after.guard.warnings, stopped.stdout).toBeGreaterThanOrEqual(1);
        expect(after.guard.refusals, stopped.stdout).toBeGreaterThanOrEqual(1);
        // The 4 attempts that ran are the loop; the 2 refused ones never ran and are counted apart, not replayed.
        expect(
          after.loops.map((l) => [l.repeats, l.guard.refuseAt]),
          stopped.stdout,
        ).toEqual([[4, null]]);
        expect(after.guard.refusedInTranscripts, stopped.stdout).toBe(2);
      } finally {
        if (!keepTmp) for (const d of [loopRepo, progressRepo, guardedRepo, ...runs.map((r) => r.home)]) removeDir(d);
        else console.log(`[audit] kept ${loopRepo} ${progressRepo} ${home}`);
      }
    });
  });
}
