// The guard's judgment on the labelled corpus (test/fixtures/judgment/), scored by the same code as
// `npm run bench:judgment`, with the guard's source run in process. Issue 9's goals are asserted here.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  formatReport,
  GOALS,
  judge,
  loadCorpus,
  readHookAnswer,
  scoreCorpus,
  type Impl,
  type Score,
  type Sequence,
} from '../../bench/judgment-score.mjs';
import { runHook } from '../../src/guard/main.ts';
import { opencodePlugin } from '../../src/guard/adapters/opencode.ts';

const LoopGuard = opencodePlugin();

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = join(root, 'test', 'fixtures');
const impl: Impl = { runHook, LoopGuard: LoopGuard as Impl['LoopGuard'] };
const corpus: Sequence[] = loadCorpus();

type Obj = Record<string, unknown>;
const keys = (o: unknown) =>
  Object.keys((o ?? {}) as Obj)
    .sort()
    .join(',');

/** Top-level field sets of every real payload we hold, per tool and event (and tool name). */
function capturedShapes(): Map<string, Set<string>> {
  const shapes = new Map<string, Set<string>>();
  const add = (k: string, v: string) => shapes.set(k, (shapes.get(k) ?? new Set()).add(v));
  const json = (dir: string) =>
    readdirSync(dir)
      .filter(
        (f) =>
          f.endsWith('.json') && !f.startsWith('offered') && !f.startsWith('observed') && !f.startsWith('plugin-init'),
      )
      .map((f) => ({ f, p: JSON.parse(readFileSync(join(dir, f), 'utf8')) as Obj }));
  for (const tool of ['claude', 'codex']) {
    for (const dir of [join(fixtures, 'payloads', tool), join(fixtures, 'payloads', tool, 'captured')]) {
      for (const { p } of json(dir)) add(`${tool}:${p.hook_event_name}:${p.tool_name ?? ''}`, keys(p));
    }
  }
  for (const { p } of json(join(fixtures, 'cursor'))) add(`cursor:${p.hook_event_name}:${p.tool_name ?? ''}`, keys(p));
  for (const dir of [join(fixtures, 'payloads', 'opencode'), join(fixtures, 'payloads', 'opencode', 'captured')]) {
    for (const { f, p } of json(dir)) {
      const hook = (p.hook as string | undefined) ?? f.replace(/-[^-]*\.json$/, '');
      const input = p.input as Obj | undefined;
      if (!input) continue; // an `event` hook payload, not a tool or chat call
      add(`opencode:${hook}:${input.tool ?? ''}`, `${keys(input)}|${keys(p.output)}`);
    }
  }
  return shapes;
}

describe('the judgment corpus', () => {
  it('has at least 300 sequences, at least half of them legitimate work, every loop with its expected attempts', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(300);
    const work = corpus.filter((s) => s.label === 'work');
    expect(work.length * 2).toBeGreaterThanOrEqual(corpus.length);
    for (const s of corpus) {
      expect(['work', 'loop'], s.id).toContain(s.label);
      expect(['claude', 'codex', 'cursor', 'opencode'], s.id).toContain(s.tool);
      expect(s.steps.length, s.id).toBeGreaterThan(0);
      if (s.label === 'loop') {
        expect(s.expect, s.id).toMatchObject({ warnBy: expect.any(Number), refuseBy: expect.any(Number) });
        expect(
          s.steps.some((st) => st.attempt === 1),
          `${s.id} marks its attempts`,
        ).toBe(true);
      }
      // A work sequence allowed a note must say why.
      if (s.label === 'work' && s.expect) expect(s.justification, s.id).toBeTruthy();
    }
    // Every tool is covered.
    expect(new Set(corpus.map((s) => s.tool))).toEqual(new Set(['claude', 'codex', 'cursor', 'opencode']));
  });

  it('contains only payload shapes captured from the real CLIs (or documented, for Cursor)', () => {
    const shapes = capturedShapes();
    const problems: string[] = [];
    for (const s of corpus) {
      for (const step of s.steps) {
        for (const ev of step.events) {
          let key: string;
          let shape: string;
          if (s.tool === 'opencode') {
            const input = ev.input as Obj;
            key = `opencode:${ev.hook}:${input.tool ?? ''}`;
            shape = `${keys(input)}|${keys(ev.output)}`;
          } else {
            key = `${s.tool}:${ev.hook_event_name}:${ev.tool_name ?? ''}`;
            // Claude adds agent_id/agent_type to events inside a sub-agent (captured on SubagentStop).
            const { agent_id: _a, agent_type: _t, ...rest } = ev;
            shape = keys(s.tool === 'claude' && ev.hook_event_name !== 'SubagentStop' ? rest : ev);
          }
          if (!shapes.get(key)?.has(shape)) problems.push(`${s.id}: ${key} {${shape}}`);
        }
      }
    }
    expect([...new Set(problems)].slice(0, 20)).toEqual([]);
  });

  it('is what scripts/make-judgment-corpus.mjs generates (reviewable and reproducible)', () => {
    const r = spawnSync(process.execPath, [join(root, 'scripts', 'make-judgment-corpus.mjs'), '--check'], {
      encoding: 'utf8',
    });
    expect(r.stderr + r.stdout).toContain('up to date');
    expect(r.status).toBe(0);
  });

  it("includes the issue's false positives and negatives verbatim", () => {
    const commands = new Set(corpus.flatMap((s) => s.steps.map((st) => st.command ?? '')));
    for (const c of [
      'sleep 5 && curl localhost:3000/health',
      'sleep 30; tail -3 build.log',
      'pnpm run typecheck 2>&1 | head -100',
      'npm test 2>&1 | tail -20',
      'npm test 2>&1 | tail -40',
      'npm test 2>&1 | tail -60',
      'npm t',
      'npm run test',
      'CI=1 npm test',
      'npm run dev -- --help',
      'npm run watch -- --help',
      'yes "" | npm init',
      'less -F README.md',
      'git stash show -p | head',
      'npm create vite@latest',
      'npm init vite',
      'npx create-next-app',
      'python3 -i x.py',
      'mysql -p',
      'kubectl exec -it web-0 -- sh',
      'git help commit',
      'gh auth login',
      'git cherry-pick -e a1b2c3d',
      'xargs vim',
      '$EDITOR src/app.ts',
      'npx tsc --noEmit',
      'npm run lint',
      'ls',
    ]) {
      expect(commands, c).toContain(c);
    }
  });
});

describe('the scorer', () => {
  const pick = (cls: string) => (s: Sequence) => s.class === cls && s.tool !== 'opencode';
  it("reads refusals and warnings from each tool's answer", () => {
    expect(
      readHookAnswer(
        JSON.stringify({
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'deny',
            permissionDecisionReason: 'x',
          },
        }),
        'PreToolUse',
      ),
    ).toEqual({ deny: true, warn: null });
    expect(readHookAnswer(JSON.stringify({ permission: 'deny', agent_message: 'x' }), 'preToolUse').deny).toBe(true);
    expect(readHookAnswer(JSON.stringify({ additional_context: 'loop-guard: y' }), 'postToolUse').warn).toBe(
      'loop-guard: y',
    );
    expect(readHookAnswer('', 'PostToolUse')).toEqual({ deny: false, warn: null });
    expect(readHookAnswer('{}', 'preToolUse')).toEqual({ deny: false, warn: null });
  });

  it('counts a guard that refuses everything as refusing all work, and one that says nothing as missing every loop', async () => {
    const denyAll: Impl = {
      runHook: (stdin) => {
        const e = JSON.parse(stdin) as Obj;
        if (e.hook_event_name === 'preToolUse') return JSON.stringify({ permission: 'deny', agent_message: 'no' });
        return e.hook_event_name === 'PreToolUse'
          ? JSON.stringify({
              hookSpecificOutput: {
                hookEventName: 'PreToolUse',
                permissionDecision: 'deny',
                permissionDecisionReason: 'no',
              },
            })
          : '';
      },
      LoopGuard: async () => ({
        'tool.execute.before': async () => {
          throw new Error('no');
        },
      }),
    };
    const silent: Impl = { runHook: () => '', LoopGuard: async () => ({}) };
    const work = await scoreCorpus(denyAll, { filter: (s) => s.class === 'exploration' });
    expect(work.overall.workRefused).toBe(work.overall.work);
    expect(work.overall.goals.workRefusals).toBe(false);
    const loops = await scoreCorpus(silent, { filter: pick('plain-repeat') });
    expect(loops.overall.loopsWarnedInTime).toBe(0);
    expect(loops.overall.loopsRefusedInTime).toBe(0);
    expect(loops.overall.goals.loopsWarned).toBe(false);
  });

  it('judges a loop by the attempt of its first flag and first refusal', () => {
    const seq = corpus.find((s) => s.class === 'plain-repeat') as Sequence;
    expect(
      judge(seq, [
        { step: 3, attempt: 3, kind: 'warn', text: '' },
        { step: 5, attempt: 5, kind: 'refuse', text: '' },
      ]).ok,
    ).toBe(true);
    expect(
      judge(seq, [
        { step: 4, attempt: 4, kind: 'warn', text: '' },
        { step: 5, attempt: 5, kind: 'refuse', text: '' },
      ]).ok,
    ).toBe(false);
    expect(
      judge(seq, [
        { step: 3, attempt: 3, kind: 'warn', text: '' },
        { step: 6, attempt: 6, kind: 'refuse', text: '' },
      ]).ok,
    ).toBe(false);
  });
});

describe('the guard on the corpus (issue 9 goals)', () => {
  let score: Score;
  beforeAll(async () => {
    score = await scoreCorpus(impl);
    // The table is the evidence when a goal fails; it costs nothing when they pass.
    console.log(formatReport(score, { failing: false }));
  }, 120_000);

  const failing = (cls: string[]) =>
    score.classes
      .filter((c) => cls.includes(c.name))
      .flatMap((c) => c.failing.map((f) => `${f.id}: ${f.reasons.join('; ')}`));

  // These hold today and must keep holding while the judgment work changes the guard.
  it('catches plain repeats, exit-0 repeats behind `| head`, cycles, static polls, sub-agent repeats and truncated repeats in time', () => {
    expect(
      failing(['plain-repeat', 'exit0-head', 'cycle', 'static-log-poll', 'subagent-repeat', 'truncated-repeat']),
    ).toEqual([]);
  });

  it('stays silent on edit/test cycles, flaky retries, bisecting, reading the code, a log that moves, and new user turns', () => {
    expect(
      failing(['edit-test-cycle', 'flaky-retry', 'bisect', 'exploration', 'poll-log-progress', 'user-turn-between']),
    ).toEqual([]);
  });

  it('change is progress: green reruns and identical `git status` after edits, long builds, polls of a server that comes up, sleep/git status pairs and checks between sub-agents pass', () => {
    expect(
      failing([
        'green-rerun-after-edit',
        'git-status-between-edits',
        'long-build',
        'poll-server-up',
        'sleep-git-status',
        'subagent-between-checks',
        'thrash',
      ]),
    ).toEqual([]);
  });

  it('catches noisy and reworded repeats and reworded polls in time, and keeps results that differ in meaning apart', () => {
    expect(failing(['noisy-repeat', 'reworded-repeat', 'reworded-poll', 'meaningful-differences'])).toEqual([]);
  });

  it('refuses none of the harmless look-alikes, and every command that waits for a person', () => {
    expect(failing(['hang-harmless'])).toEqual([]);
    expect(failing(['hang-waits-for-person'])).toEqual([]);
  });

  // Issue 9's goals, measured on the whole corpus (npm run bench:judgment prints the same numbers per class).
  it('refuses no legitimate work (goal: 0)', () => {
    expect(
      score.overall.workRefused,
      failing(score.classes.filter((c) => c.label === 'work').map((c) => c.name)).join('\n'),
    ).toBe(GOALS.workRefusals);
  });

  it('warns on at most 2% of legitimate work, each warning justified in the corpus', () => {
    expect(score.overall.workWarnShare).toBeLessThanOrEqual(GOALS.workWarnShare);
    expect(score.overall.workWarnedUnjustified).toBe(0);
  });

  it('gives thrash (the same failure across edits) exactly one note and no refusal', () => {
    expect(score.overall.noteOk).toBe(score.overall.notes);
  });

  it('warns (or refuses) at least 95% of loops by their expected attempt (the 3rd for repeats)', () => {
    expect(score.overall.loopsWarnedShare).toBeGreaterThanOrEqual(GOALS.loopsWarned);
  });

  it('refuses at least 95% of loops by their expected attempt (the 5th for repeats)', () => {
    expect(score.overall.loopsRefusedShare).toBeGreaterThanOrEqual(GOALS.loopsRefused);
  });
});
