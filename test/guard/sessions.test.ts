// Loops that outlive a session (issue 31): a restart loop's sessions share one count (same repository, same prompt,
// recent; or one LOOP_GUARD_RUN_ID), a change in the tree or a different prompt starts it over, continuations keep
// it, and a session start shows the last hand-off note. Payloads: the captured Claude Code and Codex shapes
// (test/fixtures/payloads), with session ids, prompts and cwd replaced.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { joinKind, joinLoop, LOOP_WINDOW_MS, promptHash } from '../../src/guard/core/loop.ts';
import { emptyState, onPost } from '../../src/guard/core/detector.ts';
import { readSettings } from '../../src/guard/core/settings.ts';
import { agentProcess } from '../../src/guard/agent-process.ts';
import { runHook } from '../../src/guard/main.ts';
import { requireBuilt, runGuardAsync } from '../helpers/guard.ts';
import { type Json, loadPayload } from '../helpers/paths.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tmp(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/** A git repository with one commit, as a restart loop works in. */
function repo(): string {
  const dir = tmp('lg-loop-repo-');
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, GIT_CONFIG_NOSYSTEM: '1' },
    });
  git('init', '-q');
  writeFileSync(join(dir, 'app.js'), 'const v = 0;\n');
  // What the installer writes: the hand-off note stays out of git, so writing it is no change in the tree.
  mkdirSync(join(dir, '.agents'));
  writeFileSync(join(dir, '.agents', '.gitignore'), '/handoff.md\n/handoff.json\n');
  git('add', '.');
  git('-c', 'user.email=t@e', '-c', 'user.name=t', 'commit', '-qm', 'first');
  return dir;
}

const FAILING = 'npm test';
const FAILURE = 'Exit code 1\nError: DATABASE_URL is not set\n    at connect (src/db.js:3:9)';
const PROMPT = 'Make the test suite pass. Read PROMPT.md for the plan.';

class Claude {
  /** The agent process the hooks come from: each headless run is a new one. */
  process = 'p0';
  constructor(
    readonly cwd: string,
    readonly env: Record<string, string>,
  ) {}
  private hook(stdin: string, tool = 'claude'): string {
    // 'unknown': where /proc cannot say (not Linux).
    return runHook(stdin, tool, this.env, () => (this.process === 'unknown' ? undefined : this.process));
  }
  private ev(name: string, session: string, extra: Json): string {
    const base = loadPayload(`claude/${name}`) as Json;
    return JSON.stringify({ ...base, session_id: session, cwd: this.cwd, ...extra });
  }
  start(session: string, source = 'startup'): string {
    return this.hook(this.ev('SessionStart-startup.json', session, { source }));
  }
  prompt(session: string, prompt = PROMPT): string {
    return this.hook(this.ev('UserPromptSubmit-prompt.json', session, { prompt }));
  }
  pre(session: string, id: string, command = FAILING): string {
    const base = loadPayload('claude/PreToolUse-failure.json') as Json & { tool_input: Json };
    return this.hook(
      JSON.stringify({ ...base, session_id: session, cwd: this.cwd, tool_use_id: id, tool_input: { command } }),
    );
  }
  post(session: string, id: string, command = FAILING, error = FAILURE): string {
    const base = loadPayload('claude/PostToolUseFailure-failure.json') as Json & { tool_input: Json };
    return this.hook(
      JSON.stringify({ ...base, session_id: session, cwd: this.cwd, tool_use_id: id, tool_input: { command }, error }),
    );
  }
  /** One headless run of a restart loop: the prompt, then the command asked `asks` times; what each answer said. */
  run(
    session: string,
    asks = 1,
    prompt = PROMPT,
    process = `proc-${session}`,
  ): Array<'ran' | 'warned' | 'refused' | 'handoff'> {
    this.process = process;
    this.prompt(session, prompt);
    const out: Array<'ran' | 'warned' | 'refused' | 'handoff'> = [];
    for (let i = 0; i < asks; i++) {
      // The same call ids in every session, as a scripted model sends them: a new session must not drop them.
      const pre = this.pre(session, `toolu_${i}`);
      if (pre.includes('"continue":false')) {
        out.push('handoff');
        break;
      }
      if (pre.includes('"deny"')) {
        out.push('refused');
        continue;
      }
      out.push(this.post(session, `toolu_${i}`).includes('loop-guard:') ? 'warned' : 'ran');
    }
    return out;
  }
}

function claude(cwd = repo(), extra: Record<string, string> = {}): Claude {
  const state = tmp('lg-loop-state-');
  return new Claude(cwd, { PATH: process.env.PATH ?? '/usr/bin:/bin', LOOP_GUARD_STATE_DIR: state, ...extra });
}

describe('a restart loop: the same prompt in fresh sessions, one failing command each, nothing changed', () => {
  it('counts across sessions: warned on the 3rd result, refused from the 5th run, handed off on the 7th', () => {
    const c = claude();
    const runs = Array.from({ length: 7 }, (_, i) => c.run(`s${i + 1}`));
    expect(runs).toEqual([['ran'], ['ran'], ['warned'], ['warned'], ['refused'], ['refused'], ['handoff']]);
    const note = readFileSync(join(c.cwd, '.agents', 'handoff.md'), 'utf8');
    expect(note).toContain('DATABASE_URL is not set');
  });

  it('before (a person or a script that changes the prompt each run): never counted across sessions', () => {
    const c = claude();
    const runs = Array.from({ length: 7 }, (_, i) => c.run(`s${i + 1}`, 1, `${PROMPT} (attempt ${i + 1})`));
    expect(runs.flat()).toEqual(Array(7).fill('ran'));
  });

  it('a model that asks three times per run: refused twice in run 2, every later run is stopped at its first ask', () => {
    const c = claude();
    const runs = Array.from({ length: 7 }, (_, i) => c.run(`s${i + 1}`, 3));
    expect(runs[0]).toEqual(['ran', 'ran', 'warned']);
    expect(runs[1]).toEqual(['warned', 'refused', 'refused']);
    for (const r of runs.slice(2)) expect(r).toEqual(['handoff']);
    const ran = runs.flat().filter((x) => x === 'ran' || x === 'warned').length;
    expect(ran).toBe(4);
  });

  it('an edit between runs (a commit, or a changed file) starts the count over: never refused', () => {
    const c = claude();
    const runs: string[][] = [];
    for (let i = 0; i < 7; i++) {
      writeFileSync(join(c.cwd, 'app.js'), `const v = ${i + 1};\n`);
      runs.push(c.run(`s${i + 1}`));
    }
    expect(runs.flat().filter((x) => x === 'refused' || x === 'handoff')).toEqual([]);
  });

  it('a recent loop only: a loop older than the window starts over', () => {
    const c = claude();
    for (let i = 0; i < 4; i++) c.run(`s${i + 1}`);
    // Age the loop's file: its stamp is inside the JSON.
    const state = c.env.LOOP_GUARD_STATE_DIR as string;
    for (const f of readdirSync(state).filter((n) => n.startsWith('loop-'))) {
      const p = join(state, f);
      const s = JSON.parse(readFileSync(p, 'utf8'));
      s.at -= LOOP_WINDOW_MS + 1000;
      writeFileSync(p, JSON.stringify(s));
    }
    expect(c.run('s5')).toEqual(['ran']);
  });

  it('keeps only hashes: no word of the prompt in the state dir', () => {
    const c = claude();
    c.run('s1');
    c.run('s2');
    const state = c.env.LOOP_GUARD_STATE_DIR as string;
    const all = readdirSync(state)
      .filter((n) => n.endsWith('.json'))
      .map((n) => readFileSync(join(state, n), 'utf8'))
      .join('\n');
    expect(all).not.toMatch(/PROMPT|suite|Make the/);
  });
});

describe('what keeps the count and what starts it over in one session', () => {
  it('a resumed session with the same prompt keeps its count (claude -p --resume, codex exec resume)', () => {
    const c = claude();
    expect(c.run('s1', 4, PROMPT, 'first-process')).toEqual(['ran', 'ran', 'warned', 'warned']);
    expect(c.run('s1', 1, PROMPT, 'resumed-process')).toEqual(['refused']);
  });

  it('the same prompt typed again in the live session (a person: "try again") starts it over', () => {
    const c = claude();
    expect(c.run('s1', 4, 'try again', 'live')).toEqual(['ran', 'ran', 'warned', 'warned']);
    expect(c.run('s1', 1, 'try again', 'live')).toEqual(['ran']);
  });

  it('where the agent process is unknown (not Linux), the same prompt in one session starts over', () => {
    const c = claude();
    expect(c.run('s1', 4, PROMPT, 'unknown')).toEqual(['ran', 'ran', 'warned', 'warned']);
    expect(c.run('s1', 1, PROMPT, 'unknown')).toEqual(['ran']);
  });

  it('a different prompt in the same session (a person writing) starts it over', () => {
    const c = claude();
    expect(c.run('s1', 4)).toEqual(['ran', 'ran', 'warned', 'warned']);
    expect(c.run('s1', 1, 'the database is up now, try again')).toEqual(['ran']);
  });

  it('a Stop-hook or /goal continuation sends no prompt: the count goes on within the session', () => {
    const c = claude();
    c.prompt('s1');
    for (let i = 0; i < 4; i++) c.pre('s1', `t${i}`), c.post('s1', `t${i}`);
    // Claude Code's machine-injected prompts are not a person: no reset.
    const wake = { ...(loadPayload('claude/UserPromptSubmit-prompt.json') as Json), session_id: 's1', cwd: c.cwd };
    runHook(JSON.stringify({ ...wake, prompt: 'wake', source: 'loop_wakeup' }), 'claude', c.env);
    expect(c.pre('s1', 't9')).toContain('"deny"');
  });

  it('LOOP_GUARD_RUN_ID: one count across sessions whatever their prompts (the rungs of `run`)', () => {
    const c = claude(repo(), { LOOP_GUARD_RUN_ID: 'run-42' });
    const runs = Array.from({ length: 5 }, (_, i) => c.run(`s${i + 1}`, 1, `rung ${i + 1}: a new prompt`));
    expect(runs).toEqual([['ran'], ['ran'], ['warned'], ['warned'], ['refused']]);
  });

  it('LOOP_GUARD_RUN_ID: another run id is another loop', () => {
    const c = claude(repo(), { LOOP_GUARD_RUN_ID: 'run-a' });
    for (let i = 0; i < 4; i++) c.run(`s${i + 1}`);
    const other = new Claude(c.cwd, { ...c.env, LOOP_GUARD_RUN_ID: 'run-b' });
    expect(other.run('s5')).toEqual(['ran']);
  });
});

describe('the hand-off note at the next session start', () => {
  it('SessionStart carries the newest hand-off as context; a session after a fixed cause hears nothing', () => {
    const c = claude();
    expect(c.start('s0')).toBe('');
    for (let i = 0; i < 7; i++) c.run(`s${i + 1}`);
    const out = JSON.parse(c.start('s8'));
    expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(out.hookSpecificOutput.additionalContext).toContain('loop-guard:');
    expect(out.hookSpecificOutput.additionalContext).toContain('DATABASE_URL is not set');
    expect(out.hookSpecificOutput.additionalContext.length).toBeLessThanOrEqual(3000);
    // The note deleted (the AGENTS.md rule: delete it once the cause is fixed): nothing to say.
    rmSync(join(c.cwd, '.agents', 'handoff.md'));
    expect(c.start('s9')).toBe('');
  });

  it('Codex SessionStart answers in the same shape', () => {
    const c = claude();
    for (let i = 0; i < 7; i++) c.run(`s${i + 1}`);
    const start = { ...(loadPayload('codex/SessionStart-startup.json') as Json), cwd: c.cwd };
    const out = JSON.parse(runHook(JSON.stringify(start), 'codex', c.env));
    expect(out.hookSpecificOutput.additionalContext).toContain('DATABASE_URL is not set');
  });
});

describe('the hand-off note at the first prompt, in the tools with no session-start hook of ours', () => {
  // Gemini CLI's BeforeAgent, Qwen Code's and Copilot CLI's UserPromptSubmit: the captured payloads, in a new session.
  const tools = [
    { tool: 'gemini', payload: 'gemini/BeforeAgent-prompt.json', context: (o: Json) => o.hookSpecificOutput },
    { tool: 'qwen', payload: 'qwen/UserPromptSubmit-prompt.json', context: (o: Json) => o.hookSpecificOutput },
    { tool: 'copilot', payload: 'copilot/pascal/UserPromptSubmit.json', context: (o: Json) => o },
  ];
  for (const t of tools) {
    it(`${t.tool}: a new session's first prompt hears the note; its next prompt, and a session with no note, do not`, () => {
      const c = claude();
      const prompt = (session: string) =>
        runHook(
          JSON.stringify({ ...(loadPayload(t.payload) as Json), session_id: session, cwd: c.cwd }),
          t.tool,
          c.env,
        );
      expect(prompt('before')).toBe('');
      for (let i = 0; i < 7; i++) c.run(`s${i + 1}`);
      const first = t.context(JSON.parse(prompt('next')) as Json) as Json;
      expect(String(first.additionalContext)).toContain('the loop guard stopped the last session here');
      expect(String(first.additionalContext)).toContain('DATABASE_URL is not set');
      expect(prompt('next'), 'once a session').toBe('');
    });
  }

  it('16 prompt hooks of one new session at the same instant (the built guard): the note is said once', async () => {
    requireBuilt();
    const c = claude();
    for (let i = 0; i < 7; i++) c.run(`s${i + 1}`);
    const payload = { ...(loadPayload('gemini/BeforeAgent-prompt.json') as Json), session_id: 'racing', cwd: c.cwd };
    // The processes start first and wait on stdin; the payload reaches all of them at once.
    const start = new Promise((resolve) => setTimeout(resolve, 1500));
    const runs = await Promise.all(Array.from({ length: 16 }, () => runGuardAsync('gemini', payload, c.env, start)));
    expect(runs.map((r) => r.status)).toEqual(Array(16).fill(0));
    const told = runs.filter((r) => r.stdout.includes('the loop guard stopped the last session here'));
    expect(told).toHaveLength(1);
  }, 60_000);

  it("Claude Code's prompt stays silent: its SessionStart already said it", () => {
    const c = claude();
    for (let i = 0; i < 7; i++) c.run(`s${i + 1}`);
    expect(c.prompt('s8')).toBe('');
  });
});

describe('core/loop.ts', () => {
  const settings = readSettings({});
  it('promptHash: whitespace and line endings aside, the same prompt; another prompt, another hash', () => {
    expect(promptHash('fix it\r\nnow ')).toBe(promptHash(' fix it\nnow'));
    expect(promptHash('fix it')).not.toBe(promptHash('fix that'));
    expect(promptHash('fix it')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('joinKind: a new session recalls, a resume continues, a person typing (or another prompt) resets', () => {
    expect(joinKind(undefined, 'a', 'p1')).toBe('recall');
    expect(joinKind({ hash: 'a', agent: 'p1' }, 'a', 'p2')).toBe('continue');
    expect(joinKind({ hash: 'a', agent: 'p1' }, 'a', 'p1')).toBe('reset');
    expect(joinKind({ hash: 'a', agent: undefined }, 'a', 'p1')).toBe('reset');
    expect(joinKind({ hash: 'a', agent: 'p1' }, 'b', 'p2')).toBe('reset');
  });

  it('joinLoop: a moved tree is a change; the old session call ids and pending stop are dropped', () => {
    let s = onPost(emptyState(), { command: 'x', output: 'boom', exitCode: 1, callId: 'c1' }, settings).next;
    s = onPost(s, { command: 'x', output: 'boom', exitCode: 1, callId: 'c2' }, settings).next;
    const base = { ...s, at: 1000, lt: 'tree-1', ladder: { n: 3, refused: {}, tails: [], h: 'k' } };
    const same = joinLoop(base, { now: 2000, windowMs: LOOP_WINDOW_MS, kind: 'recall', tree: 'tree-1' });
    expect(same.seen).toEqual([]);
    expect(same.ladder?.h).toBeUndefined();
    expect(same.ladder?.n).toBe(3);
    expect(same.ch ?? 0).toBe(s.ch ?? 0);
    const moved = joinLoop(base, { now: 2000, windowMs: LOOP_WINDOW_MS, kind: 'recall', tree: 'tree-2' });
    expect(moved.ch).toBe((s.ch ?? 0) + 1);
    expect(moved.lt).toBe('tree-2');
    expect(joinLoop(base, { now: 2000, windowMs: LOOP_WINDOW_MS, kind: 'reset' }).cmds).toEqual({});
    expect(joinLoop(base, { now: 1000 + LOOP_WINDOW_MS + 1, windowMs: LOOP_WINDOW_MS, kind: 'recall' }).cmds).toEqual(
      {},
    );
    // No window (a run id): however old.
    expect(Object.keys(joinLoop(base, { now: 1e12, windowMs: undefined, kind: 'continue' }).cmds)).toHaveLength(1);
  });
});

describe('agentProcess: which agent process ran the hook (Linux /proc)', () => {
  it.runIf(process.platform === 'linux')('the same process gives the same id; another process, another', () => {
    const me = agentProcess(process.pid);
    expect(me).toMatch(/^\d+:\d+$/);
    expect(agentProcess(process.pid)).toBe(me);
    expect(agentProcess(process.ppid)).not.toBe(me);
    expect(agentProcess(2 ** 30)).toBeUndefined();
  });
});
