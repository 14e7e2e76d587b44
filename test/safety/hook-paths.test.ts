// The hook never dies on a path: installed in repositories whose paths hold quotes, `$`, spaces, a newline or unicode,
// the real hook commands (read back from the configs) run through `sh -c` as the tools run them, and the guard works.
// What cannot be made safe (a backslash, for an ES-module hook file) is refused with exit 2 and the reason.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { GUARD_PATH } from '../../src/tools/markers.ts';
import { cliFile, guardFile, repoRoot, requireBuilt } from '../helpers/paths.ts';
import { CI_ENV, runCli, sandbox, tempDir } from '../helpers/sandbox.ts';

beforeAll(() => requireBuilt());

/** The payloads doctor replays (shipped in assets/), captured from the real tools. */
const loadPayload = (rel: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(repoRoot, 'assets', 'payloads', rel), 'utf8'));

const HOSTILE = [`quo'te"s`, 'dol$lar $(touch pwned) `x`', 'sp ace', 'new\nline', 'ünï cödé ✓', 'semi;colon&amp|pipe'];

function hookCommand(root: string, rel: string, event: string): string {
  const doc = JSON.parse(readFileSync(join(root, rel), 'utf8'));
  const entry = doc.hooks[event][0];
  return entry.hooks ? entry.hooks[0].command : entry.command;
}

function runHook(command: string, cwd: string, payload: unknown, env: Record<string, string>) {
  return spawnSync('/bin/sh', ['-c', command], {
    cwd,
    env,
    input: JSON.stringify(payload),
    encoding: 'utf8',
    timeout: 20_000,
  });
}

describe('hostile repository paths', () => {
  it.each(HOSTILE)('%j: installed hooks run, and the guard warns on the 3rd identical result', (name) => {
    const b = sandbox({ repoName: name, agentHome: false, env: CI_ENV });
    const r = runCli(['--yes', '--tools', 'claude,codex,cursor'], b.env, b.root);
    expect(r.status, r.stderr).toBe(0);
    const env = { ...b.env, CLAUDE_PROJECT_DIR: b.root, LOOP_GUARD_STATE_DIR: tempDir() };
    const claude = hookCommand(b.root, '.claude/settings.json', 'PostToolUseFailure');
    const post = {
      ...loadPayload('claude/PostToolUseFailure-failure.json'),
      cwd: b.root,
      tool_input: { command: 'npm test' },
      error: 'Exit code 1\nFAIL x',
    };
    const outs = [1, 2, 3].map((i) => runHook(claude, b.root, { ...post, tool_use_id: `t${i}` }, env));
    for (const o of outs) expect(o.status, o.stderr).toBe(0);
    expect(outs.map((o) => o.stderr).join('')).toBe('');
    expect(outs[2]?.stdout).toContain('loop-guard:');
    for (const [rel, event, payload] of [
      ['.codex/hooks.json', 'PreToolUse', 'codex/PreToolUse-failure.json'],
      ['.cursor/hooks.json', 'preToolUse', 'cursor/preToolUse.json'],
    ] as const) {
      const o = runHook(hookCommand(b.root, rel, event), b.root, { ...loadPayload(payload), cwd: b.root }, env);
      expect(o.status, `${rel}: ${o.stderr}`).toBe(0);
      expect(o.stderr).toBe('');
    }
    expect(readFileSync(join(b.root, '.agents/loop-guard.json'), 'utf8')).toContain('claude');
    // The path's text was never run as shell code.
    expect(existsSync(join(b.root, 'pwned')) || existsSync(join(b.base, 'pwned'))).toBe(false);
  });

  it('a backslash in the path: refused with the reason when the hook file is an ES module, else it runs', () => {
    const b = sandbox({ repoName: 'back\\slash', agentHome: false, env: CI_ENV });
    const r = runCli(['--yes', '--tools', 'claude'], b.env, b.root);
    if (GUARD_PATH.endsWith('.mjs')) {
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('backslash');
      expect(r.stderr).toContain('Nothing was written');
    } else {
      expect(r.status, r.stderr).toBe(0);
      const o = runHook(
        hookCommand(b.root, '.claude/settings.json', 'PreToolUse'),
        b.root,
        loadPayload('claude/PreToolUse-failure.json'),
        { ...b.env, CLAUDE_PROJECT_DIR: b.root },
      );
      expect(o.status, o.stderr).toBe(0);
    }
  });
});

describe('the hook process', () => {
  it('stdin that never ends: the hook allows and exits after its deadline', async () => {
    const t = Date.now();
    const child = spawn(process.execPath, [guardFile, 'claude'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const code = await new Promise<number | null>((resolve) => {
      const hard = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.on('exit', (c) => {
        clearTimeout(hard);
        resolve(c);
      });
    });
    child.stdin.destroy();
    console.log(`hook with an open, silent stdin exited after ${Date.now() - t} ms`);
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out.trim()).toBe('');
  }, 40_000);

  it('the same on a named pipe whose writer never writes (the `sleep 30 | hook` case)', () => {
    const fifo = join(tempDir(), 'in');
    // The writer is killed by its own pid; nothing else is signalled.
    const script = `mkfifo "$F"; sleep 30 > "$F" & p=$!; s=$(date +%s); "$NODE" "$GUARD" claude < "$F"; rc=$?; kill $p; echo "rc=$rc after $(( $(date +%s) - s ))s" >&2`;
    const r = spawnSync('/bin/sh', ['-c', script], {
      env: { PATH: process.env.PATH ?? '', F: fifo, NODE: process.execPath, GUARD: guardFile },
      encoding: 'utf8',
      timeout: 40_000,
    });
    const m = /rc=(\d+) after (\d+)s/.exec(r.stderr);
    expect(m?.[1], r.stderr).toBe('0');
    expect(Number(m?.[2])).toBeLessThan(30);
  }, 45_000);

  it('reads a socket stdin and answers without loading net, the streams, node:module or node:os, and prints no deprecation warning', () => {
    // spawnSync's pipes are socketpairs, as Node-based agents' are; the preload reports what the process loaded.
    // node:module (createRequire) cost 0.2-0.4 ms of every event; node:os is needed only when HOME is unset.
    const dir = tempDir();
    const preload = join(dir, 'loaded.cjs');
    writeFileSync(
      preload,
      "process.on('exit', () => require('fs').writeSync(2, process.moduleLoadList.filter((m) => /^NativeModule (net|stream|module|os)$/.test(m)).join(',')));\n",
    );
    const payload = { ...loadPayload('claude/PreToolUse-failure.json'), tool_input: { command: 'vim notes.txt' } };
    for (const flags of [[], ['--pending-deprecation']]) {
      const r = spawnSync(process.execPath, [...flags, '-r', preload, guardFile, 'claude'], {
        input: JSON.stringify(payload),
        env: { PATH: process.env.PATH ?? '', HOME: dir, LOOP_GUARD_STATE_DIR: join(dir, 'state') },
        encoding: 'utf8',
      });
      expect(r.status).toBe(0);
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    }
  });

  it('with no HOME and no state dir set, asks node:os for the home directory and counts there, also on a Node without process.getBuiltinModule', () => {
    // A preload points os.homedir() at a scratch folder (the real home is never written); the second one also hides
    // process.getBuiltinModule, as on Node before 20.16, where the hook loads node:os with require.
    const dir = tempDir();
    const homeOnly = join(dir, 'home.cjs');
    const oldNode = join(dir, 'old-node.cjs');
    writeFileSync(homeOnly, "require('os').homedir = () => process.env.FAKE_HOME;\n");
    writeFileSync(oldNode, "delete process.getBuiltinModule; require('os').homedir = () => process.env.FAKE_HOME;\n");
    const post = { ...loadPayload('claude/PostToolUseFailure-failure.json'), session_id: `home-${process.pid}` };
    for (const preload of [homeOnly, oldNode]) {
      const home = join(dir, preload === homeOnly ? 'a' : 'b');
      const r = spawnSync(process.execPath, ['-r', preload, guardFile, 'claude'], {
        input: JSON.stringify(post),
        env: { PATH: process.env.PATH ?? '', FAKE_HOME: home },
        encoding: 'utf8',
      });
      expect(r.status).toBe(0);
      expect(r.stderr).toBe('');
      expect(
        readdirSync(join(home, '.local', 'state', 'loop-guard')).filter((n) => n.startsWith('claude-')),
        preload,
      ).toHaveLength(1);
    }
  });

  it('/dev/null on stdin is no input, not a terminal: no usage line, exit 0', () => {
    const r = spawnSync(process.execPath, [guardFile, 'claude'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('a reader that closes early: no EPIPE trace from the hook or the CLI', () => {
    const b = sandbox({ agentHome: false, env: CI_ENV });
    const payload = JSON.stringify({
      ...loadPayload('claude/PreToolUse-failure.json'),
      tool_input: { command: 'vim x' },
    });
    const hook = spawnSync('/bin/sh', ['-c', `printf '%s' "$P" | "${process.execPath}" "${guardFile}" claude | true`], {
      env: { ...b.env, P: payload, LOOP_GUARD_STATE_DIR: tempDir() },
      encoding: 'utf8',
    });
    expect(hook.stderr).toBe('');
    const dry = spawnSync(
      '/bin/sh',
      ['-c', `"${process.execPath}" "${cliFile}" --dry-run --tools claude,codex,cursor,opencode | head -1`],
      { cwd: b.root, env: b.env, encoding: 'utf8' },
    );
    expect(dry.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    expect(dry.stderr).toBe('');
  });
});
