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
