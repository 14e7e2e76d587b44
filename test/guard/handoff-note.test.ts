// The hand-off note: written inside the repository only, appended per hand-off, bounded; Codex's stop finds only
// the `codex exec` process that ran the hook; and the built hook answers a hand-off in each tool's shape.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  appendBounded,
  HANDOFF_MAX_BYTES,
  HANDOFF_MAX_ENTRIES,
  type HandoffRecord,
  renderSection,
  writeHandoff,
} from '../../src/guard/handoff-note.ts';
import { gitRootOf } from '../../src/guard/git-root.ts';
import { findCodexExec, isCodexExec, type ProcInfo } from '../../src/guard/stop-codex.ts';
import { freshStateDir, guardEnv, type Json, loadPayload, requireBuilt, runGuardSync } from '../helpers/guard.ts';

const tmp = (prefix: string) => realpathSync(mkdtempSync(join(tmpdir(), prefix)));

function repo(): string {
  const dir = tmp('lg-handoff-repo-');
  mkdirSync(join(dir, '.git'));
  return dir;
}

const record = (i = 1, extra: Partial<HandoffRecord> = {}): HandoffRecord => ({
  at: `2026-11-30T10:00:0${i % 10}.000Z`,
  tool: 'claude',
  session: `s${i}`,
  command: 'npm test',
  refused: [{ command: 'npm test', refusals: 3, results: 4, lastLines: 'AssertionError: expected 2 to be 3' }],
  tried: [{ command: 'git status', results: 1, lastLines: 'nothing to commit' }],
  ...extra,
});

describe('writeHandoff', () => {
  it('writes .agents/handoff.md and .json at the repository root, from a subdirectory', () => {
    const root = repo();
    mkdirSync(join(root, 'pkg', 'src'), { recursive: true });
    expect(writeHandoff(join(root, 'pkg', 'src'), record())).toBe(join(root, '.agents', 'handoff.md'));
    const md = readFileSync(join(root, '.agents', 'handoff.md'), 'utf8');
    expect(md).toContain('# Loop-guard hand-off');
    expect(md).toContain('`npm test`: refused 3 times after 4 identical results');
    expect(md).toContain('AssertionError: expected 2 to be 3');
    expect(md).toContain('### Also tried in this turn');
    expect(md).toContain('`git status`');
    const json = JSON.parse(readFileSync(join(root, '.agents', 'handoff.json'), 'utf8'));
    expect(json).toEqual({ version: 1, handoffs: [record()] });
  });

  it('appends per hand-off and stays bounded', () => {
    const root = repo();
    const big = 'x'.repeat(300);
    for (let i = 0; i < 60; i++)
      writeHandoff(
        root,
        record(i, { session: `s${i}`, refused: [{ command: `cmd ${i}`, refusals: 2, results: 4, lastLines: big }] }),
      );
    const md = readFileSync(join(root, '.agents', 'handoff.md'), 'utf8');
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(HANDOFF_MAX_BYTES);
    expect(md).toContain('session s59');
    expect(md).not.toContain('session s0)');
    expect(md.match(/^# Loop-guard hand-off/gm)?.length).toBe(1);
    const json = JSON.parse(readFileSync(join(root, '.agents', 'handoff.json'), 'utf8'));
    expect(json.handoffs.length).toBe(HANDOFF_MAX_ENTRIES);
    expect(json.handoffs.at(-1).session).toBe('s59');
  });

  it('writes nothing outside a repository', () => {
    const dir = tmp('lg-handoff-norepo-');
    expect(gitRootOf(dir)).toBe(gitRootOf(tmpdir()));
    if (gitRootOf(dir) === undefined) {
      expect(writeHandoff(dir, record())).toBeUndefined();
      expect(existsSync(join(dir, '.agents'))).toBe(false);
    }
  });

  it('never follows a symlinked .agents or note out of the repository', () => {
    const root = repo();
    const outside = tmp('lg-handoff-outside-');
    symlinkSync(outside, join(root, '.agents'));
    expect(writeHandoff(root, record())).toBeUndefined();
    expect(existsSync(join(outside, 'handoff.md'))).toBe(false);

    const root2 = repo();
    mkdirSync(join(root2, '.agents'));
    writeFileSync(join(outside, 'target.md'), 'keep me\n');
    symlinkSync(join(outside, 'target.md'), join(root2, '.agents', 'handoff.md'));
    writeHandoff(root2, record());
    expect(readFileSync(join(outside, 'target.md'), 'utf8')).toBe('keep me\n');
  });

  it('LOOP_GUARD_HANDOFF_DIR (absolute) redirects the note; a relative one is ignored', () => {
    const root = repo();
    const elsewhere = tmp('lg-handoff-dir-');
    writeHandoff(root, record(), { LOOP_GUARD_HANDOFF_DIR: elsewhere });
    expect(existsSync(join(elsewhere, '.agents', 'handoff.md'))).toBe(true);
    expect(existsSync(join(root, '.agents'))).toBe(false);
    writeHandoff(root, record(), { LOOP_GUARD_HANDOFF_DIR: 'rel' });
    expect(existsSync(join(root, '.agents', 'handoff.md'))).toBe(true);
  });

  it('a result with backticks cannot close its fence early', () => {
    const s = renderSection(
      record(1, { refused: [{ command: 'x', refusals: 2, results: 4, lastLines: '```\n## injected' }] }),
    );
    expect(s).toContain('````\n```\n## injected\n````');
    expect(appendBounded('', s)).toContain(s);
  });
});

describe('the Codex stop', () => {
  const table = (procs: Record<number, ProcInfo>) => (pid: number) => procs[pid];

  it('recognises codex exec, not the interactive TUI', () => {
    expect(isCodexExec(['/x/node_modules/@openai/codex-linux-x64/vendor/codex/codex', 'exec', '--json', 'hi'])).toBe(
      true,
    );
    expect(isCodexExec(['node', '/x/bin/codex.js', 'exec', 'hi'])).toBe(true);
    expect(isCodexExec(['/x/codex'])).toBe(false);
    expect(isCodexExec(['/x/codex', 'resume'])).toBe(false);
    expect(isCodexExec(['node', 'vitest', 'exec'])).toBe(false);
  });

  it('finds codex exec as the parent, or through the one shell between', () => {
    expect(findCodexExec(10, table({ 10: { ppid: 1, argv: ['/bin/codex', 'exec', 'x'] } }))).toBe(10);
    expect(
      findCodexExec(
        11,
        table({
          11: { ppid: 10, argv: ['/bin/sh', '-c', 'node hook'] },
          10: { ppid: 1, argv: ['/bin/codex', 'exec'] },
        }),
      ),
    ).toBe(10);
  });

  it('never reaches further up: a test runner or script under codex is left alone', () => {
    const procs = table({
      12: { ppid: 11, argv: ['node', 'vitest'] },
      11: { ppid: 10, argv: ['/bin/sh', '-c', 'npm test'] },
      10: { ppid: 1, argv: ['/bin/codex', 'exec'] },
    });
    expect(findCodexExec(12, procs)).toBeUndefined();
    expect(findCodexExec(99, procs)).toBeUndefined();
  });
});

describe("the built hook hands off in each tool's shape", () => {
  beforeAll(requireBuilt);
  const FAIL = 'FAIL src/sum.test.ts > adds\nAssertionError: expected 2 to be 3';

  function drive(tool: 'claude' | 'codex' | 'cursor', pre: (i: number) => Json, post: (i: number) => Json) {
    const root = repo();
    // Without the helper's redirect: this test is about the note landing in the repository.
    const { LOOP_GUARD_HANDOFF_DIR: _redirect, ...base } = guardEnv(freshStateDir());
    const env = { ...base, CLAUDE_PROJECT_DIR: root };
    const outs: string[] = [];
    for (let i = 0; i < 7; i++) {
      const p = runGuardSync(
        tool,
        { ...pre(i), cwd: root, workspace_roots: tool === 'cursor' ? [root] : undefined },
        env,
      );
      expect(p.status).toBe(0);
      const out = p.stdout.trim();
      if (out && out !== '{}') {
        outs.push(out);
        continue;
      }
      runGuardSync(tool, { ...post(i), cwd: root }, env);
    }
    return { outs, root };
  }

  it('claude: deny + continue:false + stopReason, and the note', () => {
    const { outs, root } = drive(
      'claude',
      (i) => ({
        ...loadPayload('claude/PreToolUse-failure.json'),
        tool_use_id: `t${i}`,
        tool_input: { command: 'npm test' },
      }),
      (i) => ({
        ...loadPayload('claude/PostToolUseFailure-failure.json'),
        tool_use_id: `t${i}`,
        tool_input: { command: 'npm test' },
        error: `Exit code 1\n${FAIL}`,
      }),
    );
    expect(outs.length).toBe(3);
    expect(JSON.parse(outs[1]!).continue).toBeUndefined();
    const last = JSON.parse(outs[2]!);
    expect(Object.keys(last).sort()).toEqual(['continue', 'hookSpecificOutput', 'stopReason']);
    expect(last.continue).toBe(false);
    expect(last.stopReason).toMatch(/^loop-guard stopped the agent: `npm test`/);
    expect(last.hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringMatching(/^loop-guard: .*turn stops here/),
    });
    expect(readFileSync(join(root, '.agents', 'handoff.md'), 'utf8')).toContain('expected 2 to be 3');
  });

  it('codex: exactly the deny shape (Codex drops an answer with continue:false), and the note', () => {
    const { outs, root } = drive(
      'codex',
      (i) => ({
        ...loadPayload('codex/PreToolUse-failure.json'),
        tool_use_id: `c${i}`,
        tool_input: { command: 'npm test' },
      }),
      (i) => ({
        ...loadPayload('codex/PostToolUse-failure.json'),
        tool_use_id: `c${i}`,
        tool_input: { command: 'npm test' },
        tool_response: FAIL,
      }),
    );
    const last = JSON.parse(outs[2]!);
    expect(Object.keys(last)).toEqual(['hookSpecificOutput']);
    expect(last.hookSpecificOutput.permissionDecisionReason).toMatch(/turn stops here/);
    expect(JSON.parse(readFileSync(join(root, '.agents', 'handoff.json'), 'utf8')).handoffs[0].tool).toBe('codex');
  });

  it('cursor: deny with the stop reason for the person and the hand-off for the model (documented fields only)', () => {
    const fixture = (n: string) =>
      JSON.parse(readFileSync(new URL(`../fixtures/cursor/${n}.json`, import.meta.url), 'utf8')) as Json;
    const { outs, root } = drive(
      'cursor',
      (i) => ({ ...fixture('preToolUse'), tool_use_id: `u${i}`, tool_input: { command: 'npm test' } }),
      (i) => ({
        ...fixture('postToolUse'),
        tool_use_id: `u${i}`,
        tool_input: { command: 'npm test' },
        tool_output: JSON.stringify({ exitCode: 1, stdout: FAIL }),
      }),
    );
    const last = JSON.parse(outs[2]!);
    expect(Object.keys(last).sort()).toEqual(['agent_message', 'permission', 'user_message']);
    expect(last.permission).toBe('deny');
    expect(last.user_message).toMatch(/^loop-guard stopped the agent/);
    expect(last.agent_message).toMatch(/turn stops here/);
    expect(existsSync(join(root, '.agents', 'handoff.md'))).toBe(true);
  });
});
