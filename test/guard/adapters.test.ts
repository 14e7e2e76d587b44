// Each adapter directly (not through the built file): a real payload in, the tool-neutral event out; a decision in,
// the tool's answer out. Payloads are the captured ones in test/fixtures.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseClaude, renderClaude } from '../../src/guard/adapters/claude.ts';
import { parseCodex, renderCodex } from '../../src/guard/adapters/codex.ts';
import { parseCursor, renderCursor } from '../../src/guard/adapters/cursor.ts';
import {
  detectFormat,
  factsFor,
  formatFromArg,
  parseHook,
  quietOutput,
  TOOL_FACTS,
} from '../../src/guard/adapters/index.ts';
import { opencodePlugin } from '../../src/guard/adapters/opencode.ts';

const LoopGuard = opencodePlugin();
import type { Decision } from '../../src/guard/core/types.ts';
import { fixturesDir, type Json, loadPayload } from '../helpers/paths.ts';

const cursorPayload = (name: string): Json =>
  JSON.parse(readFileSync(join(fixturesDir, 'cursor', `${name}.json`), 'utf8')) as Json;
const deny: Decision = { action: 'deny', rule: 'repeat', message: 'loop-guard: stop.' };
const warn: Decision = { action: 'warn', message: 'loop-guard: this repeated.' };
const allow: Decision = { action: 'allow' };

describe('claude adapter', () => {
  it('reads a failure: exit code split off the error text', () => {
    const parsed = parseClaude(loadPayload('claude/PostToolUseFailure-failure.json'));
    expect(parsed.family).toBe('claude');
    expect(parsed.event).toEqual({
      kind: 'post',
      command: 'ls /nonexistent-dir',
      output: "ls: cannot access '/nonexistent-dir': No such file or directory",
      exitCode: 2,
      callId: 'toolu_mock_2',
    });
  });
  it('reads a pre event and a user turn', () => {
    expect(parseClaude(loadPayload('claude/PreToolUse-failure.json')).event).toMatchObject({
      kind: 'pre',
      command: 'ls /nonexistent-dir',
      background: false,
    });
    expect(parseClaude(loadPayload('claude/UserPromptSubmit-prompt.json')).event).toEqual({
      kind: 'userTurn',
      prompt: 'run the scripted commands',
    });
  });
  it('answers: deny on PreToolUse, additionalContext on a post event, silence otherwise', () => {
    expect(JSON.parse(renderClaude('PreToolUse', deny))).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'loop-guard: stop.',
      },
    });
    expect(JSON.parse(renderClaude('PostToolUseFailure', warn))).toEqual({
      hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: 'loop-guard: this repeated.' },
    });
    expect(renderClaude('PreToolUse', allow)).toBe('');
    expect(renderClaude('UserPromptSubmit', warn)).toBe('');
  });
});

describe('codex adapter', () => {
  it('reads a post event without an exit code, with the turn id', () => {
    const p = loadPayload('codex/PostToolUse-failure.json');
    expect(parseCodex(p).event).toEqual({
      kind: 'post',
      command: 'ls /nonexistent-dir',
      output: "ls: cannot access '/nonexistent-dir': No such file or directory\n",
      callId: 'call_mock_2',
      turnId: p.turn_id,
    });
  });
  it('a pre event is marked background: Codex hands control back from long commands', () => {
    expect(parseCodex(loadPayload('codex/PreToolUse-failure.json')).event).toMatchObject({
      kind: 'pre',
      background: true,
    });
  });
  it('a deny reason loses its final full stop (Codex appends ". Command: …")', () => {
    expect(JSON.parse(renderCodex('PreToolUse', deny)).hookSpecificOutput.permissionDecisionReason).toBe(
      'loop-guard: stop',
    );
    expect(renderCodex('PostToolUse', allow)).toBe('');
  });
});

describe('cursor adapter', () => {
  it('reads a failure as its type and message, keyed by conversation and generation', () => {
    const parsed = parseCursor(cursorPayload('postToolUseFailure'));
    expect(parsed.session).toBe('c-1');
    expect(parsed.event).toEqual({
      kind: 'post',
      command: 'npm test',
      output: 'timeout: Command timed out',
      callId: 'abc124',
      turnId: 'g-7',
    });
  });
  it('always answers JSON: {} for allow, continue on a prompt, a permission deny', () => {
    expect(renderCursor('postToolUse', allow)).toBe('{}');
    expect(JSON.parse(renderCursor('beforeSubmitPrompt', allow))).toEqual({ continue: true });
    expect(JSON.parse(renderCursor('preToolUse', deny))).toMatchObject({
      permission: 'deny',
      agent_message: 'loop-guard: stop.',
    });
  });
});

describe('adapter choice and facts', () => {
  it('a Cursor-shaped payload is Cursor whatever the argument; otherwise the argument, else Codex by turn_id', () => {
    expect(detectFormat('claude', cursorPayload('preToolUse'))).toBe('cursor');
    expect(detectFormat('codex', loadPayload('claude/PreToolUse-failure.json'))).toBe('codex');
    expect(detectFormat(undefined, loadPayload('codex/PreToolUse-failure.json'))).toBe('codex');
    expect(formatFromArg('nonsense')).toBe('claude');
    expect(quietOutput('cursor')).toBe('{}');
    expect(quietOutput('claude')).toBe('');
  });
  it("Claude hooks run by Cursor count in the Cursor family, and take Cursor's hang facts with Claude's answer format", () => {
    const parsed = parseHook('claude', loadPayload('claude/PreToolUse-failure.json'), { CURSOR_VERSION: '2.0' });
    expect(parsed.family).toBe('cursor');
    expect(parsed.format).toBe('claude');
    expect(factsFor(parsed)).toEqual({
      ...TOOL_FACTS.cursor,
      blockSaysThisCommand: TOOL_FACTS.claude.blockSaysThisCommand,
    });
  });
});

describe('opencode adapter (the plugin, in-process)', () => {
  const after = loadPayload('opencode/tool.execute.after-failure.json') as { input: Json; output: Json };
  const before = loadPayload('opencode/tool.execute.before-failure.json') as { input: Json; output: Json };

  it('sets the agent environment for every shell', async () => {
    const hooks = await LoopGuard();
    const out: { env?: Record<string, string> } = { env: { KEEP: '1' } };
    await hooks['shell.env']({}, out);
    expect(out.env).toMatchObject({ KEEP: '1', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' });
  });

  it('warns on a repeated missing-file result, refuses the attempt after the 4th, and a new message starts over', async () => {
    const hooks = await LoopGuard();
    let call = 0;
    const runOnce = async () => {
      const callID = `call_test_${++call}`;
      await hooks['tool.execute.before']({ ...structuredClone(before.input), callID }, structuredClone(before.output));
      const output = structuredClone(after.output) as { output?: string };
      await hooks['tool.execute.after']({ ...structuredClone(after.input), callID }, output);
      return output.output ?? '';
    };
    expect(await runOnce()).not.toContain('loop-guard');
    // A missing file cannot be fixed by retrying, so the warning comes one result early.
    expect(await runOnce()).toContain('loop-guard');
    await runOnce();
    await runOnce();
    await expect(
      hooks['tool.execute.before'](structuredClone(before.input), structuredClone(before.output)),
    ).rejects.toThrow(/loop-guard/);
    await hooks['chat.message']({ sessionID: (before.input as { sessionID: string }).sessionID });
    await expect(
      hooks['tool.execute.before'](structuredClone(before.input), structuredClone(before.output)),
    ).resolves.toBeUndefined();
  });
});
