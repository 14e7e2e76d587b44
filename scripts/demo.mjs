// The quick-start demo: set up a copy of test/fixtures/repos/demo with the built CLI, then let a scripted
// "agent" run the same failing command five times through the installed hook and show what the agent is told.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const repo = mkdtempSync(join(tmpdir(), 'loop-guard-demo-'));
cpSync(join(root, 'test/fixtures/repos/demo'), repo, { recursive: true });
execFileSync('git', ['init', '-q'], { cwd: repo });

const env = { ...process.env, CI: 'true' };
// Bold only on a terminal and without NO_COLOR, so `npm run demo | cat` is plain text.
const bold =
  process.stdout.isTTY && !process.env.NO_COLOR && process.env.TERM !== 'dumb'
    ? (s) => `\u001b[1m${s}\u001b[22m`
    : (s) => s;
const step = (title) => console.log(`\n${bold(`━━ ${title}`)}`);

step(`npx create-loop-guard --yes   (in ${repo})`);
const setup = spawnSync(process.execPath, [join(root, 'dist/cli.mjs'), '--yes'], {
  cwd: repo,
  env,
  stdio: ['ignore', 'inherit', 'inherit'],
});
if (setup.status !== 0) process.exit(setup.status ?? 1);

// Run the hook exactly as Claude Code would: the command from .claude/settings.json, payload on stdin.
const settings = readFileSync(join(repo, '.claude/settings.json'), 'utf8');
const command = JSON.parse(settings).hooks.PreToolUse.at(-1).hooks[0].command;
const payload = (name) => JSON.parse(readFileSync(join(root, 'assets/payloads/claude', name), 'utf8'));
const hookEnv = {
  ...env,
  CLAUDE_PROJECT_DIR: repo,
  LOOP_GUARD_STATE_DIR: mkdtempSync(join(tmpdir(), 'loop-guard-demo-state-')),
};
const hook = (event) => {
  const r = spawnSync('/bin/sh', ['-c', command], {
    cwd: repo,
    env: hookEnv,
    input: JSON.stringify(event),
    encoding: 'utf8',
  });
  if (!r.stdout.trim()) return null;
  const out = JSON.parse(r.stdout).hookSpecificOutput;
  return out.permissionDecisionReason ?? out.additionalContext;
};

step('An agent runs `npm test` five times; it fails the same way each time');
const failing =
  'FAIL src/sum.test.ts > adds\nAssertionError: expected 2 to be 3\nTests  1 failed | 4 passed (5)\nDuration  1.21s';
const pre = payload('PreToolUse-failure.json');
const post = payload('PostToolUseFailure-failure.json');
for (let i = 1; i <= 5; i++) {
  const call = { tool_use_id: `toolu_demo_${i}`, tool_input: { command: 'npm test', description: 'run the tests' } };
  const denied = hook({ ...pre, ...call });
  if (denied) {
    console.log(`attempt ${i}: refused before it ran. The agent is told:\n  ${denied}`);
    continue;
  }
  const warned = hook({ ...post, ...call, error: `Exit code 1\n${failing.replace('1.21s', `1.${20 + i}s`)}` });
  console.log(
    `attempt ${i}: ran, failed${warned ? `. The agent is told:\n  ${warned}` : ' (counted, nothing said yet)'}`,
  );
}

step('The user writes again: the count starts over');
hook(payload('UserPromptSubmit-prompt.json'));
console.log(
  `attempt 6: ${hook({ ...pre, tool_use_id: 'toolu_demo_6', tool_input: { command: 'npm test' } }) ? 'refused' : 'allowed'}`,
);

step('CI check: npx create-loop-guard --check');
const check = spawnSync(process.execPath, [join(root, 'dist/cli.mjs'), '--check'], {
  cwd: repo,
  env,
  stdio: ['ignore', 'inherit', 'inherit'],
});
console.log(`exit code ${check.status}\n\nThe demo repository stays at ${repo} for a look around.`);
process.exit(check.status ?? 1);
