// How each tool runs a command, proven in the REAL Codex CLI with the scripted model: a server started in the
// foreground of an exec session (exec_command yields back with "Process running with session ID …") is not refused,
// and is then polled; `vim` in a PTY (tty: true) is still refused, since it waits for keys nobody types.
// Env: LOOP_GUARD_AGENTS (codex runs it), LOOP_GUARD_REQUIRE_AGENTS=1, LOOP_GUARD_KEEP_TMP=1, as in scenarios.test.ts.
import { describe, expect, it } from 'vitest';
import { agentStatus, describeRun, removeDir, runCodex } from './runners/index.ts';
import { makeRepo, MARKER, scaffold } from './helpers.ts';
import { startMockServer, type Script } from './mock-server.ts';

const selected = (process.env.LOOP_GUARD_AGENTS || 'codex').split(',').map((s) => s.trim());
const PORT = 18000 + (process.pid % 1000);
const SERVER = `python3 -m http.server ${PORT} --bind 127.0.0.1`;
const POLL = `curl -s -o /dev/null -w 'status=%{http_code}' http://127.0.0.1:${PORT}/`;

describe.runIf(selected.includes('codex'))('codex: a server in an exec session, a vim in a PTY', () => {
  it('the server runs and is polled; vim is refused', async () => {
    const status = agentStatus('codex');
    if (!status.ok) throw new Error(`codex CLI unavailable: ${status.reason}`);
    const script: Script = {
      turns: [
        {
          commands: [
            { name: 'exec_command', input: { cmd: SERVER, yield_time_ms: 1500 } },
            { name: 'exec_command', input: { cmd: POLL, yield_time_ms: 3000 } },
            { name: 'exec_command', input: { cmd: 'vim notes.txt', tty: true, yield_time_ms: 1000 } },
          ],
        },
      ],
    };
    const server = await startMockServer(script);
    const repo = makeRepo();
    try {
      await scaffold(repo, 'codex', ['.agents/hooks/loop-guard.cjs', '.codex/hooks.json', '.codex/config.toml']);
      const run = await runCodex(repo, server, { turn: 1 });
      const steps = server.stepResults(1);
      const dump = `${describeRun(run)}\n${steps.map((s) => `--- step ${s.step}: ${s.command}\n${s.text}`).join('\n')}`;
      expect(
        steps.map((s) => s.step),
        dump,
      ).toEqual([1, 2, 3]);
      expect(steps[0]?.text, `the server was started, not refused\n${dump}`).not.toContain(MARKER);
      expect(steps[0]?.text, `Codex handed it back still running\n${dump}`).toMatch(/Process running with session ID/);
      expect(steps[1]?.text, `the poll reached the server\n${dump}`).toContain('status=200');
      expect(steps[2]?.text, `vim is refused with our reason\n${dump}`).toContain(MARKER);
      removeDir(run.home);
    } finally {
      await server.close();
      removeDir(repo);
    }
  }, 240_000);
});
