// Results the agent could not see whole (issue 9, item 9), from the real CLIs' captured payloads.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseClaude } from '../../src/guard/adapters/claude.ts';
import { parseCodex } from '../../src/guard/adapters/codex.ts';
import { opencodePlugin } from '../../src/guard/adapters/opencode.ts';

const LoopGuard = opencodePlugin();
import type { Payload } from '../../src/guard/adapters/types.ts';
import { onPost, type SessionState } from '../../src/guard/core/detector.ts';
import { MAX_MESSAGE_CHARS, repeatWarning } from '../../src/guard/core/messages.ts';
import type { GuardEvent, GuardSettings } from '../../src/guard/core/types.ts';
import { unseenResult } from '../../src/guard/core/unseen.ts';

const settings: GuardSettings = { enabled: true, warn: 3, block: 4, hangGuard: true };
const captured = (rel: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/payloads/${rel}`, import.meta.url), 'utf8')) as Record<string, unknown>;

function post(event: GuardEvent | null): Extract<GuardEvent, { kind: 'post' }> {
  if (event?.kind !== 'post') throw new Error('not a post event');
  return event;
}

/** The warning on the 3rd identical delivery of one post event. */
function thirdWarning(event: Extract<GuardEvent, { kind: 'post' }>): string {
  let state: SessionState | undefined;
  let message = '';
  for (let i = 0; i < 3; i++) {
    const { next, decision } = onPost(state, { ...event, callId: `c${i}` }, settings);
    state = next;
    message = decision.action === 'warn' ? decision.message : '';
  }
  return message;
}

describe('a cut result', () => {
  it("Claude Code's saved-to-file output: the warning names the file", () => {
    const p = captured('claude/captured/PostToolUse-Bash-bash-truncated.json');
    const saved = (p.tool_response as { persistedOutputPath: string }).persistedOutputPath;
    const event = post(parseClaude(p as Payload).event);
    expect(unseenResult(event.output)).toEqual({ kind: 'truncated', savedTo: saved });
    const message = thirdWarning(event);
    expect(message).toContain('was cut before it was shown');
    expect(message).toContain(saved);
    expect(message.length).toBeLessThan(MAX_MESSAGE_CHARS);
  });

  it("Claude Code's middle-cut failure text: the warning says how to narrow it", () => {
    const event = post(
      parseClaude(captured('claude/captured/PostToolUseFailure-Bash-bash-failure-truncated.json') as Payload).event,
    );
    expect(unseenResult(event.output)).toEqual({ kind: 'truncated' });
    expect(thirdWarning(event)).toMatch(/was cut before it was shown.*grep -n -iE 'error\|fail'.*tail -50/);
  });

  it("Codex's truncation warning", () => {
    const event = post(parseCodex(captured('codex/captured/PostToolUse-Bash-exec-truncated.json') as Payload).event);
    expect(unseenResult(event.output)).toEqual({ kind: 'truncated' });
    expect(thirdWarning(event)).toContain('was cut before it was shown');
  });

  it("OpenCode's saved output (the plugin reads the model's view, which names the file)", async () => {
    const p = captured('opencode/captured/tool.execute.after-bash-bash-truncated.json') as {
      input: Record<string, unknown>;
      output: { output: string; metadata: { outputPath: string } };
    };
    const text = await thirdPluginResult(p);
    expect(text).toContain('loop-guard:');
    expect(text).toContain(`The full output is in ${p.output.metadata.outputPath}`);
  });
});

/** The text the model gets from the plugin on the 3rd identical result of a captured OpenCode call. */
async function thirdPluginResult(p: { input: Record<string, unknown>; output: { output: string } }): Promise<string> {
  const hooks = await LoopGuard();
  let text = '';
  for (let i = 0; i < 3; i++) {
    const output = structuredClone(p.output);
    await hooks['tool.execute.after']({ ...structuredClone(p.input), callID: `call_${i}` }, output);
    text = output.output;
  }
  return text;
}

describe('a command stopped at the timeout again', () => {
  it('Claude Code (exit 143, "Command timed out after 1s")', () => {
    const event = post(
      parseClaude(captured('claude/captured/PostToolUseFailure-Bash-bash-timeout.json') as Payload).event,
    );
    expect(event.exitCode).toBe(143);
    expect(unseenResult(event.output)).toEqual({ kind: 'timeout' });
    const message = thirdWarning(event);
    expect(message).toContain('a longer timeout does not help a command that waits for input or never exits');
    expect(message).toContain('2>&1 &');
    expect(message.length).toBeLessThan(MAX_MESSAGE_CHARS);
  });

  it('OpenCode ("retry with a larger timeout", exit null)', async () => {
    const p = captured('opencode/captured/tool.execute.after-bash-bash-timeout.json') as {
      input: Record<string, unknown>;
      output: { output: string };
    };
    const text = await thirdPluginResult(p);
    expect(text).toContain('a longer timeout does not help');
  });
});

describe('what is not a cut or a timeout', () => {
  it('an ordinary result, and the words deep inside a long log', () => {
    expect(unseenResult('FAIL src/a.test.ts\nexpected 3 to be 4')).toBeNull();
    expect(unseenResult(`${'x\n'.repeat(2000)}Command timed out after 5s\nFull output saved to: /x`)).toBeNull();
    expect(
      thirdWarning({ kind: 'post', command: 'npm test', output: 'FAIL src/a.test.ts', exitCode: 1 }),
    ).not.toContain('was cut');
  });

  it('stays under the length cap with the longest command and path', () => {
    const long = repeatWarning('x'.repeat(500), 3, 4, 'missing-file', {
      kind: 'truncated',
      savedTo: `/${'p'.repeat(400)}`,
    });
    expect(long.length).toBeLessThan(MAX_MESSAGE_CHARS);
    expect(long.endsWith('…')).toBe(false);
    const timeout = repeatWarning('x'.repeat(500), 3, 4, null, { kind: 'timeout' });
    expect(timeout.endsWith('…')).toBe(false);
  });
});
