// Money in the audit: list prices per model and token kind, per loop, session, day and in total; unknown models and
// unrecorded usage said so; a --prices file first, and a broken one refused with its line and column.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireCli, runCli } from '../helpers/cli.ts';
import { claudeLoopFile, editLines, fixtureHome, homeEnv } from './fixtures.ts';

interface Money {
  usd: number | null;
  unpriced: number;
  unrecorded: number;
}
interface Kinds {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}
type Loop = Money & {
  tool: string;
  session: string;
  requests: number;
  tokens?: number;
  tokenKinds?: Kinds;
  saved: { requests: number; usd: number | null };
};
interface Report {
  loops: Loop[];
  totals: Money & {
    saved: { usd: number | null };
    byDay: Array<Money & { day: string }>;
    bySession: Array<Money & { tool: string; session: string; loops: number }>;
    byProject: Array<Money & { project: string }>;
  };
  prices: { checked: string; override: string | null; unknownModels: string[] };
}

let home: string;
let cwd: string;
beforeAll(() => {
  requireCli();
  home = fixtureHome();
  cwd = mkdtempSync(join(tmpdir(), 'lg-audit-money-'));
});
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

const run = (args: string[], h = home) => runCli(['audit', ...args], { cwd, env: homeEnv(h) });
const json = (args: string[], h = home) => {
  const r = run(['--json', ...args], h);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Report;
};
/** Claude Sonnet 4.x list prices, dollars per million tokens (the fixture's model is claude-sonnet-4-5). */
const SONNET = { input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 };
const dollars = (k: Kinds, p: Kinds) =>
  (k.input * p.input + k.cacheRead * p.cacheRead + k.cacheWrite * p.cacheWrite + k.output * p.output) / 1e6;

describe('audit money (built CLI, real transcripts)', () => {
  it('a Claude Code loop is priced per token kind at the Sonnet list price; the split adds up to the tokens', () => {
    const rep = json(['--all']);
    const claude = rep.loops.find((l) => l.tool === 'claude') as Loop;
    const k = claude.tokenKinds as Kinds;
    expect(k.input + k.cacheRead + k.cacheWrite + k.output).toBe(claude.tokens);
    expect(claude.usd).toBeCloseTo(dollars(k, SONNET), 9);
    expect(claude.usd).toBeGreaterThan(0);
    expect(claude).toMatchObject({ unpriced: 0, unrecorded: 0 });
    expect(claude.saved.usd).toBeGreaterThan(0);
    expect(claude.saved.usd as number).toBeLessThan(claude.usd as number);
  });

  it('a model with no price is said so, never counted as $0', () => {
    const rep = json(['--all']);
    const codex = rep.loops.find((l) => l.tool === 'codex') as Loop;
    expect(codex.usd).toBeNull();
    expect(codex.unpriced).toBe(codex.requests);
    // Every tool here records its model (OpenCode and Kilo on the message row, not the usage part).
    expect(rep.prices.unknownModels).toEqual(['mock-model']);
    // The total is the priced part, with the unpriced requests counted beside it.
    const priced = rep.loops.reduce((n, l) => n + (l.usd ?? 0), 0);
    expect(rep.totals.usd).toBeCloseTo(priced, 9);
    expect(rep.totals.unpriced).toBe(rep.loops.reduce((n, l) => n + l.unpriced, 0));
    const text = run(['--all']).stdout;
    expect(text).toContain('not priced (unknown model)');
    expect(text).toContain('no price for');
    expect(text).toContain('mock-model');
  });

  it('per session, per day and per project', () => {
    const rep = json(['--all']);
    const claude = rep.loops.find((l) => l.tool === 'claude') as Loop;
    const session = rep.totals.bySession.find((s) => s.session === claude.session);
    expect(session).toMatchObject({ tool: 'claude', loops: 1, usd: claude.usd });
    expect(rep.totals.byDay.map((d) => d.day)).toEqual(['2026-11-30']);
    expect(rep.totals.byDay[0]?.usd).toBeCloseTo(rep.totals.usd as number, 9);
    expect(rep.totals.byProject[0]?.project).toBe('/home/dev/loop');
    expect(rep.totals.byProject[0]?.usd).toBeCloseTo(rep.totals.usd as number, 9);
  });

  it('unrecorded usage is "usage not recorded", with no dollars', () => {
    const h = fixtureHome();
    try {
      editLines(claudeLoopFile(h), (r) => {
        const m = r.message as Record<string, unknown> | undefined;
        if (m && typeof m === 'object') delete m.usage;
        return [r];
      });
      const rep = json(['--all', '--tool', 'claude'], h);
      expect(rep.loops[0]).toMatchObject({ usd: null, unpriced: 0, unrecorded: rep.loops[0]?.requests });
      expect(rep.loops[0]?.tokens).toBeUndefined();
      expect(run(['--all', '--tool', 'claude'], h).stdout).toContain('usage not recorded');
    } finally {
      rmSync(h, { recursive: true, force: true });
    }
  });

  it('the text report leads with loops, time, money at list prices, and what the guard saves', () => {
    const lines = run(['--all']).stdout.split('\n');
    expect(lines[1]).toMatch(/^ {2}Loops +6 /);
    expect(lines[2]).toMatch(/^ {2}Time in loops +\d/);
    expect(lines[3]).toMatch(
      /^ {2}Money in loops +\$0\.\d+ \+ \d+ requests of an unknown model, an estimate at list prices/,
    );
    expect(lines[4]).toMatch(/^ {2}Guard saves +\$0\.\d+, 4 model requests, /);
  });

  it('--prices FILE is tried first (a price for the scripted model prices the other loops)', () => {
    const file = join(cwd, 'prices.json');
    writeFileSync(
      file,
      JSON.stringify({ models: [{ match: 'mock-model', input: 1, cacheRead: 0.1, cacheWrite: 1, output: 2 }] }),
    );
    const rep = json(['--all', '--prices', file]);
    const codex = rep.loops.find((l) => l.tool === 'codex') as Loop;
    const k = codex.tokenKinds as Kinds;
    expect(codex.usd).toBeCloseTo(dollars(k, { input: 1, cacheRead: 0.1, cacheWrite: 1, output: 2 }), 9);
    expect(rep.prices.override).toBe(file);
    for (const tool of ['opencode', 'kilo', 'qwen', 'cline'])
      expect((rep.loops.find((l) => l.tool === tool) as Loop).usd, tool).toBeGreaterThan(0);
    expect(rep.totals.unpriced).toBe(0);
    // The built-in list still prices Claude.
    expect((rep.loops.find((l) => l.tool === 'claude') as Loop).usd).toBeGreaterThan(0);
  });

  it('--prices reads comments, through a symlink too (its JSON reader is loaded only then)', () => {
    const real = join(cwd, 'commented-prices.jsonc');
    writeFileSync(
      real,
      '// our negotiated rate\n{ "models": [ /* the scripted model */ { "match": "mock-model", "input": 1, ' +
        '"cacheRead": 0.1, "cacheWrite": 1, "output": 2 } ] }\n',
    );
    const link = join(cwd, 'prices-link.json');
    symlinkSync(real, link);
    for (const file of [real, link]) {
      const rep = json(['--all', '--prices', file]);
      expect(rep.prices.override).toBe(file);
      expect(rep.totals.unpriced).toBe(0);
    }
  });

  it('a --prices file that cannot be read (missing, a directory): exit 2 with the reason, in audit and in run', () => {
    const missing = join(cwd, 'no-such-prices.json');
    const dir = join(cwd, 'a-folder.json');
    mkdirSync(dir, { recursive: true });
    for (const [file, code] of [
      [missing, 'ENOENT'],
      [dir, 'EISDIR'],
    ] as const) {
      const a = run(['--all', '--prices', file]);
      expect(a.status).toBe(2);
      expect(a.stderr).toContain(`--prices ${file}: cannot read it (${code})`);
      const r = runCli(['run', '--agent', 'claude', '--task', 'x', '--verify', 'true', '--prices', file], {
        cwd,
        env: homeEnv(home),
      });
      expect(r.status).toBe(2);
      expect(r.stderr).toBe(`create-loop-guard run: --prices ${file}: cannot read it (${code}).\n`);
    }
  });

  it('a broken --prices file: exit 2 naming the file, line and column, the file untouched', () => {
    const file = join(cwd, 'bad-prices.json');
    const body =
      '{\n  "models": [\n    { "match": "x", "input": 1, "cacheRead": 1, "cacheWrite": 1, "output": oops }\n  ]\n}\n';
    writeFileSync(file, body);
    const r = run(['--all', '--prices', file]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${file}:3:`);
    expect(r.stderr).toContain('Fix the file');
    expect(readFileSync(file, 'utf8')).toBe(body);
    const wrong = join(cwd, 'wrong-prices.json');
    writeFileSync(wrong, '{\n  "models": [\n    { "match": "x", "input": "1" }\n  ]\n}\n');
    const w = run(['--all', '--prices', wrong]);
    expect(w.status).toBe(2);
    expect(w.stderr).toContain(`${wrong}:3:`);
    expect(w.stderr).toContain('"input" must be a number');
  });
});
