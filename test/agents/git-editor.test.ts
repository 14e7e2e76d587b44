// Claude Code's Bash tool runs commands with GIT_EDITOR=true (the REAL CLI with the scripted model), so git's editor
// never waits there: `git commit` without -m aborts at once and `git rebase -i` takes its todo as written.
// Env: LOOP_GUARD_AGENTS (claude runs it), as in scenarios.test.ts.
import { describe, expect, it } from 'vitest';
import { agentStatus, describeRun, removeDir, runClaude } from './runners/index.ts';
import { makeRepo, scaffold } from './helpers.ts';
import { startMockServer, type Script } from './mock-server.ts';

const selected = (process.env.LOOP_GUARD_AGENTS || 'claude').split(',').map((s) => s.trim());

describe.runIf(selected.includes('claude'))("claude: the Bash tool's git editor", () => {
  it('is set to true in the command environment', async () => {
    const status = agentStatus('claude');
    if (!status.ok) throw new Error(`claude CLI unavailable: ${status.reason}`);
    const script: Script = {
      turns: [
        { commands: ['echo "editor=[${GIT_EDITOR-unset}] seq=[${GIT_SEQUENCE_EDITOR-unset}]"'], finalText: 'ok' },
      ],
    };
    const server = await startMockServer(script);
    const repo = makeRepo();
    try {
      await scaffold(repo, 'claude', ['.agents/hooks/loop-guard.cjs', '.claude/settings.json']);
      const run = await runClaude(repo, server, { turn: 1, timeoutMs: 120_000 });
      const steps = server.stepResults(1);
      const dump = `${describeRun(run)}\n${steps.map((s) => `--- step ${s.step}: ${s.command}\n${s.text}`).join('\n')}`;
      expect(steps[0]?.text, dump).toContain('editor=[true]');
      removeDir(run.home);
    } finally {
      await server.close();
      removeDir(repo);
    }
  }, 150_000);
});
