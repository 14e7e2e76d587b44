// On demand only (`npm run capture:payloads`): runs the REAL Claude Code, Codex, OpenCode and Kilo CLIs against the
// scripted model with a hook/plugin that records every payload, for the non-shell tools (edit, write, patch,
// sub-agent) and the shell results the guard must read (a truncated output, a timed-out command).
// The captured files land in test/fixtures/payloads/<tool>/captured/, temp paths rewritten to /home/dev/.
// Skipped unless LOOP_GUARD_CAPTURE=1, so `npm run test:agents` never rewrites fixtures.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentStatus,
  describeRun,
  makeHome,
  removeDir,
  repoRoot,
  runAgent,
  type AgentName,
  type RunOptions,
} from './runners/index.ts';
import { makeRepo } from './helpers.ts';
import { startMockServer, turnMarker, type MockModelServer, type Turn } from './mock-server.ts';

const enabled = process.env.LOOP_GUARD_CAPTURE === '1';
const OUT = join(repoRoot, 'test', 'fixtures', 'payloads');
/** Big enough to pass every tool's output cap (Claude 30,000 chars, Codex ~10k tokens, OpenCode 2,000 lines / 50 KB). */
const BIG = 'seq 1 60000';
const BIG_FAIL = 'seq 1 60000; exit 3';
const SLOW = 'sleep 20; echo finished';
const BG_TASK = 'sleep 4; echo background-done';

const APP = 'function answer() {\n  return 1;\n}\nmodule.exports = { answer };\n';

/** The hook: writes each payload it receives to $CAPTURE_DIR as <ms>-<pid>.json and answers nothing (allow). */
const HOOK = `import { readFileSync, writeFileSync } from 'node:fs';
const dir = process.env.CAPTURE_DIR;
const raw = readFileSync(0, 'utf8');
writeFileSync(dir + '/' + process.hrtime.bigint() + '-' + process.pid + '.json', raw);
`;

/** The OpenCode plugin: records {hook, input, output} for every tool call before and after it runs. */
const PLUGIN = (dir: string) => `import { writeFileSync } from 'node:fs';
let n = 0;
const save = (hook, input, output) => writeFileSync(${JSON.stringify(dir)} + '/' + process.hrtime.bigint() + '-' + (n++) + '.json',
  JSON.stringify({ hook, input, output }, null, 2));
export const Capture = async () => ({
  'tool.execute.before': async (input, output) => save('tool.execute.before', input, output),
  'tool.execute.after': async (input, output) => save('tool.execute.after', input, output),
});
`;

const ALLOW = {
  hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'capture' },
};

/**
 * A stand-in `pwsh` (no PowerShell installs on this machine): logs each call (argv, -EncodedCommand decoded) to `log`
 * and answers the scripted commands: `Get-ChildItem -Name` lists two files, the missing file fails like pwsh does.
 */
const FAKE_PWSH = (log: string) => `#!/usr/bin/env node
const { appendFileSync } = require('node:fs');
const args = process.argv.slice(2);
const enc = args.findIndex((a) => /^-(EncodedCommand|enc|ec|e)$/i.test(a));
const cmd = args.findIndex((a) => /^-(Command|c)$/i.test(a));
const script = enc >= 0 ? Buffer.from(args[enc + 1] ?? '', 'base64').toString('utf16le') : cmd >= 0 ? args.slice(cmd + 1).join(' ') : '';
appendFileSync(${JSON.stringify(log)}, JSON.stringify({ args: args.map((a) => (a.length > 120 ? a.slice(0, 120) + '...' : a)), script, cwd: process.cwd() }) + '\\n');
if (script.includes('Get-Item -LiteralPath missing-file.txt')) {
  process.stderr.write("Get-Item: Cannot find path '" + process.cwd() + "/missing-file.txt' because it does not exist.\\n");
  process.exit(1);
}
if (script.includes('Get-ChildItem -Name')) process.stdout.write('app.js\\nnotes.txt\\n');
process.exit(0);
`;

interface Captured {
  file: string;
  payload: Record<string, unknown>;
}

function readCaptures(dir: string): Captured[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, payload: JSON.parse(readFileSync(join(dir, file), 'utf8')) }));
}

/** Temp-folder prefixes become /home/dev/ like the rest of the fixtures; nothing else changes. */
function scrub(text: string, dirs: Record<string, string>): string {
  let out = text;
  for (const [from, to] of Object.entries(dirs)) {
    out = out.split(from).join(to);
    // Claude names per-project folders after the path with every / as - (…/projects/-tmp-lg-e2e-repo-x/).
    out = out.split(from.replace(/\//g, '-')).join(to.replace(/\//g, '-'));
  }
  return out;
}

function save(tool: string, name: string, payload: unknown, dirs: Record<string, string>): void {
  const file = join(OUT, tool, 'captured', `${name}.json`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${scrub(JSON.stringify(payload, null, 2), dirs)}\n`);
}

/** The step number a tool call id carries (the mock names calls call_lg_t<turn>_s<step>). */
function stepOf(id: unknown): number | null {
  const m = /_s(\d+)$/.exec(String(id ?? ''));
  return m ? Number(m[1]) : null;
}

let server: MockModelServer;
const tmp: string[] = [];

beforeAll(async () => {
  server = await startMockServer();
});
afterAll(async () => {
  await server?.close();
  if (process.env.LOOP_GUARD_KEEP_TMP !== '1') for (const d of tmp) removeDir(d);
  else console.log(`[capture] kept ${tmp.join(' ')}`);
});

/** One run of `agent` with the recording hook installed; returns the payloads in arrival order and the path map. */
async function capture(
  agent: AgentName,
  turn: (repo: string) => Turn,
  install: (repo: string, home: string, dir: string) => void,
  opts: Pick<RunOptions, 'guardEnv'> & { turns?: Turn[] } = {},
) {
  const repo = makeRepo();
  tmp.push(repo);
  writeFileSync(join(repo, 'app.js'), APP);
  writeFileSync(join(repo, 'notes.txt'), 'alpha\nbeta\n');
  const home = makeHome(agent);
  tmp.push(home);
  const dir = join(home, 'captures');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(home, 'capture-hook.mjs'), HOOK);
  install(repo, home, dir);
  server.setScript({ turns: [turn(repo), ...(opts.turns ?? [])] });
  const run = await runAgent(agent, repo, server, {
    home,
    timeoutMs: 240_000,
    ...(opts.guardEnv ? { guardEnv: opts.guardEnv } : {}),
  });
  const requests = server.agentRequests();
  // What tools the agent offered the model, kept next to the payloads as evidence of what exists in this version.
  const first = requests[0]?.body as { tools?: Array<Record<string, unknown>> } | undefined;
  const tools = (first?.tools ?? []).map(
    (t) => (t.name ?? (t.function as { name?: string } | undefined)?.name ?? t.type) as string,
  );
  return { run, repo, home, dir, tools, requests, captures: readCaptures(dir), context: describeRun(run, server) };
}

describe.runIf(enabled)('capture real payloads', () => {
  it('claude: Read/Edit/Write/MultiEdit/Agent and Bash truncated/failed-truncated/timed out', async () => {
    if (!agentStatus('claude').ok) throw new Error(agentStatus('claude').reason ?? 'claude missing');
    const steps = (repo: string): Turn => ({
      commands: [
        { name: 'Read', input: { file_path: join(repo, 'app.js') } },
        { name: 'Edit', input: { file_path: join(repo, 'app.js'), old_string: 'return 1;', new_string: 'return 2;' } },
        { name: 'Write', input: { file_path: join(repo, 'created.txt'), content: 'written by the agent\n' } },
        {
          name: 'MultiEdit',
          input: { file_path: join(repo, 'app.js'), edits: [{ old_string: 'return 2;', new_string: 'return 3;' }] },
        },
        {
          name: 'Agent',
          input: {
            description: 'Check the answer',
            prompt: 'Say done.',
            subagent_type: 'general-purpose',
            run_in_background: false,
          },
        },
        { name: 'Bash', input: { command: BIG, description: 'print many lines' } },
        { name: 'Bash', input: { command: BIG_FAIL, description: 'print many lines then fail' } },
        { name: 'Bash', input: { command: SLOW, description: 'slow command', timeout: 1000 } },
      ],
      finalText: 'captured',
    });
    const r = await capture('claude', steps, (repo, home, dir) => {
      mkdirSync(join(repo, '.claude'), { recursive: true });
      const hook = [
        {
          matcher: '*',
          hooks: [
            { type: 'command', command: `CAPTURE_DIR=${dir} node ${join(home, 'capture-hook.mjs')}`, timeout: 30 },
          ],
        },
      ];
      writeFileSync(
        join(repo, '.claude', 'settings.json'),
        JSON.stringify(
          {
            // acceptEdits: in -p mode an allow rule alone does not grant writes inside a temp project.
            permissions: { defaultMode: 'acceptEdits', allow: ['Read', 'Edit', 'Write', 'Agent', 'Bash'] },
            hooks: {
              PreToolUse: hook,
              PostToolUse: hook,
              PostToolUseFailure: hook,
              SubagentStop: [{ hooks: hook[0]!.hooks }],
            },
          },
          null,
          2,
        ),
      );
    });
    const dirs = { [r.repo]: '/home/dev/proj', [r.home]: '/home/dev/home' };
    const labels = [
      'read',
      'edit',
      'write',
      'multiedit',
      'agent',
      'bash-truncated',
      'bash-failure-truncated',
      'bash-timeout',
    ];
    save('claude', 'offered-tools', { tools: r.tools }, dirs);
    for (const c of r.captures) {
      const p = c.payload;
      const step = stepOf(p.tool_use_id);
      const label = step ? labels[step - 1] : 'subagent';
      save('claude', `${p.hook_event_name}-${p.tool_name ?? p.agent_type ?? 'none'}-${label}`, p, dirs);
    }
    expect(r.captures.length, r.context).toBeGreaterThan(0);
  }, 300_000);

  // How a background task's end reaches hooks: a background Bash task and a background sub-agent (scripted as turn 2,
  // whose marker its prompt carries), then a foreground wait while both end, with every hook event recorded.
  it('claude: a background Bash task and a background sub-agent ending, every hook event', async () => {
    if (!agentStatus('claude').ok) throw new Error(agentStatus('claude').reason ?? 'claude missing');
    const parent: Turn = {
      commands: [
        { name: 'Bash', input: { command: BG_TASK, description: 'start a background task', run_in_background: true } },
        {
          name: 'Agent',
          input: {
            description: 'Write the result',
            prompt: `Write the result file. ${turnMarker(2)}`,
            subagent_type: 'general-purpose',
            run_in_background: true,
          },
        },
        { name: 'Bash', input: { command: 'sleep 12', description: 'wait for the background work' } },
        { name: 'Bash', input: { command: 'ls', description: 'list the files' } },
      ],
      finalText: 'captured',
    };
    const sub: Turn = { commands: ['sleep 3; echo sub > sub.txt'], finalText: 'sub-agent done' };
    const r = await capture(
      'claude',
      () => parent,
      (repo, home, dir) => {
        mkdirSync(join(repo, '.claude'), { recursive: true });
        const hooks = [
          { type: 'command', command: `CAPTURE_DIR=${dir} node ${join(home, 'capture-hook.mjs')}`, timeout: 30 },
        ];
        const events = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'UserPromptSubmit', 'Notification'];
        const all = [...events, 'Stop', 'SubagentStart', 'SubagentStop', 'TaskCompleted', 'TaskCreated'];
        const config = Object.fromEntries(all.map((e) => [e, [{ matcher: '*', hooks }]]));
        writeFileSync(
          join(repo, '.claude', 'settings.json'),
          JSON.stringify(
            { permissions: { defaultMode: 'acceptEdits', allow: ['Read', 'Write', 'Agent', 'Bash'] }, hooks: config },
            null,
            2,
          ),
        );
      },
      { turns: [sub] },
    );
    const dirs = { [r.repo]: '/home/dev/proj', [r.home]: '/home/dev/home' };
    const labels = ['bash-background', 'agent-background', 'bash-wait', 'bash-after'];
    r.captures.forEach((c, i) => {
      const p = c.payload;
      const step = stepOf(p.tool_use_id);
      const label = step && String(p.tool_use_id).includes('_t1') ? labels[step - 1] : `n${i}`;
      save('claude', `background/${i}-${p.hook_event_name}-${p.tool_name ?? p.agent_type ?? 'none'}-${label}`, p, dirs);
    });
    // What the model got of the two ends: the content blocks of the last request that carry a task notification.
    const last = (r.requests.at(-1)?.body as { messages?: Array<{ content?: unknown }> } | undefined)?.messages ?? [];
    const blocks = last.flatMap((m) => (Array.isArray(m.content) ? m.content : []));
    const notes = blocks.filter((b) => JSON.stringify(b).includes('<task-notification>'));
    save('claude', 'background/model-saw', { blocks: notes }, dirs);
    expect(r.captures.length, r.context).toBeGreaterThan(0);
  }, 300_000);

  // Claude Code offers its PowerShell tool off Windows only with CLAUDE_CODE_USE_POWERSHELL_TOOL=1 and a `pwsh` on
  // PATH. No PowerShell installs here, so a stand-in `pwsh` (FAKE_PWSH) logs how Claude calls it and answers the two
  // scripted commands; the hook payloads around it are Claude's own. Monitor is a deferred tool: ToolSearch loads it.
  it('claude: PowerShell (stand-in pwsh) ok/failure and Monitor', async () => {
    if (!agentStatus('claude').ok) throw new Error(agentStatus('claude').reason ?? 'claude missing');
    const steps = (): Turn => ({
      commands: [
        { name: 'PowerShell', input: { command: 'Get-ChildItem -Name', description: 'list the files' } },
        {
          name: 'PowerShell',
          input: { command: 'Get-Item -LiteralPath missing-file.txt', description: 'read a missing file' },
        },
        { name: 'ToolSearch', input: { query: 'select:Monitor', max_results: 1 } },
        {
          name: 'Monitor',
          input: { description: 'watch a counter', command: 'echo tick; sleep 1; echo tock', timeout_ms: 10_000 },
        },
      ],
      finalText: 'captured',
    });
    const bin = makeHome('claude');
    tmp.push(bin);
    const log = join(bin, 'pwsh-calls.jsonl');
    writeFileSync(join(bin, 'pwsh'), FAKE_PWSH(log));
    chmodSync(join(bin, 'pwsh'), 0o755);
    const path = process.env.PATH;
    process.env.PATH = `${bin}${path ? `:${path}` : ''}`;
    let r: Awaited<ReturnType<typeof capture>>;
    try {
      r = await capture(
        'claude',
        steps,
        (repo, home, dir) => {
          mkdirSync(join(repo, '.claude'), { recursive: true });
          mkdirSync(join(dir, 'bash-matcher'), { recursive: true });
          const record = (to: string) => ({
            type: 'command',
            command: `CAPTURE_DIR=${to} node ${join(home, 'capture-hook.mjs')}`,
            timeout: 30,
          });
          // A second hook under matcher "Bash": which of these tools' events does a Bash-only config see?
          const hook = [
            { matcher: '*', hooks: [record(dir)] },
            { matcher: 'Bash', hooks: [record(join(dir, 'bash-matcher'))] },
          ];
          writeFileSync(
            join(repo, '.claude', 'settings.json'),
            JSON.stringify(
              {
                permissions: { defaultMode: 'acceptEdits', allow: ['PowerShell', 'Monitor', 'ToolSearch', 'Bash'] },
                hooks: {
                  // The stand-in cannot run Claude's PowerShell parser, so its permission check would ask (and -p
                  // refuse): a PreToolUse hook answering allow lets the call run.
                  PreToolUse: [
                    ...hook,
                    {
                      matcher: 'PowerShell',
                      hooks: [{ type: 'command', command: `echo '${JSON.stringify(ALLOW)}'`, timeout: 30 }],
                    },
                  ],
                  PostToolUse: hook,
                  PostToolUseFailure: hook,
                },
              },
              null,
              2,
            ),
          );
        },
        { guardEnv: { CLAUDE_CODE_USE_POWERSHELL_TOOL: '1' } },
      );
    } finally {
      process.env.PATH = path;
    }
    const dirs = { [r.repo]: '/home/dev/proj', [r.home]: '/home/dev/home', [bin]: '/home/dev/bin' };
    const labels = ['powershell', 'powershell-failure', 'toolsearch', 'monitor'];
    save('claude', 'offered-tools-powershell', { tools: r.tools }, dirs);
    for (const c of r.captures) {
      const p = c.payload;
      const step = stepOf(p.tool_use_id);
      save('claude', `${p.hook_event_name}-${p.tool_name ?? 'none'}-${step ? labels[step - 1] : 'other'}`, p, dirs);
    }
    const bashOnly = readCaptures(join(r.dir, 'bash-matcher')).map((c) => ({
      hook_event_name: c.payload.hook_event_name,
      tool_name: c.payload.tool_name,
    }));
    save('claude', 'bash-matcher-saw', { events: bashOnly }, dirs);
    // How Claude spawned `pwsh` (argv, and the -EncodedCommand script decoded): the evidence for the stand-in's part.
    const calls = existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l))
      : [];
    save('claude', 'pwsh-invocations', { calls }, dirs);
    expect(r.captures.length, r.context).toBeGreaterThan(0);
  }, 300_000);

  it('codex: apply_patch and exec_command truncated / still running', async () => {
    if (!agentStatus('codex').ok) throw new Error(agentStatus('codex').reason ?? 'codex missing');
    const patch = () =>
      [
        '*** Begin Patch',
        '*** Update File: app.js',
        '@@',
        '-  return 1;',
        '+  return 2;',
        '*** Add File: created.txt',
        '+written by the agent',
        '*** End Patch',
        '',
      ].join('\n');
    const steps = (): Turn => ({
      commands: [
        { name: 'apply_patch', input: patch(), custom: true },
        { name: 'exec_command', input: { cmd: BIG } },
        { name: 'exec_command', input: { cmd: BIG_FAIL } },
        { name: 'exec_command', input: { cmd: SLOW, yield_time_ms: 1000 } },
      ],
      finalText: 'captured',
    });
    const r = await capture('codex', steps, (repo, home, dir) => {
      // The mock model has no metadata in Codex's catalog, and without it Codex offers no apply_patch tool:
      // a catalog model name (the mock answers whatever the name) brings the real tool set.
      mkdirSync(join(repo, '.codex'), { recursive: true });
      writeFileSync(join(repo, '.codex', 'config.toml'), 'model = "gpt-5.5"\n');
      const hook = [
        {
          matcher: '*',
          hooks: [
            { type: 'command', command: `CAPTURE_DIR=${dir} node ${join(home, 'capture-hook.mjs')}`, timeout: 30 },
          ],
        },
      ];
      mkdirSync(join(home, '.codex'), { recursive: true });
      writeFileSync(
        join(home, '.codex', 'hooks.json'),
        JSON.stringify({ hooks: { PreToolUse: hook, PostToolUse: hook } }, null, 2),
      );
    });
    const dirs = { [r.repo]: '/home/dev/proj', [r.home]: '/home/dev/home' };
    const labels = ['apply_patch', 'exec-truncated', 'exec-failure-truncated', 'exec-still-running'];
    save('codex', 'offered-tools', { tools: r.tools }, dirs);
    for (const c of r.captures) {
      const p = c.payload;
      const step = stepOf(p.tool_use_id);
      save('codex', `${p.hook_event_name}-${p.tool_name ?? 'none'}-${step ? labels[step - 1] : 'other'}`, p, dirs);
    }
    // What the model got back for each step: the evidence for steps no hook saw.
    const last = (r.requests.at(-1)?.body as { input?: Array<{ type?: string }> } | undefined)?.input ?? [];
    save('codex', 'observed-tool-items', { input: last.filter((it) => /call/.test(String(it.type))) }, dirs);
    expect(r.captures.length, r.context).toBeGreaterThan(0);
  }, 300_000);

  // Kilo runs the OpenCode plugin API, from .kilo/plugins (it ignores .opencode/): the same steps, captured in each.
  it.each([
    ['opencode', '.opencode'],
    ['kilo', '.kilo'],
  ] as const)(
    '%s: read/edit/write/task and bash truncated / timed out (plugins in %s/plugins)',
    async (tool, pluginDir) => {
      if (!agentStatus(tool).ok) throw new Error(agentStatus(tool).reason ?? `${tool} missing`);
      const steps = (repo: string): Turn => ({
        commands: [
          { name: 'read', input: { filePath: join(repo, 'app.js') } },
          { name: 'edit', input: { filePath: join(repo, 'app.js'), oldString: 'return 1;', newString: 'return 2;' } },
          { name: 'write', input: { filePath: join(repo, 'created.txt'), content: 'written by the agent\n' } },
          { name: 'bash', input: { command: BIG, description: 'print many lines' } },
          { name: 'bash', input: { command: BIG_FAIL, description: 'print many lines then fail' } },
          { name: 'bash', input: { command: SLOW, description: 'slow command', timeout: 1000 } },
          { name: 'task', input: { description: 'Check the answer', prompt: 'Say done.', subagent_type: 'general' } },
        ],
        finalText: 'captured',
      });
      const r = await capture(tool, steps, (repo, _home, dir) => {
        mkdirSync(join(repo, pluginDir, 'plugins'), { recursive: true });
        writeFileSync(join(repo, pluginDir, 'plugins', 'capture.js'), PLUGIN(dir));
      });
      const dirs = { [r.repo]: '/home/dev/proj', [r.home]: '/home/dev/home' };
      const labels = ['read', 'edit', 'write', 'bash-truncated', 'bash-failure-truncated', 'bash-timeout', 'task'];
      save(tool, 'offered-tools', { tools: r.tools }, dirs);
      for (const c of r.captures) {
        const p = c.payload as { hook?: string; input?: { tool?: string; callID?: string } };
        const step = stepOf(p.input?.callID);
        save(tool, `${p.hook}-${p.input?.tool ?? 'none'}-${step ? labels[step - 1] : 'other'}`, p, dirs);
      }
      expect(r.captures.length, r.context).toBeGreaterThan(0);
    },
    300_000,
  );

  it('opencode: apply_patch (offered only to gpt- model ids)', async () => {
    if (!agentStatus('opencode').ok) throw new Error(agentStatus('opencode').reason ?? 'opencode missing');
    const patch = [
      '*** Begin Patch',
      '*** Update File: app.js',
      '@@',
      '-  return 1;',
      '+  return 2;',
      '*** Add File: created.txt',
      '+written by the agent',
      '*** End Patch',
    ].join('\n');
    const r = await capture(
      'opencode',
      () => ({ commands: [{ name: 'apply_patch', input: { patchText: patch } }], finalText: 'captured' }),
      (repo, _home, dir) => {
        mkdirSync(join(repo, '.opencode', 'plugins'), { recursive: true });
        writeFileSync(join(repo, '.opencode', 'plugins', 'capture.js'), PLUGIN(dir));
        // OpenCode swaps edit/write for apply_patch when the model id contains "gpt-": a second mock model with
        // such an id, used by the build agent, brings the real tool.
        writeFileSync(
          join(repo, 'opencode.json'),
          JSON.stringify(
            {
              provider: {
                mock: {
                  models: {
                    'gpt-5.5': { name: 'Mock GPT id', tool_call: true, limit: { context: 100_000, output: 4_096 } },
                  },
                },
              },
              agent: { build: { model: 'mock/gpt-5.5' } },
            },
            null,
            2,
          ),
        );
      },
    );
    const dirs = { [r.repo]: '/home/dev/proj', [r.home]: '/home/dev/home' };
    save('opencode', 'offered-tools-gpt-model', { tools: r.tools }, dirs);
    for (const c of r.captures) {
      const p = c.payload as { hook?: string; input?: { tool?: string } };
      save('opencode', `${p.hook}-${p.input?.tool ?? 'none'}-patch`, p, dirs);
    }
    expect(r.captures.length, r.context).toBeGreaterThan(0);
  }, 300_000);
});

describe.skipIf(enabled)('capture real payloads (on demand)', () => {
  it.skip('set LOOP_GUARD_CAPTURE=1 (npm run capture:payloads) to rerun the capture', () => {});
});
