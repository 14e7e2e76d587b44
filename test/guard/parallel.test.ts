// Concurrent hook processes for one session must neither lose nor double a count.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  freshStateDir,
  guardEnv,
  type Json,
  loadPayload,
  requireBuilt,
  runGuardAsync,
  runGuardSync,
} from '../helpers/guard.ts';

beforeAll(requireBuilt);

const TRIALS = 100;
const PARALLEL = 16;

describe('parallel post events', () => {
  it(`${PARALLEL} concurrent posts for one session → exact count, ${TRIALS} trials`, async () => {
    const post = loadPayload('claude/PostToolUseFailure-failure.json');
    const pre = loadPayload('claude/PreToolUse-failure.json');
    const failures: string[] = [];
    for (let t = 0; t < TRIALS; t++) {
      // With BLOCK=16 the next attempt is refused only if all 16 results were counted, and the message states the count.
      const env = guardEnv(freshStateDir(), { LOOP_GUARD_WARN: '16', LOOP_GUARD_BLOCK: '16' });
      const session = `parallel-${t}`;
      const runs = await Promise.all(
        Array.from({ length: PARALLEL }, (_, i) =>
          runGuardAsync('claude', { ...post, session_id: session, tool_use_id: `t${t}_${i}` } as Json, env),
        ),
      );
      for (const r of runs) if (r.status !== 0) failures.push(`trial ${t}: exit ${r.status} ${r.stderr}`);
      const out = runGuardSync('claude', { ...pre, session_id: session }, env).stdout;
      const reason = out ? (JSON.parse(out).hookSpecificOutput.permissionDecisionReason as string) : '';
      if (!reason.includes(`its last ${PARALLEL} runs`))
        failures.push(`trial ${t}: ${reason || 'not denied (a count was lost)'}`);
    }
    expect(failures).toEqual([]);
  }, 600_000);
});

// Issue 31: the sessions of one loop share one state file, so their hook processes race on it as one session's do.
describe('parallel post events from the sessions of one loop', () => {
  it(`${PARALLEL} sessions with one prompt, one post each, at once → one exact count, 20 trials`, async () => {
    const prompt = loadPayload('claude/UserPromptSubmit-prompt.json');
    const post = loadPayload('claude/PostToolUseFailure-failure.json');
    const pre = loadPayload('claude/PreToolUse-failure.json');
    const failures: string[] = [];
    for (let t = 0; t < 20; t++) {
      const state = freshStateDir();
      const env = guardEnv(state, { LOOP_GUARD_WARN: '16', LOOP_GUARD_BLOCK: '16' });
      // cwd: an empty folder outside git (not the state dir, whose files change under the tree look).
      const cwd = freshStateDir();
      const text = `loop trial ${t}`;
      await Promise.all(
        Array.from({ length: PARALLEL }, (_, i) =>
          runGuardAsync('claude', { ...prompt, session_id: `l${t}-${i}`, cwd, prompt: text } as Json, env),
        ),
      );
      await Promise.all(
        Array.from({ length: PARALLEL }, (_, i) =>
          runGuardAsync('claude', { ...post, session_id: `l${t}-${i}`, cwd, tool_use_id: `p${i}` } as Json, env),
        ),
      );
      const out = runGuardSync('claude', { ...pre, session_id: `l${t}-0`, cwd }, env).stdout;
      const reason = out ? (JSON.parse(out).hookSpecificOutput.permissionDecisionReason as string) : '';
      if (!reason.includes(`its last ${PARALLEL} runs`))
        failures.push(`trial ${t}: ${reason || 'not denied (a count was lost)'}`);
    }
    expect(failures).toEqual([]);
  }, 600_000);
});
