// The Cline plugin (src/guard/adapters/cline.ts): captured plugin payloads in (test/fixtures/payloads/cline), the
// answers Cline 3.0.65 was seen to honour out ({skip, reason}, {appendContext}, {stop}); and the built file as Cline
// loads it (its module.exports is the plugin).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clineCommands, clineHooks, clineResults, clineSession, isUserTurn } from '../../src/guard/adapters/cline.ts';
import { CLINE_CHANGE_TOOLS } from '../../src/guard/adapters/cline-facts.ts';
import { TOOL_FACTS } from '../../src/guard/adapters/index.ts';
import { cline } from '../../src/tools/cline.ts';
import { freshStateDir, guardEnv, type Json, loadPayload, repoRoot } from '../helpers/guard.ts';

type Ctx = Record<string, unknown>;
const p = (rel: string) => structuredClone(loadPayload(`cline/${rel}`)) as Ctx;
const MARKER = 'loop-guard:';

/** The same call again under a new tool-call id, as the model's next attempt would be. */
function again(ctx: Ctx, id: string): Ctx {
  const c = structuredClone(ctx);
  (c.toolCall as Ctx).toolCallId = id;
  return c;
}

/** A repository for hand-off notes, and an env that keeps state and notes out of this checkout. */
function sandbox() {
  const repo = realpathSync(mkdtempSync(join(tmpdir(), 'lg-cline-repo-')));
  mkdirSync(join(repo, '.git'));
  const state = freshStateDir();
  const env: Record<string, string> = guardEnv(state);
  delete env.LOOP_GUARD_HANDOFF_DIR;
  return { repo, env, state };
}

/** One attempt of the captured failing call: beforeTool, then (if it was let through) afterTool. */
function attempt(hooks: ReturnType<typeof clineHooks>, n: number) {
  const before = hooks.beforeTool(again(p('plugin/beforeTool-failure.json'), `call_t_${n}`));
  const after = before ? undefined : hooks.afterTool(again(p('plugin/afterTool-failure.json'), `call_t_${n}`));
  return { before, after };
}

describe('cline adapter: reading the payloads', () => {
  it('reads the commands of a run_commands call, a list or the single {command} form', () => {
    expect(clineCommands(p('plugin/beforeTool-failure.json').input)).toEqual(['cat /nonexistent-file']);
    expect(clineCommands(p('plugin-captured/beforeTool-list.json').input)).toEqual([
      'echo hello-from-mock',
      'cat /nonexistent-file',
    ]);
    expect(clineCommands({ command: 'ls' })).toEqual(['ls']);
    expect(clineCommands({ commands: ['ok', 7, null] })).toEqual(['ok']);
    expect(clineCommands({ description: 'missing command' })).toEqual([]);
    expect(clineCommands(undefined)).toEqual([]);
  });

  it('reads each result of a call: the exit code from "Command exited with code N", success as 0', () => {
    expect(clineResults(p('plugin/afterTool-failure.json').result)).toEqual([
      {
        command: 'cat /nonexistent-file',
        output: '[Command exited with code 1]\n\n[stderr]\ncat: /nonexistent-file: No such file or directory\n',
        exitCode: 1,
      },
    ]);
    expect(clineResults(p('plugin/afterTool-success.json').result)).toEqual([
      { command: 'echo hello-from-mock', output: 'hello-from-mock\n', exitCode: 0 },
    ]);
    expect(clineResults(p('plugin-captured/afterTool-list.json').result).map((r) => [r.command, r.exitCode])).toEqual([
      ['echo hello-from-mock', 0],
      ['cat /nonexistent-file', 1],
    ]);
  });

  it('a skipped call ran nothing, so it has no results', () => {
    expect(clineResults(p('plugin/afterTool-denied.json').result)).toEqual([]);
    expect(clineResults({ output: { error: 'x' } })).toEqual([]);
    expect(clineResults(null)).toEqual([]);
  });

  it("a user turn is a run that ends in the user's own message, on the 1st prompt and on a 2nd one in the same session", () => {
    expect(isUserTurn(p('plugin/beforeRun.json').snapshot)).toBe(true);
    expect(isUserTurn(p('plugin-acp/beforeRun-turn1.json').snapshot)).toBe(true);
    expect(isUserTurn(p('plugin-acp/beforeRun-turn2.json').snapshot)).toBe(true);
    // Mid-run snapshots end in the model's call or a tool result: not a turn.
    expect(isUserTurn(p('plugin/beforeTool-failure.json').snapshot)).toBe(false);
    expect(isUserTurn(p('plugin/afterTool-failure.json').snapshot)).toBe(false);
    expect(isUserTurn({ messages: [] })).toBe(false);
    // Our own warning arrives as a user message too; it is not a turn even when it quotes the wrapper.
    const hookContext = (
      p('plugin/afterRun-stopped.json').snapshot as { messages: Array<{ role: string; content: unknown }> }
    ).messages.find((m) => m.role === 'user' && JSON.stringify(m.content).includes('<hook_context'));
    expect(hookContext).toBeTruthy();
    expect(isUserTurn({ messages: [hookContext] })).toBe(false);
    expect(
      isUserTurn({
        messages: [
          {
            role: 'user',
            content: [{ type: 'text', text: '<hook_context>\nloop-guard: `echo <user_input>`\n</hook_context>' }],
          },
        ],
      }),
    ).toBe(false);
    expect(isUserTurn(undefined)).toBe(false);
  });

  it('keys a session by its conversation, the same on both prompts of one session', () => {
    expect(clineSession(p('plugin/beforeTool-failure.json').snapshot)).toBe('conv_1796038746243_1llzwe2');
    expect(clineSession(p('plugin-acp/beforeRun-turn1.json').snapshot)).toBe(
      clineSession(p('plugin-acp/beforeRun-turn2.json').snapshot),
    );
    expect(clineSession({ agentId: 'a1' })).toBe('a1');
  });

  it("the record's and the adapter's facts agree: the edit tools of the captured list, one facts entry", () => {
    expect([...CLINE_CHANGE_TOOLS].sort()).toEqual(['apply_patch', 'editor']);
    expect((p('plugin-captured/afterTool-editor.json').toolCall as Ctx).toolName).toBe('editor');
    expect(TOOL_FACTS.cline.longRunsReturn).toBe(false);
    expect(cline.intents.map((i) => i.path)).toEqual(['.agents/hooks/loop-guard.cjs', '.cline/plugins/loop-guard.js']);
  });
});

describe('cline adapter: the hooks over a loop of captured payloads', () => {
  it('warns through appendContext, skips the attempt after the 4th with our reason, and a new prompt starts over', () => {
    const { repo, env } = sandbox();
    const hooks = clineHooks({ ...env, LOOP_GUARD_HANDOFF: '0' }, () => repo);
    expect(attempt(hooks, 1)).toEqual({ before: undefined, after: undefined });
    // A missing file cannot be fixed by retrying, so the warning comes one result early (2nd).
    const second = attempt(hooks, 2);
    expect(second.after?.appendContext).toContain(MARKER);
    attempt(hooks, 3);
    attempt(hooks, 4);
    const fifth = attempt(hooks, 5);
    expect(fifth.before).toMatchObject({ skip: true });
    expect(fifth.before?.reason).toMatch(/^loop-guard: `cat \/nonexistent-file` was not run/);
    expect(fifth.before && 'stop' in fifth.before).toBe(false);
    // The captured beforeRun is of the same conversation: the user writing again lets the command run.
    expect(hooks.beforeRun(p('plugin/beforeRun.json'))).toBeUndefined();
    expect(attempt(hooks, 6).before).toBeUndefined();
  });

  it('a beforeRun that is not a user turn keeps the counts', () => {
    const { repo, env } = sandbox();
    const hooks = clineHooks({ ...env, LOOP_GUARD_HANDOFF: '0' }, () => repo);
    for (let n = 1; n <= 4; n++) attempt(hooks, n);
    const resumed = p('plugin/beforeRun.json');
    const snapshot = resumed.snapshot as { messages: unknown[] };
    snapshot.messages = [...snapshot.messages, { role: 'assistant', content: [{ type: 'text', text: 'working' }] }];
    hooks.beforeRun(resumed);
    expect(attempt(hooks, 5).before).toMatchObject({ skip: true });
  });

  it('judges every command of a list; one refused command skips the whole call and says the others did not run', () => {
    const { repo, env } = sandbox();
    const hooks = clineHooks({ ...env, LOOP_GUARD_HANDOFF: '0' }, () => repo);
    for (let n = 1; n <= 4; n++) attempt(hooks, n);
    const list = again(p('plugin-captured/beforeTool-list.json'), 'call_list');
    (list.snapshot as Ctx).conversationId = (p('plugin/beforeTool-failure.json').snapshot as Ctx).conversationId;
    const answer = hooks.beforeTool(list);
    expect(answer).toMatchObject({ skip: true });
    expect(answer?.reason).toContain('`cat /nonexistent-file` was not run');
    expect(answer?.reason).toContain('The other command of this call did not run either');
  });

  it('a list whose results repeat warns once per repeating command, after the whole call', () => {
    const { repo, env } = sandbox();
    const hooks = clineHooks(env, () => repo);
    const list = p('plugin-captured/afterTool-list.json');
    expect(hooks.afterTool(again(list, 'l1'))).toBeUndefined();
    const second = hooks.afterTool(again(list, 'l2'));
    // Only the missing file warns at its 2nd identical result; `echo` is an ordinary success (3rd).
    expect(second?.appendContext.split(MARKER).length).toBe(2);
    expect(second?.appendContext).toContain('cat /nonexistent-file');
  });

  it('an edit with the editor tool between identical failures is progress: no repeat warning, no refusal', () => {
    const { repo, env } = sandbox();
    const hooks = clineHooks(env, () => repo);
    const edit = p('plugin-captured/afterTool-editor.json');
    (edit.snapshot as Ctx).conversationId = (p('plugin/afterTool-failure.json').snapshot as Ctx).conversationId;
    for (let n = 1; n <= 6; n++) {
      const { before, after } = attempt(hooks, n);
      expect(before, `attempt ${n}`).toBeUndefined();
      // The 5th identical failure after edits gets one note (thrash), never a repeat warning.
      expect(after?.appendContext ?? '', `attempt ${n}`).not.toContain('same result');
      if (n < 5) expect(after, `attempt ${n}`).toBeUndefined();
      expect(hooks.afterTool(again(edit, `edit_${n}`))).toBeUndefined();
    }
  });

  it('hands off after the refusals: stop (which ends the run) plus .agents/handoff.md', () => {
    const { repo, env } = sandbox();
    const hooks = clineHooks(env, () => repo);
    for (let n = 1; n <= 4; n++) attempt(hooks, n);
    expect(attempt(hooks, 5).before).toMatchObject({ skip: true });
    expect(attempt(hooks, 6).before).toMatchObject({ skip: true });
    const seventh = attempt(hooks, 7).before;
    expect(seventh).toMatchObject({ stop: true, skip: true });
    expect(seventh?.reason).toContain(MARKER);
    const note = join(repo, '.agents', 'handoff.md');
    expect(existsSync(note)).toBe(true);
    expect(readFileSync(note, 'utf8')).toContain('cat /nonexistent-file');
  });

  it('LOOP_GUARD=off: the hooks answer nothing', () => {
    const { repo, env } = sandbox();
    const hooks = clineHooks({ ...env, LOOP_GUARD: 'off' }, () => repo);
    for (let n = 1; n <= 7; n++) expect(attempt(hooks, n)).toEqual({ before: undefined, after: undefined });
  });

  it('other tools are not counted, and a payload it cannot read (a throwing getter, nonsense) allows', () => {
    const { repo, env } = sandbox();
    const hooks = clineHooks(env, () => repo);
    const other = p('plugin/beforeTool-failure.json');
    (other.toolCall as Ctx).toolName = 'read_files';
    expect(hooks.beforeTool(other)).toBeUndefined();
    const hostile = {
      get toolCall(): never {
        throw new Error('boom');
      },
      snapshot: {},
    } as unknown as Ctx;
    expect(hooks.beforeTool(hostile)).toBeUndefined();
    expect(hooks.afterTool(hostile)).toBeUndefined();
    expect(hooks.beforeRun(hostile)).toBeUndefined();
    expect(hooks.beforeTool(null as unknown as Ctx)).toBeUndefined();
    expect(hooks.afterTool({ toolCall: { toolName: 'run_commands' }, result: 'garbage' })).toBeUndefined();
  });
});

describe('the built Cline plugin and its loader', () => {
  const built = join(repoRoot, 'dist', 'loop-guard.cjs');
  const loader = join(repoRoot, 'dist', 'templates', 'cline-loader.js');
  type Plugin = { name?: unknown; manifest?: { capabilities?: unknown }; hooks?: Record<string, unknown> };

  /** A repository laid out as the scaffolder leaves it, with or without the guard file; returns what Cline would get. */
  function loadAsCline(withGuard: boolean): Plugin {
    const repo = realpathSync(mkdtempSync(join(tmpdir(), 'lg-cline-load-')));
    mkdirSync(join(repo, '.cline', 'plugins'), { recursive: true });
    mkdirSync(join(repo, '.agents', 'hooks'), { recursive: true });
    copyFileSync(loader, join(repo, '.cline', 'plugins', 'loop-guard.js'));
    if (withGuard) copyFileSync(built, join(repo, '.agents', 'hooks', 'loop-guard.cjs'));
    return createRequire(import.meta.url)(join(repo, '.cline', 'plugins', 'loop-guard.js')) as Plugin;
  }

  it.skipIf(!existsSync(built))(
    'the guard file, required, gives the plugin object ({name, manifest, hooks}); it requires only node builtins',
    () => {
      const mod = (createRequire(import.meta.url)(built) as { clinePlugin: () => Plugin }).clinePlugin();
      expect(mod.name).toBe('loop-guard');
      expect(mod.manifest?.capabilities).toEqual(['hooks']);
      expect(Object.keys(mod.hooks ?? {}).sort()).toEqual(['afterTool', 'beforeRun', 'beforeTool']);
      const requires = [...readFileSync(built, 'utf8').matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1] ?? '');
      expect(requires.length).toBeGreaterThan(0);
      // loop-guard:loader is the file's own loader part (SHARED in loader.ts), which the body takes a few functions from.
      for (const r of requires) expect(r, r).toMatch(/^node:|^loop-guard:loader$/);
      const hooks = mod.hooks as { beforeTool: (c: Json) => unknown };
      expect(hooks.beforeTool(loadPayload('cline/plugin/beforeTool-success.json'))).toBeUndefined();
    },
  );

  it.skipIf(!existsSync(built))(
    'the loader in .cline/plugins hands Cline the guard from .agents/hooks, and an empty plugin when that file is gone',
    () => {
      expect(readFileSync(loader, 'utf8').length, 'the loader stays small: jiti transforms it').toBeLessThan(2000);
      const loaded = loadAsCline(true);
      expect(loaded.name).toBe('loop-guard');
      expect(Object.keys(loaded.hooks ?? {}).sort()).toEqual(['afterTool', 'beforeRun', 'beforeTool']);
      // Without the guard file: no hooks, and a setup that tells Cline's log why (Cline passes setup a logger).
      const missing = loadAsCline(false) as Plugin & { setup: (api: unknown, ctx: unknown) => void };
      expect({ ...missing, setup: undefined }).toEqual({
        name: 'loop-guard',
        manifest: { capabilities: ['hooks'] },
        hooks: {},
        setup: undefined,
      });
      const logged: string[] = [];
      missing.setup({}, { logger: { error: (m: string) => logged.push(m), log() {}, debug() {} } });
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatch(/^loop-guard: not active, .*loop-guard\.cjs did not load \(Cannot find module/);
      expect(logged[0]).toContain('run npx create-loop-guard to reinstall it');
    },
  );
});
