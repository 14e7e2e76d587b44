// A scope refusal is the agent's own last word that a rule forbids the task; a difficulty, or the loop guard's
// refusal, is not one (those climb).
import { describe, expect, it } from 'vitest';
import { scopeRefusal } from '../../src/run/scope.ts';

describe('scopeRefusal', () => {
  it.each([
    [
      "I can't do this: the repository's PreToolUse hook blocks every network call.",
      "I can't do this: the repository's PreToolUse hook blocks every network call.",
    ],
    [
      'I looked at the task. I cannot deploy to production because the policy in AGENTS.md forbids it. Ask a person.',
      'I cannot deploy to production because the policy in AGENTS.md forbids it.',
    ],
    ["I won't edit .github/workflows: that is outside the scope this session was given.", null],
    ["I’m not allowed to write outside src/ (blocked by the project's hook).", null],
    ['I will not push: force pushes are not permitted here.', null],
  ])('%s → halts', (text, sentence) => {
    const got = scopeRefusal(text);
    expect(got).not.toBeNull();
    if (sentence) expect(got).toBe(sentence);
  });

  it.each([
    "I can't reproduce the failure locally; I changed the retry logic instead.",
    'I cannot find LG_NEVER_SET anywhere in the repository.',
    'I fixed the rule that parses the header, and the tests pass.',
    "I can't run the check again: the loop guard refused it after 4 identical results.",
    'The hook ran and I updated the policy file as asked.',
    '',
  ])('%s → climbs', (text) => {
    expect(scopeRefusal(text)).toBeNull();
  });

  it('reads no further than 20,000 characters of a huge final message', () => {
    expect(scopeRefusal(`${'x'.repeat(20_000)} I can't do this: the hook blocks it.`)).toBeNull();
  });
});
