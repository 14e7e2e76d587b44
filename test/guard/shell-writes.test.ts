// Judgment by what changed through the shell, and by how the tool runs commands: a command that writes is change for
// the others; the same write repeated, a failed write and reads alone are not. A sign-in the user asked for runs; a
// server command that already ran and exited is judged by its result; Copilot CLI hands long commands back.
// Payloads: the captured Claude Code and Copilot CLI shapes (test/fixtures/payloads), with the command replaced.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyState, onPost, onPre, type SessionState } from '../../src/guard/core/detector.ts';
import { readSettings } from '../../src/guard/core/settings.ts';
import { writesState } from '../../src/guard/core/writes.ts';
import { runHook } from '../../src/guard/main.ts';
import { type Json, loadPayload } from '../helpers/paths.ts';

const settings = readSettings({});

describe('writesState: a command that changes state by what it is', () => {
  it.each([
    'bd close proj-12 --reason done',
    'bd update proj-7 --status=in_progress',
    'bd dep remove proj-3 proj-4',
    'gt mail send mayor -s "status" -m "done"',
    'git commit -m "fix"',
    'git push origin main',
    'npm install',
    'kubectl apply -f deploy.yaml',
    'rm -f build/out.txt',
    'echo done > notes.md',
    'tmux kill-session -t old && echo ok',
    'python manage.py migrate',
  ])('%s writes', (command) => expect(writesState(command)).toBe(true));

  it.each([
    'git status',
    'ls -la workflow/',
    'cat notes.md',
    'bd ready',
    'bd list --status=open',
    'gt mail inbox',
    'tmux list-sessions',
    'grep -rn add src',
    'npm test 2>&1 | tail -20',
    'git diff --stat 2>/dev/null',
  ])('%s only reads', (command) => expect(writesState(command)).toBe(false));
});

/** Runs the steps through pre and post; returns the attempt numbers of `watch` that were refused. */
function refusals(steps: Array<{ command: string; output: string; exitCode?: number }>, watch: string): number[] {
  let state: SessionState = emptyState();
  const refused: number[] = [];
  let attempt = 0;
  steps.forEach((step, i) => {
    if (step.command === watch) attempt++;
    const pre = onPre(state, { command: step.command }, settings);
    if (pre.action === 'deny') {
      if (step.command === watch) refused.push(attempt);
      return;
    }
    state = onPost(state, { ...step, exitCode: step.exitCode ?? 0, callId: `c${i}` }, settings).next;
  });
  return refused;
}

const READY = 'proj-3  P1  wire the importer\nproj-4  P2  docs for the importer\n';

describe('a write through the shell starts the count over, as an edit does', () => {
  it('a patrol reading its tracker between writes is never refused', () => {
    const steps = [];
    for (let i = 1; i <= 10; i++) {
      steps.push({ command: 'bd ready', output: READY });
      steps.push({ command: `bd close proj-${100 + i} --reason done`, output: `✓ Closed proj-${100 + i}` });
    }
    expect(refusals(steps, 'bd ready')).toEqual([]);
  });

  it('the same reads with only reads between are still refused at the 5th attempt', () => {
    const steps = [];
    for (let i = 1; i <= 6; i++) {
      steps.push({ command: 'bd ready', output: READY });
      steps.push({ command: 'git status', output: 'On branch main\nnothing to commit, working tree clean\n' });
    }
    expect(refusals(steps, 'bd ready')[0]).toBe(5);
  });

  it('the same write returning the same answer is not a change, and is itself refused at the 5th attempt', () => {
    const same = { command: 'bd update proj-7 --status=in_progress', output: '✓ Updated proj-7' };
    const steps = [];
    for (let i = 1; i <= 6; i++) steps.push({ command: 'bd ready', output: READY }, same);
    // The read and the same write alternating are a cycle of the same pairs: refused by the 5th round.
    expect(refusals(steps, 'bd ready')[0]).toBe(5);
    expect(refusals(Array(6).fill(same), same.command)[0]).toBe(5);
  });

  it('a write that failed changed nothing', () => {
    const steps = [];
    for (let i = 1; i <= 6; i++) {
      steps.push({ command: 'bd ready', output: READY });
      steps.push({ command: `bd close proj-${i}`, output: `Error: issue proj-${i} not found`, exitCode: 1 });
    }
    expect(refusals(steps, 'bd ready')[0]).toBe(5);
  });

  it('a cycle of reads is still refused; a write in the block breaks it as an edit would', () => {
    const reads = [];
    for (let i = 1; i <= 6; i++)
      reads.push({ command: 'bd list', output: READY }, { command: 'tmux list-sessions', output: 'w1: 1 windows\n' });
    expect(refusals(reads, 'bd list').length).toBeGreaterThan(0);
    const writes = [];
    for (let i = 1; i <= 8; i++)
      writes.push({ command: 'bd list', output: READY }, { command: `gt mail send w${i} -m go`, output: 'sent' });
    expect(refusals(writes, 'bd list')).toEqual([]);
  });
});

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const hookEnv = () => {
  const d = mkdtempSync(join(tmpdir(), 'lg-writes-'));
  dirs.push(d);
  return { LOOP_GUARD_STATE_DIR: d, PATH: process.env.PATH ?? '' };
};
const claudePayload = (rel: string, over: Json): string => JSON.stringify({ ...loadPayload(rel), ...over });
const prompt = (text: string) => claudePayload('claude/UserPromptSubmit-prompt.json', { prompt: text });
const pre = (command: string, id: string) =>
  claudePayload('claude/PreToolUse-success.json', { tool_input: { command }, tool_use_id: id });
const fail = (command: string, id: string, error: string) =>
  claudePayload('claude/PostToolUseFailure-failure.json', { tool_input: { command }, tool_use_id: id, error });
const denied = (out: string) => /permissionDecision":"deny/.test(out);

describe('the user at the terminal: a sign-in asked for in this turn runs', () => {
  it('`gh auth login --web` runs when the prompt names it; unasked, and after a new prompt, it is refused', () => {
    const env = hookEnv();
    expect(denied(runHook(pre('gh auth login --web', 't1'), 'claude', env))).toBe(true);
    runHook(prompt('log in with `gh auth login --web` and push the branch'), 'claude', env);
    expect(runHook(pre('gh auth login --web', 't2'), 'claude', env)).toBe('');
    // Another sign-in than the one asked for is still refused.
    expect(denied(runHook(pre('npm login', 't3'), 'claude', env))).toBe(true);
    runHook(prompt('now push it'), 'claude', env);
    expect(denied(runHook(pre('gh auth login --web', 't4'), 'claude', env))).toBe(true);
  });

  it('a one-line prompt that is the command asks for it too', () => {
    const env = hookEnv();
    runHook(prompt('gh auth login --web'), 'claude', env);
    expect(runHook(pre('gh auth login --web', 't1'), 'claude', env)).toBe('');
  });
});

describe('a server command that already ran and exited is judged by its result', () => {
  it('after `streamlit run` failed at once on a taken port, the next one is not refused as a hang', () => {
    const env = hookEnv();
    const cmd = 'streamlit run app.py --server.port 8501';
    expect(denied(runHook(pre(cmd, 's0'), 'claude', env))).toBe(true);
    runHook(fail(cmd, 's1', 'Exit code 1\nError: Port 8501 is already in use'), 'claude', env);
    expect(runHook(pre(cmd, 's2'), 'claude', env)).toBe('');
    // Its identical failure is counted like any other: refused by the 5th attempt.
    let refusedAt = 0;
    for (let i = 2; i <= 6 && !refusedAt; i++) {
      if (denied(runHook(pre(cmd, `s${i}`), 'claude', env))) refusedAt = i;
      else runHook(fail(cmd, `s${i}`, 'Exit code 1\nError: Port 8501 is already in use'), 'claude', env);
    }
    expect(refusedAt).toBe(5);
  });
});

describe('Copilot CLI hands a long command back (initial_wait), so a server is not refused there', () => {
  it('uvicorn in the foreground runs in Copilot; vim still does not', () => {
    const env = hookEnv();
    const payload = (command: string) =>
      JSON.stringify({
        ...(loadPayload('copilot/pascal/PreToolUse-failure.json') as Json),
        tool_input: { command, description: 'x' },
      });
    expect(denied(runHook(payload('uvicorn backend.api:app --port 8000'), 'copilot', env))).toBe(false);
    expect(denied(runHook(payload('vim notes.md'), 'copilot', env))).toBe(true);
  });
});
