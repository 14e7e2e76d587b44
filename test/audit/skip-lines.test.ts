// Lines the scanner handles without a JSON.parse change nothing: a read's result between identical failures leaves
// the loop whole (reads are not change), an edit's result still splits it (the guard counts an edit as change), and
// a Codex session's conversation lines skipped unparsed leave its loop as it was.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requireCli, runCli } from '../helpers/cli.ts';
import { claudeLoopFile, editLines, fixtureHome, homeEnv } from './fixtures.ts';

let home: string;
const cwd = mkdtempSync(join(tmpdir(), 'lg-audit-skip-'));
beforeAll(() => requireCli());
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** The real session with a tool call (name) and its result inserted after the 3rd failure's result (line 36). */
function withToolAfterThird(name: string, input: Record<string, unknown>): void {
  editLines(claudeLoopFile(home), (r, i) => {
    if (i !== 36) return [r];
    const call = JSON.parse(JSON.stringify(r));
    const at = String(r.timestamp);
    const assistant = {
      parentUuid: r.uuid,
      isSidechain: false,
      message: {
        id: 'msg_inserted',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'tool_use', id: 'toolu_inserted', name, input }],
        usage: { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 5 },
      },
      type: 'assistant',
      uuid: 'inserted-1',
      timestamp: at,
      cwd: call.cwd,
      sessionId: call.sessionId,
    };
    const result = {
      parentUuid: 'inserted-1',
      isSidechain: false,
      type: 'user',
      message: {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            content: `     1\t"tool_use_id":"x" ${'line of the file\n'.repeat(200)}`,
            tool_use_id: 'toolu_inserted',
          },
        ],
      },
      uuid: 'inserted-2',
      timestamp: at,
      cwd: call.cwd,
      sessionId: call.sessionId,
    };
    return [r, assistant, result];
  });
}

const claudeLoops = () => {
  const r = runCli(['audit', '--json', '--all', '--tool', 'claude'], { cwd, env: homeEnv(home) });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout).loops as Array<{ repeats: number; requests: number }>;
};

describe('lines handled without a parse (built CLI, real transcripts)', () => {
  it("a Read's result between identical failures: still one loop of 6, its request counted", () => {
    home = fixtureHome();
    withToolAfterThird('Read', { file_path: '/home/dev/loop/ran.txt' });
    const loops = claudeLoops();
    expect(loops.map((l) => l.repeats)).toEqual([6]);
    expect(loops[0]?.requests).toBe(6);
  });

  it("an Edit's result is change: the loop splits, as the guard would count it", () => {
    home = fixtureHome();
    withToolAfterThird('Edit', { file_path: '/home/dev/loop/x', old_string: 'a', new_string: 'b' });
    expect(claudeLoops().map((l) => l.repeats)).not.toEqual([6]);
  });

  it('Codex: the same loop, calls and usage as before the line filter', () => {
    home = fixtureHome();
    const r = runCli(['audit', '--json', '--all', '--tool', 'codex'], { cwd, env: homeEnv(home) });
    const rep = JSON.parse(r.stdout);
    expect(rep.loops).toHaveLength(1);
    expect(rep.loops[0]).toMatchObject({ repeats: 6, requests: 5, tokens: 75 });
    expect(rep.totals.shellCalls).toBe(12);
    expect(rep.read.unknownLines).toBe(0);
  });
});
