// Kilo CLI runs the OpenCode plugin: the BUILT Kilo loader (dist/templates/kilo-loader.js) of the built guard file, fed the payloads captured from Kilo 7.7.7
// (test/fixtures/payloads/kilo). It must guard exactly as the OpenCode build does, with Kilo's name in what it writes,
// and hand off through the stop Kilo honours (`client.session.abort`, captured in guard-run/).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { readOwnedHeader } from '../../src/edit/owned-file.ts';
import { EVENT_LOG } from '../../src/guard/event-log.ts';
import { OPENCODE_CHANGE_TOOLS } from '../../src/guard/adapters/opencode-facts.ts';
import { AGENT_ENV } from '../../src/tools/env.ts';
import { KILO_PLUGIN } from '../../src/tools/kilo.ts';
import { type Json, loadPayload, repoRoot, requireFiles } from '../helpers/paths.ts';

const kiloBuild = join(repoRoot, 'dist', 'templates', 'kilo-loader.js');
const opencodeBuild = join(repoRoot, 'dist', 'templates', 'opencode-loader.js');
const guardBuild = join(repoRoot, 'dist', 'loop-guard.cjs');
beforeAll(() => requireFiles([kiloBuild, opencodeBuild, guardBuild]));

type Hooks = Record<string, (input: unknown, output: unknown) => Promise<void>>;
type Payload = { input: Json; output: Json };
const kilo = (name: string) => loadPayload(`kilo/${name}`) as Payload;
const clone = <T>(v: T): T => structuredClone(v);

let repo: string;
let state: string;
beforeEach(() => {
  repo = realpathSync(mkdtempSync(join(tmpdir(), 'lg-kilo-plugin-')));
  mkdirSync(join(repo, '.git'));
  state = join(repo, '.state');
  vi.stubEnv('LOOP_GUARD_STATE_DIR', state);
  for (const k of ['LOOP_GUARD', 'LOOP_GUARD_WARN', 'LOOP_GUARD_BLOCK', 'LOOP_GUARD_HANDOFF', 'LOOP_GUARD_HANG'])
    vi.stubEnv(k, undefined);
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(repo, { recursive: true, force: true });
});

/** The built plugin's one export, started with the context Kilo gives it (plugin-init.json) and a recording abort. */
async function startKilo(): Promise<{ hooks: Hooks; aborted: unknown[] }> {
  // Laid out as the scaffolder leaves it: the loader in .kilo/plugins (as .mjs: Node, unlike Kilo's Bun, reads a
  // .js outside an ES-module package as CommonJS), the guard file in .agents/hooks.
  mkdirSync(join(repo, '.kilo', 'plugins'), { recursive: true });
  mkdirSync(join(repo, '.agents', 'hooks'), { recursive: true });
  copyFileSync(guardBuild, join(repo, '.agents', 'hooks', 'loop-guard.cjs'));
  const loader = join(repo, '.kilo', 'plugins', 'loop-guard.mjs');
  copyFileSync(kiloBuild, loader);
  const mod = (await import(pathToFileURL(loader).href)) as Record<string, (ctx: unknown) => Promise<Hooks>>;
  const exports = Object.values(mod);
  expect(exports).toHaveLength(1);
  const init = loadPayload('kilo/plugin-init.json');
  const aborted: unknown[] = [];
  const abortResult = loadPayload('kilo/guard-run/abort-result.json');
  const client = { session: { abort: async (opts: unknown) => (aborted.push(opts), abortResult) } };
  const hooks = await exports[0]!({ ...init, directory: repo, worktree: repo, client });
  return { hooks, aborted };
}

/** One failing `cat /nonexistent-file` as Kilo delivers it: before, then after (unless refused); the model's text. */
async function failOnce(hooks: Hooks, call: number): Promise<{ refused?: string; text?: string }> {
  const before = kilo('tool.execute.before-failure.json');
  const after = kilo('tool.execute.after-failure.json');
  const callID = `call_mock_${call}`;
  try {
    await hooks['tool.execute.before']!({ ...clone(before.input), callID }, clone(before.output));
  } catch (err) {
    return { refused: (err as Error).message };
  }
  const output = clone(after.output) as { output?: string };
  await hooks['tool.execute.after']!({ ...clone(after.input), callID }, output);
  return { text: output.output ?? '' };
}

describe('the Kilo build of the plugin', () => {
  it('is the OpenCode loader with only the tool name changed, and carries our header once installed', () => {
    const k = readFileSync(kiloBuild, 'utf8');
    const o = readFileSync(opencodeBuild, 'utf8');
    expect(k).not.toBe(o);
    expect(k.replace('"kilo"', '"opencode"').replaceAll('Kilo', 'OpenCode')).toBe(o);
    expect(KILO_PLUGIN).toBe('.kilo/plugins/loop-guard.js');
    expect(readOwnedHeader(k)).toBeNull();
  });

  it("sets the agent environment through Kilo's shell.env hook (payload shell.env.json)", async () => {
    const { hooks } = await startKilo();
    const p = kilo('shell.env.json') as { input: Json; output: { env: Record<string, string> } };
    const out = clone(p.output);
    await hooks['shell.env']!(clone(p.input), out);
    expect(out.env).toEqual({ ...AGENT_ENV });
  });

  it('lets a success through untouched and ignores a shell call without a command (the tool-error payload)', async () => {
    const { hooks } = await startKilo();
    const before = kilo('tool.execute.before-success.json');
    await expect(hooks['tool.execute.before']!(clone(before.input), clone(before.output))).resolves.toBeUndefined();
    const after = kilo('tool.execute.after-success.json');
    const out = clone(after.output);
    await hooks['tool.execute.after']!(clone(after.input), out);
    expect(out).toEqual(after.output);
    const bad = kilo('tool.execute.before-toolerror.json');
    await expect(hooks['tool.execute.before']!(clone(bad.input), clone(bad.output))).resolves.toBeUndefined();
  });

  it('warns on the 2nd missing-file result, refuses the 5th and 6th attempts, and a real user message (chat.message) starts over', async () => {
    vi.stubEnv('LOOP_GUARD_HANDOFF', '0');
    const { hooks, aborted } = await startKilo();
    const r = [];
    for (let i = 1; i <= 6; i++) r.push(await failOnce(hooks, i));
    expect(r[0]?.text).not.toContain('loop-guard');
    // A missing file cannot be fixed by retrying, so the warning comes one result early; it follows the real output.
    expect(r[1]?.text).toMatch(/^cat: \/nonexistent-file: No such file or directory\n\n\nloop-guard: /);
    expect(r.slice(0, 4).every((x) => x.refused === undefined)).toBe(true);
    expect(r[4]?.refused).toMatch(/^loop-guard: /);
    expect(r[5]?.refused).toMatch(/^loop-guard: /);
    expect(aborted).toEqual([]);
    await hooks['chat.message']!(clone(kilo('chat.message.json').input), clone(kilo('chat.message.json').output));
    expect((await failOnce(hooks, 7)).refused).toBeUndefined();
  });

  it("hands off (a missing file: after one refusal): the note says kilo, and Kilo's client aborts the session (guard-run payloads)", async () => {
    const { hooks, aborted } = await startKilo();
    const r = [];
    for (let i = 1; i <= 6; i++) r.push(await failOnce(hooks, i));
    expect(r.map((x) => (x.refused ? 'refused' : 'ran'))).toEqual(['ran', 'ran', 'ran', 'ran', 'refused', 'refused']);
    const session = (kilo('tool.execute.before-failure.json').input as { sessionID: string }).sessionID;
    expect(aborted).toEqual([{ path: { id: session } }]);
    const twin = () =>
      JSON.parse(readFileSync(join(repo, '.agents', 'handoff.json'), 'utf8')) as {
        handoffs: Array<{ tool: string; session: string }>;
      };
    expect(twin().handoffs).toHaveLength(1);
    expect(twin().handoffs[0]).toMatchObject({ tool: 'kilo', session });
    expect(readFileSync(join(repo, '.agents', 'handoff.md'), 'utf8')).toContain('cat /nonexistent-file');
    // A Kilo that keeps going is aborted again, without a second note.
    expect((await failOnce(hooks, 7)).refused).toMatch(/^loop-guard: /);
    expect(aborted).toHaveLength(2);
    expect(twin().handoffs).toHaveLength(1);
    // The guard's event log names Kilo too (audit reads it).
    const log = readFileSync(join(state, EVENT_LOG), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { tool: string; a: string });
    expect(log.map((e) => e.tool)).toEqual(log.map(() => 'kilo'));
    expect(log.map((e) => e.a)).toContain('handoff');
  });
});

describe("Kilo's other tools, from payloads captured in Kilo 7.7.7 (captured/, npm run capture:payloads)", () => {
  const captured = (name: string) => loadPayload(`kilo/captured/${name}`) as Payload;
  /** The model's text on the 3rd identical delivery of one captured after-event. */
  async function thirdResult(p: Payload): Promise<string> {
    const { hooks } = await startKilo();
    let text = '';
    for (let i = 0; i < 3; i++) {
      const output = clone(p.output) as { output?: string };
      await hooks['tool.execute.after']!({ ...clone(p.input), callID: `call_${i}` }, output);
      text = output.output ?? '';
    }
    return text;
  }

  it.each(['edit-edit', 'write-write', 'task-task'])(
    'a completed %s between two identical failures is progress: no warning',
    async (name) => {
      const { hooks } = await startKilo();
      expect((await failOnce(hooks, 1)).text).not.toContain('loop-guard');
      // Captured in another run: given the failures' session, as in one real session.
      const change = captured(`tool.execute.after-${name}.json`);
      const sessionID = (kilo('tool.execute.before-failure.json').input as { sessionID: string }).sessionID;
      await hooks['tool.execute.after']!({ ...clone(change.input), sessionID }, clone(change.output));
      expect((await failOnce(hooks, 2)).text).not.toContain('loop-guard');
      // Without it, the same second failure is warned (a missing file warns one result early).
      expect((await failOnce(hooks, 3)).text).toContain('loop-guard:');
    },
  );

  it('offers no file-changing tool the plugin does not count as a change', () => {
    const offered = (loadPayload('kilo/captured/offered-tools.json') as { tools: string[] }).tools;
    expect(offered).toContain('bash');
    for (const t of ['edit', 'write', 'task']) expect(offered).toContain(t);
    const changers = offered.filter((t) => ['edit', 'write', 'patch', 'apply_patch', 'multiedit', 'task'].includes(t));
    expect(changers.every((t) => OPENCODE_CHANGE_TOOLS.has(t))).toBe(true);
  });

  it('a cut output: the warning names the file Kilo saved it to', async () => {
    const p = captured('tool.execute.after-bash-bash-truncated.json');
    const saved = /Full output saved to: (\S+)/.exec(String((p.output as { output: string }).output))?.[1];
    expect(saved).toMatch(/\/kilo\/tool-output\//);
    const text = await thirdResult(p);
    expect(text).toContain('loop-guard:');
    expect(text).toContain(`The full output is in ${saved}`);
  });

  it('a command stopped at the timeout again: the timeout advice', async () => {
    const text = await thirdResult(captured('tool.execute.after-bash-bash-timeout.json'));
    expect(text).toContain('a longer timeout does not help');
  });
});

describe("Kilo's payloads are OpenCode's shape (why one plugin, and OpenCode's replay in doctor, serve both)", () => {
  const keys = (v: unknown): unknown =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, keys((v as Json)[k])]),
        )
      : typeof v;
  it.each([
    ['tool.execute.before-failure.json', 'tool.execute.before-failure.json'],
    ['tool.execute.after-failure.json', 'tool.execute.after-failure.json'],
    ['chat.message.json', 'chat.message-prompt.json'],
  ])('kilo/%s has every key of opencode/%s, with the same types (Kilo adds metadata.description)', (k, o) => {
    expect(keys(loadPayload(`kilo/${k}`))).toMatchObject(keys(loadPayload(`opencode/${o}`)) as Json);
  });
  it("Kilo's shell tool is `bash`, the one the plugin guards", () => {
    expect((kilo('tool.execute.before-failure.json').input as { tool: string }).tool).toBe('bash');
  });
});
