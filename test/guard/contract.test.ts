// The BUILT dist/loop-guard.cjs (what is installed) fed the real payloads in test/fixtures/payloads (Cursor: the documented shapes).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  freshStateDir,
  guardEnv,
  guardFile,
  type Json,
  loadPayload,
  payloadsDir,
  requireBuilt,
  runGuardSync,
} from '../helpers/guard.ts';

const cursorFixture = (name: string): Json =>
  JSON.parse(readFileSync(new URL(`../fixtures/cursor/${name}.json`, import.meta.url), 'utf8')) as Json;

const TEST_FAIL =
  'FAIL src/sum.test.ts > adds\nAssertionError: expected 2 to be 3\nTests  1 failed | 4 passed (5)\nDuration  1.21s';

beforeAll(requireBuilt);

describe('the built file', () => {
  it('has our header, LF endings, and imports nothing but node: builtins', () => {
    const text = readFileSync(guardFile, 'utf8');
    expect(text.split('\n')[0]).toMatch(/^\/\/ create-loop-guard v\d+\.\d+\.\d+/);
    expect(text).not.toContain('\r');
    // Top-level import statements only: the code also contains strings that mention `from "…"`.
    const imports = [
      ...text.matchAll(
        /^import\s[^;]*?from\s*["']([^"']+)["'];?$|^import\s*["']([^"']+)["'];?$|\brequire\("([^"]+)"\)/gm,
      ),
    ].map((m) => m[1] ?? m[2] ?? m[3]);
    expect(imports.length).toBeGreaterThan(0);
    // loop-guard:loader is the file's own loader part (SHARED in loader.ts), which the body takes a few functions from.
    for (const spec of imports) expect(spec).toMatch(/^node:|^loop-guard:loader$/);
    // Written 0644 (docs/decisions.md): hooks run it with node, and pre-commit rejects an exec bit without a shebang.
    expect(statSync(guardFile).mode & 0o111).toBe(0);
  });
});

describe('every real payload, on a fresh session, is allowed silently', () => {
  const cases: Array<[string, string]> = [];
  for (const tool of ['claude', 'codex']) {
    for (const dir of [tool, `${tool}/v2.1.197`]) {
      let files: string[] = [];
      try {
        files = readdirSync(join(payloadsDir, dir)).filter((f) => f.endsWith('.json'));
      } catch {
        continue;
      }
      for (const f of files) cases.push([tool, `${dir}/${f}`]);
    }
  }
  it('found the payload fixtures', () => expect(cases.length).toBeGreaterThanOrEqual(16));
  it.each(cases)('%s %s → exit 0, empty stdout', (tool, rel) => {
    const r = runGuardSync(tool, loadPayload(rel), guardEnv(freshStateDir()));
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
  });
  it.each(['preToolUse', 'postToolUse', 'postToolUseFailure'])('cursor %s → exit 0, {}', (name) => {
    const r = runGuardSync('cursor', cursorFixture(name), guardEnv(freshStateDir()));
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({});
  });
  it('cursor beforeSubmitPrompt → lets the prompt through', () => {
    const r = runGuardSync('cursor', cursorFixture('beforeSubmitPrompt'), guardEnv(freshStateDir()));
    expect(JSON.parse(r.stdout)).toEqual({ continue: true });
  });
  it('tells the tool from the payload when the argument is missing', () => {
    const dir = freshStateDir();
    expect(runGuardSync(undefined, cursorFixture('preToolUse'), guardEnv(dir)).stdout.trim()).toBe('{}');
    expect(runGuardSync(undefined, loadPayload('codex/PreToolUse-success.json'), guardEnv(dir)).stdout).toBe('');
    expect(runGuardSync(undefined, loadPayload('claude/PreToolUse-success.json'), guardEnv(dir)).stdout).toBe('');
  });
});

/** One tool's way of running a command through the guard: a pre event, then (if allowed) a post event. */
interface Driver {
  tool: 'claude' | 'codex' | 'cursor';
  pre(i: number, command: string): Json;
  post(i: number, command: string, output: string, exitCode: number): Json;
  userTurn(i: number): Json;
  /** the JSON (parsed) or '' an allowed pre / a silent post prints */
  silent: unknown;
  denied(stdout: string): string | null;
  warned(stdout: string): string | null;
}

const claude: Driver = {
  tool: 'claude',
  pre: (i, command) => ({
    ...loadPayload('claude/PreToolUse-failure.json'),
    tool_use_id: `toolu_${i}`,
    tool_input: { command, description: 'step' },
  }),
  post: (i, command, output, exitCode) =>
    exitCode === 0
      ? {
          ...loadPayload('claude/PostToolUse-success.json'),
          tool_use_id: `toolu_${i}`,
          tool_input: { command, description: 'step' },
          tool_response: { stdout: output, stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
        }
      : {
          ...loadPayload('claude/PostToolUseFailure-failure.json'),
          tool_use_id: `toolu_${i}`,
          tool_input: { command, description: 'step' },
          error: `Exit code ${exitCode}\n${output}`,
        },
  userTurn: () => loadPayload('claude/UserPromptSubmit-prompt.json'),
  silent: '',
  denied: (out) => {
    if (!out) return null;
    const h = (JSON.parse(out) as { hookSpecificOutput: Json }).hookSpecificOutput;
    expect(h).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: expect.any(String),
    });
    return h.permissionDecisionReason as string;
  },
  warned: (out) => {
    if (!out) return null;
    const h = (JSON.parse(out) as { hookSpecificOutput: Json }).hookSpecificOutput;
    expect(Object.keys(h).sort()).toEqual(['additionalContext', 'hookEventName']);
    expect(['PostToolUse', 'PostToolUseFailure']).toContain(h.hookEventName);
    return h.additionalContext as string;
  },
};

const codex: Driver = {
  tool: 'codex',
  pre: (i, command) => ({
    ...loadPayload('codex/PreToolUse-failure.json'),
    tool_use_id: `call_${i}`,
    tool_input: { command },
  }),
  post: (i, command, output) => ({
    ...loadPayload('codex/PostToolUse-failure.json'),
    tool_use_id: `call_${i}`,
    tool_input: { command },
    tool_response: output,
  }),
  userTurn: () => ({ ...loadPayload('codex/UserPromptSubmit-prompt.json'), turn_id: 'turn-2' }),
  silent: '',
  denied: (out) => {
    if (!out) return null;
    const parsed = JSON.parse(out) as Json;
    // Codex rejects unknown fields: the answer must be exactly this shape.
    expect(Object.keys(parsed)).toEqual(['hookSpecificOutput']);
    const h = parsed.hookSpecificOutput as Json;
    expect(Object.keys(h).sort()).toEqual(['hookEventName', 'permissionDecision', 'permissionDecisionReason']);
    expect(h.permissionDecision).toBe('deny');
    expect((h.permissionDecisionReason as string).length).toBeGreaterThan(0);
    return h.permissionDecisionReason as string;
  },
  warned: (out) => {
    if (!out) return null;
    const parsed = JSON.parse(out) as Json;
    expect(Object.keys(parsed)).toEqual(['hookSpecificOutput']);
    const h = parsed.hookSpecificOutput as Json;
    expect(Object.keys(h).sort()).toEqual(['additionalContext', 'hookEventName']);
    expect(h.hookEventName).toBe('PostToolUse');
    return h.additionalContext as string;
  },
};

const cursor: Driver = {
  tool: 'cursor',
  pre: (i, command) => ({
    ...cursorFixture('preToolUse'),
    tool_use_id: `cu_${i}`,
    tool_input: { command, working_directory: '/repo' },
  }),
  post: (i, command, output, exitCode) => ({
    ...cursorFixture('postToolUse'),
    tool_use_id: `cu_${i}`,
    tool_input: { command },
    tool_output: JSON.stringify({ exitCode, stdout: output }),
  }),
  userTurn: () => cursorFixture('beforeSubmitPrompt'),
  silent: {},
  denied: (out) => {
    const parsed = JSON.parse(out) as Json;
    if (parsed.permission === undefined) return null;
    expect(Object.keys(parsed).sort()).toEqual(['agent_message', 'permission', 'user_message']);
    expect(parsed.permission).toBe('deny');
    return parsed.agent_message as string;
  },
  warned: (out) => {
    const parsed = JSON.parse(out) as Json;
    if (parsed.additional_context === undefined) return null;
    expect(Object.keys(parsed)).toEqual(['additional_context']);
    return parsed.additional_context as string;
  },
};

/** Run attempts through the built file; return per attempt: the deny reason, or the warning (or null). */
function attempts(
  d: Driver,
  env: Record<string, string>,
  steps: Array<{ command: string; output: string; exitCode?: number }>,
  start = 0,
) {
  return steps.map((step, k) => {
    const i = start + k;
    const pre = runGuardSync(d.tool, d.pre(i, step.command), env);
    expect(pre.status).toBe(0);
    const denied = d.denied(pre.stdout.trim());
    if (denied) return { denied, warned: null };
    const post = runGuardSync(d.tool, d.post(i, step.command, step.output, step.exitCode ?? 1), env);
    expect(post.status).toBe(0);
    return { denied: null, warned: d.warned(post.stdout.trim()) };
  });
}

describe.each([claude, codex, cursor])('scenario: $tool', (d) => {
  const loop = { command: 'npm test', output: TEST_FAIL, exitCode: 1 };

  it('5 identical failing attempts: the 3rd result warns, the 5th attempt is denied', () => {
    const env = guardEnv(freshStateDir());
    const r = attempts(d, env, Array(5).fill(loop));
    expect(r.map((x) => (x.denied ? 'deny' : x.warned ? 'warn' : 'ok'))).toEqual(['ok', 'ok', 'warn', 'warn', 'deny']);
    expect(r[2]?.warned).toMatch(/^loop-guard: `npm test` returned the same result 3 times in a row/);
    expect(r[4]?.denied).toMatch(/^loop-guard: /);
    expect(r[4]?.denied).toContain('its last 4 runs returned the identical result');
    for (const x of r) expect((x.denied ?? x.warned ?? '').length).toBeLessThan(600);
  });

  it('changing output never warns', () => {
    const env = guardEnv(freshStateDir());
    const r = attempts(
      d,
      env,
      [7, 6, 5, 4, 3, 2].map((n) => ({ command: 'npm test', output: `Tests  ${n} failed | 1 passed`, exitCode: 1 })),
    );
    expect(r.every((x) => !x.denied && !x.warned)).toBe(true);
  });

  it('a new user turn lets the command run again', () => {
    const env = guardEnv(freshStateDir());
    const r = attempts(d, env, Array(5).fill(loop));
    expect(r[4]?.denied).toBeTruthy();
    const turn = runGuardSync(d.tool, d.userTurn(99), env);
    expect(turn.status).toBe(0);
    if (d.tool === 'cursor') expect(JSON.parse(turn.stdout)).toEqual({ continue: true });
    else expect(turn.stdout).toBe('');
    const again = attempts(d, env, [loop], 100);
    expect(again[0]?.denied).toBeNull();
    expect(again[0]?.warned).toBeNull();
  });

  it('an A,B cycle is warned and then refused', () => {
    const env = guardEnv(freshStateDir());
    const a = { command: 'node build.js', output: 'Error: step A broke', exitCode: 1 };
    const b = { command: 'node fix.js', output: 'patched nothing', exitCode: 0 };
    const r = attempts(d, env, [a, b, a, b, a, b, a, b, a, b]);
    expect(r.findIndex((x) => x.warned)).toBeGreaterThanOrEqual(0);
    expect(r.findIndex((x) => x.warned)).toBeLessThanOrEqual(5);
    expect(r[8]?.denied).toMatch(/^loop-guard: /);
  });

  it('refuses a command that waits for a person before it runs', () => {
    const env = guardEnv(freshStateDir());
    // An editor of the line's own: Claude Code runs commands with GIT_EDITOR=true, so a bare `git commit` runs there.
    const pre = runGuardSync(d.tool, d.pre(1, 'GIT_EDITOR=vim git commit'), env);
    expect(d.denied(pre.stdout.trim())).toMatch(/^loop-guard: .*-m/s);
  });

  it('LOOP_GUARD=off allows everything silently', () => {
    const env = guardEnv(freshStateDir(), { LOOP_GUARD: 'off' });
    const r = attempts(d, env, Array(6).fill(loop));
    expect(r.every((x) => !x.denied && !x.warned)).toBe(true);
  });
});

describe('tool-specific contract', () => {
  it('claude: a failure warning echoes PostToolUseFailure, a success warning PostToolUse', () => {
    const env = guardEnv(freshStateDir());
    const fail = attempts(claude, env, Array(3).fill({ command: 'npm test', output: TEST_FAIL, exitCode: 1 }));
    expect(fail[2]?.warned).toBeTruthy();
    const ok = attempts(
      claude,
      env,
      Array(3).fill({ command: 'git status', output: 'nothing to commit', exitCode: 0 }),
      10,
    );
    expect(ok[2]?.warned).toBeTruthy();
    const raw = runGuardSync('claude', claude.post(50, 'git status', 'nothing to commit', 0), env).stdout;
    expect(JSON.parse(raw).hookSpecificOutput.hookEventName).toBe('PostToolUse');
  });

  it('claude: the real failing payload (missing directory) warns on the 2nd identical result', () => {
    const env = guardEnv(freshStateDir());
    const pre = loadPayload('claude/PreToolUse-failure.json');
    const post = loadPayload('claude/PostToolUseFailure-failure.json');
    const outs: string[] = [];
    for (let i = 0; i < 2; i++) {
      expect(runGuardSync('claude', { ...pre, tool_use_id: `t${i}` }, env).stdout).toBe('');
      outs.push(runGuardSync('claude', { ...post, tool_use_id: `t${i}` }, env).stdout);
    }
    expect(outs[0]).toBe('');
    const h = JSON.parse(outs[1] as string).hookSpecificOutput;
    expect(h.hookEventName).toBe('PostToolUseFailure');
    expect(h.additionalContext).toMatch(/^loop-guard: `ls \/nonexistent-dir` returned the same result 2 times/);
  });

  it('claude: background commands are not counted', () => {
    const env = guardEnv(freshStateDir());
    const base = loadPayload('claude/PostToolUse-success.json');
    for (let i = 0; i < 6; i++) {
      const out = runGuardSync(
        'claude',
        {
          ...base,
          tool_use_id: `b${i}`,
          tool_input: { command: 'npm run dev', run_in_background: true },
          tool_response: { stdout: '', stderr: '', interrupted: false, isImage: false, backgroundTaskId: 'bash_1' },
        },
        env,
      );
      expect(out.stdout).toBe('');
    }
    const pre = runGuardSync(
      'claude',
      {
        ...loadPayload('claude/PreToolUse-success.json'),
        tool_input: { command: 'npm run dev', run_in_background: true },
      },
      env,
    );
    expect(pre.stdout).toBe('');
  });

  it('codex: a new turn_id starts over without a UserPromptSubmit', () => {
    const env = guardEnv(freshStateDir());
    const r = attempts(codex, env, Array(5).fill({ command: 'npm test', output: TEST_FAIL }));
    expect(r[4]?.denied).toBeTruthy();
    const pre = runGuardSync('codex', { ...codex.pre(20, 'npm test'), turn_id: 'another-turn' }, env);
    expect(pre.stdout).toBe('');
  });

  it('codex: the deny reason does not end in a full stop (Codex appends ". Command: …")', () => {
    const env = guardEnv(freshStateDir());
    const r = attempts(codex, env, Array(5).fill({ command: 'npm test', output: TEST_FAIL }));
    expect(r[4]?.denied?.endsWith('.')).toBe(false);
  });

  it('codex: long-running commands are not refused (exec sessions hand control back)', () => {
    const env = guardEnv(freshStateDir());
    expect(runGuardSync('codex', codex.pre(1, 'tail -f server.log'), env).stdout).toBe('');
    expect(claude.denied(runGuardSync('claude', claude.pre(1, 'tail -f server.log'), env).stdout)).toMatch(
      /^loop-guard: /,
    );
  });

  it('codex: a tool_response object (allowed by the protocol, unseen in captures) counts by all of its fields', () => {
    const env = guardEnv(freshStateDir());
    const base = loadPayload('codex/PostToolUse-failure.json');
    const post = (i: number, response: unknown) =>
      runGuardSync('codex', { ...base, tool_use_id: `o${i}`, tool_response: response }, env).stdout.trim();
    const same = { text: 'FAIL', n: 1 };
    expect([post(0, same), post(1, same), post(2, same)].map((o) => codex.warned(o) !== null)).toEqual([
      false,
      false,
      true,
    ]);
    const env2 = guardEnv(freshStateDir());
    const outs = [1, 2, 3].map((n, i) =>
      runGuardSync('codex', { ...base, tool_use_id: `d${i}`, tool_response: { text: 'FAIL', n } }, env2).stdout.trim(),
    );
    expect(outs.every((o) => codex.warned(o) === null)).toBe(true);
  });

  it('cursor: a field beside exitCode/stdout in tool_output is part of the result', () => {
    const env = guardEnv(freshStateDir());
    const outs = [1, 2, 3].map((n) =>
      runGuardSync(
        'cursor',
        {
          ...cursorFixture('postToolUse'),
          tool_use_id: `x${n}`,
          tool_output: JSON.stringify({ exitCode: 1, stdout: 'FAIL', extra: `run ${n}` }),
        },
        env,
      ).stdout.trim(),
    );
    expect(outs.every((o) => cursor.warned(o) === null)).toBe(true);
  });

  it('cursor: postToolUseFailure counts and warns on the 3rd and 4th, as postToolUse does', () => {
    const env = guardEnv(freshStateDir());
    const fail = cursorFixture('postToolUseFailure');
    for (let i = 0; i < 4; i++) {
      const out = JSON.parse(runGuardSync('cursor', { ...fail, tool_use_id: `f${i}` }, env).stdout);
      if (i < 2) expect(out).toEqual({});
      else expect(out.additional_context).toMatch(/^loop-guard: /);
    }
    const pre = runGuardSync('cursor', { ...cursorFixture('preToolUse'), tool_use_id: 'f9' }, env);
    expect(cursor.denied(pre.stdout)).toMatch(/^loop-guard: /);
  });

  it('cursor: a new generation_id starts over', () => {
    const env = guardEnv(freshStateDir());
    attempts(cursor, env, Array(4).fill({ command: 'npm test', output: TEST_FAIL, exitCode: 1 }));
    const pre = runGuardSync('cursor', { ...cursor.pre(30, 'npm test'), generation_id: 'g-new' }, env);
    expect(JSON.parse(pre.stdout)).toEqual({});
  });

  it('cursor running the .claude/settings.json hook too: one call is counted once', () => {
    const env = guardEnv(freshStateDir());
    const viaClaudeEntry = guardEnv(env.LOOP_GUARD_STATE_DIR as string, {
      CURSOR_VERSION: '2.x',
      CURSOR_PROJECT_DIR: '/repo',
    });
    const outs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const post = cursor.post(i, 'npm test', TEST_FAIL, 1);
      outs.push(runGuardSync('cursor', post, env).stdout.trim());
      runGuardSync('claude', post, viaClaudeEntry);
    }
    // Counted once per call, the 3rd identical result (not the 2nd) is the first warning.
    expect(cursor.warned(outs[1] as string)).toBeNull();
    expect(cursor.warned(outs[2] as string)).toMatch(/3 times/);
  });
});

describe('never in the way', () => {
  it('malformed input: exit 0, nothing printed (claude/codex) or {} (cursor)', () => {
    const env = guardEnv(freshStateDir());
    for (const input of ['', 'not json', '[]', 'null', '{"hook_event_name":"PreToolUse"}', '{"tool_input":5}']) {
      expect(runGuardSync('claude', input, env)).toMatchObject({ status: 0, stdout: '' });
      expect(runGuardSync('codex', input, env)).toMatchObject({ status: 0, stdout: '' });
      const c = runGuardSync('cursor', input, env);
      expect(c.status).toBe(0);
      expect(JSON.parse(c.stdout)).toEqual({});
    }
  });

  it('a 20 MB output is counted like any other (head and tail fingerprinted)', () => {
    const env = guardEnv(freshStateDir());
    const huge = `${'x'.repeat(20 * 1024 * 1024)}\nFAIL at the end`;
    const outs = [0, 1, 2].map((i) => runGuardSync('claude', claude.post(i, 'npm run big', huge, 1), env));
    for (const o of outs) expect(o.status).toBe(0);
    expect(claude.warned(outs[2]?.stdout.trim() ?? '')).toMatch(/3 times/);
  });

  it('stdin over the 32 MB cap is allowed without being read whole', () => {
    const env = guardEnv(freshStateDir());
    const over = JSON.stringify({ ...claude.post(1, 'x', 'y'.repeat(33 * 1024 * 1024), 1) });
    expect(runGuardSync('claude', over, env)).toMatchObject({ status: 0, stdout: '' });
    expect(JSON.parse(runGuardSync('cursor', over, env).stdout)).toEqual({});
  });

  it('an unwritable state directory allows and carries on', () => {
    const env = guardEnv('/proc/loop-guard-cannot-write-here');
    const r = attempts(claude, env, Array(6).fill({ command: 'npm test', output: TEST_FAIL, exitCode: 1 }));
    expect(r.every((x) => !x.denied)).toBe(true);
  });
});
