// Change is progress (issue 9, items 1–4): edits, sub-agents and a tree that moved reset the repeat count; the same
// failure across edits gets one note; polls get more identical results before a warning and a refusal.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLAUDE_CHANGE_TOOLS } from '../../src/guard/adapters/claude.ts';
import { CODEX_CHANGE_TOOLS } from '../../src/guard/adapters/codex.ts';
import { parseHook } from '../../src/guard/adapters/index.ts';
import { opencodePlugin } from '../../src/guard/adapters/opencode.ts';

const LoopGuard = opencodePlugin();
import { OPENCODE_CHANGE_TOOLS } from '../../src/guard/adapters/opencode-facts.ts';
import { THRASH_RUNS, writtenPaths } from '../../src/guard/core/progress.ts';
import { onChange, onPost, onPre, type SessionState } from '../../src/guard/core/detector.ts';
import { MAX_MESSAGE_CHARS } from '../../src/guard/core/messages.ts';
import { pollKind } from '../../src/guard/core/poll.ts';
import { readSettings } from '../../src/guard/core/settings.ts';
import type { Decision } from '../../src/guard/core/types.ts';
import { runHook } from '../../src/guard/main.ts';
import { treeFingerprint } from '../../src/guard/tree.ts';
import { TOOLS } from '../../src/tools/index.ts';
import { freshStateDir, guardEnv, requireBuilt, runGuardSync } from '../helpers/guard.ts';

const settings = readSettings({});
const FAIL = 'FAIL src/sum.test.ts > adds\nAssertionError: expected 2 to be 3\nTests  1 failed | 4 passed (5)';
const GREEN = 'Test Files  2 passed (2)\n     Tests  42 passed (42)';
const fixtures = join(__dirname, '..', 'fixtures');
const load = (rel: string) => JSON.parse(readFileSync(join(fixtures, rel), 'utf8')) as Record<string, unknown>;

type Step = { command: string; output: string; exitCode?: number } | { change: 'edit' | 'agent' } | { look: string };

/** Drives pre + post per shell step (a refused pre skips its post), change events, and tree states for the look. */
function drive(steps: Step[]) {
  let s: SessionState | undefined;
  let tree: string | undefined;
  const look = () => tree;
  const out: Array<{ i: number; kind: 'warn' | 'deny'; message: string }> = [];
  for (const [i, step] of steps.entries()) {
    if ('change' in step) {
      s = onChange(s, { by: step.change });
      continue;
    }
    if ('look' in step) {
      tree = step.look;
      continue;
    }
    const pre = onPre(s, { command: step.command }, settings, { look });
    if (pre.action === 'deny') {
      out.push({ i, kind: 'deny', message: pre.message });
      continue;
    }
    const r = onPost(s, { ...step, callId: `c${i}` }, settings, look);
    s = r.next;
    const d: Decision = r.decision;
    if (d.action === 'warn') out.push({ i, kind: 'warn', message: d.message });
  }
  return out;
}
const npmTest = (output = FAIL, exitCode = 1) => ({ command: 'npm test', output, exitCode });

describe('change resets the count, whoever made it', () => {
  it('a green rerun after each edit is never warned, ten times over', () => {
    expect(drive(Array.from({ length: 10 }, () => [{ change: 'edit' as const }, npmTest(GREEN, 0)]).flat())).toEqual(
      [],
    );
  });

  it('a sub-agent finishing between identical checks is change too, and earns no thrash note', () => {
    expect(drive(Array.from({ length: 8 }, () => [{ change: 'agent' as const }, npmTest()]).flat())).toEqual([]);
  });

  it('with nothing changed, an identical result is a repeat whatever its exit status (exit 0 too)', () => {
    const flags = drive(Array(6).fill(npmTest(GREEN, 0)));
    expect(flags.map((f) => `${f.i}:${f.kind}`)).toEqual(['2:warn', '3:warn', '4:deny', '5:deny']);
  });

  it('an edit after a refusal lets the command run again (the change may matter)', () => {
    const flags = drive([...Array(5).fill(npmTest()), { change: 'edit' }, npmTest()]);
    expect(flags.at(-1)).toMatchObject({ i: 4, kind: 'deny' });
  });

  it('a tree that moved (sed -i, a generator) counts once the result repeats, and lets a refused command run', () => {
    // The first look is at the 2nd identical result; from then on every repeat compares with the previous look.
    const shellEdits = [
      npmTest(),
      { look: 'A' },
      npmTest(),
      { look: 'B' },
      npmTest(),
      { look: 'C' },
      npmTest(),
      { look: 'D' },
      npmTest(),
      { look: 'E' },
      npmTest(),
    ];
    // Shell edits are edits: after five identical failures each after one, the one thrash note, nothing else.
    expect(drive(shellEdits as Step[]).map((f) => f.message)).toEqual([expect.stringContaining('did not move')]);
    const still = drive([{ look: 'A' }, ...Array(5).fill(npmTest()), { look: 'B' }, npmTest()] as Step[]);
    expect(still.map((f) => `${f.i}:${f.kind}`)).toEqual(['3:warn', '4:warn', '5:deny']);
  });

  it('a tree that cannot be looked at (undefined) never counts as change', () => {
    expect(drive(Array(5).fill(npmTest())).map((f) => f.kind)).toEqual(['warn', 'warn', 'deny']);
  });

  it('a change breaks a cycle', () => {
    const a = { command: 'npm run build', output: 'ok', exitCode: 0 };
    const b = { command: 'npm test', output: FAIL, exitCode: 1 };
    expect(drive([a, b, a, b, a, b, a, b]).length).toBeGreaterThan(0);
    expect(drive([a, b, { change: 'edit' }, a, b, { change: 'edit' }, a, b, { change: 'edit' }, a, b])).toEqual([]);
  });
});

describe('files the command writes itself', () => {
  it.each([
    ['echo ran >> ran.txt; ls /missing', ['ran.txt']],
    ['npm test 2>&1 | tee test.log', ['test.log']],
    ['npm test > ./out/result.txt 2> err.log', ['out/result.txt', 'err.log']],
    ['npm test 2>&1 >/dev/null', []],
    ['npm test', []],
  ])('%s → %j', (cmd, paths) => expect(writtenPaths(cmd).sort()).toEqual([...paths].sort()));
});

describe('thrash: the same failure across edits', () => {
  it(`gets exactly one factual note at the ${THRASH_RUNS}th run, and is never refused`, () => {
    const flags = drive(Array.from({ length: 12 }, () => [{ change: 'edit' as const }, npmTest()]).flat());
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ i: 2 * THRASH_RUNS - 1, kind: 'warn' });
    expect(flags[0]!.message).toMatch(/^loop-guard: .*identical failure.*did not move.*cause may be elsewhere/);
    expect(flags[0]!.message.length).toBeLessThan(MAX_MESSAGE_CHARS);
  });

  it('green runs after edits are not thrash; a failure that changes starts over', () => {
    expect(drive(Array.from({ length: 8 }, () => [{ change: 'edit' as const }, npmTest(GREEN, 0)]).flat())).toEqual([]);
    const moving = Array.from({ length: 8 }, (_, k) => [
      { change: 'edit' as const },
      npmTest(`${FAIL}\nexpected ${k}`),
    ]).flat();
    expect(drive(moving)).toEqual([]);
  });

  it('reads a failure from the text where the tool gives no exit code (Codex)', () => {
    const flags = drive(
      Array.from({ length: 6 }, () => [{ change: 'edit' as const }, { command: 'npm test', output: FAIL }]).flat(),
    );
    expect(flags.map((f) => f.kind)).toEqual(['warn']);
    expect(
      drive(
        Array.from({ length: 6 }, () => [{ change: 'edit' as const }, { command: 'npm test', output: GREEN }]).flat(),
      ),
    ).toEqual([]);
  });
});

describe('polling', () => {
  it.each([
    ['sleep 5 && curl localhost:3000/health', 'poll'],
    ['sleep 30; tail -3 build.log', 'poll'],
    ['until curl -sf localhost:3000; do sleep 2; done', 'poll'],
    ['curl -s http://127.0.0.1:8080/health', 'poll'],
    ['tail -n 20 /tmp/deploy.log', 'poll'],
    ['kubectl rollout status deploy/web', 'poll'],
    ['sleep 10', 'wait'],
    ['npm test', null],
    ['curl https://api.github.com/repos/x/y', null],
    ['tail -3 src/app.ts', null],
    // PowerShell
    ['Start-Sleep -Seconds 5; Invoke-WebRequest http://localhost:3000/health', 'poll'],
    ['Start-Sleep 10', 'wait'],
    ['iwr -UseBasicParsing http://127.0.0.1:8080/ready', 'poll'],
    ['Test-NetConnection localhost -Port 5432', 'poll'],
    ['Get-Content storage\\logs\\laravel.log -Tail 20', 'poll'],
    ['gc -Tail 5 .\\build.log', 'poll'],
    ['Get-Content src\\app.ts -Tail 20', null],
    ['Invoke-RestMethod https://api.github.com/repos/x/y', null],
    // a URL in a script's string is not a request of the shell's (a real Windows session's tinker call)
    ['php artisan tinker --execute="Http::post(\'http://127.0.0.1:8000/api/v1/portal\', []);"', null],
  ])('%s → %s', (cmd, kind) => expect(pollKind(cmd)).toBe(kind));

  const refused = {
    command: 'sleep 5 && curl localhost:3000/health',
    output: 'curl: (7) Failed to connect to localhost port 3000: Connection refused',
    exitCode: 7,
  };
  it('a poll is not flagged while it may still change: warned at the 5th identical result, refused at the 8th attempt', () => {
    const flags = drive(Array(9).fill(refused));
    expect(flags.map((f) => `${f.i + 1}:${f.kind}`)).toEqual(['5:warn', '6:warn', '7:warn', '8:deny', '9:deny']);
    // Not the "retrying cannot fix it" network advice: a poll waits for exactly that to change.
    expect(flags[0]!.message).not.toMatch(/retry/i);
    expect(flags[0]!.message).toContain("timeout 60 sh -c 'until <check>; do sleep 2; done'");
    expect(flags[3]!.message).toMatch(/^loop-guard: The poll .* was not run/);
    for (const f of flags) expect(f.message.length).toBeLessThan(MAX_MESSAGE_CHARS);
  });

  it('a poll whose result changes is never flagged; a bare sleep is never a repeat', () => {
    const up = { ...refused, output: 'ok', exitCode: 0 };
    expect(drive([refused, refused, refused, refused, up])).toEqual([]);
    expect(drive(Array(12).fill({ command: 'sleep 10', output: '', exitCode: 0 }))).toEqual([]);
  });

  it('sleep / git status pairs are a poll: flagged at the 5th identical round, not before', () => {
    const pair = [
      { command: 'sleep 10', output: '', exitCode: 0 },
      { command: 'git status --short', output: ' M src/a.ts', exitCode: 0 },
    ];
    expect(drive(Array(4).fill(pair).flat())).toEqual([]);
    expect(drive(Array(5).fill(pair).flat()).length).toBeGreaterThan(0);
  });
});

describe('change events from each tool (captured payloads)', () => {
  const env = {};
  it.each([
    ['claude', 'payloads/claude/captured/PostToolUse-Edit-edit.json', 'edit'],
    ['claude', 'payloads/claude/captured/PostToolUse-Write-write.json', 'edit'],
    ['claude', 'payloads/claude/captured/PostToolUse-Agent-agent.json', 'agent'],
    ['claude', 'payloads/claude/captured/SubagentStop-general-purpose-subagent.json', 'agent'],
    ['claude', 'payloads/claude/captured/background/11-UserPromptSubmit-none-n11.json', 'agent'],
    ['claude', 'payloads/claude/captured/background/12-UserPromptSubmit-none-n12.json', 'agent'],
    ['codex', 'payloads/codex/captured/PostToolUse-apply_patch-apply_patch.json', 'edit'],
    ['cursor', 'cursor/afterFileEdit.json', 'edit'],
  ])('%s %s → change (%s)', (tool, file, by) => {
    expect(parseHook(tool, load(file), env).event).toMatchObject({ kind: 'change', by });
  });

  it('reads and pre events of edit tools are not change', () => {
    expect(parseHook('claude', load('payloads/claude/captured/PostToolUse-Read-read.json'), env).event).toBeNull();
    expect(parseHook('claude', load('payloads/claude/captured/PreToolUse-Edit-edit.json'), env).event).toBeNull();
    expect(
      parseHook('codex', load('payloads/codex/captured/PreToolUse-apply_patch-apply_patch.json'), env).event,
    ).toBeNull();
  });

  it('the tool records subscribe to exactly the events and tool names the adapters read as change', () => {
    const events = (t: keyof typeof TOOLS) =>
      TOOLS[t].intents.flatMap((i) => (i.kind === 'json' ? i.hooks.events : []));
    const post = (t: keyof typeof TOOLS) =>
      events(t)
        .find((e) => e.event === 'PostToolUse')
        ?.matcher?.split('|') ?? [];
    // Claude Code's shell tool is Bash, or PowerShell on Windows.
    expect(post('claude')).toEqual(['Bash', 'PowerShell', ...CLAUDE_CHANGE_TOOLS]);
    expect(post('codex')).toEqual(['Bash', ...CODEX_CHANGE_TOOLS]);
    expect(events('cursor').map((e) => e.event)).toContain('afterFileEdit');
  });

  it('the OpenCode plugin counts its edit, write, apply_patch and task tools as change', async () => {
    const state = mkdtempSync(join(tmpdir(), 'lg-oc-'));
    process.env.LOOP_GUARD_STATE_DIR = state;
    try {
      const hooks = await LoopGuard({ directory: '/nonexistent-dir-lg' });
      const after = load('payloads/opencode/tool.execute.after-failure.json') as {
        input: Record<string, unknown>;
        output: Record<string, unknown>;
      };
      let warned = 0;
      for (const [k, tool] of ['edit', 'write', 'apply_patch', 'task', 'edit', 'write', 'edit'].entries()) {
        const edit = load(
          `payloads/opencode/captured/tool.execute.after-${tool === 'apply_patch' ? 'apply_patch-patch' : `${tool}-${tool}`}.json`,
        ) as typeof after;
        expect(OPENCODE_CHANGE_TOOLS.has(String(edit.input.tool))).toBe(true);
        await hooks['tool.execute.after'](
          { ...structuredClone(edit.input), sessionID: String(after.input.sessionID), callID: `e${k}` },
          structuredClone(edit.output) as never,
        );
        const out = structuredClone(after.output) as { output?: string };
        await hooks['tool.execute.after']({ ...structuredClone(after.input), callID: `x${k}` }, out as never);
        // The thrash note may come (six edits, the same failure); a repeat warning may not.
        if (String(out.output).includes('loop-guard:') && !String(out.output).includes('did not move')) warned++;
      }
      expect(warned).toBe(0);
      // Without the edits in between, the same failure is flagged (so the check above could fail).
      for (let i = 0; i < 3; i++) {
        const out = structuredClone(after.output) as { output?: string };
        await hooks['tool.execute.after']({ ...structuredClone(after.input), callID: `y${i}` }, out as never);
        if (String(out.output).includes('loop-guard:')) warned++;
      }
      expect(warned).toBeGreaterThan(0);
    } finally {
      delete process.env.LOOP_GUARD_STATE_DIR;
      rmSync(state, { recursive: true, force: true });
    }
  });
});

describe('the tree fingerprint (a real git repository)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lg-tree-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      stdio: 'ignore',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@t',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@t',
      },
    });

  it('is stable while nothing changes and moves with an in-place edit, a new file and a commit', () => {
    writeFileSync(join(dir, 'a.txt'), 'one\n');
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'a');
    const clean = treeFingerprint(dir);
    expect(clean).toMatch(/^[0-9a-f]{16}$/);
    expect(treeFingerprint(dir)).toBe(clean);
    writeFileSync(join(dir, 'a.txt'), 'two\n'); // sed -i
    const edited = treeFingerprint(dir);
    expect(edited).not.toBe(clean);
    writeFileSync(join(dir, 'a.txt'), 'three\n'); // a second edit of an already-modified file
    const again = treeFingerprint(dir);
    expect(again).not.toBe(edited);
    writeFileSync(join(dir, 'new file.txt'), 'x'); // a generator's output, with a space in its name
    expect(treeFingerprint(dir)).not.toBe(again);
  });

  it('falls back outside git to the top two levels, and is undefined for a missing directory', () => {
    const plain = mkdtempSync(join(tmpdir(), 'lg-plain-'));
    try {
      writeFileSync(join(plain, 'x'), '1');
      const a = treeFingerprint(plain);
      expect(a).toBeDefined();
      writeFileSync(join(plain, 'x'), '22');
      expect(treeFingerprint(plain)).not.toBe(a);
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
    expect(treeFingerprint(join(dir, 'missing'))).toBeUndefined();
    expect(treeFingerprint(undefined)).toBeUndefined();
  });

  it('end to end through the hook: a file changed by the shell between identical failures is not a loop', () => {
    const state = mkdtempSync(join(tmpdir(), 'lg-state-'));
    try {
      const env = { LOOP_GUARD_STATE_DIR: state, HOME: state, PATH: process.env.PATH };
      const base = load('payloads/claude/PostToolUseFailure-failure.json');
      const post = (i: number) =>
        JSON.stringify({
          ...base,
          cwd: dir,
          tool_use_id: `t${i}`,
          tool_input: { command: 'npm test' },
          error: `Exit code 1\n${FAIL}`,
        });
      const outs: string[] = [];
      for (let i = 0; i < 6; i++) {
        writeFileSync(join(dir, 'a.txt'), `edit ${i}\n`);
        outs.push(runHook(post(i), 'claude', env));
      }
      expect(outs.filter((o) => o.includes('loop-guard:') && !o.includes('did not move'))).toEqual([]);
      const still: string[] = [];
      for (let i = 6; i < 10; i++) still.push(runHook(post(i), 'claude', env));
      expect(still.some((o) => o.includes('same result'))).toBe(true);
      // A command that appends to a file of its own each run is still a repeat: its own writes are not change.
      const own = (i: number) =>
        JSON.stringify({
          ...base,
          cwd: dir,
          tool_use_id: `o${i}`,
          tool_input: { command: 'echo ran >> ran.txt; ls /missing' },
          error: 'Exit code 2\nls: cannot access',
        });
      const ownOuts: string[] = [];
      for (let i = 0; i < 4; i++) {
        writeFileSync(join(dir, 'ran.txt'), 'x'.repeat(i + 1));
        ownOuts.push(runHook(own(i), 'claude', env));
      }
      expect(ownOuts.some((o) => o.includes('loop-guard:'))).toBe(true);
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  });
});

describe("a sub-agent's end lifts a refusal (Claude Code's SubagentStop, captured; the built guard)", () => {
  const session = 'lg-subagent-session';
  const at = (rel: string, i: number) => ({
    ...load(`payloads/claude/${rel}`),
    session_id: session,
    cwd: '/nonexistent-dir-lg',
    tool_use_id: `toolu_lg_${i}`,
  });
  const stop = { ...load('payloads/claude/captured/SubagentStop-general-purpose-subagent.json'), session_id: session };

  it('refused after the 4th identical failure, then run again once a sub-agent has ended; refused again after', () => {
    requireBuilt();
    const env = guardEnv(freshStateDir());
    const attempt = (i: number) => {
      const pre = runGuardSync('claude', at('PreToolUse-failure.json', i), env).stdout;
      if (pre.includes('"deny"')) return 'denied';
      runGuardSync('claude', at('PostToolUseFailure-failure.json', i), env);
      return 'ran';
    };
    const first = [1, 2, 3, 4, 5].map(attempt);
    expect(first).toEqual(['ran', 'ran', 'ran', 'ran', 'denied']);
    expect(runGuardSync('claude', stop, env).stdout).toBe('');
    const after = [6, 7, 8, 9, 10].map(attempt);
    expect(after[0]).toBe('ran');
    expect(after).toContain('denied');
  });
});

describe("a background task's end lifts a refusal (Claude Code's task notification, captured; the built guard)", () => {
  const session = 'lg-background-task-session';
  const at = (rel: string, i: number) => ({
    ...load(`payloads/claude/${rel}`),
    session_id: session,
    cwd: '/nonexistent-dir-lg',
    tool_use_id: `toolu_lg_${i}`,
  });
  // The UserPromptSubmit that carried `sleep 4; echo background-done`'s end (a run_in_background command).
  const ended = {
    ...load('payloads/claude/captured/background/11-UserPromptSubmit-none-n11.json'),
    session_id: session,
  };

  it('the user prompt of the same run is a user turn; the notification is a change, not the user', () => {
    const user = load('payloads/claude/captured/background/0-UserPromptSubmit-none-n0.json');
    expect(parseHook('claude', user, {}).event).toMatchObject({ kind: 'userTurn' });
    expect(parseHook('claude', ended, {}).event).toEqual({ kind: 'change', by: 'agent' });
  });

  it("refused after the 4th identical failure, run again after the task ended; the turn's refusals still count", () => {
    requireBuilt();
    const env = guardEnv(freshStateDir());
    const attempt = (i: number) => {
      const pre = runGuardSync('claude', at('PreToolUse-failure.json', i), env).stdout;
      if (pre.includes('"continue":false')) return 'handoff';
      if (pre.includes('"deny"')) return 'denied';
      runGuardSync('claude', at('PostToolUseFailure-failure.json', i), env);
      return 'ran';
    };
    expect([1, 2, 3, 4, 5].map(attempt)).toEqual(['ran', 'ran', 'ran', 'ran', 'denied']);
    expect(runGuardSync('claude', ended, env).stdout).toBe('');
    // Counted again from the end: four runs, then the 5th stopped. A missing file allows one refusal per turn, so this
    // second one hands off: the ladder still counts the turn's refusals, which a user turn would have started over.
    expect([6, 7, 8, 9, 10].map(attempt)).toEqual(['ran', 'ran', 'ran', 'ran', 'handoff']);
  });
});
