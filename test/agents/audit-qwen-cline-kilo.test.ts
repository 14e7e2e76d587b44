// `create-loop-guard audit` against transcripts the REAL Qwen Code, Cline and Kilo CLIs wrote: with no guard installed,
// one session loops on a failing command and one makes progress, both in one isolated HOME; the built CLI's
// `audit --json` on that HOME must find the loop (right command, right count) and nothing in the other.
// Qwen Code and Cline stop a run at their own 5th identical call, so their loops are 4 attempts long.
//
// LOOP_GUARD_SAVE_TRANSCRIPTS=<dir>: also copy the session files the CLIs wrote into <dir>/<tool>/ (how the fixtures in
// test/fixtures/transcripts/{qwen,cline,kilo} were made).
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentStatus, describeRun, removeDir, type AgentRun } from './runners/index.ts';
import { listFiles, LOOP_CMD, PROGRESS_CMD, runAudit as audit, saveTranscripts } from './audit-helpers.ts';
import { paused, writePausedScripts } from './slow-pipes.ts';
import { makeRepo } from './helpers.ts';
import { startMockServer, type MockModelServer } from './mock-server.ts';
import { killProcesses, processesUsingHome, runAgent } from './runners/index.ts';

const AGENTS = ['qwen', 'cline', 'kilo'] as const;
type Agent = (typeof AGENTS)[number];
/** Below the CLIs' own stop at 5 identical calls (Qwen Code, Cline); Kilo has none. */
const ATTEMPTS: Record<Agent, number> = { qwen: 4, cline: 4, kilo: 6 };
/** The sessions' commands per CLI: Qwen Code's pause after writing (slow-pipes.ts says why). */
const LOOP_COMMANDS: Record<Agent, string> = { qwen: paused(LOOP_CMD), cline: LOOP_CMD, kilo: LOOP_CMD };
const PROGRESS_COMMANDS: Record<Agent, string> = {
  qwen: paused(PROGRESS_CMD),
  cline: PROGRESS_CMD,
  kilo: PROGRESS_CMD,
};
/** Where each CLI keeps its sessions inside an isolated HOME (the places audit looks). */
const SESSION_ROOTS: Record<Agent, string[]> = {
  qwen: ['.qwen/projects'],
  cline: ['.cline/data/sessions'],
  kilo: ['.local/share/kilo/kilo.db', '.local/share/kilo/kilo.db-wal'],
};

const selected = (process.env.LOOP_GUARD_AGENTS || AGENTS.join(',')).split(',').map((s) => s.trim());
const keepTmp = process.env.LOOP_GUARD_KEEP_TMP === '1';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockServer();
});
afterAll(async () => {
  await server?.close();
});

/** The text session files, a line each clipped, for a failure message: what the CLI wrote when the audit disagrees. */
function sketch(files: string[]): string {
  return files
    .filter((f) => /\.jsonl?$/.test(f))
    .map(
      (f) =>
        `${f}:\n${readFileSync(f, 'utf8')
          .split('\n')
          .slice(0, 80)
          .map((l) => `  ${l.slice(0, 400)}`)
          .join('\n')}`,
    )
    .join('\n');
}

/** Qwen Code: the longest run of identical shell results (the text the model got) in the session files. */
function longestIdenticalRun(files: string[]): number {
  let best = 0;
  for (const f of files) {
    let run = 0;
    let last: string | undefined;
    for (const line of readFileSync(f, 'utf8').split('\n')) {
      if (!line.includes('"type":"tool_result"')) continue;
      const r = (
        JSON.parse(line) as {
          message: { parts: Array<{ functionResponse?: { response?: { output?: string; error?: string } } }> };
        }
      ).message.parts[0]?.functionResponse?.response;
      const text = r?.output ?? r?.error ?? '';
      run = text === last ? run + 1 : 1;
      last = text;
      best = Math.max(best, run);
    }
  }
  return best;
}

for (const agent of AGENTS) {
  describe(`audit: ${agent}`, () => {
    if (!selected.includes(agent)) {
      it.skip(`deselected by LOOP_GUARD_AGENTS=${process.env.LOOP_GUARD_AGENTS}`, () => {});
      return;
    }
    const status = agentStatus(agent);
    it('finds the loop in the looping session and nothing in the progress session', async () => {
      if (!status.ok) throw new Error(`${agent} CLI unavailable: ${status.reason}`);
      const loopRepo = makeRepo();
      const progressRepo = makeRepo();
      for (const repo of [loopRepo, progressRepo]) writePausedScripts(repo);
      const runs: AgentRun[] = [];
      let home: string | undefined;
      try {
        const n = ATTEMPTS[agent];
        server.setScript({ turns: [{ commands: Array<string>(n).fill(LOOP_COMMANDS[agent]) }] });
        const loop = await runAgent(agent, loopRepo, server);
        runs.push(loop);
        home = loop.home;
        expect(loop.exitCode, describeRun(loop, server)).toBe(0);
        server.setScript({ turns: [{ commands: Array<string>(n).fill(PROGRESS_COMMANDS[agent]) }] });
        const progress = await runAgent(agent, progressRepo, server, { home });
        runs.push(progress);
        expect(progress.exitCode, describeRun(progress, server)).toBe(0);
        killProcesses(processesUsingHome(home));

        const files = SESSION_ROOTS[agent].flatMap((r) => listFiles(join(home as string, r)));
        expect(files.length, `the CLI wrote its sessions under ${SESSION_ROOTS[agent].join(', ')}`).toBeGreaterThan(0);
        saveTranscripts(agent, home, files, `loop repo ${loopRepo}, progress repo ${progressRepo}, home ${home}`);

        const inLoop = await audit(home, loopRepo);
        expect(inLoop.exitCode, inLoop.stderr).toBe(0);
        const report = JSON.parse(inLoop.stdout) as {
          loops: Array<{
            tool: string;
            command: string;
            repeats: number;
            project: string;
            guard: { warnAt: number | null };
          }>;
          read: { unreadable: unknown[] };
        };
        expect(report.read.unreadable, inLoop.stdout).toEqual([]);
        // Should Qwen Code still record an "(empty)" output (see LOOP_COMMANDS), the model saw a different result there, so
        // the run of identical results is the longest one the file records.
        const expected =
          agent === 'qwen' ? longestIdenticalRun(files.filter((f) => f.includes(basename(loopRepo)))) : n;
        expect(expected, sketch(files)).toBeGreaterThanOrEqual(2);
        expect(
          report.loops.map((l) => [l.tool, l.command, l.repeats, l.project, l.guard.warnAt]),
          `${inLoop.stdout}\n${sketch(files)}`,
        ).toEqual([[agent, LOOP_COMMANDS[agent], expected, loopRepo, 2]]);

        const inProgress = await audit(home, progressRepo);
        const quiet = JSON.parse(inProgress.stdout) as { loops: unknown[]; totals: { sessions: number } };
        expect(quiet.loops, inProgress.stdout).toEqual([]);
        expect(quiet.totals.sessions, inProgress.stdout).toBe(1);
      } finally {
        if (home) killProcesses(processesUsingHome(home));
        if (!keepTmp) for (const d of [loopRepo, progressRepo, ...runs.map((r) => r.home)]) removeDir(d);
        else console.log(`[audit] kept ${loopRepo} ${progressRepo} ${home}`);
      }
    }, 300_000);
  });
}
