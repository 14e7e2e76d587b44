// The recovery ladder without any real CLI: fake agent executables on PATH (test/run/fixtures/fake-agent.mjs) record
// the argv and environment of every run and play scripted JSON streams; `run` itself is called in-process.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseRunArgs } from '../../src/run/args.ts';
import { runCommand } from '../../src/run/index.ts';
import { DEFAULT_POLICY, defaultTableText, parsePolicy, TABLE_PATH } from '../../src/run/policy.ts';
import { RUN_AGENTS } from '../../src/run/agents.ts';
import { tempDir } from '../helpers/sandbox.ts';

const FAKE = join(import.meta.dirname, 'fixtures', 'fake-agent.mjs');

/** The verifier needs a variable nobody sets: no agent can ever make it pass. */
const NEVER = `test -n "$LG_NEVER_SET" || { echo "LG_NEVER_SET is not set: cannot reach the staging database"; exit 1; }`;

type Line = Record<string, unknown>;
interface FakeRun {
  lines?: Line[];
  delayMs?: number;
  exit?: number;
  write?: Record<string, string>;
  stderr?: string;
  hangMs?: number;
  child?: string;
  childIgnoresTerm?: boolean;
  ignoreTerm?: boolean;
}
interface Recorded {
  bin: string;
  argv: string[];
  env: Record<string, string>;
}

/** A Claude Code stream-json run: `requests` assistant messages of 1000 input and 100 output tokens, then a result. */
function claudeRun(requests: number, opts: { session?: string; text?: string; subtype?: string } = {}): FakeRun {
  const session = opts.session ?? 'sess-1';
  const lines: Line[] = [{ type: 'system', subtype: 'init', session_id: session }];
  for (let i = 0; i < requests; i++)
    lines.push({
      type: 'assistant',
      session_id: session,
      message: { id: `msg_${i}`, model: 'claude-sonnet-4-5', usage: { input_tokens: 1000, output_tokens: 100 } },
    });
  lines.push({
    type: 'result',
    subtype: opts.subtype ?? 'success',
    is_error: opts.subtype !== undefined && opts.subtype !== 'success',
    session_id: session,
    result: opts.text ?? 'I changed the connection settings.',
    usage: { input_tokens: 1000 * requests, output_tokens: 100 * requests },
  });
  return { lines };
}

let repo: string;
let bin: string;
let logFile: string;
let scriptFile: string;

function setup(runs: FakeRun[]): void {
  writeFileSync(scriptFile, JSON.stringify({ runs }));
}

function recorded(): Recorded[] {
  if (!existsSync(logFile)) return [];
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Recorded);
}

function finishedRuns(): number[] {
  const f = logFile.replace(/\.jsonl$/, '.finished');
  return existsSync(f) ? readFileSync(f, 'utf8').split('\n').filter(Boolean).map(Number) : [];
}

async function run(args: string[], env: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const code = await runCommand(args, {
    cwd: repo,
    env: {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: repo,
      FAKE_AGENT_LOG: logFile,
      FAKE_AGENT_SCRIPT: scriptFile,
      ...env,
    },
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
  });
  const rungLines = err.split('\n').filter((l) => l.startsWith('rung '));
  return { code, out, err, rungLines };
}

const terminal = () => readFileSync(join(repo, '.agents/run/escalated.tsv'), 'utf8');

beforeEach(() => {
  const base = tempDir('lg-run-');
  repo = join(base, 'repo');
  bin = join(base, 'bin');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(bin);
  for (const name of RUN_AGENTS) copyFileSync(FAKE, join(bin, name));
  logFile = join(base, 'agent.jsonl');
  scriptFile = join(base, 'script.json');
});

describe('the ladder', () => {
  it('climbs four rungs on a failure no agent can fix, then hands off: exit 4 and the terminal line', async () => {
    setup([
      claudeRun(2, { session: 'sess-a' }),
      claudeRun(1, { session: 'sess-a' }),
      claudeRun(1, { session: 'sess-b' }),
      claudeRun(1, { session: 'sess-c' }),
    ]);
    const r = await run([
      '--agent',
      'claude',
      '--task',
      'Connect the app to staging.',
      '--verify',
      NEVER,
      '--step',
      'staging',
    ]);
    expect(r.code).toBe(4);
    expect(r.rungLines.map((l) => l.split('  ')[1]?.trim())).toEqual([
      'attempt',
      'retry with reason',
      'fresh context',
      'smallest step',
      'hand off',
    ]);
    expect(r.rungLines[4]).toContain('ESCALATED');
    expect(terminal()).toBe(
      'ESCALATED\tstaging\t4 failures: LG_NEVER_SET is not set: cannot reach the staging database\n',
    );
    const runs = recorded();
    expect(runs).toHaveLength(4);
    // One run id for the whole climb, set for the guard; the judge's small model is never touched.
    const ids = new Set(runs.map((x) => x.env.LOOP_GUARD_RUN_ID));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(runs.every((x) => x.env.ANTHROPIC_DEFAULT_HAIKU_MODEL === undefined)).toBe(true);
    const prompt = (x: Recorded) => x.argv[x.argv.indexOf('-p') + 1] ?? '';
    // Rung 1: the same conversation, the verifier's objection as the instruction.
    expect(runs[1]?.argv).toContain('--resume');
    expect(runs[1]?.argv[runs[1].argv.indexOf('--resume') + 1]).toBe('sess-a');
    expect(prompt(runs[1] as Recorded)).toContain('LG_NEVER_SET is not set');
    expect(prompt(runs[1] as Recorded)).toContain('Do not restate or repeat the previous approach');
    // Rung 2: a fresh session with the state file of approaches tried and rejected.
    expect(runs[2]?.argv).not.toContain('--resume');
    expect(prompt(runs[2] as Recorded)).toContain('Do not repeat any of them');
    expect(prompt(runs[2] as Recorded)).toContain('I changed the connection settings.');
    expect(prompt(runs[2] as Recorded)).toContain('.agents/run/staging/tried.md');
    // Rung 3: the smallest step on the smaller model, with a turn cap; earlier rungs keep the user's model.
    expect(prompt(runs[3] as Recorded)).toContain('smallest change that could possibly work');
    expect(runs[3]?.argv.slice(runs[3].argv.indexOf('--model'), runs[3].argv.indexOf('--model') + 2)).toEqual([
      '--model',
      'claude-haiku-4-5',
    ]);
    expect(runs[3]?.argv).toContain('--max-turns');
    expect(runs.slice(0, 3).every((x) => !x.argv.includes('--model'))).toBe(true);
    // The state file lists the three rejected approaches of the climb, with the error.
    const tried = readFileSync(join(repo, '.agents/run/staging/tried.md'), 'utf8');
    expect(tried.match(/^## \d/gm)).toHaveLength(4);
    expect(tried).toContain('LG_NEVER_SET is not set');
    expect(readFileSync(join(repo, '.agents/run/.gitignore'), 'utf8')).toContain('*');
  });

  it('halts at once on 401 Unauthorized: one agent run, exit 4, the class in the terminal line', async () => {
    setup([claudeRun(1)]);
    const verify = `echo "GET https://api.example.test/v1/me -> 401 Unauthorized"; exit 1`;
    const r = await run(['--agent', 'claude', '--task', 'Fetch the profile.', '--verify', verify, '--step', 'profile']);
    expect(r.code).toBe(4);
    expect(recorded()).toHaveLength(1);
    expect(r.rungLines).toHaveLength(1);
    expect(r.rungLines[0]).toContain('HALT auth');
    expect(terminal()).toMatch(/^ESCALATED\tprofile\tauth: GET .*401 Unauthorized\n$/);
  });

  it('passes on rung 2 when the fresh session fixes it: exit 0 after two rungs, the step cleared', async () => {
    setup([claudeRun(1), claudeRun(1), { ...claudeRun(1), write: { 'done.txt': 'ok' } }]);
    const r = await run([
      '--agent',
      'claude',
      '--task',
      'Write done.txt.',
      '--verify',
      'test -f done.txt || { echo "done.txt is missing"; exit 1; }',
    ]);
    expect(r.code).toBe(0);
    expect(recorded()).toHaveLength(3);
    expect(r.rungLines.map((l) => l.split('  ')[0])).toEqual(['rung 0', 'rung 1', 'rung 2']);
    expect(r.rungLines[2]).toContain('PASS');
    expect(existsSync(join(repo, '.agents/run/escalated.tsv'))).toBe(false);
    const steps = readFileSync(logFile, 'utf8'); // the step folder is gone, the log is ours
    expect(steps).toBeTruthy();
    expect(existsSync(join(repo, '.agents/run'))).toBe(true);
    expect(readFileSync(join(repo, '.agents/run/.gitignore'), 'utf8')).toContain('*');
  });

  it('a second run of the same step continues the climb where the first stopped', async () => {
    mkdirSync(join(repo, '.agents'), { recursive: true });
    // First run: a table that hands off after one failure.
    writeFileSync(join(repo, '.agents/recovery.txt'), '0 0 attempt 0.5 -\n1 1+ hand-off 0 -\n');
    setup([claudeRun(1, { session: 'first' }), claudeRun(1, { session: 'first' })]);
    const a = await run(['--agent', 'claude', '--task', 'T', '--verify', NEVER, '--step', 's']);
    expect(a.code).toBe(4);
    expect(recorded()).toHaveLength(1);
    // Second run, the default table: it starts at rung 1, in the first run's session, with its objection.
    writeFileSync(join(repo, '.agents/recovery.txt'), defaultTableText(RUN_AGENTS));
    const b = await run(['--agent', 'claude', '--task', 'T', '--verify', NEVER, '--step', 's']);
    expect(b.rungLines[0]?.startsWith('rung 1')).toBe(true);
    const second = recorded()[1] as Recorded;
    expect(second.argv[second.argv.indexOf('--resume') + 1]).toBe('first');
    expect(second.argv[second.argv.indexOf('-p') + 1]).toContain('LG_NEVER_SET is not set');
    expect(second.env.LOOP_GUARD_RUN_ID).toBe(recorded()[0]?.env.LOOP_GUARD_RUN_ID);
  });

  it('--json: one JSON line per rung with the rung, action, share, money, requests, verifier exit and reason', async () => {
    setup([claudeRun(2)]);
    const r = await run(['--agent', 'claude', '--task', 'T', '--verify', NEVER, '--json', '--budget', '10']);
    const lines = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatchObject({
      rung: 0,
      action: 'attempt',
      share: 0.25,
      budgetUsd: 2.5,
      requests: 2,
      verifyExit: 1,
      outcome: 'climb',
    });
    // 2000 input and 200 output tokens of claude-sonnet-4-5 at $3 and $15 per million.
    expect(lines[0]?.spentUsd).toBeCloseTo(0.009, 6);
    expect(lines[0]?.reason).toBe('LG_NEVER_SET is not set: cannot reach the staging database');
    expect(lines[4]).toMatchObject({ rung: 4, action: 'hand-off', share: 0, outcome: 'escalated' });
    expect(r.rungLines[0]).toMatch(
      /^rung 0 {2}attempt +\$0\.009000 of \$2\.50 {2}2 requests {2}verify exit 1 {2}climb/,
    );
  });
});

describe('budgets', () => {
  it('passes each rung its share as Claude Code’s own cap (--max-budget-usd)', async () => {
    setup([claudeRun(1)]);
    await run(['--agent', 'claude', '--task', 'T', '--verify', NEVER, '--budget', '2']);
    const caps = recorded().map((x) => x.argv[x.argv.indexOf('--max-budget-usd') + 1]);
    expect(caps).toEqual(['0.500000', '0.300000', '0.500000', '0.700000']);
  });

  it('a share smaller than one request: the agent is stopped by the request that crossed it, halt as budget', async () => {
    // $0.01 × 0.25 = $0.0025 for rung 0; one request costs $0.0045. The fake ignores the cap, so our meter must act.
    setup([{ ...claudeRun(50), delayMs: 40 }]);
    const r = await run(['--agent', 'claude', '--task', 'T', '--verify', NEVER, '--budget', '0.01', '--json']);
    expect(r.code).toBe(4);
    expect(finishedRuns()).toEqual([]);
    const line = JSON.parse(r.out.trim().split('\n')[0] ?? '{}') as Record<string, number | string>;
    expect(line).toMatchObject({ outcome: 'halt', class: 'budget', requests: 1 });
    expect(line.spentUsd).toBeCloseTo(0.0045, 6);
    expect(terminal()).toContain('\tbudget: budget exhausted');
  });

  it('Codex (usage per turn only): the first rung measures the price of a request, the next is cut by it', async () => {
    const codexRun = (items: number): FakeRun => ({
      delayMs: 40,
      lines: [
        { type: 'thread.started', thread_id: 'th-1' },
        { type: 'turn.started' },
        ...Array.from({ length: items }, (_, i) => ({
          type: 'item.completed',
          item: { id: `i${i}`, type: 'command_execution', command: 'x' },
        })),
        { type: 'item.completed', item: { id: 'last', type: 'agent_message', text: 'done' } },
        {
          type: 'turn.completed',
          usage: { input_tokens: 1000 * (items + 1), cached_input_tokens: 0, output_tokens: 100 * (items + 1) },
        },
      ],
    });
    setup([codexRun(1), codexRun(40)]);
    // gpt-5 prices through the built-in list; rung 1's share ($0.015) holds about 2 requests of rung 0's price.
    const r = await run([
      '--agent',
      'codex',
      '--task',
      'T',
      '--verify',
      NEVER,
      '--budget',
      '0.1',
      '--json',
      '--',
      '-c',
      'model="gpt-5"',
    ]);
    const lines = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(recorded()).toHaveLength(2);
    expect(finishedRuns()).toEqual([0]);
    expect(lines[1]).toMatchObject({ rung: 1, outcome: 'halt', class: 'budget' });
    // Rung 1 resumed the thread: `exec resume … <id> <prompt>`.
    expect(recorded()[1]?.argv.slice(0, 3)).toEqual(['exec', 'resume', '--json']);
    expect(recorded()[1]?.argv.at(-2)).toBe('th-1');
  });
});

describe('budgets: Codex metered from its rollout file (session-meter.ts), and without one', () => {
  const pad = (n: number) => String(n).padStart(2, '0');
  const d = new Date();
  const rollout = `.codex-home/sessions/${d.getFullYear()}/${pad(d.getMonth() + 1)}/${pad(d.getDate())}/rollout-2026-12-03T05-56-43-th-meter.jsonl`;
  /** The shape Codex 0.171.0 writes (test/run/fixtures/codex-0.171.0-rollout-cut.jsonl): a turn_context naming the
   *  model, then a token_usage_record per response (1000 in, 100 out), here all on disk as the run starts. */
  const records = (requests: number) =>
    [
      { type: 'turn_context', payload: { model: 'gpt-5' } },
      ...Array.from({ length: requests }, (_, i) => ({
        type: 'token_usage_record',
        payload: {
          response_id: `resp_${i}`,
          usage: { input_tokens: 1000, cached_input_tokens: 0, output_tokens: 100 },
          thread_token_usage: { input_tokens: 1000 * (i + 1), cached_input_tokens: 0, output_tokens: 100 * (i + 1) },
        },
      })),
    ]
      .map((r) => JSON.stringify(r))
      .join('\n');
  /** A Codex exec run of 40 command items that prints its usage only in turn.completed. */
  const codexRun = (file: string): FakeRun => ({
    delayMs: 40,
    write: { [rollout]: `${file}\n` },
    lines: [
      { type: 'thread.started', thread_id: 'th-meter' },
      ...Array.from({ length: 40 }, (_, i) => ({
        type: 'item.completed',
        item: { id: `i${i}`, type: 'command_execution', command: 'x' },
      })),
      { type: 'turn.completed', usage: { input_tokens: 41_000, cached_input_tokens: 0, output_tokens: 4100 } },
    ],
  });
  // gpt-5 at $1.25/$10: $0.00225 a request; rung 0's share of $0.02 is $0.005, crossed by the 3rd request.
  const args = ['--agent', 'codex', '--task', 'T', '--verify', NEVER, '--budget', '0.02', '--json'];

  it("the first rung is cut by the rollout's records before the stream's closing total: 3 requests, halt budget", async () => {
    setup([codexRun(records(3))]);
    const r = await run(args, { CODEX_HOME: join(repo, '.codex-home') });
    expect(r.code).toBe(4);
    // Stopped, not finished: nothing on stdout could have priced it before its end.
    expect(finishedRuns()).toEqual([]);
    const line = JSON.parse(r.out.trim().split('\n')[0] ?? '{}') as Record<string, unknown>;
    expect(line).toMatchObject({ rung: 0, outcome: 'halt', class: 'budget', requests: 3, model: 'gpt-5' });
    expect(line.spentUsd).toBeCloseTo(0.00675, 6);
    expect(String(line.notes)).toContain('stopped at its share');
  });

  it('fails open: a rollout of another shape leaves the first rung to its closing total, found past its share', async () => {
    setup([codexRun('{"type":"token_usage_record","payload":{"usage":"changed"}}\nnot json')]);
    // The model from the argv this time: the rollout that would have named it is unreadable.
    const r = await run([...args, '--', '-c', 'model="gpt-5"'], { CODEX_HOME: join(repo, '.codex-home') });
    expect(r.code).toBe(4);
    expect(finishedRuns()).toEqual([0]);
    const line = JSON.parse(r.out.trim().split('\n')[0] ?? '{}') as Record<string, unknown>;
    expect(line).toMatchObject({ rung: 0, outcome: 'halt', class: 'budget', requests: 40 });
    expect(line.spentUsd).toBeCloseTo(0.09225, 6);
    expect(String(line.notes)).toContain('by the end of the agent');
  });
});

describe('budgets: Cline (tokens per request, the model named at the end) and Copilot CLI (no tokens)', () => {
  /** A Cline 3.0.65 --json run, shaped as the captured one (test/run/fixtures/cline-3.0.65-rung.agent.log): a usage
   *  event per request (1000 in, 100 out), then run_result with the total and the model. */
  const clineRun = (requests: number): FakeRun => ({
    delayMs: 40,
    lines: [
      ...Array.from({ length: requests }, () => ({
        type: 'agent_event',
        event: { type: 'usage', inputTokens: 1000, outputTokens: 100, totalCost: 0 },
      })),
      {
        type: 'run_result',
        finishReason: 'completed',
        iterations: requests,
        usage: { inputTokens: 1000 * requests, outputTokens: 100 * requests, cacheReadTokens: 0, cacheWriteTokens: 0 },
        text: 'I changed the connection settings.',
        model: { id: 'claude-sonnet-4-5', provider: 'anthropic' },
      },
    ],
  });
  const jsonLines = (out: string) =>
    out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it('the first rung is priced at its end: past its share it halts as budget, and no later rung starts', async () => {
    // Rung 0's share is $0.0025; 2 requests of claude-sonnet-4-5 cost $0.009, known only from run_result.
    setup([clineRun(2)]);
    const r = await run(['--agent', 'cline', '--task', 'T', '--verify', NEVER, '--budget', '0.01', '--json']);
    expect(r.code).toBe(4);
    expect(recorded()).toHaveLength(1);
    const [line] = jsonLines(r.out);
    expect(line).toMatchObject({ rung: 0, outcome: 'halt', class: 'budget', requests: 2, model: 'claude-sonnet-4-5' });
    expect(line?.spentUsd).toBeCloseTo(0.009, 6);
    expect(((line?.notes ?? []) as string[]).join(' ')).toContain("by the end of the agent's run");
    expect(terminal()).toContain('\tbudget: budget exhausted');
  });

  it('a later rung is cut as it streams, by the dollars per request the first rung measured', async () => {
    // Rung 0: 2 requests, $0.009 of $0.025. Rung 1's share is $0.015: the 4th request ($0.018) crosses it.
    setup([clineRun(2), clineRun(40)]);
    const r = await run(['--agent', 'cline', '--task', 'T', '--verify', NEVER, '--budget', '0.1', '--json']);
    const lines = jsonLines(r.out);
    expect(r.code).toBe(4);
    expect(lines.map((l) => `${l.rung} ${l.outcome}`)).toEqual(['0 climb', '1 halt']);
    expect(lines[1]).toMatchObject({ class: 'budget', requests: 4 });
    expect(lines[1]?.spentUsd).toBeCloseTo(0.018, 6);
    expect(finishedRuns()).toEqual([0]);
  });

  /** Cline's settings file as `cline auth -m <model>` writes it (test/run/fixtures/cline-3.0.65-providers.json). */
  const clineSettings = (model: string) => {
    const dir = join(repo, '.cline', 'data', 'settings');
    mkdirSync(dir, { recursive: true });
    const captured = JSON.parse(
      readFileSync(join(import.meta.dirname, 'fixtures', 'cline-3.0.65-providers.json'), 'utf8'),
    );
    captured.providers['openai-compatible'].settings.model = model;
    writeFileSync(join(dir, 'providers.json'), JSON.stringify(captured));
  };

  it('without -m, the model its settings file names prices the first rung as it streams: cut by one request', async () => {
    // HOME is the repo: $HOME/.cline/data/settings/providers.json names claude-sonnet-4-5. Rung 0's share is
    // $0.0025 and one request costs $0.0045: the first usage event crosses it, 39 of the 40 requests never run.
    clineSettings('claude-sonnet-4-5');
    setup([clineRun(40)]);
    const r = await run(['--agent', 'cline', '--task', 'T', '--verify', NEVER, '--budget', '0.01', '--json']);
    expect(r.code).toBe(4);
    const [line] = jsonLines(r.out);
    expect(line).toMatchObject({ rung: 0, outcome: 'halt', class: 'budget', requests: 1, model: 'claude-sonnet-4-5' });
    expect(line?.spentUsd).toBeCloseTo(0.0045, 6);
    expect(((line?.notes ?? []) as string[]).join(' ')).toContain('stopped at its share ($0.002500)');
    expect(finishedRuns()).toEqual([]);
  });

  it("rung 3's smaller model, which Cline saves as its own, is not the user's Cline model after the climb", async () => {
    // The fake Cline does what Cline 3.0.65 does with -m: it saves the model in providers.json (HOME is the repo).
    clineSettings('claude-sonnet-4-5');
    const saved = JSON.parse(readFileSync(join(repo, '.cline/data/settings/providers.json'), 'utf8'));
    saved.providers['openai-compatible'].settings.model = 'claude-haiku-4-5';
    saved.providers['openai-compatible'].updatedAt = '{{now}}';
    const rung3 = { ...clineRun(1), write: { '.cline/data/settings/providers.json': JSON.stringify(saved) } };
    setup([clineRun(1), clineRun(1), clineRun(1), rung3]);
    mkdirSync(join(repo, '.agents'), { recursive: true });
    writeFileSync(
      join(repo, '.agents/recovery.txt'),
      `${defaultTableText(RUN_AGENTS)}smaller-model  cline  claude-haiku-4-5\n`,
    );
    const r = await run(['--agent', 'cline', '--task', 'T', '--verify', NEVER, '--json']);
    expect(r.code).toBe(4);
    const argv = recorded().map((c) => c.argv.join(' '));
    expect(argv[3]).toContain('-m claude-haiku-4-5');
    const after = JSON.parse(readFileSync(join(repo, '.cline/data/settings/providers.json'), 'utf8'));
    expect(after.providers['openai-compatible'].settings.model).toBe('claude-sonnet-4-5');
    // What else Cline wrote there stays as Cline left it.
    expect(after.providers['openai-compatible'].updatedAt).not.toBe(saved.providers['openai-compatible'].updatedAt);
  });

  it("the closing run_result's model wins over the settings file's, and the line says so", async () => {
    clineSettings('claude-haiku-4-5');
    setup([clineRun(2)]);
    const r = await run(['--agent', 'cline', '--task', 'T', '--verify', NEVER, '--json']);
    const [line] = jsonLines(r.out);
    expect(line).toMatchObject({ rung: 0, requests: 2, model: 'claude-sonnet-4-5' });
    // 2 × (1000 in, 100 out) at claude-sonnet-4-5's $3/$15, not claude-haiku-4-5's $1/$5.
    expect(line?.spentUsd).toBeCloseTo(0.009, 6);
    expect(line?.notes).toContain(
      'Cline named claude-sonnet-4-5 at its end, not claude-haiku-4-5 from its settings: priced as claude-sonnet-4-5',
    );
  });

  it('with a budget, --agent copilot is refused (exit 2): its JSON carries no tokens, so no share could hold', async () => {
    setup([claudeRun(1)]);
    const flag = await run(['--agent', 'copilot', '--task', 'T', '--verify', 'true', '--budget', '2']);
    expect(flag.code).toBe(2);
    expect(flag.err).toContain("--budget: Copilot CLI's JSON output carries no token usage");
    const env = await run(['--agent', 'copilot', '--task', 'T', '--verify', 'true'], { LOOP_GUARD_RUN_BUDGET: '2' });
    expect(env.code).toBe(2);
    expect(env.err).toContain('LOOP_GUARD_RUN_BUDGET: Copilot CLI');
    expect(env.err).toContain('unset LOOP_GUARD_RUN_BUDGET');
    expect(recorded()).toHaveLength(0);
    // Without a budget it runs, its money unknown.
    const free = await run(['--agent', 'copilot', '--task', 'T', '--verify', 'true', '--json']);
    expect(free.code).toBe(0);
    expect(jsonLines(free.out)[0]).toMatchObject({ outcome: 'pass', spentUsd: null });
  });

  it('run --help says so where it describes --budget', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    const budget = r.out.slice(r.out.indexOf('--budget <USD>'), r.out.indexOf('--rung-timeout <s>'));
    expect(budget.replace(/\s+/g, ' ')).toContain('refused with --agent copilot (exit 2)');
  });
});

describe('what the agent says about its own end', () => {
  it("the guard's hand-off note is folded into the state file, and a refused class that halts halts", async () => {
    const note = (failure?: string) =>
      JSON.stringify([
        {
          at: '{{now}}',
          tool: 'claude',
          session: 's',
          command: 'curl https://api.example.test',
          refused: [
            {
              command: 'curl https://api.example.test',
              refusals: 1,
              results: 4,
              lastLines: 'connection reset by peer',
              ...(failure ? { failure } : {}),
            },
          ],
          tried: [],
        },
      ]);
    setup([
      { ...claudeRun(1), write: { '.agents/handoff.json': note() } },
      { ...claudeRun(1), write: { '.agents/handoff.json': note('network') } },
    ]);
    const r = await run([
      '--agent',
      'claude',
      '--task',
      'T',
      '--verify',
      'echo "the smoke test failed"; exit 1',
      '--step',
      'h',
    ]);
    expect(r.rungLines[0]).toContain('the loop guard handed off');
    expect(r.rungLines[0]).toContain('climb');
    expect(r.rungLines[1]).toContain('HALT network');
    expect(recorded()).toHaveLength(2);
    const state = JSON.parse(readFileSync(join(repo, '.agents/run/h/state.json'), 'utf8')) as {
      attempts: Array<{ handoff?: string }>;
    };
    expect(state.attempts[0]?.handoff).toContain('refused `curl https://api.example.test`');
  });

  const REFUSAL = "I can't do this: the repository's PreToolUse hook blocks every network call (team policy).";

  it("the agent's own refusal by a rule (a hook, a policy) halts as scope: one agent run, exit 4", async () => {
    setup([claudeRun(1, { text: REFUSAL }), claudeRun(1)]);
    const r = await run(['--agent', 'claude', '--task', 'T', '--verify', NEVER, '--step', 'sc', '--json']);
    expect(r.code).toBe(4);
    expect(recorded()).toHaveLength(1);
    const line = JSON.parse(r.out.trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ rung: 0, outcome: 'halt', class: 'scope', reason: `the agent refused: ${REFUSAL}` });
    expect(r.rungLines[0]).toContain('HALT scope');
    expect(terminal()).toBe(`ESCALATED\tsc\tscope: the agent refused: ${REFUSAL}\n`);
  });

  it('a refusal climbs when the recovery table does not halt on scope', async () => {
    mkdirSync(join(repo, '.agents'), { recursive: true });
    const table = defaultTableText(RUN_AGENTS).replace(/^halt .*$/m, 'halt auth network command-not-found budget');
    writeFileSync(join(repo, '.agents/recovery.txt'), table);
    setup([0, 1, 2, 3].map(() => claudeRun(1, { text: REFUSAL })));
    const r = await run(['--agent', 'claude', '--task', 'T', '--verify', NEVER]);
    expect(r.code).toBe(4);
    expect(recorded()).toHaveLength(4);
    expect(r.rungLines.map((l) => / {2}(climb|ESCALATED)/.exec(l)?.[1])).toEqual([
      'climb',
      'climb',
      'climb',
      'climb',
      'ESCALATED',
    ]);
  });

  it('a refusal in a rung where the loop guard handed off is the hand-off, which climbs', async () => {
    const note = JSON.stringify([
      {
        at: '{{now}}',
        tool: 'claude',
        session: 's',
        command: 'npm test',
        refused: [{ command: 'npm test', refusals: 1, results: 4, lastLines: '1 failing' }],
        tried: [],
      },
    ]);
    setup([{ ...claudeRun(1, { text: REFUSAL }), write: { '.agents/handoff.json': note } }, claudeRun(1)]);
    const r = await run(['--agent', 'claude', '--task', 'T', '--verify', NEVER]);
    expect(r.rungLines[0]).toContain('the loop guard handed off');
    expect(r.rungLines[0]).toContain('  climb  ');
    expect(recorded().length).toBeGreaterThan(1);
  });

  it('an agent that is not installed halts with command-not-found, nothing else runs', async () => {
    const r = await runCommand(['--agent', 'gemini', '--task', 'T', '--verify', 'true'], {
      cwd: repo,
      env: { PATH: '/nonexistent' },
      out: () => {},
      err: () => {},
    });
    expect(r).toBe(4);
    expect(terminal()).toContain('command-not-found: gemini: command not found');
  });
});

describe('the wall-clock limit per rung (--rung-timeout)', () => {
  /** Alive and not a zombie (an orphan ended but not yet reaped by init is gone for our purposes). */
  const alive = (pid: number): boolean => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return !/^\d+ \(.*\) [ZX]/.test(stat);
    } catch {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    }
  };
  const aliveAfter = async (pid: number, ms: number): Promise<boolean> => {
    const until = Date.now() + ms;
    while (alive(pid)) {
      if (Date.now() > until) return true;
      await new Promise((r) => setTimeout(r, 25));
    }
    return false;
  };
  const pidFile = () => join(repo, '..', 'child.pid');
  const childPid = () => Number(readFileSync(pidFile(), 'utf8'));
  const init = { type: 'system', subtype: 'init', session_id: 'sess-h' };

  it('a hung agent is ended with the sleep it started, the rung climbs and the next rung passes: exit 0', async () => {
    setup([
      { lines: [init], hangMs: 60_000, child: pidFile() },
      { ...claudeRun(1), write: { 'done.txt': 'ok' } },
    ]);
    const r = await run(
      ['--agent', 'claude', '--task', 'T', '--verify', 'test -f done.txt', '--rung-timeout', '1', '--json'],
      {},
    );
    expect(r.code, r.err).toBe(0);
    // Run 0 never finished (it was ended); run 1 did.
    expect(finishedRuns()).toEqual([1]);
    expect(await aliveAfter(childPid(), 500)).toBe(false);
    const lines = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => `${l.rung} ${l.outcome} ${l.timedOut}`)).toEqual(['0 climb true', '1 pass false']);
    expect(lines[0]?.notes).toContain("timed out after 1 s (--rung-timeout): the agent's process group was ended");
    expect(r.rungLines).toHaveLength(2);
    expect(r.rungLines[0]).toMatch(
      /^rung 0 {2}attempt .* {2}verify exit 1 {2}climb .*timed out after 1 s \(--rung-timeout\)/,
    );
  });

  it('a child that ignores SIGTERM and let go of the pipes gets SIGKILL after the grace; every rung hangs: exit 4', async () => {
    const pids = [0, 1, 2, 3].map((n) => join(repo, '..', `child-${n}.pid`));
    setup(
      pids.map((child, n) => ({
        lines: [init],
        hangMs: 60_000,
        child,
        ...(n === 0 ? { childIgnoresTerm: true } : {}),
      })),
    );
    const r = await run(['--agent', 'claude', '--task', 'T', '--verify', NEVER, '--rung-timeout', '0.5', '--json']);
    expect(r.code, r.err).toBe(4);
    expect(finishedRuns()).toEqual([]);
    const lines = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => `${l.rung} ${l.outcome} ${l.timedOut}`)).toEqual([
      '0 climb true',
      '1 climb true',
      '2 climb true',
      '3 climb true',
      '4 escalated false',
    ]);
    // Rung 0's child ignores SIGTERM: only the SIGKILL after the grace ends it (no assertion on wall time).
    for (const f of pids) expect(await aliveAfter(Number(readFileSync(f, 'utf8')), 500), f).toBe(false);
    expect(terminal()).toContain('ESCALATED\t');
    // The fresh-context rung's state file tells the model the earlier attempts timed out.
    expect(recorded()[2]?.argv.join(' ')).toContain('timed out after 0.5 s (--rung-timeout)');
  }, 40_000);

  it('--rung-timeout must be a number of seconds: exit 2, no agent runs', async () => {
    setup([claudeRun(1)]);
    const r = await run(['--agent', 'claude', '--task', 'T', '--verify', 'true', '--rung-timeout', '30m']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--rung-timeout 30m: not a number of seconds.');
    expect(recorded()).toEqual([]);
  });
});

describe('--print-table: the defaults as the file a team starts its own from', () => {
  it('prints the documented default table, which reads back as the defaults; no agent runs, nothing is written', async () => {
    setup([claudeRun(1)]);
    const r = await run(['--print-table']);
    expect(r.code).toBe(0);
    expect(recorded()).toEqual([]);
    expect(existsSync(join(repo, '.agents'))).toBe(false);
    const policy = parsePolicy(TABLE_PATH, r.out, RUN_AGENTS);
    expect(policy.rungs).toEqual(DEFAULT_POLICY.rungs);
    expect(policy.halt).toEqual(DEFAULT_POLICY.halt);
    expect(policy.smallerModel).toEqual({
      ...DEFAULT_POLICY.smallerModel,
      opencode: '',
      kilo: '',
      copilot: '',
      cline: '',
    });
    // Every tool `run` drives has its smaller-model line to fill in.
    for (const tool of RUN_AGENTS) expect(r.out).toMatch(new RegExp(`^smaller-model {2}${tool} +\\S+$`, 'm'));
  });
});

describe("the verifier's wall-clock limit (--verify-timeout)", () => {
  /** Hangs on its first call only (in the background, holding the pipes, with its pid written down), then decides. */
  const hangOnce = (pidFile: string) =>
    `n=$(cat .verify-count 2>/dev/null || echo 0); echo $((n+1)) > .verify-count; ` +
    `if [ "$n" = 0 ]; then echo "checking the staging database"; sleep 60 & echo $! > ${pidFile}; wait; fi; ` +
    'test -f done.txt || { echo "done.txt is missing"; exit 1; }';
  const gone = async (pid: number): Promise<boolean> => {
    for (let i = 0; i < 100; i++) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        if (/^\d+ \(.*\) [ZX]/.test(stat)) return true;
      } catch {
        return true;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    return false;
  };

  it('a hung verifier is ended with what it started; the rung climbs as a timeout and the next rung passes', async () => {
    const pidFile = join(repo, '..', 'verify-child.pid');
    setup([claudeRun(1), { ...claudeRun(1), write: { 'done.txt': 'ok' } }]);
    const r = await run([
      '--agent',
      'claude',
      '--task',
      'T',
      '--verify',
      hangOnce(pidFile),
      '--verify-timeout',
      '0.5',
      '--json',
    ]);
    expect(r.code, r.err).toBe(0);
    const lines = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => `${l.rung} ${l.outcome} ${l.class} ${l.verifyTimedOut} ${l.verifyExit}`)).toEqual([
      '0 climb timeout true null',
      '1 pass null false 0',
    ]);
    const note = 'the verifier timed out after 0.5 s (--verify-timeout): its process group was ended';
    expect(lines[0]?.reason).toBe('checking the staging database');
    expect(r.rungLines[0]).toMatch(/ {2}verify timed out {2}climb {2}checking the staging database/);
    // The sleep the verifier started in the background went with it.
    expect(await gone(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
    // Rung 1's objection (its prompt) carries the verifier's output and the note.
    const prompt = recorded()[1]?.argv[1] ?? '';
    expect(prompt).toContain('checking the staging database');
    expect(prompt).toContain(note);
  });

  it('a verifier that only hangs climbs every rung and hands off: exit 4, the note in the terminal line', async () => {
    setup([claudeRun(1), claudeRun(1), claudeRun(1), claudeRun(1)]);
    const r = await run(['--agent', 'claude', '--task', 'T', '--verify', 'sleep 60', '--verify-timeout', '0.2']);
    expect(r.code, r.err).toBe(4);
    expect(r.rungLines.map((l) => l.includes('verify timed out'))).toEqual([true, true, true, true, false]);
    expect(terminal()).toMatch(
      /^ESCALATED\t[^\t]+\t4 failures: the verifier timed out after 0\.2 s \(--verify-timeout\): its process group was ended\n$/,
    );
  });

  it('without the flag the limit is 600 s; 0 turns it off; a word instead of seconds is exit 2, nothing runs', async () => {
    const parse = (more: string[]) =>
      parseRunArgs(['--agent', 'claude', '--task', 'T', '--verify', 'true', ...more], {}, repo);
    expect(parse([])).toMatchObject({ options: { verifyTimeoutS: 600 } });
    expect(parse(['--verify-timeout', '0'])).toMatchObject({ options: { verifyTimeoutS: null } });
    expect(parse(['--verify-timeout', '2.5'])).toMatchObject({ options: { verifyTimeoutS: 2.5 } });
    setup([claudeRun(1)]);
    const r = await run(['--agent', 'claude', '--task', 'T', '--verify', 'true', '--verify-timeout', '10m']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--verify-timeout 10m: not a number of seconds. Write e.g. --verify-timeout 600');
    expect(recorded()).toEqual([]);
  });
});

describe('bad input', () => {
  it('a broken recovery table is exit 2 with file:line:column and the fix; no agent runs', async () => {
    mkdirSync(join(repo, '.agents'), { recursive: true });
    const table = '# mine\n0  0  attempt        0.25  -\n1  1  retry-harder    0.15  -\n';
    writeFileSync(join(repo, '.agents/recovery.txt'), table);
    setup([claudeRun(1)]);
    const r = await run(['--agent', 'claude', '--task', 'T', '--verify', 'true']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('.agents/recovery.txt:3:7: unknown action "retry-harder". Actions: attempt,');
    expect(recorded()).toHaveLength(0);
    expect(readFileSync(join(repo, '.agents/recovery.txt'), 'utf8')).toBe(table);
  });

  it.each([
    [['--task', 'T', '--verify', 'true'], 'run needs --agent'],
    [['--agent', 'cursor', '--task', 'T', '--verify', 'true'], '--agent cursor: not a tool run can drive.'],
    [['--agent', 'claude', '--verify', 'true'], 'run needs --task'],
    [['--agent', 'claude', '--task', 'T'], 'run needs --verify'],
    [['--agent', 'claude', '--task', 'T', '--verify', 'true', '--budget', 'lots'], 'is not an amount of US dollars'],
    [['--agent', 'claude', '--task', '@missing.md', '--verify', 'true'], 'cannot read'],
    [
      ['--agent', 'claude', '--task', 'T', '--verify', 'true', '--max-turns', '3'],
      'unknown option --max-turns. Agent flags go after --.',
    ],
  ])('%j → exit 2', async (args, text) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.err).toContain(text);
    expect(recorded()).toHaveLength(0);
  });

  it('the budget may come from LOOP_GUARD_RUN_BUDGET', async () => {
    setup([claudeRun(1)]);
    await run(['--agent', 'claude', '--task', 'T', '--verify', NEVER], { LOOP_GUARD_RUN_BUDGET: '4' });
    expect(recorded()[0]?.argv[recorded()[0]?.argv.indexOf('--max-budget-usd') ?? 0 + 1]).toBeDefined();
    const first = recorded()[0] as Recorded;
    expect(first.argv[first.argv.indexOf('--max-budget-usd') + 1]).toBe('1.000000');
  });

  it('agent flags after -- are passed through untouched, the task may come from a file', async () => {
    writeFileSync(join(repo, 'TASK.md'), 'Fix the build.\n');
    setup([claudeRun(1)]);
    await run([
      '--agent',
      'claude',
      '--task',
      '@TASK.md',
      '--verify',
      'true',
      '--',
      '--allowedTools',
      'Bash',
      '--json',
    ]);
    const first = recorded()[0] as Recorded;
    expect(first.argv.slice(-3)).toEqual(['--allowedTools', 'Bash', '--json']);
    expect(first.argv[first.argv.indexOf('-p') + 1]).toBe('Fix the build.\n');
  });
});

describe('--remove', () => {
  it('removeRunState takes .agents/run/ out, and .agents/ with it when nothing else is left', async () => {
    const { removeRunState } = await import('../../src/run/state.ts');
    setup([claudeRun(1)]);
    await run(['--agent', 'claude', '--task', 'T', '--verify', NEVER, '--step', 'r']);
    expect(existsSync(join(repo, '.agents/run/r/state.json'))).toBe(true);
    writeFileSync(join(repo, '.agents/handoff.md'), '# note\n');
    expect(removeRunState(repo)).toBe(true);
    expect(existsSync(join(repo, '.agents/run'))).toBe(false);
    // The guard's note is not ours to take: .agents/ stays for it.
    expect(existsSync(join(repo, '.agents/handoff.md'))).toBe(true);
    expect(removeRunState(repo)).toBe(false);
  });
});
