// A deterministic generator of agent histories shaped like real heavy ones (Claude Code and Codex), for the audit
// benchmark (bench/audit-real.mjs) and the byte-for-byte check (bench/audit-same.mjs). Same seed, same bytes.
//
// Why generated: no public repository in the stored index committed long real sessions (searched 2026-12-01: names
// with claude-sessions / codex-sessions / agent-sessions / transcripts / claude-logs / claude-history, and raw-line
// strings; what exists is test fixtures of a few KB, e.g. kvsankar/agent-history's "real_sessions" of 1.9 KB, with
// the prompts redacted), and CI cannot fetch. The line envelopes are the real ones of test/fixtures/transcripts
// (Claude Code 2.1.332, Codex 0.171.0); the mix and sizes below are what long sessions of these CLIs hold.
//
// The shape, per tool (SHAPE below holds the numbers; `node bench/history-measure.mjs` prints what a corpus measures):
//   Claude Code  one line per content block (thinking with its signature, text, tool_use), each result line holding
//                the result twice (message.content and toolUseResult), attachments and file-history snapshots between.
//                Tools: Bash 38%, Read 24%, Edit 12%, Grep 8%, Glob 5%, TodoWrite 6%, Write 4%, Task 3%. Read results
//                are numbered source ("     12→…", the arrow is UTF-8) of 20–1,500 lines; Edit results carry the
//                whole original file in toolUseResult.originalFile. Bash outputs: log-normal, median ~700 B, capped
//                at 30,000 characters (Claude Code's cap); test runners with ✓/× marks, git, ls, grep, builds.
//   Codex        every file read is a shell call (sed -n, cat, rg, ls), so ~85% of calls are exec_command, the rest
//                apply_patch; each call is written three times (function_call, item_completed's
//                aggregated_output, function_call_output with its header) with encrypted reasoning (base64 1–6 KB)
//                and token records between; session_meta opens with the ~20 KB base instructions.
//   Both         sessions of 0.3–40 MB (the long ones hold most bytes); commands repeat (the same git status, the
//                same test run) and ~1 call in 90 starts a loop of 3–8 identical failing runs; a person writes
//                every 15–40 calls.
// Calibration: the build before issue 34 ran 25–30 MB per CPU second on 68 MB of real heavy Claude Code and Codex
// sessions (measured for the issue: Claude Code 34 MB in 1.1 s CPU, Codex 26 MB in 1.0 s); SHAPE was tuned until
// that build runs at the same speed on this corpus, and `node bench/history-measure.mjs` prints its shell calls per
// MB, result sizes, line lengths and share of read results.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const SHAPE = {
  claude: {
    tools: [
      ['Bash', 38],
      ['Read', 24],
      ['Edit', 12],
      ['Grep', 8],
      ['Glob', 5],
      ['TodoWrite', 6],
      ['Write', 4],
      ['Task', 3],
    ],
    thinkingShare: 0.45,
    textShare: 0.3,
    bashMedian: 700,
    readLines: [20, 1500],
    userEvery: [15, 40],
  },
  codex: {
    patchShare: 0.15,
    readShare: 0.55,
    reasoningShare: 0.7,
    outputMedian: 900,
    userEvery: [15, 40],
  },
  loopEvery: 90,
  sessionMB: [0.3, 40],
};

/** Mulberry32: a small seeded PRNG, so the corpus is the same bytes on every machine. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Gen {
  constructor(seed) {
    this.r = rng(seed);
  }
  int(lo, hi) {
    return lo + Math.floor(this.r() * (hi - lo + 1));
  }
  pick(xs) {
    return xs[Math.floor(this.r() * xs.length)];
  }
  weighted(pairs) {
    const total = pairs.reduce((s, [, w]) => s + w, 0);
    let x = this.r() * total;
    for (const [v, w] of pairs) if ((x -= w) < 0) return v;
    return pairs[pairs.length - 1][0];
  }
  /** Log-normal size around `median` (sigma 1.3), clamped. */
  size(median, max) {
    const u = Math.max(1e-9, this.r());
    const v = this.r();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return Math.max(1, Math.min(max, Math.round(median * Math.exp(1.3 * z))));
  }
  hex(n) {
    let s = '';
    while (s.length < n)
      s += Math.floor(this.r() * 0x100000000)
        .toString(16)
        .padStart(8, '0');
    return s.slice(0, n);
  }
  uuid() {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
  b64(n) {
    const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    let s = '';
    for (let i = 0; i < n; i++) s += A[Math.floor(this.r() * 64)];
    return s;
  }
  words(n) {
    let s = '';
    for (let i = 0; i < n; i++) s += `${i ? ' ' : ''}${this.pick(WORDS)}`;
    return s;
  }
}

const WORDS =
  'the a to of and in is it that for this we test file run error build function value return should check update config module import type data path line fix now let me see need call output state'.split(
    ' ',
  );
const FILES = [
  'src/index.ts',
  'src/server/routes.ts',
  'src/lib/parse.ts',
  'src/lib/format.ts',
  'src/components/Table.tsx',
  'src/db/schema.ts',
  'test/parse.test.ts',
  'test/routes.test.ts',
  'package.json',
  'README.md',
  'src/cli/main.rs',
  'src/cli/args.rs',
  'Cargo.toml',
  'scripts/release.mjs',
];

/** Source-like text of n lines. */
function sourceLines(g, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const indent = ' '.repeat(2 * g.int(0, 4));
    out.push(
      g.pick([
        `${indent}const ${g.pick(WORDS)}${i} = ${g.pick(WORDS)}(${g.pick(WORDS)}, ${g.int(0, 999)});`,
        `${indent}if (${g.pick(WORDS)} === undefined) return ${g.pick(WORDS)};`,
        `${indent}// ${g.words(g.int(3, 12))}`,
        `${indent}export function ${g.pick(WORDS)}${g.pick(WORDS)}(input: string): number {`,
        `${indent}}`,
        '',
        `${indent}expect(${g.pick(WORDS)}(${g.int(0, 99)})).toBe(${g.int(0, 99)});`,
        `${indent}import { ${g.pick(WORDS)} } from './${g.pick(WORDS)}.ts';`,
      ]),
    );
  }
  return out;
}

/** A shell output of about `size` characters, in the style of the command. */
function shellOutput(g, kind, size, seedText) {
  const lines = [];
  let n = 0;
  const push = (l) => {
    lines.push(l);
    n += l.length + 1;
  };
  while (n < size) {
    if (kind === 'test')
      push(
        g.r() < 0.85
          ? ` ✓ ${g.pick(FILES)} > ${g.words(g.int(2, 6))} ${g.int(1, 90)}ms`
          : ` × ${g.pick(FILES)} > ${g.words(g.int(2, 6))}\n   AssertionError: expected ${g.int(0, 9)} to be ${g.int(0, 9)}\n    at ${g.pick(FILES)}:${g.int(1, 300)}:${g.int(1, 40)}`,
      );
    else if (kind === 'git') push(`${g.pick([' M', '??', ' D', 'A '])} ${g.pick(FILES)}`);
    else if (kind === 'build')
      push(
        g.pick([
          `   Compiling ${g.pick(WORDS)} v0.${g.int(1, 9)}.${g.int(0, 30)}`,
          `src/${g.pick(WORDS)}.ts(${g.int(1, 300)},${g.int(1, 80)}): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.`,
          `warning: unused variable: \`${g.pick(WORDS)}\``,
          `[${new Date(1796000000000 + g.int(0, 1e7)).toISOString()}] info ${g.words(g.int(3, 9))}`,
        ]),
      );
    else if (kind === 'grep') push(`${g.pick(FILES)}:${g.int(1, 900)}:${sourceLines(g, 1)[0]}`);
    else if (kind === 'ls')
      push(`-rw-r--r-- 1 dev dev ${String(g.int(10, 99999)).padStart(6)} Nov 30 12:${g.int(10, 59)} ${g.pick(FILES)}`);
    else push(sourceLines(g, 1)[0]);
  }
  const text = lines.join('\n');
  return seedText ? `${seedText}\n${text}` : text;
}

const BASH = [
  ['npm test', 'test'],
  ['npx vitest run', 'test'],
  ['cargo test', 'test'],
  ['git status --short', 'git'],
  ['git diff --stat', 'git'],
  ['npm run build', 'build'],
  ['cargo build', 'build'],
  ['npx tsc --noEmit', 'build'],
  ['ls -la src', 'ls'],
  ['rg -n "export function" src', 'grep'],
  ['grep -rn TODO src', 'grep'],
  ['cat src/index.ts', 'src'],
];

/** The next shell command: a fresh one, or one the session ran before; a loop repeats one failure. */
class Commands {
  constructor(g) {
    this.g = g;
    this.loop = 0;
    this.loopCmd = undefined;
    this.loopOut = undefined;
    this.calls = 0;
  }
  next(medianSize) {
    const g = this.g;
    this.calls++;
    if (this.loop > 0) {
      this.loop--;
      return { command: this.loopCmd, output: this.loopOut, code: 1 };
    }
    if (g.r() < 1 / SHAPE.loopEvery) {
      const [cmd, kind] = g.pick(BASH.slice(0, 8));
      this.loopCmd = cmd;
      this.loopOut = shellOutput(g, kind, g.size(medianSize, 12000), `Error: ${g.words(4)}`);
      this.loop = g.int(2, 7);
      return { command: this.loopCmd, output: this.loopOut, code: 1 };
    }
    const [base, kind] = g.pick(BASH);
    // Most commands are variations of the session's usual ones; about a third are one of them word for word.
    const command = g.r() < 0.35 ? base : `${base} ${g.pick(['-- ', '| head -', '2>&1 | tail -'])}${g.int(1, 400)}`;
    const output = shellOutput(g, kind, g.size(medianSize, 30000), '');
    return { command, output, code: kind === 'test' || kind === 'build' ? (g.r() < 0.4 ? 1 : 0) : 0 };
  }
}

class Out {
  constructor(file) {
    this.fd = openSync(file, 'w');
    this.buf = [];
    this.size = 0;
    this.bytes = 0;
  }
  line(o) {
    const s = `${typeof o === 'string' ? o : JSON.stringify(o)}\n`;
    this.buf.push(s);
    this.size += s.length;
    this.bytes += Buffer.byteLength(s);
    if (this.size > 1 << 20) this.flush();
  }
  flush() {
    if (this.buf.length) writeSync(this.fd, this.buf.join(''));
    this.buf = [];
    this.size = 0;
  }
  close() {
    this.flush();
    closeSync(this.fd);
  }
}

/** One Claude Code session of about `bytes`, in a project folder under `home`. */
export function claudeSession(home, cwd, bytes, seed) {
  const g = new Gen(seed);
  const dir = join(home, '.claude', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
  mkdirSync(dir, { recursive: true });
  const sessionId = g.uuid();
  const out = new Out(join(dir, `${sessionId}.jsonl`));
  const cmds = new Commands(g);
  let t = Date.parse('2026-11-02T09:00:00Z') + seed * 3_600_000;
  let parent = null;
  const env = () => {
    const uuid = g.uuid();
    const e = {
      parentUuid: parent,
      isSidechain: false,
      userType: 'external',
      entrypoint: 'cli',
      cwd,
      sessionId,
      version: '2.1.332',
      gitBranch: 'main',
      uuid,
      timestamp: new Date((t += g.int(300, 20000))).toISOString(),
    };
    parent = uuid;
    return e;
  };
  const user = (text) => out.line({ ...env(), type: 'user', message: { role: 'user', content: text } });
  user(`Please ${g.words(g.int(8, 40))}`);
  let nextUser = g.int(...SHAPE.claude.userEvery);
  while (out.bytes < bytes) {
    if (--nextUser <= 0) {
      user(g.words(g.int(5, 60)));
      nextUser = g.int(...SHAPE.claude.userEvery);
    }
    const msgId = `msg_01${g.hex(22)}`;
    const usage = {
      input_tokens: g.int(1, 40),
      cache_creation_input_tokens: g.int(0, 3000),
      cache_read_input_tokens: g.int(20000, 150000),
      output_tokens: g.int(20, 900),
      service_tier: 'standard',
    };
    const assistant = (block) =>
      out.line({
        ...env(),
        message: {
          model: 'claude-sonnet-4-5',
          id: msgId,
          type: 'message',
          role: 'assistant',
          content: [block],
          stop_reason: null,
          stop_sequence: null,
          usage,
        },
        requestId: `req_011${g.hex(21)}`,
        type: 'assistant',
      });
    if (g.r() < SHAPE.claude.thinkingShare)
      assistant({ type: 'thinking', thinking: g.words(g.int(30, 300)), signature: g.b64(g.int(400, 3000)) });
    if (g.r() < SHAPE.claude.textShare) assistant({ type: 'text', text: g.words(g.int(10, 120)) });
    const tool = g.weighted(SHAPE.claude.tools);
    const id = `toolu_01${g.hex(22)}`;
    const file = `${cwd}/${g.pick(FILES)}`;
    let input;
    let content;
    let toolUseResult;
    let isError = false;
    if (tool === 'Bash') {
      const c = cmds.next(SHAPE.claude.bashMedian);
      input = { command: c.command, description: g.words(g.int(2, 6)) };
      isError = c.code !== 0;
      content = isError ? `Exit code ${c.code}\n${c.output}` : c.output;
      toolUseResult = isError
        ? `Error: ${content}`
        : { stdout: c.output, stderr: '', interrupted: false, isImage: false, noOutputExpected: false };
    } else if (tool === 'Read') {
      const n = g.int(...SHAPE.claude.readLines);
      const src = sourceLines(g, g.r() < 0.7 ? Math.min(n, g.int(20, 300)) : n);
      input = { file_path: file };
      content = src.map((l, k) => `${String(k + 1).padStart(6)}→${l}`).join('\n');
      toolUseResult = {
        type: 'text',
        file: { filePath: file, content: src.join('\n'), numLines: src.length, startLine: 1, totalLines: src.length },
      };
    } else if (tool === 'Edit' || tool === 'Write') {
      const original = sourceLines(g, g.int(30, 600)).join('\n');
      const oldString = sourceLines(g, g.int(1, 8)).join('\n');
      const newString = sourceLines(g, g.int(1, 12)).join('\n');
      input =
        tool === 'Edit'
          ? { file_path: file, old_string: oldString, new_string: newString }
          : { file_path: file, content: original };
      content =
        tool === 'Edit'
          ? `The file ${file} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${sourceLines(
              g,
              g.int(5, 20),
            )
              .map((l, k) => `${String(k + 40).padStart(6)}→${l}`)
              .join('\n')}`
          : `File created successfully at: ${file}`;
      toolUseResult = {
        filePath: file,
        oldString,
        newString,
        originalFile: original,
        structuredPatch: [{ oldStart: 40, oldLines: 3, newStart: 40, newLines: 5, lines: newString.split('\n') }],
        userModified: false,
        replaceAll: false,
      };
    } else if (tool === 'Grep' || tool === 'Glob') {
      input = { pattern: g.pick(WORDS), path: cwd };
      content = shellOutput(g, 'grep', g.size(500, 20000), '');
      toolUseResult = { mode: 'content', numFiles: g.int(1, 40), filenames: [], content, numLines: g.int(1, 200) };
    } else if (tool === 'TodoWrite') {
      const todos = Array.from({ length: g.int(3, 10) }, () => ({
        content: g.words(g.int(3, 10)),
        status: g.pick(['pending', 'in_progress', 'completed']),
        activeForm: g.words(3),
      }));
      input = { todos };
      content =
        'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress.';
      toolUseResult = { oldTodos: todos, newTodos: todos };
    } else {
      input = { description: g.words(4), prompt: g.words(g.int(40, 200)), subagent_type: 'general-purpose' };
      content = [{ type: 'text', text: g.words(g.int(100, 600)) }];
      toolUseResult = { status: 'completed', totalDurationMs: g.int(5000, 200000), content };
    }
    assistant({ type: 'tool_use', id, name: tool, input });
    out.line({
      ...env(),
      type: 'user',
      message: {
        role: 'user',
        content: [{ tool_use_id: id, type: 'tool_result', content, ...(isError ? { is_error: true } : {}) }],
      },
      toolUseResult,
      sourceToolAssistantUUID: parent,
    });
    // Bookkeeping between calls: reminders, snapshots of edited files.
    if (g.r() < 0.25)
      out.line({
        ...env(),
        attachment: {
          type: g.pick(['todo_reminder', 'edited_text_file', 'plan_mode']),
          content: g.words(g.int(20, 250)),
        },
        type: 'attachment',
      });
    if (tool === 'Edit' || tool === 'Write')
      out.line({
        type: 'file-history-snapshot',
        messageId: g.uuid(),
        snapshot: {
          messageId: g.uuid(),
          trackedFileBackups: { [file]: { backupFileName: `${g.hex(16)}@v${g.int(1, 9)}`, version: g.int(1, 9) } },
          timestamp: new Date(t).toISOString(),
        },
        isSnapshotUpdate: true,
      });
  }
  out.close();
  return { bytes: out.bytes, shellCalls: cmds.calls };
}

/** One Codex rollout of about `bytes`. */
export function codexSession(home, cwd, bytes, seed) {
  const g = new Gen(seed);
  let t = Date.parse('2026-11-02T09:00:00Z') + seed * 3_600_000;
  const day = new Date(t).toISOString().slice(0, 10).split('-');
  const dir = join(home, '.codex', 'sessions', ...day);
  mkdirSync(dir, { recursive: true });
  const id = g.uuid();
  const out = new Out(join(dir, `rollout-${new Date(t).toISOString().slice(0, 19).replace(/:/g, '-')}-${id}.jsonl`));
  const cmds = new Commands(g);
  const at = () => new Date((t += g.int(200, 15000))).toISOString();
  let turn = g.uuid();
  out.line({
    timestamp: at(),
    type: 'session_meta',
    payload: {
      id,
      timestamp: new Date(t).toISOString(),
      cwd,
      originator: 'codex_cli_rs',
      cli_version: '0.171.0',
      instructions: null,
      base_instructions: { text: g.words(3400) },
      git: { commit_hash: g.hex(40), branch: 'main' },
    },
  });
  const userTurn = () => {
    turn = g.uuid();
    const text = g.words(g.int(8, 80));
    out.line({
      timestamp: at(),
      type: 'event_msg',
      payload: { type: 'task_started', turn_id: turn, model_context_window: 258400 },
    });
    out.line({
      timestamp: at(),
      type: 'turn_context',
      payload: {
        turn_id: turn,
        cwd,
        approval_policy: 'never',
        sandbox_policy: { type: 'workspace-write' },
        model: 'gpt-5.1-codex',
        effort: 'medium',
        summary: 'auto',
      },
    });
    out.line({
      timestamp: at(),
      type: 'response_item',
      payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
    });
    out.line({
      timestamp: at(),
      type: 'event_msg',
      payload: { type: 'user_message', message: text, turn_id: turn, images: [] },
    });
  };
  userTurn();
  let nextUser = g.int(...SHAPE.codex.userEvery);
  while (out.bytes < bytes) {
    if (--nextUser <= 0) {
      userTurn();
      nextUser = g.int(...SHAPE.codex.userEvery);
    }
    if (g.r() < SHAPE.codex.reasoningShare)
      out.line({
        timestamp: at(),
        type: 'response_item',
        payload: {
          type: 'reasoning',
          summary: [{ type: 'summary_text', text: g.words(g.int(5, 40)) }],
          content: null,
          encrypted_content: g.b64(g.int(1000, 6000)),
        },
      });
    const call = `call_${g.b64(24).replace(/[+/]/g, 'x')}`;
    if (g.r() < SHAPE.codex.patchShare) {
      const patch = `*** Begin Patch\n*** Update File: ${g.pick(FILES)}\n@@\n${sourceLines(g, g.int(5, 80))
        .map((l) => `${g.pick(['-', '+', ' '])}${l}`)
        .join('\n')}\n*** End Patch`;
      out.line({
        timestamp: at(),
        type: 'response_item',
        payload: { type: 'custom_tool_call', status: 'completed', call_id: call, name: 'apply_patch', input: patch },
      });
      out.line({
        timestamp: at(),
        type: 'event_msg',
        payload: {
          type: 'patch_apply_end',
          call_id: call,
          turn_id: turn,
          stdout: `Success. Updated the following files:\nM ${g.pick(FILES)}\n`,
          stderr: '',
          success: true,
        },
      });
      out.line({
        timestamp: at(),
        type: 'response_item',
        payload: {
          type: 'custom_tool_call_output',
          call_id: call,
          output: JSON.stringify({
            output: `Success. Updated the following files:\nM ${g.pick(FILES)}\n`,
            metadata: { exit_code: 0, duration_seconds: 0 },
          }),
        },
      });
    } else {
      let c;
      if (g.r() < SHAPE.codex.readShare) {
        const f = g.pick(FILES);
        const from = g.int(1, 400);
        c = {
          command: g.pick([
            `sed -n '${from},${from + g.int(40, 300)}p' ${f}`,
            `cat ${f}`,
            `rg -n "${g.pick(WORDS)}" src`,
            `nl -ba ${f} | sed -n '1,200p'`,
          ]),
          output: sourceLines(g, g.int(20, 300)).join('\n'),
          code: 0,
        };
        cmds.calls++;
      } else c = cmds.next(SHAPE.codex.outputMedian);
      out.line({
        timestamp: at(),
        type: 'response_item',
        payload: {
          type: 'function_call',
          name: 'exec_command',
          arguments: JSON.stringify({ cmd: c.command, workdir: cwd, yield_time_ms: 10000, max_output_tokens: 10000 }),
          call_id: call,
        },
      });
      out.line({
        timestamp: at(),
        type: 'event_msg',
        payload: {
          type: 'item_completed',
          thread_id: id,
          turn_id: turn,
          item: {
            type: 'CommandExecution',
            id: call,
            process_id: String(g.int(1000, 99999)),
            command: ['/bin/bash', '-lc', c.command],
            cwd: `file://${cwd}`,
            parsed_cmd: [{ type: 'unknown', cmd: c.command }],
            source: 'unified_exec_startup',
            status: c.code ? 'failed' : 'completed',
            aggregated_output: `${c.output}\n`,
            exit_code: c.code,
            duration: { secs: g.int(0, 30), nanos: g.int(0, 999999) },
          },
        },
      });
      out.line({
        timestamp: at(),
        type: 'response_item',
        payload: {
          type: 'function_call_output',
          call_id: call,
          output: `Chunk ID: ${g.hex(6)}\nWall time: ${g.int(0, 30)}.${g.int(1000, 9999)} seconds\nProcess exited with code ${c.code}\nOriginal token count: ${Math.ceil(c.output.length / 4)}\nOutput:\n${c.output}\n`,
        },
      });
    }
    const usage = {
      input_tokens: g.int(20000, 200000),
      cached_input_tokens: g.int(10000, 190000),
      output_tokens: g.int(20, 2000),
      reasoning_output_tokens: g.int(0, 900),
      total_tokens: 0,
    };
    usage.cached_input_tokens = Math.min(usage.cached_input_tokens, usage.input_tokens);
    out.line({
      timestamp: at(),
      type: 'event_msg',
      payload: {
        type: 'token_count',
        info: { total_token_usage: usage, last_token_usage: usage, model_context_window: 258400 },
        rate_limits: { primary: { used_percent: g.int(0, 100), window_minutes: 300 } },
      },
    });
    if (g.r() < 0.2)
      out.line({
        timestamp: at(),
        type: 'response_item',
        payload: {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: g.words(g.int(10, 150)) }],
        },
      });
  }
  out.close();
  return { bytes: out.bytes, shellCalls: cmds.calls };
}

/**
 * A HOME of about `mb` MB: sessions of both tools in a few projects, sizes drawn so the long sessions hold most bytes
 * (as in a heavy user's history); Claude Code about 55% of the bytes, Codex the rest.
 */
export function writeHistory(home, mb, seed = 1) {
  const g = new Gen(seed);
  const target = mb * 1e6;
  let bytes = 0;
  let shellCalls = 0;
  const files = { claude: 0, codex: 0 };
  for (let s = 0; bytes < target; s++) {
    const tool = g.r() < 0.55 ? 'claude' : 'codex';
    const [lo, hi] = SHAPE.sessionMB;
    // Log-uniform between 0.3 and 40 MB: few long sessions, many short ones, most bytes in the long ones.
    const size = Math.min(target - bytes + 1, Math.exp(Math.log(lo) + g.r() * (Math.log(hi) - Math.log(lo))) * 1e6);
    const cwd = `/home/dev/project-${s % 6}`;
    const r = (tool === 'claude' ? claudeSession : codexSession)(home, cwd, size, seed * 1000 + s);
    bytes += r.bytes;
    shellCalls += r.shellCalls;
    files[tool]++;
  }
  return { bytes, shellCalls, files };
}
