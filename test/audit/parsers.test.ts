// Each format's parser on transcripts the real CLIs wrote.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { obj, type AuditEvent } from '../../src/audit/events.ts';
import { createClaudeParser } from '../../src/audit/formats/claude.ts';
import { codexOutput, createCodexParser } from '../../src/audit/formats/codex.ts';
import { copilotShellResult, createCopilotParser } from '../../src/audit/formats/copilot.ts';
import { clineShellResult, createClineParser } from '../../src/audit/formats/cline.ts';
import { createGeminiParser, geminiShellResult } from '../../src/audit/formats/gemini.ts';
import { createQwenParser, qwenShellResult } from '../../src/audit/formats/qwen.ts';
import type { RecordParser } from '../../src/audit/formats/types.ts';
import { forEachLine } from '../../src/audit/lines.ts';
import { LOOP_CMD, PROGRESS_CMD, transcripts } from './fixtures.ts';

function parse(parser: RecordParser, file: string): { events: AuditEvent[]; unknown: number } {
  const events: AuditEvent[] = [];
  let unknown = 0;
  forEachLine(file, (line) => {
    if (!line) return;
    const rec = obj(JSON.parse(line));
    if (!rec || !parser.push(rec, (e) => events.push(e))) unknown++;
  });
  return { events, unknown };
}

const shells = (events: AuditEvent[]) =>
  events.filter((e): e is Extract<AuditEvent, { kind: 'shell' }> => e.kind === 'shell');
const kinds = (events: AuditEvent[], kind: AuditEvent['kind']) => events.filter((e) => e.kind === kind).length;
const LS_ERROR = "ls: cannot access '/definitely-missing-dir': No such file or directory";

describe('Claude Code 2.1.332', () => {
  const dir = join(transcripts, 'claude', 'projects');
  it('the looping session: six Bash calls with exit code 2 and the same output, one user turn, usage per request', () => {
    const parser = createClaudeParser();
    const { events, unknown } = parse(
      parser,
      join(dir, '-home-dev-loop', '23de7ca1-4800-4e2f-a018-a131f1951a9d.jsonl'),
    );
    expect(unknown).toBe(0);
    expect(parser.info).toEqual({ id: '23de7ca1-4800-4e2f-a018-a131f1951a9d', cwd: '/home/dev/loop' });
    const calls = shells(events);
    expect(calls.map((c) => c.command)).toEqual(Array(6).fill(LOOP_CMD));
    expect(calls.map((c) => c.exitCode)).toEqual(Array(6).fill(2));
    expect(calls.every((c) => c.output.trim() === LS_ERROR)).toBe(true);
    expect(calls.every((c) => typeof c.at === 'number')).toBe(true);
    expect(kinds(events, 'user')).toBe(1);
    expect(kinds(events, 'usage')).toBe(7);
  });
  it('the progress session: exit 0 and a growing count', () => {
    const { events } = parse(
      createClaudeParser(),
      join(dir, '-home-dev-progress', '06ff25db-305e-4f19-98f2-6a9e8b1ab39a.jsonl'),
    );
    const calls = shells(events);
    expect(calls.map((c) => c.command)).toEqual(Array(6).fill(PROGRESS_CMD));
    expect(calls.map((c) => c.exitCode)).toEqual(Array(6).fill(0));
    expect(calls.map((c) => c.output.trim())).toEqual(['1', '2', '3', '4', '5', '6']);
  });
});

describe('Codex 0.171.0', () => {
  const dir = join(transcripts, 'codex', 'sessions', '2026', '11', '30');
  const files = readdirSync(dir).sort();
  it('the looping session: exec_command calls with the executed command record (output, exit code)', () => {
    const parser = createCodexParser();
    const { events, unknown } = parse(parser, join(dir, files[0] as string));
    expect(unknown).toBe(0);
    expect(parser.info.cwd).toBe('/home/dev/loop');
    const calls = shells(events);
    expect(calls.map((c) => c.command)).toEqual(Array(6).fill(LOOP_CMD));
    expect(calls.map((c) => c.exitCode)).toEqual(Array(6).fill(2));
    expect(calls.every((c) => c.output.trim() === LS_ERROR)).toBe(true);
    expect(kinds(events, 'user')).toBeGreaterThanOrEqual(1);
    expect(kinds(events, 'usage')).toBe(7);
  });
  it('the progress session', () => {
    const { events } = parse(createCodexParser(), join(dir, files[1] as string));
    expect(shells(events).map((c) => c.output.trim())).toEqual(['1', '2', '3', '4', '5', '6']);
  });
  it('model-facing output text: the header with its per-run chunk id is not part of the output', () => {
    expect(
      codexOutput(
        'Chunk ID: 32a525\nWall time: 0.0000 seconds\nProcess exited with code 2\nOriginal token count: 18\nOutput:\nboom\n',
      ),
    ).toEqual({ output: 'boom\n', exitCode: 2 });
    expect(codexOutput('{"output":"x","metadata":{"exit_code":1}}')).toEqual({ output: 'x', exitCode: 1 });
    expect(codexOutput('plain')).toEqual({ output: 'plain' });
  });
});

describe('Gemini CLI 0.61.0', () => {
  it('run_shell_command calls, written twice by the CLI, are read once each; the per-run PGID is dropped', () => {
    const parser = createGeminiParser();
    const { events, unknown } = parse(
      parser,
      join(transcripts, 'gemini', 'tmp', 'proj', 'chats', 'session-2026-11-30T11-37-866f8e1f.jsonl'),
    );
    expect(unknown).toBe(0);
    expect(parser.info).toEqual({ id: '866f8e1f-4280-4505-8ef3-ce8f665538f9', cwd: '/home/dev/proj' });
    expect(shells(events).map((c) => [c.command, c.output, c.exitCode])).toEqual([
      ['echo hello-from-mock', 'hello-from-mock', 0],
      ['cat /nonexistent-file', 'cat: /nonexistent-file: No such file or directory', 1],
    ]);
    expect(kinds(events, 'user')).toBe(1);
    expect(kinds(events, 'usage')).toBe(3);
    expect(geminiShellResult('Output: a\nProcess Group PGID: 1\n').output).toBe(
      geminiShellResult('Output: a\nProcess Group PGID: 2\n').output,
    );
  });
});

describe('Copilot CLI 1.0.102', () => {
  it('bash calls with their exit codes; the per-run shell id trailer is dropped; a call that never ran a command is not a shell call', () => {
    const parser = createCopilotParser();
    const { events, unknown } = parse(
      parser,
      join(transcripts, 'copilot', 'session-state', '4c783a63-9dfb-45e7-9eb2-bb3b0e3448d6', 'events.jsonl'),
    );
    expect(unknown).toBe(0);
    expect(parser.info).toEqual({ id: '4c783a63-9dfb-45e7-9eb2-bb3b0e3448d6', cwd: '/home/dev/proj' });
    expect(shells(events).map((c) => [c.command, c.output, c.exitCode])).toEqual([
      ['echo hello-from-mock', 'hello-from-mock', 0],
      ['cat /nonexistent-file', 'cat: /nonexistent-file: No such file or directory', 1],
    ]);
    expect(kinds(events, 'user')).toBe(1);
    expect(kinds(events, 'usage')).toBe(4);
    expect(copilotShellResult('x\n<shellId: 7 completed with exit code 3>')).toEqual({ output: 'x', exitCode: 3 });
  });
});

describe('loops in Gemini CLI and Copilot CLI sessions (the real records, repeated)', () => {
  // The captured sessions have no loop; repeating their real failing-call records (new ids) makes one.
  it('Gemini: five identical `cat /nonexistent-file` results are one loop', async () => {
    const { SessionRun } = await import('../../src/audit/session.ts');
    const { guardSettings } = await import('../../src/audit/judge.ts');
    const lines: string[] = [];
    forEachLine(
      join(transcripts, 'gemini', 'tmp', 'proj', 'chats', 'session-2026-11-30T11-37-866f8e1f.jsonl'),
      (l) => void lines.push(l),
    );
    const failing = lines.find((l) => l.includes('"toolCalls"') && l.includes('cat /nonexistent-file')) as string;
    const parser = createGeminiParser();
    const run = new SessionRun('gemini', 'f', guardSettings({}));
    for (let i = 0; i < 5; i++)
      parser.push(
        obj(
          JSON.parse(failing.replaceAll('1796038655598_0', `r${i}`).replace(/"id":"[^"]+"/, `"id":"m${i}"`)),
        ) as never,
        (e) => run.feed(e),
      );
    const s = run.finish(parser.info);
    expect(s.loops.map((l) => [l.command, l.repeats, l.guard.warnAt, l.guard.refuseAt])).toEqual([
      ['cat /nonexistent-file', 5, 2, 5],
    ]);
  });

  it('Copilot: five identical `cat /nonexistent-file` results are one loop', async () => {
    const { SessionRun } = await import('../../src/audit/session.ts');
    const { guardSettings } = await import('../../src/audit/judge.ts');
    const lines: string[] = [];
    forEachLine(
      join(transcripts, 'copilot', 'session-state', '4c783a63-9dfb-45e7-9eb2-bb3b0e3448d6', 'events.jsonl'),
      (l) => void lines.push(l),
    );
    const start = lines.find((l) => l.includes('"tool.execution_start"') && l.includes('call_mock_2')) as string;
    const done = lines.find((l) => l.includes('"tool.execution_complete"') && l.includes('call_mock_2')) as string;
    const parser = createCopilotParser();
    const run = new SessionRun('copilot', 'f', guardSettings({}));
    for (let i = 0; i < 5; i++) {
      for (const l of [start, done])
        parser.push(
          obj(JSON.parse(l.replaceAll('call_mock_2', `call_${i}`).replace(/shellId: \d+/, `shellId: ${i}`))) as never,
          (e) => run.feed(e),
        );
    }
    const s = run.finish(parser.info);
    expect(s.loops.map((l) => [l.command, l.repeats, l.guard.warnAt, l.guard.refuseAt])).toEqual([
      ['cat /nonexistent-file', 5, 2, 5],
    ]);
  });
});

describe('Claude Code sub-agents', () => {
  it("a sub-agent's file is its own session, keyed session/agent as the guard keys it", () => {
    const parser = createClaudeParser();
    parser.push(
      {
        type: 'user',
        sessionId: 's1',
        agentId: 'a7',
        isSidechain: true,
        cwd: '/p',
        message: { role: 'user', content: 'look around' },
      },
      () => {},
    );
    expect(parser.info).toEqual({ id: 's1/a7', cwd: '/p' });
  });
});

describe('Claude Code sidechains in the main file (older versions)', () => {
  it("a sub-agent's calls are replayed apart from the main conversation, as the guard counts them", async () => {
    const { scanSource } = await import('../../src/audit/scan.ts');
    const { guardSettings } = await import('../../src/audit/judge.ts');
    const { mkdtempSync, writeFileSync, statSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const lines: string[] = [];
    const call = (i: number, side: boolean) => {
      const id = `t${i}`;
      lines.push(
        JSON.stringify({
          type: 'assistant',
          isSidechain: side,
          sessionId: 's',
          cwd: '/p',
          message: { id: `m${i}`, content: [{ type: 'tool_use', id, name: 'Bash', input: { command: 'npm test' } }] },
        }),
      );
      lines.push(
        JSON.stringify({
          type: 'user',
          isSidechain: side,
          sessionId: 's',
          cwd: '/p',
          message: {
            content: [{ type: 'tool_result', tool_use_id: id, is_error: true, content: 'Exit code 1\nFAIL' }],
          },
        }),
      );
    };
    // Two attempts in the main conversation and two in the sub-agent: neither reaches the warning on its own.
    for (let i = 0; i < 4; i++) call(i, i % 2 === 1);
    const dir = mkdtempSync(join(tmpdir(), 'lg-sidechain-'));
    const path = join(dir, 's.jsonl');
    writeFileSync(path, `${lines.join('\n')}\n`);
    const stats = { files: 0, bytes: 0, unknownLines: 0, oversizeLines: 0, unreadable: [] };
    const st = statSync(path);
    const sessions = scanSource(
      { tool: 'claude', path, kind: 'jsonl', size: st.size, mtimeMs: st.mtimeMs },
      {},
      guardSettings({}),
      stats,
    );
    expect(sessions.map((s) => [s.session, s.shellCalls, s.loops.length])).toEqual([
      ['s', 2, 0],
      ['s/sidechain', 2, 0],
    ]);
  });
});

describe('Qwen Code 0.24.4', () => {
  const dir = join(transcripts, 'qwen', '.qwen', 'projects');
  it('the looping session: run_shell_command calls with their exit code, the per-run header lines dropped, usage per request', () => {
    const parser = createQwenParser();
    const { events, unknown } = parse(
      parser,
      join(dir, '-home-dev-loop', 'chats', '4d076f3e-b300-4401-aa94-360649c7292b.jsonl'),
    );
    expect(unknown).toBe(0);
    expect(parser.info).toEqual({ id: '4d076f3e-b300-4401-aa94-360649c7292b', cwd: '/home/dev/loop' });
    const calls = shells(events);
    expect(calls.map((c) => [c.command, c.exitCode, c.output])).toEqual(Array(4).fill([LOOP_CMD, 2, LS_ERROR]));
    expect(kinds(events, 'user')).toBe(1);
    expect(kinds(events, 'usage')).toBe(5);
  });
  it('the progress session: exit 0 and a growing count', () => {
    const file = readdirSync(join(dir, '-home-dev-progress', 'chats'))[0] as string;
    const calls = shells(parse(createQwenParser(), join(dir, '-home-dev-progress', 'chats', file)).events);
    expect(calls.map((c) => [c.command, c.exitCode, c.output])).toEqual(
      [1, 2, 3, 4].map((n) => [PROGRESS_CMD, 0, String(n)]),
    );
  });
  it("the protocol capture: a success, and a failure whose text sits in the response's error field", () => {
    const calls = shells(
      parse(createQwenParser(), join(transcripts, 'samples', 'qwen-3ef05533-d889-4f49-965b-c5feab0eaf5c.jsonl')).events,
    );
    expect(calls.map((c) => [c.command, c.exitCode, c.output])).toEqual([
      ['echo hello-from-mock', 0, 'hello-from-mock'],
      ['cat /nonexistent-file', 1, 'cat: /nonexistent-file: No such file or directory'],
    ]);
    expect(
      qwenShellResult('Command: x\nDirectory: (root)\nOutput: boom\nError: spawn failed\nExit Code: 1\nSignal: (none)')
        .output,
    ).toContain('Error: spawn failed');
  });
});

describe('Cline 3.0.65', () => {
  const dir = join(transcripts, 'cline', '.cline', 'data', 'sessions');
  const session = (id: string) => {
    const parser = createClineParser();
    const events: AuditEvent[] = [];
    // The scanner reads the metadata file (cwd) first, then the conversation.
    for (const f of [`${id}.json`, `${id}.messages.json`])
      expect(parser.push(JSON.parse(readFileSync(join(dir, id, f), 'utf8')), (e) => events.push(e))).toBe(true);
    return { parser, events };
  };
  it('the looping session: one shell call per run_commands entry, the exit code read from the result text', () => {
    const { parser, events } = session('1796055184212_2csh9');
    expect(parser.info).toEqual({ id: '1796055184212_2csh9', cwd: '/home/dev/loop' });
    expect(shells(events).map((c) => [c.command, c.exitCode, c.output])).toEqual(
      Array(4).fill([LOOP_CMD, 2, `[stderr]\n${LS_ERROR}`]),
    );
    expect(kinds(events, 'user')).toBe(1);
    expect(kinds(events, 'usage')).toBe(5);
  });
  it('the progress session', () => {
    const { parser, events } = session('1796055201278_tgztk');
    expect(parser.info.cwd).toBe('/home/dev/progress');
    expect(shells(events).map((c) => [c.exitCode, c.output])).toEqual([1, 2, 3, 4].map((n) => [0, String(n)]));
  });
  it('the protocol capture: a call rejected for bad arguments ran no command and is no shell call', () => {
    const events: AuditEvent[] = [];
    createClineParser().push(
      JSON.parse(readFileSync(join(transcripts, 'samples', 'cline-1796038720996_mrqbt.messages.json'), 'utf8')),
      (e) => events.push(e),
    );
    expect(shells(events).map((c) => [c.command, c.exitCode])).toEqual([
      ['echo hello-from-mock', 0],
      ['cat /nonexistent-file', 1],
    ]);
    expect(clineShellResult({ query: 'x', result: 'out\n', success: false })).toEqual({ output: 'out' });
  });
  it('a session whose prompts were read from the cache: inputTokens holds the cache reads, counted once', () => {
    const events: AuditEvent[] = [];
    createClineParser().push(
      JSON.parse(readFileSync(join(transcripts, 'samples', 'cline-cached-1796281042212_vbles.messages.json'), 'utf8')),
      (e) => events.push(e),
    );
    // Each request as the scripted model reported it: 1234 prompt tokens, 1000 of them cached, 56 out.
    const usage = events.filter((e) => e.kind === 'usage');
    expect(usage.length).toBe(2);
    for (const u of usage)
      expect(u).toMatchObject({
        model: 'mock-model',
        tokens: { input: 234, cacheRead: 1000, cacheWrite: 0, output: 56 },
      });
  });
});
