// The progress line: on a terminal (stderr), once reading has taken over 2 s; never in a pipe or a quick run.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit/audit.ts';
import { fixtureHome, homeEnv } from './fixtures.ts';

const home = fixtureHome();
afterAll(() => rmSync(home, { recursive: true, force: true }));

function run(stderrIsTTY: boolean, step: number) {
  let t = 0;
  const err: string[] = [];
  const out: string[] = [];
  const code = audit(
    { all: true, json: false, redact: false },
    {
      cwd: home,
      env: homeEnv(home),
      home,
      stdoutIsTTY: false,
      stderrIsTTY,
      out: (s) => out.push(s),
      err: (s) => err.push(s),
      // Each look at the clock is `step` ms later: a slow machine, or a big history.
      now: () => (t += step),
    },
  );
  return { code, err: err.join(''), out: out.join('') };
}

describe('audit progress line', () => {
  it('a slow read on a terminal shows "reading transcripts: i of n", then clears it', async () => {
    const r = run(true, 700);
    expect(await r.code).toBe(0);
    expect(r.err).toMatch(/reading transcripts: \d+ of \d+ \(\d+ MB\)…/);
    expect(r.err.endsWith('\r\x1b[2K')).toBe(true);
    expect(r.out).not.toContain('reading transcripts');
  });

  it('no line in a pipe, nor in a quick run', async () => {
    expect(run(false, 700).err).toBe('');
    expect(run(true, 1).err).toBe('');
  });
});
