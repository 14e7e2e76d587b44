// Doctor on real repositories: it says when git ignores an installed file, when Cursor would run the guard twice
// (Claude Code hooks in its third-party mode), and when a Cursor event name is one Cursor does not know.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { alsoRunsCheck, knownEventsCheck } from '../../src/doctor/extra-checks.ts';
import { TOOLS } from '../../src/tools/index.ts';
import { fixtureRepo, requireCli, runCliAsync } from '../helpers/cli.ts';

beforeAll(requireCli);

const cursorCheck = <K extends string>(kind: K) => {
  const c = TOOLS.cursor.doctor.checks?.find((x) => x.kind === kind);
  if (!c) throw new Error(`cursor has no ${kind} check`);
  return c as Extract<NonNullable<typeof TOOLS.cursor.doctor.checks>[number], { kind: K }>;
};

describe('doctor, field checks', () => {
  it('cursor.twice: a pass either way; with .claude/settings.json running the guard too it says the Claude entry is quiet', () => {
    const c = cursorCheck('also-runs');
    const ours = '{"hooks":{"PreToolUse":[{"hooks":[{"command":"node .agents/hooks/loop-guard.cjs claude"}]}]}}';
    const twice = alsoRunsCheck('cursor', 'Cursor', c.file, c.setting, ours);
    expect(twice).toMatchObject({ ok: true });
    expect(twice.info).toBeUndefined();
    expect(twice.message).toContain("the guard's entry from .claude/settings.json stays quiet");
    expect(twice.message).not.toContain('turn that setting off');
    expect(alsoRunsCheck('cursor', 'Cursor', c.file, c.setting, '{}').message).toContain('once per call');
  });

  it('cursor.events: every event we install is a documented Cursor event; an unknown one fails naming it', () => {
    const c = cursorCheck('known-events');
    const intent = TOOLS.cursor.intents.find((i) => i.kind === 'json');
    const ours = intent?.kind === 'json' ? intent.hooks.events.map((e) => e.event) : [];
    expect(ours.length).toBeGreaterThan(3);
    for (const e of ours) expect(c.known).toContain(e);
    const doc = { version: 1, hooks: Object.fromEntries([...ours, 'beforeToolUse'].map((e) => [e, []])) };
    const r = knownEventsCheck('cursor', 'Cursor', '.cursor/hooks.json', doc, c.known, c.source);
    expect(r.ok).toBe(false);
    expect(r.message).toContain('"beforeToolUse"');
    expect(r.message).toContain('ignores the whole file');
  });

  it('repo.ignored: doctor names the rule that keeps an installed file out of commits', async () => {
    const dir = fixtureRepo(null);
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude/keep'), 'x\n');
    expect((await runCliAsync(['--yes'], { cwd: dir })).status).toBe(0);
    writeFileSync(join(dir, '.git/info/exclude'), '.agents/\n');
    const r = await runCliAsync(['doctor'], { cwd: dir });
    expect(r.stdout).toContain('.git/info/exclude:1:.agents/');
  }, 60_000);
});
