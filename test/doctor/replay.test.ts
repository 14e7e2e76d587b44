// <tool>.replay for every tool whose record has replay facts: the built guard passes; broken guards and missing hooks fail.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Driver, driverFor, getPath, replay } from '../../src/doctor/replay.ts';
import { loadPayload } from '../../src/doctor/payloads.ts';
import { runShell } from '../../src/doctor/exec.ts';
import { TOOL_NAMES, TOOLS, type ToolName } from '../../src/tools/index.ts';
import { builtGuard, requireBuilt, tempDir } from '../helpers/sandbox.ts';

beforeAll(requireBuilt);

/** Every tool whose record says how to replay it (today all but the plugin tool). */
const REPLAYED = TOOL_NAMES.filter((t) => TOOLS[t].doctor.replay !== undefined);

/** The events the scaffolder hooks for a tool: what a fresh install configures. */
function eventsOf(tool: ToolName): string[] {
  const spec = TOOLS[tool].intents.find((i) => i.kind === 'json');
  return spec?.kind === 'json' ? spec.hooks.events.map((e) => e.event) : [];
}

function sender(extra: Record<string, string> = {}) {
  const state = tempDir('lg-doctor-state-');
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LOOP_GUARD_STATE_DIR: state, ...extra };
  return (command: string, payload: object) => runShell(command, { cwd: state, env, input: JSON.stringify(payload) });
}

function commands(tool: ToolName, file = builtGuard, skip: string[] = []): Record<string, string> {
  return Object.fromEntries(
    eventsOf(tool)
      .filter((e) => !skip.includes(e))
      .map((e) => [e, `node "${file}" ${tool}`]),
  );
}

function script(body: string): string {
  const f = join(tempDir(), 'hook.mjs');
  writeFileSync(f, body);
  chmodSync(f, 0o755);
  return f;
}

function driver(tool: ToolName): Driver {
  const d = driverFor(tool, '/repo');
  if (!d) throw new Error(`${tool} has no replay facts`);
  return d;
}
const d = Object.fromEntries(REPLAYED.map((t) => [t, driver(t)])) as Record<ToolName, Driver>;

describe('the replay facts in the records', () => {
  it('cover every tool with command hooks, and replay only events the scaffolder hooks', () => {
    expect(REPLAYED.length).toBeGreaterThanOrEqual(6);
    for (const t of TOOL_NAMES) {
      const facts = TOOLS[t].doctor.replay;
      expect(facts !== undefined, t).toBe(eventsOf(t).length > 0);
      if (facts) for (const step of [facts.pre, facts.post, facts.turn]) expect(eventsOf(t), t).toContain(step.event);
    }
  });

  it.each(REPLAYED)('%s: every field the facts name is in its captured payloads, and the driver adds none', (tool) => {
    const facts = TOOLS[tool].doctor.replay;
    if (!facts) throw new Error('no facts');
    const captured = {
      pre: loadPayload(`${tool}/${facts.pre.payload}`),
      post: loadPayload(`${tool}/${facts.post.payload}`),
      turn: loadPayload(`${tool}/${facts.turn.payload}`),
    };
    for (const step of ['pre', 'post'] as const) {
      expect(getPath(captured[step], facts.command), `${step} ${facts.command}`).toBeTypeOf('string');
      if (facts.callId) expect(getPath(captured[step], facts.callId), `${step} ${facts.callId}`).toBeDefined();
    }
    if (facts.turnId)
      for (const step of ['pre', 'post', 'turn'] as const)
        expect(getPath(captured[step], facts.turnId), `${step} ${facts.turnId}`).toBeDefined();
    for (const f of facts.prompt) expect(getPath(captured.turn, f), f).toBeTypeOf('string');
    for (const f of facts.root)
      expect(
        [captured.pre, captured.post, captured.turn].some((p) => getPath(p, f) !== undefined),
        f,
      ).toBe(true);
    const drv = d[tool];
    expect(Object.keys(drv.pre(1, 1)).sort()).toEqual(Object.keys(captured.pre).sort());
    expect(Object.keys(drv.post(1, 1)).sort()).toEqual(Object.keys(captured.post).sort());
    expect(Object.keys(drv.userTurn(2)).sort()).toEqual(Object.keys(captured.turn).sort());
    expect(getPath(drv.pre(9, 2, 'vim notes.txt'), facts.command)).toBe('vim notes.txt');
    if (facts.turnId) expect(getPath(drv.pre(1, 2), facts.turnId)).not.toEqual(getPath(drv.pre(1, 1), facts.turnId));
    for (const f of facts.root)
      for (const p of [drv.pre(1, 1), drv.post(1, 1), drv.userTurn(2)]) {
        const v = getPath(p, f);
        if (v !== undefined) expect([v, Array.isArray(v) ? v[0] : v]).toContain('/repo');
      }
  });
});

describe.concurrent.each(REPLAYED)('%s', { timeout: 60_000 }, (tool) => {
  it('passes with the built guard', async () => {
    const c = await replay(tool, d[tool], commands(tool), sender(), 'cfg');
    expect(c).toMatchObject({ id: `${tool}.replay`, ok: true });
    expect(c.message).toContain('warned on the 3rd result, denied the 5th and 6th attempts, handed off on the 7th');
  });

  it('fails when the guard never hands off (an older guard, or LOOP_GUARD_HANDOFF=0)', async () => {
    const c = await replay(tool, d[tool], commands(tool), sender({ LOOP_GUARD_HANDOFF: '0' }), 'cfg');
    expect(c.ok).toBe(false);
    expect(c.message).toContain('the 7th attempt (after 2 refusals in the turn) was not a hand-off');
    expect(c.message).not.toContain('was not denied');
  });

  it('fails with a guard that allows everything silently', async () => {
    const noop = script(`// create-loop-guard v0.1.0 - generated file\nprocess.stdout.write('');\n`);
    const c = await replay(tool, d[tool], commands(tool, noop), sender(), 'cfg');
    expect(c.ok).toBe(false);
    expect(c.message).toContain('no warning on the 3rd identical result');
    expect(c.message).toContain('the 5th attempt was not denied');
  });

  it('fails when the hook command itself fails', async () => {
    const c = await replay(tool, d[tool], commands(tool, '/nowhere/loop-guard.mjs'), sender(), 'cfg');
    expect(c.ok).toBe(false);
    expect(c.message).toMatch(/hook command .* exited 1: .*Cannot find module/);
  });
});

describe.concurrent('what the replay catches', { timeout: 60_000 }, () => {
  it.each([
    ['copilot', 'PermissionRequest'],
    ['qwen', 'UserPromptSubmit'],
  ] as const)('%s: the hand-off stops the run from %s; without that hook it cannot', async (tool, event) => {
    const ok = await replay(tool, d[tool], commands(tool), sender(), 'cfg');
    expect(ok.message).toContain(`stopped the run from ${event}`);
    const c = await replay(tool, d[tool], commands(tool, builtGuard, [event]), sender(), 'cfg');
    expect(c.ok).toBe(false);
    expect(c.message).toContain(
      'the 7th attempt (after 2 refusals in the turn) was not a hand-off that stops the turn',
    );
    expect(c.message).toContain(`no ${event} hook, so a hand-off cannot end the run`);
  });

  it('claude: no PostToolUseFailure hook means failing results never reach the guard', async () => {
    const c = await replay(
      'claude',
      d.claude,
      commands('claude', builtGuard, ['PostToolUseFailure']),
      sender(),
      '.claude/settings.json',
    );
    expect(c.ok).toBe(false);
    expect(c.message).toContain('no PostToolUseFailure hook, so results never reach the guard');
    expect(c.fix).toContain('.claude/settings.json');
  });

  it('claude: the PowerShell tool (Windows) is proven too, and a guard that lets its commands through fails', async () => {
    const ok = await replay('claude', d.claude, commands('claude'), sender(), 'cfg');
    expect(ok.message).toContain('as `notepad notes.txt` through the PowerShell tool (Windows)');
    // A guard that answers the Bash tool but never PowerShell: what an adapter that reads only `Bash` would do.
    const bashOnly = script(
      `import { spawnSync } from 'node:child_process';\nimport { readFileSync } from 'node:fs';\n` +
        `const input = readFileSync(0, 'utf8');\n` +
        `if (JSON.parse(input).tool_name !== 'PowerShell')\n` +
        `  process.stdout.write(spawnSync(process.execPath, [${JSON.stringify(builtGuard)}, 'claude'], { input }).stdout);\n`,
    );
    const c = await replay('claude', d.claude, commands('claude', bashOnly), sender(), 'cfg');
    expect(c.ok).toBe(false);
    expect(c.message).toContain('`notepad notes.txt` through the PowerShell tool (Windows) was not refused');
  });

  it('claude: a warning echoing the wrong hookEventName is rejected by Claude Code', async () => {
    const f = script(
      `let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const p=JSON.parse(s);if(p.hook_event_name==='PostToolUseFailure')process.stdout.write(JSON.stringify({hookSpecificOutput:{hookEventName:'PostToolUse',additionalContext:'loop-guard: x'}}));});`,
    );
    const c = await replay('claude', d.claude, commands('claude', f), sender(), 'cfg');
    expect(c.ok).toBe(false);
    expect(c.message).toContain('hookEventName "PostToolUse", which the tool rejects');
  });

  it('codex: text on the user-prompt event would reach the model', async () => {
    const f = script(
      `let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{if(JSON.parse(s).hook_event_name==='UserPromptSubmit')process.stdout.write('hello');});`,
    );
    const c = await replay('codex', d.codex, commands('codex', f), sender(), 'cfg');
    expect(c.ok).toBe(false);
    expect(c.message).toContain("would add to the model's context");
  });

  it('claude: answering "allow" is a failure (it skips the permission prompt)', async () => {
    const f = script(
      `process.stdout.write(JSON.stringify({hookSpecificOutput:{hookEventName:'PreToolUse',permissionDecision:'allow'}}));`,
    );
    const c = await replay('claude', d.claude, { PreToolUse: `node "${f}"` }, sender(), 'cfg');
    expect(c.ok).toBe(false);
    expect(c.message).toContain('skips the permission prompt');
  });

  it('a hook that hangs is cut off', async () => {
    const c = await replay(
      'cursor',
      d.cursor,
      { preToolUse: 'sleep 30' },
      async (cmd, p) =>
        runShell(cmd, { cwd: '/', env: { PATH: process.env.PATH ?? '' }, input: JSON.stringify(p), timeoutMs: 300 }),
      'cfg',
    );
    expect(c.ok).toBe(false);
    expect(c.message).toContain('did not finish within 0.3 s');
  });
});
