// The meter on the tools' own session files, fed files the real CLIs wrote against the scripted model (Codex 0.171.0's
// rollouts, Gemini CLI 0.61.0's chat; test/fixtures/PROVENANCE.md): each request once, priced as it lands, the rung's
// own session only, a resumed thread's earlier turns left out, and every failure open.
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Tokens } from '../../src/audit/events.ts';
import { spentNow } from '../../src/run/budget.ts';
import {
  codexRecordReader,
  findCodexRollout,
  geminiRecordReader,
  type RecordReader,
  type RequestRecord,
  startSessionMeter,
} from '../../src/run/session-meter.ts';
import { feedLine, newTally, type PriceOf, readerFor, requestsOf } from '../../src/run/streams.ts';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');
const CODEX_CUT = fixture('codex-0.171.0-rollout-cut.jsonl');
const CODEX_RESUMED = fixture('codex-0.171.0-rollout-resumed.jsonl');
const GEMINI_CUT = fixture('gemini-0.61.0-chat-cut.jsonl');
const CODEX_THREAD = '01a23a7a-0098-7c33-986b-5d17471380ff';
const GEMINI_SESSION = 'aba6a81d-0f2c-4810-8679-bdde69457be5';

/** $3 in, $15 out per million for mock-model (the suite's --prices), $1.25/$10 for gemini-2.5-pro, else no price. */
const price: PriceOf = (tokens, model) => {
  if (model === 'mock-model') return (tokens.input * 3 + tokens.output * 15) / 1e6;
  if (model === 'gemini-2.5-pro') return (tokens.input * 1.25 + tokens.output * 10) / 1e6;
  return undefined;
};
const REQUEST: Tokens = { input: 10, cacheRead: 0, cacheWrite: 0, output: 5 };

function readAll(read: RecordReader, text: string): RequestRecord[] {
  return text
    .split('\n')
    .filter(Boolean)
    .flatMap((l) => read(JSON.parse(l) as Record<string, unknown>));
}

describe('the record readers on the real files', () => {
  it("Codex 0.171.0, cut after its 3rd request: 3 requests of 10 in, 5 out, the turn's model; token_count not again", () => {
    const reqs = readAll(codexRecordReader(), CODEX_CUT);
    expect(reqs.map((r) => r.tokens)).toEqual([REQUEST, REQUEST, REQUEST]);
    expect(new Set(reqs.map((r) => r.model))).toEqual(new Set(['mock-model']));
    // The file's own count: a token_usage_record per response, a token_count only after a response's tool calls.
    expect(CODEX_CUT.match(/"type":"token_usage_record"/g)).toHaveLength(3);
    expect(CODEX_CUT.match(/"type":"token_count"/g)).toHaveLength(2);
  });

  it('Codex without token_usage_record (older versions): each token_count is a request, repeats skipped', () => {
    const older = CODEX_CUT.split('\n')
      .filter((l) => !l.includes('"type":"token_usage_record"'))
      .join('\n');
    const lines = older.split('\n').filter((l) => l.includes('"token_count"'));
    // A rate-limit update repeats the last figures: the same request, not a new one.
    const reqs = readAll(codexRecordReader(), `${older}\n${lines.at(-1)}\n`);
    expect(reqs.map((r) => r.tokens)).toEqual([REQUEST, REQUEST]);
  });

  it('a resumed Codex thread: the earlier turn is the total it starts from, its one request is the new spend', () => {
    const reqs = readAll(codexRecordReader(), CODEX_RESUMED);
    // 5 requests of the first `codex exec`, then 1 of `codex exec resume`.
    expect(reqs).toHaveLength(6);
    expect(reqs[4]?.total).toEqual({ input: 50, cacheRead: 0, cacheWrite: 0, output: 25 });
    expect(reqs[5]?.total).toEqual({ input: 60, cacheRead: 0, cacheWrite: 0, output: 30 });
  });

  it('Gemini CLI 0.61.0, cut after its 3rd request: 3 messages (each written twice), 10 in, 5 out, gemini-2.5-pro', () => {
    const reqs = readAll(geminiRecordReader(), GEMINI_CUT);
    expect(reqs.map((r) => r.tokens)).toEqual([REQUEST, REQUEST, REQUEST]);
    expect(new Set(reqs.map((r) => r.model))).toEqual(new Set(['gemini-2.5-pro']));
    expect(GEMINI_CUT.match(/"type":"gemini"/g)).toHaveLength(5);
  });
});

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'lg-meter-'));
  dirs.push(d);
  return d;
}
const pad = (n: number) => String(n).padStart(2, '0');
function today(): string {
  const d = new Date();
  return `${d.getFullYear()}/${pad(d.getMonth() + 1)}/${pad(d.getDate())}`;
}

/** A CODEX_HOME whose dated folder will hold the thread's rollout (and, beside it, another run's). */
function codexHome(day = today()): { env: Record<string, string>; rollout: string; dir: string } {
  const home = tempDir();
  const dir = join(home, 'sessions', day);
  mkdirSync(dir, { recursive: true });
  return { env: { CODEX_HOME: home }, dir, rollout: join(dir, `rollout-2026-12-03T05-56-43-${CODEX_THREAD}.jsonl`) };
}

describe('the meter while the agent runs', () => {
  it("prices each Codex request as its line lands, a half-written line at the next poll, another run's file never", () => {
    const { env, dir, rollout } = codexHome();
    // Another concurrent run's thread in the same folder: its requests are not this rung's.
    writeFileSync(join(dir, 'rollout-2026-12-03T05-56-40-01a23a7a-ffff-7c33-986b-5d17471380ff.jsonl'), CODEX_CUT);
    const t = newTally('mock-model');
    let calls = 0;
    const meter = startSessionMeter({
      format: 'codex-rollout',
      env,
      cwd: tempDir(),
      since: 0,
      tally: t,
      price,
      onRequest: () => calls++,
      intervalMs: 60_000,
    });
    meter.poll();
    expect(t.meter).toBeUndefined(); // The stream has not named the thread yet.
    t.session = CODEX_THREAD;
    const lines = CODEX_CUT.split('\n').filter(Boolean);
    const firstRecord = lines.findIndex((l) => l.includes('"token_usage_record"'));
    writeFileSync(rollout, `${lines.slice(0, firstRecord).join('\n')}\n`);
    meter.poll();
    expect(meter.path).toBe(rollout);
    expect(t.usd).toBe(0);
    const record = lines[firstRecord] as string;
    appendFileSync(rollout, record.slice(0, 40));
    meter.poll();
    expect(t.meter?.requests).toBe(0);
    appendFileSync(rollout, `${record.slice(40)}\n`);
    meter.poll();
    expect(t.meter?.requests).toBe(1);
    expect(t.usd).toBeCloseTo(0.000105, 9);
    expect(calls).toBe(1);
    appendFileSync(rollout, `${lines.slice(firstRecord + 1).join('\n')}\n`);
    meter.poll();
    meter.stop();
    expect(t.meter?.requests).toBe(3);
    expect(spentNow(t, undefined)).toBe(0.000315);
    // The stream saw 2 requests' items before the cut; the file's 3 is the rung's count.
    t.requests = 2;
    expect(requestsOf(t)).toBe(3);
  });

  it("a resumed thread's rollout, days old, found by the walk: the earlier turn is not spent again, nor at the close", () => {
    const { env, rollout } = codexHome('2020/01/02');
    const thread = '01a23a74-3435-7873-9680-fde13d1477a3';
    const path = rollout.replace(CODEX_THREAD, thread);
    // The rung started as the resumed turn did (its task_started line).
    const lines = CODEX_RESUMED.split('\n').filter(Boolean);
    const resumedAt = lines.map((l) => l.includes('"task_started"')).lastIndexOf(true);
    const since = Date.parse(String((JSON.parse(lines[resumedAt] as string) as { timestamp: string }).timestamp));
    writeFileSync(path, `${lines.join('\n')}\n`);
    expect(findCodexRollout(env, thread, false)).toBeUndefined();
    expect(findCodexRollout(env, thread, true)).toBe(path);
    const t = newTally('mock-model');
    const read = readerFor('codex-events', t, price);
    feedLine(read, JSON.stringify({ type: 'thread.started', thread_id: thread }));
    const meter = startSessionMeter({
      format: 'codex-rollout',
      env,
      cwd: tempDir(),
      since,
      tally: t,
      price,
      onRequest: () => {},
      intervalMs: 60_000,
    });
    meter.poll();
    meter.stop();
    expect(t.meter?.requests).toBe(1);
    expect(t.meter?.prior).toEqual({ input: 50, cacheRead: 0, cacheWrite: 0, output: 25 });
    expect(t.usd).toBeCloseTo(0.000105, 9);
    // What `codex exec resume` 0.171.0 printed at its end: the whole thread's usage (6 requests), not the turn's.
    feedLine(
      read,
      '{"type":"turn.completed","usage":{"input_tokens":60,"cached_input_tokens":0,"cache_write_input_tokens":0,"output_tokens":30,"reasoning_output_tokens":0}}',
    );
    expect(t.closed).toBe(true);
    expect(spentNow(t, undefined)).toBe(0.000105);
  });

  it("a Gemini CLI chat: the project's folder from projects.json, the full session id checked, not a prefix twin's", () => {
    const home = tempDir();
    const cwd = tempDir();
    const chats = join(home, '.gemini', 'tmp', 'my-repo', 'chats');
    mkdirSync(chats, { recursive: true });
    writeFileSync(join(home, '.gemini', 'projects.json'), JSON.stringify({ projects: { [cwd]: 'my-repo' } }));
    // Another session whose id starts with the same 8 characters: its header names it, so it is not read.
    const twin = GEMINI_CUT.replace(GEMINI_SESSION, `${GEMINI_SESSION.slice(0, 8)}-ffff-4810-8679-bdde69457be5`);
    writeFileSync(join(chats, `session-2026-12-03T05-55-${GEMINI_SESSION.slice(0, 8)}.jsonl`), twin);
    const t = newTally('gemini-2.5-pro');
    t.session = GEMINI_SESSION;
    const meter = startSessionMeter({
      format: 'gemini-chat',
      env: { HOME: home },
      cwd,
      since: 0,
      tally: t,
      price,
      onRequest: () => {},
      intervalMs: 60_000,
    });
    meter.poll();
    expect(t.meter).toBeUndefined();
    const mine = join(chats, `session-2026-12-03T05-56-${GEMINI_SESSION.slice(0, 8)}.jsonl`);
    writeFileSync(mine, GEMINI_CUT);
    meter.poll();
    meter.stop();
    expect(meter.path).toBe(mine);
    expect(t.meter?.requests).toBe(3);
    expect(spentNow(t, undefined)).toBe(0.000188);
  });

  it('fails open: no file, lines of another shape, a file rewritten shorter, a closed tally; never a throw', () => {
    const { env, rollout } = codexHome();
    const t = newTally('mock-model');
    t.session = CODEX_THREAD;
    const meter = startSessionMeter({
      format: 'codex-rollout',
      env,
      cwd: tempDir(),
      since: 0,
      tally: t,
      price,
      onRequest: () => {},
      intervalMs: 60_000,
    });
    meter.poll();
    expect(t.unmetered).toBe(true);
    writeFileSync(rollout, 'not json\n{"type":"token_usage_record","payload":{"usage":"?"}}\n[1,2]\n');
    meter.poll();
    expect(t.unmetered).toBe(true);
    appendFileSync(rollout, `${CODEX_CUT.split('\n').find((l) => l.includes('"token_usage_record"'))}\n`);
    meter.poll();
    expect(t.meter?.requests).toBe(1);
    // Rewritten shorter: not a file it can follow any more; what it read stays, nothing more is read.
    writeFileSync(rollout, '');
    meter.poll();
    appendFileSync(rollout, CODEX_CUT);
    meter.poll();
    expect(t.meter?.requests).toBe(1);
    meter.stop();
    meter.poll();

    // After the closing total, the file adds nothing: that total is the spend.
    const closed = newTally('mock-model');
    closed.session = CODEX_THREAD;
    closed.closed = true;
    const after = startSessionMeter({
      format: 'codex-rollout',
      env,
      cwd: tempDir(),
      since: 0,
      tally: closed,
      price,
      onRequest: () => {},
      intervalMs: 60_000,
    });
    after.poll();
    after.stop();
    expect(closed.usd).toBe(0);
  });
});
