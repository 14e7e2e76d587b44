// Claude Code now blocks chained sleep polling itself ("Blocked: sleep 45 followed by …"): no advice of ours may
// suggest `sleep N && cmd` or `sleep N; cmd` (a sleep inside a bounded `until …; do sleep 2; done` loop is fine).
import { describe, expect, it } from 'vitest';
import { pollBlock, pollCycleWarning, pollWarning } from '../../src/guard/core/progress-messages.ts';
import { FAILURE_ADVICE } from '../../src/guard/core/classify.ts';
import { checkHang } from '../../src/guard/core/hang/rules.ts';
import { askedNote, repeatBlock, repeatWarning } from '../../src/guard/core/messages.ts';
import type { FailureClass } from '../../src/guard/core/types.ts';

const CHAINED_SLEEP = /\bsleep\s+\d+(?:\.\d+)?[smhd]?\s*(?:&&|;(?!\s*done\b))/;
// The agent's own command is quoted in the messages; the advice around it is what is checked.
const CMD = 'curl -s localhost:3000/health';

describe('no message suggests the chained sleep form', () => {
  const messages: Array<[string, string]> = [
    ['poll warning', pollWarning(CMD, 5, 7)],
    ['poll refusal', pollBlock(CMD, 7)],
    ['poll cycle', pollCycleWarning([CMD, 'git status'], 5, 7)],
    ['asked note', askedNote('npm run dev', "the Bash tool's run_in_background")],
    ['timeout warning', repeatWarning(CMD, 3, 4, null, { kind: 'timeout' })],
    ['truncated warning', repeatWarning(CMD, 3, 4, null, { kind: 'truncated' })],
    ...(Object.keys(FAILURE_ADVICE) as FailureClass[]).flatMap(
      (f): Array<[string, string]> => [
        [`warning (${f})`, repeatWarning(CMD, 3, 4, f)],
        [`refusal (${f})`, repeatBlock(CMD, 4, f)],
      ],
    ),
    ...['tail -f app.log', 'watch -n 2 ls', 'npm run dev', 'ping example.com', 'npx tsc --watch'].map(
      (c): [string, string] => [
        `hang: ${c}`,
        checkHang(c, { longRunsReturn: false, background: false })?.message ?? '',
      ],
    ),
  ];
  it.each(messages)('%s', (_label, message) => {
    expect(message.startsWith('loop-guard:')).toBe(true);
    expect(message.length).toBeLessThan(600);
    expect(message).not.toMatch(CHAINED_SLEEP);
  });
  it('the pattern catches the form Claude Code blocks', () => {
    expect('sleep 45 && curl localhost:3000').toMatch(CHAINED_SLEEP);
    expect('sleep 5; tail -3 build.log').toMatch(CHAINED_SLEEP);
    expect("timeout 60 sh -c 'until curl -sf x; do sleep 2; done'").not.toMatch(CHAINED_SLEEP);
  });
});
