// Random and malformed payloads: the guard always exits 0 and always answers Cursor with JSON.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { runHook } from '../../src/guard/main.ts';
import { freshStateDir, guardEnv, type Json, loadPayload, requireBuilt, runGuardAsync } from '../helpers/guard.ts';

beforeAll(requireBuilt);

const templates: Array<[string, Json]> = [
  ['claude', loadPayload('claude/PreToolUse-failure.json')],
  ['claude', loadPayload('claude/PostToolUseFailure-failure.json')],
  ['claude', loadPayload('claude/PostToolUse-success.json')],
  ['codex', loadPayload('codex/PostToolUse-failure.json')],
  ['codex', loadPayload('codex/PreToolUse-success.json')],
];

/** Payload-ish values: real templates with fields replaced by random JSON, or random text. */
const payloadArb = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.json({ maxDepth: 3 }),
  fc
    .tuple(
      fc.constantFrom(...templates),
      fc.constantFrom(
        'tool_input',
        'tool_response',
        'error',
        'session_id',
        'hook_event_name',
        'tool_use_id',
        'turn_id',
      ),
      fc.jsonValue({ maxDepth: 2 }),
    )
    .map(([[, t], key, value]) => JSON.stringify({ ...t, [key]: value })),
);

/** Top-level keys of every answer the guard may print: Claude/Codex, Cursor deny, warn, prompt, neutral. */
const ANSWER_SHAPES = [
  ['hookSpecificOutput'],
  ['agent_message', 'permission', 'user_message'],
  ['additional_context'],
  ['continue'],
  ['continue', 'hookSpecificOutput', 'stopReason'],
  [],
];

function isValidJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('fuzz', () => {
  it("10,000 random payloads in-process: every answer is silence or one of the protocols' JSON shapes; Cursor always gets JSON", () => {
    const env = guardEnv(freshStateDir());
    fc.assert(
      fc.property(payloadArb, fc.constantFrom('claude', 'codex', 'cursor', undefined), (input, tool) => {
        const out = runHook(input, tool, env);
        if (tool === 'cursor') expect(out).not.toBe('');
        if (out === '') return;
        // Any answer is one of the shapes the protocols define (a Cursor-shaped payload gets Cursor's answer).
        expect(ANSWER_SHAPES).toContainEqual(Object.keys(JSON.parse(out) as object).sort());
      }),
      { numRuns: 10_000, seed: 20261130 },
    );
  });

  it('300 random payloads through the built file: exit 0, Cursor answers are JSON', async () => {
    const env = guardEnv(freshStateDir());
    const samples = fc.sample(fc.tuple(payloadArb, fc.constantFrom('claude', 'codex', 'cursor')), {
      numRuns: 300,
      seed: 7,
    });
    for (let i = 0; i < samples.length; i += 8) {
      const batch = samples.slice(i, i + 8);
      const runs = await Promise.all(batch.map(([input, tool]) => runGuardAsync(tool, input as unknown as Json, env)));
      runs.forEach((r, k) => {
        expect(r.status).toBe(0);
        if (batch[k]?.[1] === 'cursor') expect(isValidJson(r.stdout)).toBe(true);
      });
    }
  }, 300_000);

  it('hostile session ids never write outside the state directory', async () => {
    const parent = freshStateDir();
    const stateDir = join(parent, 'state');
    mkdirSync(stateDir);
    const env = guardEnv(stateDir);
    const post = loadPayload('claude/PostToolUseFailure-failure.json');
    const ids = [
      '../../x',
      '../escape',
      '/etc/passwd',
      'a/b/c',
      'x'.repeat(10_000),
      'nul\u0000byte',
      '..',
      '.',
      '~',
      'ÿ€𝄞',
      '',
    ];
    for (const id of ids) {
      const r = await runGuardAsync('claude', { ...post, session_id: id }, env);
      expect(r.status).toBe(0);
    }
    expect(readdirSync(parent)).toEqual(['state']);
    for (const f of readdirSync(stateDir)) expect(f).toMatch(/^[a-z0-9._-]+$/);
    expect(existsSync('/etc/passwd.lock')).toBe(false);
  });
});
