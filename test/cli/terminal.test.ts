// The BUILT CLI in a real terminal, read as a person reads it: a tmux pane of a common size, keys sent with
// send-keys, the screen read with capture-pane (the visible rows only). On a four-tool repository the question must
// be on the same screen as the plan; Enter accepts; Ctrl-C writes nothing. Every wait polls the pane with a deadline.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliFile, fixtureRepo, readTree, requireCli } from '../helpers/cli.ts';
import { nodeBin } from '../helpers/paths.ts';

const hasTmux = spawnSync('tmux', ['-V'], { encoding: 'utf8' }).status === 0;
// CI installs tmux (.ci/run); only a developer machine without it skips.
const run = hasTmux || process.env.CI ? describe : describe.skip;

const ROWS = 40;
const COLS = 120;
const DEADLINE = 20_000;
const WRITE = /Write \d+ file\(s\)\?/;
const PROFILE = /Also add Cursor's agent environment to ~\/\.bashrc/;

const sockets: string[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) spawnSync('tmux', ['-L', s, 'kill-server'], { encoding: 'utf8' });
});

function tmux(socket: string, ...args: string[]): string {
  const r = spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`tmux ${args[0]} failed: ${r.stderr}`);
  return r.stdout;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The CLI in a fresh tmux server of its own, in a pane of rows × cols (ROWS × COLS unless said); it writes its exit code to a file. */
function start(dir: string, home: string, cols = COLS, rows = ROWS) {
  const socket = `lg-term-${process.pid}-${sockets.length}-${Date.now()}`;
  sockets.push(socket);
  const exitFile = join(home, '..', `${socket}.exit`);
  const env = `env -u CI -u GITHUB_ACTIONS -u NO_COLOR HOME='${home}' SHELL=/bin/bash TERM=xterm-256color`;
  const command = `${env} '${nodeBin}' '${cliFile}'; echo $? > '${exitFile}'; sleep 60`;
  tmux(socket, 'new-session', '-d', '-x', String(cols), '-y', String(rows), '-c', dir, command);
  const screen = () => tmux(socket, 'capture-pane', '-p', '-t', '0');
  return {
    screen,
    send: (...keys: string[]) => tmux(socket, 'send-keys', '-t', '0', ...keys),
    /** Closes the terminal: the server and its pane go, and what runs in it gets SIGHUP. */
    kill: () => tmux(socket, 'kill-server'),
    /** Polls the visible screen until `pattern` shows, or fails with the screen at the deadline. */
    async waitFor(pattern: RegExp): Promise<string> {
      const until = Date.now() + DEADLINE;
      for (;;) {
        const text = screen();
        if (pattern.test(text)) return text;
        if (Date.now() > until)
          throw new Error(`${pattern} did not appear within ${DEADLINE} ms; the screen:\n${text}`);
        await sleep(50);
      }
    },
    /** Polls for the exit code the pane's shell writes when the CLI ends. */
    async exited(): Promise<number> {
      const until = Date.now() + DEADLINE;
      while (!existsSync(exitFile) || readFileSync(exitFile, 'utf8').trim() === '') {
        if (Date.now() > until) throw new Error(`the CLI did not exit within ${DEADLINE} ms; the screen:\n${screen()}`);
        await sleep(50);
      }
      return Number(readFileSync(exitFile, 'utf8').trim());
    },
  };
}

beforeAll(requireCli);

run('in a real terminal (tmux)', () => {
  it(`four tools: the plan and the question fit one ${ROWS}-row screen; Enter accepts, Enter again keeps ~/.bashrc out`, async () => {
    const dir = fixtureRepo('all');
    const home = mkdtempSync(join(tmpdir(), 'lg-term-home-'));
    const t = start(dir, home);
    const screen = await t.waitFor(WRITE);
    // The whole preview is visible beside the question: the tools at the top, the files, the user's own files.
    expect(screen).toMatch(/^Agent tools:$/m);
    for (const tool of ['Claude Code', 'Codex', 'Cursor', 'OpenCode'])
      expect(screen).toMatch(new RegExp(`^  ${tool} `, 'm'));
    expect(screen).toMatch(/^Files:$/m);
    expect(screen).toMatch(/^ {2}update {5}\.claude\/settings\.json /m);
    expect(screen).toMatch(/^ {2}ask last {3}~\/\.bashrc /m);
    expect(screen).toMatch(/^Your files \(only what changes; --diff shows every line\):$/m);
    expect(screen).not.toMatch(PROFILE); // the user-level question has not been asked yet
    expect(existsSync(join(dir, '.agents'))).toBe(false);

    t.send('Enter');
    const second = await t.waitFor(PROFILE);
    expect(second).toContain('○ Yes / ● No');
    t.send('Enter');
    expect(await t.exited()).toBe(0);
    expect(await t.waitFor(/Wrote \d+ file\(s\)\./)).toMatch(/Left to do on this machine/);
    expect(existsSync(join(dir, '.agents/hooks/loop-guard.cjs'))).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, '.agents/loop-guard.json'), 'utf8')).tools).toEqual([
      'claude',
      'codex',
      'cursor',
      'opencode',
    ]);
    expect(readdirSync(home)).toEqual([]);
  }, 60_000);

  it('Ctrl-C at the question writes nothing: the repository and $HOME stay byte-identical', async () => {
    const dir = fixtureRepo('all');
    const home = mkdtempSync(join(tmpdir(), 'lg-term-home-'));
    const before = readTree(dir);
    const t = start(dir, home);
    await t.waitFor(WRITE);
    t.send('C-c');
    expect(await t.exited()).not.toBe(0);
    expect(t.screen()).toContain('Nothing written.');
    expect(readTree(dir)).toEqual(before);
    expect(readdirSync(home)).toEqual([]);
  }, 60_000);

  it('80 × 24: the tools, the file list and the question on one screen, no row wrapped, the rest left to --diff', async () => {
    const dir = fixtureRepo('codex');
    const home = mkdtempSync(join(tmpdir(), 'lg-term-home-'));
    const t = start(dir, home, 80, 24);
    const screen = await t.waitFor(WRITE);
    const rows = screen.replace(/\n+$/, '').split('\n');
    // Nothing scrolled off: the first row is the first line the run prints.
    expect(rows[0]).toBe('Agent tools:');
    expect(screen).toMatch(/^ {2}update {5}\.codex\/config\.toml /m);
    // Every row of the file list is a file's own line (none is the wrapped end of a long one).
    const files = rows.slice(rows.indexOf('Files:') + 1, rows.indexOf('', rows.indexOf('Files:')));
    expect(files.length).toBeGreaterThan(5);
    for (const r of files) expect(r).toMatch(/^ {2}(create|update|up to date|delete|conflict|ask last) /);
    // The inline TOML line shows its new keys, and what does not fit is counted for --diff.
    expect(screen).toMatch(/^ +\d+ \+set = \{ RUST_LOG = "info", GIT_PAGER = "cat".*…$/m);
    expect(screen).toMatch(/^ {2}… \d+ more lines: run with --diff to see every line$/m);
    t.send('C-c');
    expect(await t.exited()).not.toBe(0);
  }, 60_000);

  it('the lock is in .git, not the working tree, while the question is open, and goes when the terminal closes or the run is killed', async () => {
    const gone = async (path: string) => {
      const until = Date.now() + DEADLINE;
      while (existsSync(path)) {
        if (Date.now() > until) throw new Error(`${path} is still there`);
        await sleep(50);
      }
    };
    for (const end of ['close the terminal', 'SIGTERM'] as const) {
      const dir = fixtureRepo('claude');
      const home = mkdtempSync(join(tmpdir(), 'lg-term-home-'));
      const before = readTree(dir);
      const t = start(dir, home);
      await t.waitFor(WRITE);
      const lock = join(dir, '.git', 'loop-guard.lock');
      expect(existsSync(lock), end).toBe(true);
      expect(existsSync(join(dir, '.loop-guard.lock')), end).toBe(false);
      if (end === 'SIGTERM') process.kill(Number(readFileSync(lock, 'utf8')), 'SIGTERM');
      else t.kill(); // the pane's terminal goes away: the CLI gets SIGHUP
      await gone(lock);
      expect(readTree(dir), end).toEqual(before);
    }
  }, 60_000);
});
