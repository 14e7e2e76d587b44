// The guard's own event log: written only when it acts, bounded, never in the way.
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_LOG, EVENT_LOG_MAX_BYTES, readGuardLog, recordDecision } from '../../src/guard/event-log.ts';
import { runHook } from '../../src/guard/main.ts';

const dir = () => mkdtempSync(join(tmpdir(), 'lg-event-log-'));

describe('guard event log', () => {
  it('allow writes nothing; warn and deny append one line each; a failure loses only that entry', () => {
    const d = dir();
    recordDecision({ LOOP_GUARD_STATE_DIR: d }, 'claude', 'ls', { action: 'allow' });
    expect(existsSync(join(d, EVENT_LOG))).toBe(false);
    recordDecision({ LOOP_GUARD_STATE_DIR: d }, 'claude', 'ls', { action: 'warn', message: 'm' }, () => '/p');
    expect(() =>
      recordDecision(
        { LOOP_GUARD_STATE_DIR: d },
        'codex',
        'ls',
        { action: 'deny', message: 'm', rule: 'repeat' },
        () => {
          throw new Error('ENOENT: the working directory was deleted');
        },
      ),
    ).not.toThrow();
    recordDecision(
      { LOOP_GUARD_STATE_DIR: d },
      'codex',
      'ls',
      { action: 'deny', message: 'm', rule: 'repeat' },
      () => '/q',
    );
    expect(readGuardLog(d).map((e) => [e.tool, e.a, e.rule, e.cmd, e.cwd])).toEqual([
      ['claude', 'warn', undefined, 'ls', '/p'],
      ['codex', 'deny', 'repeat', 'ls', '/q'],
    ]);
  });

  it('stays bounded: past the cap it rotates into one older file', () => {
    const d = dir();
    const cmd = 'x'.repeat(150);
    for (let i = 0; i < 3000; i++)
      recordDecision({ LOOP_GUARD_STATE_DIR: d }, 'claude', cmd, { action: 'warn', message: 'm' });
    expect(statSync(join(d, EVENT_LOG)).size).toBeLessThanOrEqual(EVENT_LOG_MAX_BYTES + 400);
    expect(statSync(join(d, `${EVENT_LOG}.1`)).size).toBeLessThanOrEqual(EVENT_LOG_MAX_BYTES + 400);
    expect(readGuardLog(d).length).toBeGreaterThan(500);
  });

  it('an unwritable place never throws', () => {
    const d = dir();
    writeFileSync(join(d, 'file'), '');
    expect(() =>
      recordDecision({ LOOP_GUARD_STATE_DIR: join(d, 'file', 'sub') }, 'claude', 'ls', {
        action: 'warn',
        message: 'm',
      }),
    ).not.toThrow();
  });

  it('the hook records its warnings and refusals, and nothing for allowed calls', () => {
    const d = dir();
    const env = { LOOP_GUARD_STATE_DIR: d };
    const call = (n: number) => {
      runHook(
        JSON.stringify({
          hook_event_name: 'PreToolUse',
          session_id: 's',
          tool_name: 'Bash',
          tool_input: { command: 'npm test' },
          tool_use_id: `t${n}`,
        }),
        'claude',
        env,
      );
      runHook(
        JSON.stringify({
          hook_event_name: 'PostToolUseFailure',
          session_id: 's',
          tool_name: 'Bash',
          tool_input: { command: 'npm test' },
          tool_use_id: `t${n}`,
          error: 'Exit code 1\nFAIL',
        }),
        'claude',
        env,
      );
    };
    call(1);
    call(2);
    expect(existsSync(join(d, EVENT_LOG))).toBe(false);
    for (let n = 3; n <= 5; n++) call(n);
    const log = readFileSync(join(d, EVENT_LOG), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { a: string; cmd: string });
    expect(log.map((e) => e.a)).toEqual(['warn', 'warn', 'deny', 'warn']);
    expect(log.every((e) => e.cmd === 'npm test')).toBe(true);
  });
});
