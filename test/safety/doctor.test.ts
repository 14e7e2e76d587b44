// doctor tells the truth and always ends: three installs that used to get a wrong ✓, and a hook that leaves a
// background process holding the pipes.
import { spawn } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../src/assets.ts';
import { type DoctorResult, runChecks } from '../../src/doctor/checks.ts';
import type { Check } from '../../src/doctor/types.ts';
import { cloneSandbox, cliFile, install, requireBuilt, type Sandbox, sandbox } from '../helpers/sandbox.ts';

let installed: Sandbox;
beforeAll(() => {
  requireBuilt();
  installed = sandbox();
  install(installed, 'claude');
}, 60_000);

const byId = (r: DoctorResult, id: string): Check => {
  const c = r.groups.flatMap((g) => g.checks).find((x) => x.id === id);
  if (!c) throw new Error(`no check ${id}`);
  return c;
};
const settings = (sb: Sandbox) => join(sb.root, '.claude/settings.json');
const edit = (sb: Sandbox, fn: (text: string) => string) =>
  writeFileSync(settings(sb), fn(readFileSync(settings(sb), 'utf8')));
const doctorOn = (sb: Sandbox) => runChecks({ root: sb.root, env: sb.env, home: sb.home, version: VERSION });

describe('no wrong ✓', () => {
  it('the healthy install passes, and its replay covers the hang rules', async () => {
    const r = await doctorOn(cloneSandbox(installed));
    expect(byId(r, 'claude.hooks').ok).toBe(true);
    expect(byId(r, 'claude.replay')).toMatchObject({ ok: true });
    expect(byId(r, 'claude.replay').message).toContain('refused by the hang rules');
  }, 60_000);

  it('hooks that run a copy whose path merely contains .agents/hooks/loop-guard: ✗ naming it', async () => {
    const sb = cloneSandbox(installed);
    copyFileSync(join(sb.root, '.agents/hooks/loop-guard.cjs'), join(sb.root, '.agents/hooks/loop-guard-copy.cjs'));
    edit(sb, (t) => t.replaceAll('loop-guard.cjs`', 'loop-guard-copy.cjs`'));
    const r = await doctorOn(sb);
    const c = byId(r, 'claude.hooks');
    expect(c.ok).toBe(false);
    expect(c.message).toMatch(/loop-guard-copy\.cjs`.* claude`, which is not this repository's guard file/);
  }, 60_000);

  it('LOOP_GUARD_HANG=off in the hook command: ✗ naming the command, and the replay fails on the hang rule', async () => {
    const sb = cloneSandbox(installed);
    edit(sb, (t) => t.replaceAll('"node -e ', '"LOOP_GUARD_HANG=off node -e '));
    expect(readFileSync(settings(sb), 'utf8')).toContain('LOOP_GUARD_HANG=off node');
    const r = await doctorOn(sb);
    expect(byId(r, 'claude.hooks')).toMatchObject({ ok: false });
    expect(byId(r, 'claude.hooks').message).toContain('LOOP_GUARD_HANG=off in the PreToolUse hook command');
    expect(byId(r, 'claude.replay')).toMatchObject({ ok: false });
    expect(byId(r, 'claude.replay').message).toContain('hang rules are off');
  }, 60_000);

  it('LOOP_GUARD_HANG=off in the settings "env": ✗ with its place (said once), and the replay (run with that env) fails', async () => {
    const sb = cloneSandbox(installed);
    const doc = JSON.parse(readFileSync(settings(sb), 'utf8'));
    doc.env.LOOP_GUARD_HANG = 'off';
    writeFileSync(settings(sb), `${JSON.stringify(doc, null, 2)}\n`);
    const r = await doctorOn(sb);
    expect(byId(r, 'claude.hooks')).toMatchObject({ ok: false });
    expect(byId(r, 'claude.hooks').message).toContain('LOOP_GUARD_HANG=off in .claude/settings.json "env"');
    // One problem, one line: the environment check does not say it again.
    expect(JSON.stringify(byId(r, 'claude.env'))).not.toContain('LOOP_GUARD_HANG');
    expect(byId(r, 'claude.replay')).toMatchObject({ ok: false });
  }, 60_000);
});

describe('doctor always ends', () => {
  it('a hook that leaves a process (in its own session) holding the pipes: doctor prints its report and exits', async () => {
    const sb = cloneSandbox(installed);
    const pids = join(sb.tmp, 'bg.pids');
    // The background process records its pid so the test can end it; nothing else is signalled.
    edit(sb, (t) => t.replaceAll('"node -e ', `"setsid sh -c 'echo $$ >> ${pids}; exec sleep 1000' & node -e `));
    const t = Date.now();
    const child = spawn(process.execPath, [cliFile, 'doctor', '--cwd', sb.root], {
      env: sb.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.resume();
    const code = await new Promise<number | null>((resolve) => {
      const hard = setTimeout(() => child.kill('SIGKILL'), 110_000);
      child.on('exit', (c) => {
        clearTimeout(hard);
        resolve(c);
      });
    });
    const ms = Date.now() - t;
    let left: string[] = [];
    try {
      left = readFileSync(pids, 'utf8').split('\n').filter(Boolean);
    } catch {
      // none started
    }
    for (const p of left) {
      try {
        process.kill(Number(p), 'SIGKILL');
      } catch {
        // already gone
      }
    }
    console.log(
      `doctor with a background-process hook ended in ${ms} ms (${left.length} background processes started)`,
    );
    expect(code).not.toBeNull();
    expect(left.length).toBeGreaterThan(0);
    expect(out).toContain('claude');
  }, 120_000);
});
