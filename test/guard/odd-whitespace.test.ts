// A command holding a space the shell does not split on (U+00A0 pasted from a web page, a vertical tab, U+3000): the
// guard answers at once and counts it like any other command. Such a command once sent the command-key tokenizer into
// an endless loop, so the hook ran until its heap ran out. Run through the built file with a deadline: a regression
// fails here instead of hanging the test run.
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshStateDir, guardEnv, guardFile, type Json, loadPayload, nodeBin, requireBuilt } from '../helpers/guard.ts';

beforeAll(requireBuilt);

const ODD_SPACES = ['\u00a0', '\u000b', '\u000c', '\u1680', '\u2007', '\u2028', '\u202f', '\u3000', '\ufeff'];

function run(payload: Json, env: Record<string, string>): { stdout: string; status: number | null } {
  const r = spawnSync(nodeBin, [guardFile, 'claude'], {
    input: JSON.stringify(payload),
    env,
    encoding: 'utf8',
    timeout: 20_000,
  });
  // A hang ends in the deadline's SIGTERM, not in an exit status.
  expect(r.signal, 'the guard did not answer within 20 s').toBeNull();
  return { stdout: r.stdout, status: r.status };
}

function hookOutput(stdout: string): Record<string, unknown> | undefined {
  if (stdout.trim() === '') return undefined;
  return (JSON.parse(stdout) as { hookSpecificOutput?: Record<string, unknown> }).hookSpecificOutput;
}

/** The guard's answers to five identical failing attempts of `command` (a refused attempt ends them). */
function attempts(command: string): string[] {
  const env = guardEnv(freshStateDir());
  const pre = loadPayload('claude/PreToolUse-failure.json') as Record<string, Json>;
  const post = loadPayload('claude/PostToolUseFailure-failure.json') as Record<string, Json>;
  const answers: string[] = [];
  for (let i = 1; i <= 5; i++) {
    const input = { ...(pre.tool_input as Record<string, Json>), command };
    const before = run({ ...pre, tool_input: input, tool_use_id: `t${i}` }, env);
    expect(before.status).toBe(0);
    if (hookOutput(before.stdout)?.permissionDecision === 'deny') {
      answers.push('deny');
      break;
    }
    const error = 'Exit code 1\nFAIL src/a.test.ts\nexpected 3 to be 4';
    const after = run({ ...post, tool_input: input, tool_use_id: `t${i}`, error }, env);
    expect(after.status).toBe(0);
    answers.push(hookOutput(after.stdout)?.additionalContext === undefined ? 'allow' : 'warn');
  }
  return answers;
}

describe('a command with a space the shell does not split on', () => {
  let plain: string[] = [];
  beforeAll(() => {
    plain = attempts('npm test -- --run');
  });

  it('the plain spelling is warned and then refused (what the others are compared with)', () => {
    expect(plain).toContain('warn');
    expect(plain[plain.length - 1]).toBe('deny');
  });

  it.each(ODD_SPACES.map((c) => [`U+${c.charCodeAt(0).toString(16).padStart(4, '0')}`, c]))(
    '%s: answered at once, and counted as the plain spelling is',
    (_name, space) => {
      expect(attempts(`npm test --${space}--run`)).toEqual(plain);
    },
  );

  it('is another command than the one with an ASCII space, as it is to the shell', () => {
    const env = guardEnv(freshStateDir());
    const pre = loadPayload('claude/PreToolUse-failure.json') as Record<string, Json>;
    const post = loadPayload('claude/PostToolUseFailure-failure.json') as Record<string, Json>;
    const answers: string[] = [];
    // Alternating the two spellings: neither repeats three times in a row.
    for (const [i, command] of ['ls -la /x', 'ls\u00a0-la /x', 'ls -la /x', 'ls\u00a0-la /x'].entries()) {
      const input = { ...(pre.tool_input as Record<string, Json>), command };
      run({ ...pre, tool_input: input, tool_use_id: `u${i}` }, env);
      const after = run({ ...post, tool_input: input, tool_use_id: `u${i}`, error: 'Exit code 1\nboom' }, env);
      answers.push(hookOutput(after.stdout)?.additionalContext === undefined ? 'allow' : 'warn');
    }
    expect(answers).toEqual(['allow', 'allow', 'allow', 'allow']);
  });
});
