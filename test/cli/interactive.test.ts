// The BUILT CLI in a real pseudo-terminal (util-linux `script`, see test/helpers/pty.ts): the clack prompts appear,
// keys answer them, and "no" / Ctrl-C write nothing. CI is removed from the env on purpose (the runner may set it);
// the last cases put it back and check that nothing is asked. Every session has a 20 s deadline that kills it.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureRepo, readTree, requireCli, runCli } from '../helpers/cli.ts';
import { cliPty, KEY, PtySession, ptyEnv } from '../helpers/pty.ts';

beforeAll(requireCli);

const TIMEOUT = 20_000;
const WRITE = /Write \d+ file\(s\)\?/;
const PROFILE = /Also add Cursor's agent environment to (\S+) \(every repository where Cursor runs\)\?/;
/** clack's marks for a prompt waiting for an answer; none of them may appear when the CLI must not ask. */
const PROMPT_MARKS = /[◆◇■▲]|Yes \/ ○ No|Space: select/;

/** A process's state letter from /proc (R, S, Z…), or 'gone'. */
function processState(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] ?? '?';
  } catch {
    return 'gone';
  }
}

const newHome = () => mkdtempSync(join(tmpdir(), 'lg-home-'));
const session = (fixture: string | null, args: string[] = [], extraEnv: Record<string, string> = {}) => {
  const dir = fixtureRepo(fixture);
  const home = newHome();
  const before = readTree(dir); // taken before the CLI starts, so an early write cannot hide in it
  const s = cliPty(args, { cwd: dir, env: ptyEnv(home, extraEnv), timeoutMs: TIMEOUT });
  return { dir, home, s, before };
};

describe('the PTY harness', () => {
  it('kills a program that hangs at the deadline and fails, instead of hanging the suite', async () => {
    const s = new PtySession(['sh', '-c', 'echo "pid=$$"; exec sleep 60'], {
      cwd: tmpdir(),
      env: ptyEnv(newHome()),
      timeoutMs: 1_000,
    });
    const pid = Number((await s.waitFor(/pid=\d+/)).slice(4));
    const started = Date.now();
    await expect(s.waitFor('never printed')).rejects.toThrow(/timed out/);
    await expect(s.exited).rejects.toThrow(/timed out after 1000 ms/);
    expect(Date.now() - started).toBeLessThan(5_000);
    // The program itself (the PTY's session leader, not in script's process group) is gone too: the hang-up took it.
    await new Promise((r) => setTimeout(r, 200));
    expect(processState(pid)).toMatch(/^(gone|Z|X)$/); // a zombie is dead (here PID 1 may not reap orphans)
  });

  it('gives the child a terminal on stdin and stdout, a real window size, and no CI', async () => {
    const s = new PtySession(
      [
        process.execPath,
        '-e',
        'console.log(JSON.stringify({i:process.stdin.isTTY,o:process.stdout.isTTY,c:process.stdout.columns,ci:process.env.CI??null}))',
      ],
      { cwd: tmpdir(), env: ptyEnv(newHome()), timeoutMs: TIMEOUT },
    );
    const r = await s.exited;
    expect(r.code).toBe(0);
    expect(JSON.parse(r.text.trim())).toEqual({ i: true, o: true, c: 120, ci: null });
  });
});

describe('interactive CLI in a PTY', () => {
  it('claude: shows the plan and "Write N file(s)?"; Enter (default yes) writes the same files as --yes', async () => {
    const { dir, home, s } = session('claude');
    await s.waitFor(WRITE);
    const shown = s.text;
    expect(shown).toContain('Agent tools:');
    expect(shown).toMatch(/^ {2}update {5}CLAUDE\.md +the stop rule, as a managed block/m);
    expect(shown).toMatch(/^ {2}CLAUDE\.md {2}\d+ lines? added in 1 place$/m);
    expect(shown).toMatch(/^ {2}create {5}AGENTS\.md +the stop rule/m);
    expect(shown).toMatch(/◆ {2}Write 7 file\(s\)\?\n│ {2}● Yes \/ ○ No/);
    // The prompt comes after the whole preview, not in the middle of it.
    expect(shown.lastIndexOf('Your files')).toBeLessThan(shown.search(WRITE));
    s.send(KEY.enter);
    const r = await s.exited;
    expect(r.text).toContain('Wrote 7 file(s).');
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, '.agents/hooks/loop-guard.cjs'))).toBe(true);

    const viaYes = fixtureRepo('claude');
    expect(runCli(['--yes'], { cwd: viaYes }).status).toBe(0);
    expect(readTree(dir)).toEqual(readTree(viaYes));
    expect(readdirSync(home)).toEqual([]);
  });

  it('claude: "n" at the write prompt → exit 1, "Nothing written.", tree identical', async () => {
    const { dir, home, s, before } = session('claude');
    await s.answer(WRITE, 'n'); // clack's confirm takes y/n and submits at once
    const r = await s.exited;
    expect(s.recent).toMatch(/◇ {2}Write 7 file\(s\)\?\n│ {2}No\n/);
    expect(s.recent).toContain('Nothing written.');
    expect(r.code).toBe(1);
    expect(readTree(dir)).toEqual(before);
    expect(readdirSync(home)).toEqual([]);
  });

  it('claude: arrow to "No" + Enter is a no as well', async () => {
    const { dir, s, before } = session('claude');
    await s.answer(WRITE, KEY.down);
    await s.waitFor('○ Yes / ● No');
    s.send(KEY.enter);
    const r = await s.exited;
    expect(r.code).toBe(1);
    expect(s.recent).toContain('Nothing written.');
    expect(readTree(dir)).toEqual(before);
  });

  it('claude: Ctrl-C at the write prompt → exit 1 (declined), nothing written', async () => {
    const { dir, home, s, before } = session('claude');
    await s.answer(WRITE, KEY.ctrlC);
    const r = await s.exited;
    expect(s.recent).toContain('Nothing written.');
    expect(s.recent).not.toContain('Wrote');
    expect(r.code).not.toBe(0);
    expect(r.code).toBe(1);
    expect(readTree(dir)).toEqual(before);
    expect(readdirSync(home)).toEqual([]);
  });

  it('empty: no tool detected → multiselect; pick Codex (↓, Space, Enter), accept → only Codex files written', async () => {
    const { dir, home, s } = session('empty');
    await s.waitFor('No agent tool config found here. Which tools do you use in this repository?');
    expect(s.text).toMatch(/◻ Claude Code\n│ {2}◻ Codex\n│ {2}◻ Cursor\n│ {2}◻ OpenCode/);
    s.send(KEY.down);
    s.send(KEY.space);
    await s.waitFor('◼ Codex');
    expect(s.recent).not.toMatch(/◼ (Claude Code|Cursor|OpenCode)/);
    s.send(KEY.enter);
    await s.waitFor(WRITE);
    expect(s.recent).toMatch(/Agent tools:\n {2}Codex\b/);
    expect(s.recent).toMatch(/^ {2}create {5}\.codex\/hooks\.json +hooks that run the guard/m);
    s.send(KEY.enter);
    const r = await s.exited;
    expect(r.code).toBe(0);
    expect(r.text).toMatch(/Wrote \d+ file\(s\)\./);
    const tree = readTree(dir);
    expect(JSON.parse(tree.get('.agents/loop-guard.json') as string).tools).toEqual(['codex']);
    expect(tree.has('.agents/hooks/loop-guard.cjs')).toBe(true);
    expect(tree.has('.codex/hooks.json')).toBe(true);
    expect(tree.has('.codex/config.toml')).toBe(true);
    expect([...tree.keys()].filter((p) => /^\.(claude|cursor|opencode)\//.test(p) || p === 'CLAUDE.md')).toEqual([]);
    expect(readdirSync(home)).toEqual([]);
  });

  it('empty: Ctrl-C at the multiselect → non-zero, nothing written', async () => {
    const { dir, s, before } = session('empty');
    await s.answer('Which tools do you use', KEY.ctrlC);
    const r = await s.exited;
    expect(r.code).not.toBe(0);
    expect(s.recent).not.toMatch(WRITE);
    expect(readTree(dir)).toEqual(before);
  });

  it('cursor: the shell-profile question comes last, after the repository one, and defaults to No; yes → ~/.bashrc gets the block; --remove --yes leaves $HOME alone unless --shell-profile', async () => {
    const { dir, home, s, before } = session('cursor');
    const bashrc = join(home, '.bashrc');
    const mine = "# my own bashrc\nalias ll='ls -l'\n";
    writeFileSync(bashrc, mine);

    await s.waitFor(WRITE);
    const preview = s.text;
    // The profile change is previewed (as ~/.bashrc, with no "b//home" header) before any question is asked.
    expect(preview).toMatch(/^ {2}ask last {3}~\/\.bashrc +.*default No$/m);
    expect(preview).toMatch(/^ {2}~\/\.bashrc {2}\d+ lines added in 1 place$/m);
    expect(preview).not.toMatch(PROFILE);
    s.send(KEY.enter);
    const asked = await s.waitFor(PROFILE);
    expect(asked).toBe("Also add Cursor's agent environment to ~/.bashrc (every repository where Cursor runs)?");
    await s.waitFor('○ Yes / ● No');
    expect(readFileSync(bashrc, 'utf8')).toBe(mine); // still nothing written before the second answer
    s.send('y');
    const r = await s.exited;
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, '.agents/hooks/loop-guard.cjs'))).toBe(true);
    const withBlock = readFileSync(bashrc, 'utf8');
    expect(withBlock.startsWith(mine)).toBe(true);
    expect(withBlock).toMatch(/^# >>> loop-guard:begin .*>>>$/m);
    expect(withBlock).toMatch(/^# <<< loop-guard:end/m);
    expect(withBlock).toContain('export GIT_PAGER=cat');
    // The profile was handled, so the "add this line by hand" step is not shown.
    expect(r.text).not.toContain('Cursor: npx create-loop-guard --shell-profile, or add this line');

    const env = { HOME: home, SHELL: '/bin/bash' };
    // A rerun keeps the accepted block in view without asking again: it is planned, and up to date.
    const rerun = runCli(['--yes'], { cwd: dir, env });
    expect(rerun.status).toBe(0);
    expect(rerun.stdout).toContain('up to date ~/.bashrc');
    expect(rerun.stdout).toContain('Everything is up to date.');
    expect(readFileSync(bashrc, 'utf8')).toBe(withBlock);
    // Non-interactive --remove without the opt-in: the repository is restored, $HOME is not touched.
    const installed = readTree(dir);
    const remove = runCli(['--remove', '--yes'], { cwd: dir, env });
    expect(remove.stderr).toBe('');
    expect(remove.status).toBe(0);
    expect(readTree(dir)).toEqual(before);
    // It says what it did: the files it created deleted, the user's own edited (not "removed").
    const created = [...installed.keys()].filter((p) => !before.has(p)).length;
    const edited = [...installed].filter(([p, text]) => before.has(p) && before.get(p) !== text).length;
    expect(created).toBeGreaterThan(0);
    expect(edited).toBeGreaterThan(0);
    expect(remove.stdout).toContain(
      `Removed loop-guard from ${created + edited} file(s): ${created} deleted, ${edited} edited.`,
    );
    expect(readFileSync(bashrc, 'utf8')).toBe(withBlock);
    // With the opt-in, the block comes out and the user's bytes are as they were.
    const removeProfile = runCli(['--remove', '--yes', '--shell-profile'], { cwd: dir, env });
    expect(removeProfile.stderr).toBe('');
    expect(removeProfile.status).toBe(0);
    expect(readFileSync(bashrc, 'utf8')).toBe(mine);
    expect(readTree(dir)).toEqual(before);
  });

  it('cursor: Enter (No) at the shell-profile prompt → $HOME untouched, the repository still written', async () => {
    const { dir, home, s } = session('cursor');
    await s.answer(WRITE, KEY.enter);
    await s.answer(PROFILE, KEY.enter);
    const r = await s.exited;
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, '.cursor/loop-guard-env.sh'))).toBe(true);
    expect(readdirSync(home)).toEqual([]);
    expect(r.text).toContain(
      '○ Cursor: npx create-loop-guard --shell-profile, or add this line to your shell profile:',
    ); // the manual step is offered instead, in doctor's words
  });

  it('cursor: Ctrl-C at the shell-profile prompt aborts the run: no further prompt, nothing written', async () => {
    const { dir, home, s, before } = session('cursor');
    await s.answer(WRITE, KEY.enter);
    await s.answer(PROFILE, KEY.ctrlC);
    const r = await s.exited;
    expect(r.text).not.toContain('Wrote');
    expect(r.code).not.toBe(0);
    expect(readTree(dir)).toEqual(before);
    expect(readdirSync(home)).toEqual([]);
  });
});

describe('CI set in a real terminal: never a prompt', () => {
  it.each(['cursor', 'claude'])(
    '%s under CI=true → no prompt, exit 1, "Pass --yes", nothing written',
    async (fixture) => {
      const { dir, home, s, before } = session(fixture, [], { CI: 'true' });
      const r = await s.exited; // no key is ever sent: it must end by itself
      expect(r.text).not.toMatch(PROMPT_MARKS);
      expect(r.text).not.toContain('Also make');
      expect(r.text).toContain('Nothing written: no terminal to ask on. Pass --yes to apply these changes');
      expect(r.code).toBe(1);
      expect(readTree(dir)).toEqual(before);
      expect(readdirSync(home)).toEqual([]);
    },
  );

  it('the same PTY without CI does prompt (so the control above is meaningful)', async () => {
    const { s } = session('cursor');
    await s.waitFor(WRITE);
    s.kill();
    await s.exited;
  });
});
