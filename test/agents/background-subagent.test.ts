// A background sub-agent and a parent that polls, proven in the REAL Claude Code with the scripted model (issue 33):
// the parent's `ls workflow` is refused when it repeats with nothing changed, runs again once the sub-agent wrote a file
// there (the tree look, the sub-agent still working), and again once the sub-agent ended (SubagentStop and its task
// notification; nothing in the tree moved). The sub-agent is scripted as turn 2: its prompt carries that marker.
// Env: LOOP_GUARD_AGENTS (claude runs it), LOOP_GUARD_KEEP_TMP=1, as in scenarios.test.ts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentStatus, describeRun, removeDir, runClaude } from './runners/index.ts';
import { makeRepo, MARKER, scaffold } from './helpers.ts';
import { startMockServer, turnMarker, type Script } from './mock-server.ts';

const selected = (process.env.LOOP_GUARD_AGENTS || 'claude').split(',').map((s) => s.trim());
const POLL = 'ls workflow';
// The sub-agent's one command: a file after 10 s, then 25 s more of work that writes nothing.
const SUB = 'sleep 10; touch workflow/part1; sleep 25';
// Claude Code 2.1.332 blocks a standalone `sleep` of 25 s or more ("Blocked: standalone sleep 45"), so the parent
// waits in steps of 20 s.

describe.runIf(selected.includes('claude'))('claude: a background sub-agent and a parent that polls', () => {
  it('refused with nothing changed; run again after the sub-agent wrote a file, and after it ended', async () => {
    const status = agentStatus('claude');
    if (!status.ok) throw new Error(`claude CLI unavailable: ${status.reason}`);
    const agent = {
      name: 'Agent',
      input: {
        description: 'Fill the workflow folder',
        prompt: `Fill the workflow folder. ${turnMarker(2)}`,
        subagent_type: 'general-purpose',
        run_in_background: true,
      },
    };
    const polls = (n: number) => Array<string>(n).fill(POLL);
    const script: Script = {
      turns: [
        // 2-6: the 5th identical listing is refused (before the file, at 10 s); 7: a wait while it appears; 8: runs
        // again (the tree moved); 8-12: refused again at the 5th; 13-14: a wait while the sub-agent ends; 15: runs.
        { commands: [agent, ...polls(5), 'sleep 12', ...polls(5), 'sleep 20', 'sleep 20', POLL], finalText: 'polled' },
        { commands: [SUB], finalText: 'sub-agent done' },
      ],
    };
    const server = await startMockServer(script);
    const repo = makeRepo();
    try {
      await scaffold(repo, 'claude', ['.agents/hooks/loop-guard.cjs', '.claude/settings.json']);
      // A tracked folder, so the sub-agent's new file is a line of `git status` for the tree look.
      mkdirSync(join(repo, 'workflow'));
      writeFileSync(join(repo, 'workflow', '.keep'), '');
      const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: { ...process.env, HOME: repo } });
      git('add', '-A');
      git('-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'scaffold');
      const settingsPath = join(repo, '.claude', 'settings.json');
      const settings = JSON.parse(readFileSync(settingsPath, 'utf8')) as Record<string, unknown>;
      writeFileSync(settingsPath, JSON.stringify({ ...settings, permissions: { allow: ['Agent', 'Bash'] } }, null, 2));
      const run = await runClaude(repo, server, { turn: 1, timeoutMs: 200_000 });
      const steps = server.stepResults(1);
      const dump = `${describeRun(run)}\n${steps.map((s) => `--- step ${s.step}: ${s.command}\n${s.text}`).join('\n')}`;
      const refused = steps.filter((s) => s.text.includes(MARKER) && s.text.includes('was not run')).map((s) => s.step);
      expect(
        steps.map((s) => s.step),
        dump,
      ).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
      expect(refused, `refused: the 5th identical listing of each round, nothing else\n${dump}`).toEqual([6, 12]);
      expect(steps[7]?.text, `step 8 ran and saw the sub-agent's file\n${dump}`).toContain('part1');
      expect(steps[14]?.text, `step 15 ran after the sub-agent ended\n${dump}`).toContain('part1');
      const waits = `${steps[12]?.text}${steps[13]?.text}`;
      expect(waits, `the sub-agent's end reached the parent during the waits\n${dump}`).toMatch(
        /<task-notification>[\s\S]*Agent "Fill the workflow folder" finished/,
      );
      removeDir(run.home);
    } finally {
      await server.close();
      removeDir(repo);
    }
  }, 260_000);
});
