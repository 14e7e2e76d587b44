// The user's own words: a long-running command the user typed runs (with a note), the repeat rule still counts it,
// and only hashes of the prompt's command-like spans are kept. Payloads: the captured UserPromptSubmit/BeforeAgent/
// chat.message/beforeRun shapes of each tool (test/fixtures/payloads, test/fixtures/cursor), with the prompt replaced.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseClaude } from '../../src/guard/adapters/claude.ts';
import { userInputText } from '../../src/guard/adapters/cline.ts';
import { parseCodex } from '../../src/guard/adapters/codex.ts';
import { parseCopilot } from '../../src/guard/adapters/copilot.ts';
import { parseCursor } from '../../src/guard/adapters/cursor.ts';
import { parseGemini } from '../../src/guard/adapters/gemini.ts';
import { opencodePlugin } from '../../src/guard/adapters/opencode.ts';

const LoopGuard = opencodePlugin();
import { parseQwen } from '../../src/guard/adapters/qwen.ts';
import { ASKED_LIMITS, askedCommands, wasAsked } from '../../src/guard/core/asked.ts';
import { runHook } from '../../src/guard/main.ts';
import { fixturesDir, type Json, loadPayload } from '../helpers/paths.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const stateDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'lg-asked-'));
  dirs.push(d);
  return d;
};

describe('askedCommands: the command-like spans of a prompt, as hashes', () => {
  it.each([
    ['the whole prompt is a command', 'npm run dev', ['npm run dev']],
    ['a runner in a short line', 'bun run start', ['bun run start']],
    ['backtick spans', 'please run `npm run dev` and then `pnpm test -- --run`', ['npm run dev', 'pnpm test -- --run']],
    ['a fenced block, one command a line', 'try this:\n```sh\nnpm ci\nnpm run dev\n```', ['npm ci', 'npm run dev']],
    ['a $ line', 'start it like this\n$ docker compose up', ['docker compose up']],
    ["Cline's wrapper", '<user_input mode="act">npm run dev</user_input>', ['npm run dev']],
    ["OpenCode's JSON-quoted text", '"npm run dev"', ['npm run dev']],
  ])('%s', (_label, prompt, commands) => {
    const asked = askedCommands(prompt);
    expect(asked).toHaveLength(commands.length);
    for (const c of commands) expect(wasAsked(c, asked)).toBe(true);
    // Only hashes: no word of the prompt survives in what is kept.
    expect(JSON.stringify(asked)).not.toMatch(/npm|dev|docker|pnpm|bun/);
  });

  it('a plain sentence asks for no command, so it writes no state', () => {
    expect(askedCommands('fix the failing test please')).toEqual([]);
    expect(askedCommands('run the scripted commands')).toEqual([]);
    expect(askedCommands('')).toEqual([]);
    expect(askedCommands(undefined)).toEqual([]);
  });

  it('is bounded: at most a few spans of a prompt read only so far', () => {
    const many = Array.from({ length: 50 }, (_, i) => `\`npm run s${i}\``).join(' ');
    expect(askedCommands(many)).toHaveLength(ASKED_LIMITS.spans);
    const late = `${'x'.repeat(ASKED_LIMITS.promptChars)} \`npm run dev\``;
    expect(askedCommands(late)).toEqual([]);
  });

  it('matches the command word for word, whitespace aside', () => {
    const asked = askedCommands('`npm run dev`');
    expect(wasAsked('npm  run   dev', asked)).toBe(true);
    expect(wasAsked('npm run dev -- --port 4000', asked)).toBe(false);
  });
});

describe('each tool gives the prompt to the guard', () => {
  const withPrompt = (p: Json, key: string): Json => ({ ...p, [key]: 'npm run dev' });
  it.each([
    ['claude', () => parseClaude(withPrompt(loadPayload('claude/UserPromptSubmit-prompt.json'), 'prompt'))],
    ['codex', () => parseCodex(withPrompt(loadPayload('codex/UserPromptSubmit-prompt.json'), 'prompt'))],
    ['gemini', () => parseGemini(withPrompt(loadPayload('gemini/BeforeAgent-prompt.json'), 'prompt'))],
    ['qwen', () => parseQwen(withPrompt(loadPayload('qwen/UserPromptSubmit-prompt.json'), 'submitted_prompt'))],
    ['copilot', () => parseCopilot(withPrompt(loadPayload('copilot/pascal/UserPromptSubmit.json'), 'prompt'))],
    [
      'cursor',
      () =>
        parseCursor(
          withPrompt(
            JSON.parse(readFileSync(join(fixturesDir, 'cursor', 'beforeSubmitPrompt.json'), 'utf8')),
            'prompt',
          ),
        ),
    ],
  ])('%s', (_tool, parse) => {
    expect(parse().event).toMatchObject({ kind: 'userTurn', prompt: 'npm run dev' });
  });

  it('cline: the text of the <user_input> part of the last user message', () => {
    const run = loadPayload('cline/plugin/beforeRun.json') as { snapshot: Json };
    expect(userInputText(run.snapshot)).toBe('<user_input mode="act">run the scripted commands</user_input>');
  });
});

const claudePayload = (rel: string, over: Json): string => JSON.stringify({ ...loadPayload(rel), ...over });
const promptEvent = (prompt: string) => claudePayload('claude/UserPromptSubmit-prompt.json', { prompt });
const preEvent = (command: string, id: string) =>
  claudePayload('claude/PreToolUse-success.json', {
    tool_input: { command, description: 'Run it' },
    tool_use_id: id,
  });
const failEvent = (command: string, id: string, error: string) =>
  claudePayload('claude/PostToolUseFailure-failure.json', {
    tool_input: { command, description: 'Run it' },
    tool_use_id: id,
    error,
  });

describe('the hang rule gives way to the user (Claude Code hook, end to end)', () => {
  it('`npm run dev` typed by the user runs, with a note naming the background form and a bounded wait', () => {
    const env = { LOOP_GUARD_STATE_DIR: stateDir(), PATH: process.env.PATH ?? '' };
    expect(runHook(preEvent('npm run dev', 'toolu_a1'), 'claude', env)).toMatch(/permissionDecision":"deny/);
    expect(runHook(promptEvent('npm run dev'), 'claude', env)).toBe('');
    const out = JSON.parse(runHook(preEvent('npm run dev', 'toolu_a2'), 'claude', env));
    expect(out.hookSpecificOutput.permissionDecision).toBeUndefined();
    const note: string = out.hookSpecificOutput.additionalContext;
    expect(note.startsWith('loop-guard:')).toBe(true);
    expect(note.length).toBeLessThan(600);
    expect(note).toContain('nohup npm run dev > /tmp/loop-guard-bg.log 2>&1 &');
    expect(note).toContain('timeout 60');
    expect(note).not.toMatch(/\bsleep\s+\d+\s*(?:&&|;(?!\s*done\b))/);
    // Another long-running command, not the one asked for, is still refused.
    expect(runHook(preEvent('npm run watch', 'toolu_a3'), 'claude', env)).toMatch(/permissionDecision":"deny/);
  });

  it('the prompt is never on disk, only hashes of its command spans', () => {
    const dir = stateDir();
    const env = { LOOP_GUARD_STATE_DIR: dir, PATH: process.env.PATH ?? '' };
    runHook(promptEvent('my secret plan: run `npm run dev` on staging-box-42'), 'claude', env);
    const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const text = readFileSync(join(f.parentPath ?? (f as unknown as { path: string }).path, f.name), 'utf8');
      expect(text).not.toMatch(/secret|staging|npm run dev/);
    }
  });

  it('the repeat rule still applies to it: the same failure is refused by the 5th attempt', () => {
    const env = { LOOP_GUARD_STATE_DIR: stateDir(), PATH: process.env.PATH ?? '' };
    runHook(promptEvent('npm run dev'), 'claude', env);
    const error = 'Exit code 127\n\n> app@1.0.0 dev\n> next dev\n\nsh: 1: next: not found\n';
    let refusedAt = 0;
    for (let i = 1; i <= 6 && !refusedAt; i++) {
      const pre = runHook(preEvent('npm run dev', `toolu_r${i}`), 'claude', env);
      if (/permissionDecision":"deny/.test(pre)) refusedAt = i;
      else runHook(failEvent('npm run dev', `toolu_r${i}`, error), 'claude', env);
    }
    expect(refusedAt).toBe(5);
  });

  it('a new prompt without the command takes the permission back', () => {
    const env = { LOOP_GUARD_STATE_DIR: stateDir(), PATH: process.env.PATH ?? '' };
    runHook(promptEvent('npm run dev'), 'claude', env);
    runHook(promptEvent('now fix the test'), 'claude', env);
    expect(runHook(preEvent('npm run dev', 'toolu_b1'), 'claude', env)).toMatch(/permissionDecision":"deny/);
  });
});

describe('OpenCode: chat.message parts carry the prompt', () => {
  it('a dev server the user asked for is not refused by the plugin', async () => {
    const hooks = await LoopGuard();
    const msg = loadPayload('opencode/chat.message-prompt.json') as { input: Json; output: { parts: Json[] } };
    const before = loadPayload('opencode/tool.execute.before-success.json') as { input: Json; output: Json };
    const sessionID = (msg.input as { sessionID: string }).sessionID;
    const call = (id: string) =>
      hooks['tool.execute.before'](
        { ...structuredClone(before.input), sessionID, callID: id },
        { ...structuredClone(before.output), args: { command: 'npm run dev', description: 'dev' } },
      );
    await expect(call('c1')).rejects.toThrow(/loop-guard/);
    const output = structuredClone(msg.output);
    output.parts = output.parts.map((p) => ({ ...p, text: '"npm run dev"' }));
    await hooks['chat.message'](structuredClone(msg.input), output);
    await expect(call('c2')).resolves.toBeUndefined();
  });
});
