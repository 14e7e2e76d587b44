// The Gemini CLI, GitHub Copilot CLI and Qwen Code adapters: captured payloads in, tool-neutral events out; a decision
// in, the tool's verified answer out; and the built file fed a loop of real payloads.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copilotOutput, parseCopilot, renderCopilot, renderCopilotStop } from '../../src/guard/adapters/copilot.ts';
import { geminiOutput, parseGemini, renderGemini, renderGeminiStop } from '../../src/guard/adapters/gemini.ts';
import { detectFormat, parseHook } from '../../src/guard/adapters/index.ts';
import { parseQwen, qwenOutput, renderQwen, renderQwenStop } from '../../src/guard/adapters/qwen.ts';
import type { Decision } from '../../src/guard/core/types.ts';
import { TOOLS } from '../../src/tools/index.ts';
import { freshStateDir, guardEnv, type Json, loadPayload, requireBuilt, runGuardSync } from '../helpers/guard.ts';

const deny: Decision = { action: 'deny', rule: 'repeat', message: 'loop-guard: stop.' };
const warn: Decision = { action: 'warn', message: 'loop-guard: this repeated.' };
const allow: Decision = { action: 'allow' };
const handoff: Decision = {
  action: 'handoff',
  rule: 'repeat',
  message: 'loop-guard: not run, the turn stops.',
  stopReason: 'loop-guard stopped the agent',
  note: { command: 'x', refused: [], tried: [] },
};

describe('gemini adapter', () => {
  it('reads a failing AfterTool: exit code from the text, PGID and the untrusted_context wrapper dropped', () => {
    const parsed = parseGemini(loadPayload('gemini/AfterTool-failure.json'));
    expect(parsed.family).toBe('gemini');
    expect(parsed.event).toEqual({
      kind: 'post',
      command: 'cat /nonexistent-file',
      output: 'cat: /nonexistent-file: No such file or directory',
      exitCode: 1,
    });
  });
  it('reads a successful AfterTool as exit 0 (Gemini prints no Exit Code line then)', () => {
    expect(parseGemini(loadPayload('gemini/AfterTool-success.json')).event).toEqual({
      kind: 'post',
      command: 'echo hello-from-mock',
      output: 'hello-from-mock',
      exitCode: 0,
    });
  });
  it('two runs that differ only in their process group id are the same result', () => {
    const a = geminiOutput({
      llmContent: '<untrusted_context>\nOutput: x\nExit Code: 2\nProcess Group PGID: 101\n</untrusted_context>',
    });
    const b = geminiOutput({
      llmContent: '<untrusted_context>\nOutput: x\nExit Code: 2\nProcess Group PGID: 9999\n</untrusted_context>',
    });
    expect(a).toEqual(b);
    expect(a).toEqual({ output: 'x', exitCode: 2 });
    expect(geminiOutput({ llmContent: 'Output: (empty)\nSignal: 9' }).exitCode).toBeUndefined();
  });
  it('reads BeforeTool as pre, BeforeAgent as a user turn, other tools and events as nothing', () => {
    expect(parseGemini(loadPayload('gemini/BeforeTool-failure.json')).event).toEqual({
      kind: 'pre',
      command: 'cat /nonexistent-file',
      background: false,
    });
    expect(parseGemini(loadPayload('gemini/BeforeAgent-prompt.json')).event).toEqual({
      kind: 'userTurn',
      prompt: 'run the scripted commands',
    });
    expect(parseGemini({ ...loadPayload('gemini/BeforeTool-failure.json'), tool_name: 'read_file' }).event).toBeNull();
    expect(parseGemini(loadPayload('gemini/PreCompress-auto.json')).event).toBeNull();
  });
  it('answers: decision deny on BeforeTool, additionalContext on AfterTool, silence otherwise; the stop is continue:false', () => {
    expect(JSON.parse(renderGemini('BeforeTool', deny))).toEqual({ decision: 'deny', reason: 'loop-guard: stop.' });
    expect(JSON.parse(renderGemini('AfterTool', warn))).toEqual({
      hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: 'loop-guard: this repeated.' },
    });
    expect(renderGemini('AfterTool', deny)).toBe('');
    expect(renderGemini('BeforeTool', allow)).toBe('');
    // A warn on the prompt hook is the hand-off note at a session's first prompt: context, appended to the prompt.
    expect(JSON.parse(renderGemini('BeforeAgent', warn))).toEqual({
      hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: 'loop-guard: this repeated.' },
    });
    expect(renderGemini('BeforeAgent', allow)).toBe('');
    expect(JSON.parse(renderGeminiStop('done'))).toEqual({ continue: false, stopReason: 'done' });
  });
  it('the hand-off is the refusal plus continue:false on BeforeTool (the run ends; the deny holds even if it did not)', () => {
    expect(JSON.parse(renderGemini('BeforeTool', handoff))).toEqual({
      decision: 'deny',
      reason: 'loop-guard: not run, the turn stops.',
      continue: false,
      stopReason: 'loop-guard stopped the agent',
    });
    expect(renderGemini('AfterTool', handoff)).toBe('');
  });
  it('is chosen by the tool argument', () => {
    expect(detectFormat('gemini', loadPayload('gemini/BeforeTool-failure.json'))).toBe('gemini');
    expect(parseHook('gemini', loadPayload('gemini/BeforeTool-failure.json'), {}).format).toBe('gemini');
  });
});

describe('copilot adapter', () => {
  it('reads a failing PostToolUse: exit code from the shellId line, which is dropped (its number counts up)', () => {
    const parsed = parseCopilot(loadPayload('copilot/pascal/PostToolUse-failure.json'));
    expect(parsed.family).toBe('copilot');
    expect(parsed.event).toEqual({
      kind: 'post',
      command: 'cat /nonexistent-file',
      output: 'cat: /nonexistent-file: No such file or directory',
      exitCode: 1,
    });
    expect(copilotOutput({ text_result_for_llm: 'x\n<shellId: 7 completed with exit code 0>' })).toEqual(
      copilotOutput({ text_result_for_llm: 'x\n<shellId: 8 completed with exit code 0>' }),
    );
  });
  it('reads PreToolUse as pre, UserPromptSubmit as a user turn, a rejected call and other tools as nothing', () => {
    expect(parseCopilot(loadPayload('copilot/pascal/PreToolUse-failure.json')).event).toEqual({
      kind: 'pre',
      command: 'cat /nonexistent-file',
      background: false,
    });
    expect(parseCopilot(loadPayload('copilot/pascal/UserPromptSubmit.json')).event).toEqual({
      kind: 'userTurn',
      prompt: 'run the scripted commands',
    });
    const post = loadPayload('copilot/pascal/PostToolUse-failure.json');
    expect(
      parseCopilot({ ...post, tool_result: { result_type: 'rejected', text_result_for_llm: 'no' } }).event,
    ).toBeNull();
    expect(parseCopilot({ ...post, tool_name: 'view' }).event).toBeNull();
  });
  it('answers: hookSpecificOutput deny, top-level additionalContext (the nested one is ignored on PascalCase PostToolUse), silence otherwise', () => {
    expect(JSON.parse(renderCopilot('PreToolUse', deny))).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'loop-guard: stop.',
      },
    });
    expect(JSON.parse(renderCopilot('PostToolUse', warn))).toEqual({ additionalContext: 'loop-guard: this repeated.' });
    expect(renderCopilot('PreToolUse', allow)).toBe('');
    expect(JSON.parse(renderCopilot('UserPromptSubmit', warn))).toEqual({
      additionalContext: 'loop-guard: this repeated.',
    });
    expect(renderCopilot('UserPromptSubmit', allow)).toBe('');
    expect(JSON.parse(renderCopilotStop('done'))).toEqual({ behavior: 'deny', message: 'done', interrupt: true });
  });
  it('PermissionRequest (native shape under the PascalCase name, no call id) is the call about to run: a proceed event', () => {
    const parsed = parseCopilot(loadPayload('copilot/pascal/PermissionRequest-failure.json'));
    expect(parsed).toMatchObject({
      family: 'copilot',
      eventName: 'PermissionRequest',
      session: 'c5c62284-d3b3-4f53-a034-824ec479048b',
      event: { kind: 'proceed', command: 'cat /nonexistent-file' },
    });
    // The same session key as the PreToolUse before it, so both read one state.
    expect(parsed.session).toBe(parseCopilot(loadPayload('copilot/pascal/PreToolUse-failure.json')).session);
    expect(
      parseCopilot({ ...loadPayload('copilot/pascal/PermissionRequest-failure.json'), toolName: 'edit' }).event,
    ).toBeNull();
  });
  it('the hand-off: PreToolUse stays silent (a deny there skips PermissionRequest), PermissionRequest refuses and interrupts', () => {
    expect(renderCopilot('PreToolUse', handoff)).toBe('');
    expect(JSON.parse(renderCopilot('PermissionRequest', handoff))).toEqual({
      behavior: 'deny',
      message: 'loop-guard stopped the agent',
      interrupt: true,
    });
    expect(renderCopilot('PermissionRequest', allow)).toBe('');
    // Without the PermissionRequest hook (an older config) the run goes on: every later attempt is refused, never run.
    expect(JSON.parse(renderCopilot('PreToolUse', { ...handoff, again: true } as Decision))).toMatchObject({
      hookSpecificOutput: { permissionDecision: 'deny' },
    });
  });
  it('the record hooks PermissionRequest, and its doctor stop fact is what the adapter answers', () => {
    const spec = TOOLS.copilot.intents.find((i) => i.kind === 'json');
    expect(spec?.kind === 'json' && spec.hooks.events.map((e) => e.event)).toContain('PermissionRequest');
    const fact = TOOLS.copilot.doctor.replay!.stop!;
    expect(fact.event).toBe('PermissionRequest');
    expect(JSON.parse(renderCopilot(fact.event, handoff))).toMatchObject(fact.answer);
  });
});

describe('qwen adapter', () => {
  const prompt = '3ef05533-d889-4f49-965b-c5feab0eaf5c########0';
  it('reads a PostToolUseFailure: output and exit code out of the tool text, Command/Directory/PGID lines dropped', () => {
    expect(parseQwen(loadPayload('qwen/PostToolUseFailure-failure.json')).event).toEqual({
      kind: 'post',
      command: 'cat /nonexistent-file',
      output: 'cat: /nonexistent-file: No such file or directory',
      exitCode: 1,
      callId: 'toolu_1796038659953_xmn5tbt1w',
      turnId: prompt,
    });
    expect(parseQwen(loadPayload('qwen/PostToolUse-success.json')).event).toMatchObject({
      kind: 'post',
      output: 'hello-from-mock',
      exitCode: 0,
    });
    expect(
      qwenOutput(
        'Command: x\nDirectory: (root)\nOutput: a\nb\nError: (none)\nExit Code: (none)\nSignal: 9\nProcess Group PGID: 77',
      ),
    ).toEqual({ output: 'a\nb\nSignal: 9' });
  });
  it('a real prompt (submitted_prompt) is a user turn; the continuation before every model request and a Stop retry are not', () => {
    expect(parseQwen(loadPayload('qwen/UserPromptSubmit-prompt.json')).event).toEqual({
      kind: 'userTurn',
      turnId: prompt,
      prompt: 'run the scripted commands',
    });
    // The run going on (where a hand-off stops it), never a user turn.
    expect(parseQwen(loadPayload('qwen/UserPromptSubmit-continuation.json')).event).toEqual({
      kind: 'proceed',
      turnId: prompt,
    });
    expect(parseQwen(loadPayload('qwen/UserPromptSubmit-retry.json')).event).toMatchObject({ kind: 'proceed' });
    expect(parseQwen(loadPayload('qwen/UserPromptSubmit-resume.json')).event).toMatchObject({
      kind: 'userTurn',
      turnId: 'd003915d-69ef-48d3-a088-8e428a79936a########2',
    });
  });
  it('pre events carry the prompt id, so a new prompt resets even without its UserPromptSubmit', () => {
    expect(parseQwen(loadPayload('qwen/PreToolUse-failure.json')).event).toEqual({
      kind: 'pre',
      command: 'cat /nonexistent-file',
      background: false,
      callId: 'toolu_1796038659953_xmn5tbt1w',
      turnId: prompt,
    });
    expect(parseQwen({ ...loadPayload('qwen/PreToolUse-failure.json'), tool_name: 'write_file' }).event).toBeNull();
  });
  it("answers in Claude's shapes; the stop is continue:false (for the UserPromptSubmit continuation)", () => {
    expect(JSON.parse(renderQwen('PreToolUse', deny))).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'loop-guard: stop.',
      },
    });
    expect(JSON.parse(renderQwen('PostToolUseFailure', warn))).toEqual({
      hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: 'loop-guard: this repeated.' },
    });
    expect(JSON.parse(renderQwen('UserPromptSubmit', warn))).toEqual({
      hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'loop-guard: this repeated.' },
    });
    expect(renderQwen('UserPromptSubmit', allow)).toBe('');
    expect(renderQwen('PreToolUse', allow)).toBe('');
    expect(JSON.parse(renderQwenStop('done'))).toEqual({ continue: false, stopReason: 'done' });
  });
  it('the hand-off: the refusal on PreToolUse, the stop on the next UserPromptSubmit, as the record tells doctor', () => {
    expect(JSON.parse(renderQwen('PreToolUse', handoff))).toMatchObject({
      hookSpecificOutput: {
        permissionDecision: 'deny',
        permissionDecisionReason: 'loop-guard: not run, the turn stops.',
      },
    });
    expect(JSON.parse(renderQwen('UserPromptSubmit', handoff))).toEqual({
      continue: false,
      stopReason: 'loop-guard stopped the agent',
    });
    const fact = TOOLS.qwen.doctor.replay!.stop!;
    expect(JSON.parse(renderQwen(fact.event, handoff))).toMatchObject(fact.answer);
  });
});

describe('the built file with the captured payloads', () => {
  const loop = (tool: string, pre: Json, post: Json, turn: Json, mutate: (p: Json, i: number) => Json) => {
    requireBuilt();
    const env = guardEnv(freshStateDir());
    const outs: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const p = runGuardSync(tool, pre, env);
      outs.push(`pre${i}:${p.stdout.trim()}`);
      if (p.stdout.includes('deny')) break;
      outs.push(`post${i}:${runGuardSync(tool, mutate(post, i), env).stdout.trim()}`);
    }
    const t = runGuardSync(tool, turn, env);
    const after = runGuardSync(tool, pre, env);
    return { outs, turn: t, after };
  };
  it('gemini: silent first result, a warning by the 3rd, the 5th attempt denied, a new prompt lets it run', () => {
    const { outs, turn, after } = loop(
      'gemini',
      loadPayload('gemini/BeforeTool-failure.json'),
      loadPayload('gemini/AfterTool-failure.json'),
      loadPayload('gemini/BeforeAgent-prompt.json'),
      (p, i) => ({
        ...p,
        tool_response: {
          llmContent: `<untrusted_context>\nOutput: cat: /nonexistent-file: No such file or directory\nExit Code: 1\nProcess Group PGID: ${6400 + i}\n</untrusted_context>`,
        },
      }),
    );
    expect(outs[1]).toBe('post1:');
    expect(outs[5]).toContain('loop-guard:');
    expect(JSON.parse(outs[outs.length - 1]!.replace(/^pre\d:/, ''))).toMatchObject({ decision: 'deny' });
    expect(outs.filter((o) => o.startsWith('pre'))).toHaveLength(5);
    expect(turn.status).toBe(0);
    expect(turn.stdout).toBe('');
    expect(after.stdout).toBe('');
  });
  it('copilot: the same ladder, with the shellId counting up between runs', () => {
    const { outs, after } = loop(
      'copilot',
      loadPayload('copilot/pascal/PreToolUse-failure.json'),
      loadPayload('copilot/pascal/PostToolUse-failure.json'),
      loadPayload('copilot/pascal/UserPromptSubmit.json'),
      (p, i) => ({
        ...p,
        tool_result: {
          result_type: 'success',
          text_result_for_llm: `cat: /nonexistent-file: No such file or directory\n<shellId: ${i} completed with exit code 1>`,
        },
      }),
    );
    expect(outs[1]).toBe('post1:');
    expect(JSON.parse(outs[5]!.replace(/^post3:/, ''))).toHaveProperty('additionalContext');
    expect(JSON.parse(outs[outs.length - 1]!.replace(/^pre\d:/, ''))).toMatchObject({
      hookSpecificOutput: { permissionDecision: 'deny' },
    });
    expect(after.stdout).toBe('');
  });

  // A test failure (no class that climbs faster): refusals at the 5th and 6th attempts, the hand-off at the 7th.
  const ladder = (
    tool: string,
    pre: Json | ((i: number) => Json),
    post: (i: number) => Json,
    next: Json | undefined,
    env: Record<string, string>,
  ) => {
    const outs: string[] = [];
    for (let i = 1; i <= 7; i++) {
      const p = runGuardSync(tool, typeof pre === 'function' ? pre(i) : pre, env).stdout.trim();
      const n = next ? runGuardSync(tool, next, env).stdout.trim() : '';
      outs.push(`${p}|${n}`);
      if (!p.includes('deny') && !n) runGuardSync(tool, post(i), env);
    }
    return outs;
  };
  const FAIL_OUT = 'FAIL src/sum.test.ts > adds\nAssertionError: expected 2 to be 3';
  it('gemini: the 7th attempt gets deny + continue:false, and the note is written', () => {
    requireBuilt();
    const state = freshStateDir();
    const env = guardEnv(state);
    const pre = {
      ...loadPayload('gemini/BeforeTool-failure.json'),
      tool_input: { command: 'npm test', description: 'x' },
    };
    const outs = ladder(
      'gemini',
      pre,
      (i) => ({
        ...loadPayload('gemini/AfterTool-failure.json'),
        tool_input: { command: 'npm test' },
        tool_response: { llmContent: `Output: ${FAIL_OUT}\nExit Code: 1\nProcess Group PGID: ${i}` },
      }),
      undefined,
      env,
    );
    expect(outs.slice(0, 4)).toEqual(['|', '|', '|', '|']);
    expect(JSON.parse(outs[4]!.slice(0, -1))).toEqual({
      decision: 'deny',
      reason: expect.stringMatching(/^loop-guard:/),
    });
    expect(JSON.parse(outs[6]!.slice(0, -1))).toMatchObject({
      decision: 'deny',
      continue: false,
      stopReason: expect.stringContaining('npm test'),
    });
    expect(readFileSync(join(state, '.agents', 'handoff.md'), 'utf8')).toContain('expected 2 to be 3');
  });
  it('copilot: the 7th PreToolUse is silent and its PermissionRequest refuses and interrupts; earlier ones pass; a new prompt resets', () => {
    requireBuilt();
    const env = guardEnv(freshStateDir());
    const pre = {
      ...loadPayload('copilot/pascal/PreToolUse-failure.json'),
      tool_input: { command: 'npm test', description: 'x' },
    };
    const perm = {
      ...loadPayload('copilot/pascal/PermissionRequest-failure.json'),
      toolInput: { command: 'npm test' },
    };
    const outs = ladder(
      'copilot',
      pre,
      (i) => ({
        ...loadPayload('copilot/pascal/PostToolUse-failure.json'),
        tool_input: { command: 'npm test' },
        tool_result: {
          result_type: 'success',
          text_result_for_llm: `${FAIL_OUT}\n<shellId: ${i} completed with exit code 1>`,
        },
      }),
      perm,
      env,
    );
    expect(outs.slice(0, 4)).toEqual(['|', '|', '|', '|']);
    expect(outs[4]).toMatch(/permissionDecision":"deny".*\|$/);
    expect(outs[6]!.startsWith('|')).toBe(true);
    expect(JSON.parse(outs[6]!.slice(1))).toEqual({
      behavior: 'deny',
      message: expect.stringContaining('npm test'),
      interrupt: true,
    });
    expect(runGuardSync('copilot', { ...perm, toolInput: { command: 'git status' } }, env).stdout).toBe('');
    // Had the run gone on (no PermissionRequest hook), the 8th attempt is refused: one extra run at most.
    expect(JSON.parse(runGuardSync('copilot', pre, env).stdout)).toMatchObject({
      hookSpecificOutput: { permissionDecision: 'deny' },
    });
    runGuardSync('copilot', loadPayload('copilot/pascal/UserPromptSubmit.json'), env);
    expect(runGuardSync('copilot', perm, env).stdout).toBe('');
  });
  it('qwen: after the 7th attempt is refused, the next continuation is blocked; a real prompt resets, and its continuations pass', () => {
    requireBuilt();
    const env = guardEnv(freshStateDir());
    // Each attempt is its own call (tool_use_id): one call delivered twice counts once.
    const pre = (i: number) => ({
      ...loadPayload('qwen/PreToolUse-failure.json'),
      tool_use_id: `t${i}`,
      tool_input: { command: 'npm test', description: 'x' },
    });
    const next = loadPayload('qwen/UserPromptSubmit-continuation.json');
    const outs = ladder(
      'qwen',
      pre,
      (i) => ({
        ...loadPayload('qwen/PostToolUseFailure-failure.json'),
        tool_use_id: `t${i}`,
        tool_input: { command: 'npm test' },
        error: `Command: npm test\nDirectory: (root)\nOutput: ${FAIL_OUT}\nError: (none)\nExit Code: 1\nSignal: (none)\nProcess Group PGID: (none)`,
      }),
      next,
      env,
    );
    expect(outs.slice(0, 4)).toEqual(['|', '|', '|', '|']);
    expect(outs[4]).toMatch(/permissionDecision":"deny".*\|$/);
    const [refusal, stop] = outs[6]!.split('|');
    expect(JSON.parse(refusal!)).toMatchObject({
      hookSpecificOutput: {
        permissionDecision: 'deny',
        permissionDecisionReason: expect.stringContaining('turn stops here'),
      },
    });
    expect(JSON.parse(stop!)).toEqual({ continue: false, stopReason: expect.stringContaining('npm test') });
    // A Stop-hook retry in the same prompt is the run going on too.
    expect(
      JSON.parse(
        runGuardSync(
          'qwen',
          {
            ...loadPayload('qwen/UserPromptSubmit-retry.json'),
            session_id: next.session_id,
            prompt_id: next.prompt_id,
          },
          env,
        ).stdout,
      ),
    ).toMatchObject({ continue: false });
    expect(runGuardSync('qwen', loadPayload('qwen/UserPromptSubmit-prompt.json'), env).stdout).toBe('');
    expect(runGuardSync('qwen', next, env).stdout).toBe('');
  });
});
