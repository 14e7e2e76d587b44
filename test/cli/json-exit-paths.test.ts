// --json on every exit path: a run that stops before its plan (no repository, the lock held by another run) and
// audit's usage errors still print one report whose messages are {level, code, text}, and exit 2.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CI_ENV, requireBuilt, runCli, sandbox, tempDir } from '../helpers/sandbox.ts';

beforeAll(() => requireBuilt());

interface Report {
  result: string;
  exitCode: number;
  messages: Array<{ level: string; code: string; text: string }>;
}

function report(stdout: string): Report {
  return JSON.parse(stdout) as Report;
}

describe('--json on the early exits', () => {
  it('a directory outside any git repository: a usage error with a {level, code, text} message', () => {
    const dir = tempDir();
    const sb = sandbox({ agentHome: false, env: CI_ENV });
    const r = runCli(['--json', '--yes', '--cwd', dir, '--tools', 'claude'], sb.env, dir);
    expect(r.status).toBe(2);
    const j = report(r.stdout);
    expect(j).toMatchObject({ result: 'usage-error', exitCode: 2 });
    expect(j.messages).toEqual([{ level: 'error', code: 'usage', text: expect.stringContaining('git') }]);
    expect(r.stderr).toContain(j.messages[0]?.text);
  });

  it('the repository locked by another live run: result "locked", the message names the owner', () => {
    const sb = sandbox({ agentHome: false, env: CI_ENV });
    writeFileSync(join(sb.root, '.loop-guard.lock'), `${process.pid}\n`);
    const r = runCli(
      ['--json', '--yes', '--tools', 'claude'],
      { ...sb.env, LOOP_GUARD_TEST_LOCK_WAIT_MS: '200' },
      sb.root,
    );
    expect(r.status).toBe(2);
    const j = report(r.stdout);
    expect(j).toMatchObject({ result: 'locked', exitCode: 2 });
    expect(j.messages).toEqual([
      { level: 'error', code: 'locked', text: expect.stringContaining(`pid ${process.pid}`) },
    ]);
  });

  it.each([
    [['--since', 'yesterday'], '--since'],
    [['--limit', '0'], '--limit'],
    [['--tools', 'cursor'], 'Cursor'],
  ])('audit --json %j: a usage error report, exit 2', (args, named) => {
    const sb = sandbox({ agentHome: false, env: CI_ENV });
    const r = runCli(['audit', '--json', ...args], sb.env, sb.root);
    expect(r.status).toBe(2);
    const j = report(r.stdout);
    expect(j).toMatchObject({ result: 'usage-error', exitCode: 2 });
    expect(j.messages).toEqual([{ level: 'error', code: 'usage', text: expect.stringContaining(named) }]);
  });
});
