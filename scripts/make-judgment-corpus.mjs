#!/usr/bin/env node
// Generates the labelled judgment corpus (test/fixtures/judgment/<class>.jsonl) from real captured payloads:
// every event is a clone of a payload the real CLI sent (test/fixtures/payloads/**, test/fixtures/cursor/*),
// with only the command, its output, ids and file names changed. Deterministic: same script, same bytes.
// Usage: node scripts/make-judgment-corpus.mjs            (writes the files)
//        node scripts/make-judgment-corpus.mjs --check    (exit 1 if the committed files differ)
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const fx = join(root, 'test', 'fixtures');
const OUT = join(fx, 'judgment');
const load = (...p) => JSON.parse(readFileSync(join(fx, ...p), 'utf8'));

/** When a loop must be flagged (warning or refusal) and refused, counted in attempts of the looping command. */
const REPEAT = { warnBy: 3, refuseBy: 5 };
/** Polls may wait for something that can still change, so the guard gets more attempts (issue 9, item 4). */
const POLL = { warnBy: 5, refuseBy: 8 };
/** A command that waits for a person must be refused before it first runs. */
const HANG = { warnBy: 1, refuseBy: 1 };

// ---------------------------------------------------------------------------------------------------------
// Templates: the real payloads.
const T = {
  claude: {
    pre: load('payloads/claude/PreToolUse-success.json'),
    post: load('payloads/claude/PostToolUse-success.json'),
    fail: load('payloads/claude/PostToolUseFailure-failure.json'),
    prompt: load('payloads/claude/UserPromptSubmit-prompt.json'),
    editPre: load('payloads/claude/captured/PreToolUse-Edit-edit.json'),
    editPost: load('payloads/claude/captured/PostToolUse-Edit-edit.json'),
    writePre: load('payloads/claude/captured/PreToolUse-Write-write.json'),
    writePost: load('payloads/claude/captured/PostToolUse-Write-write.json'),
    agentPre: load('payloads/claude/captured/PreToolUse-Agent-agent.json'),
    agentPost: load('payloads/claude/captured/PostToolUse-Agent-agent.json'),
    subagentStop: load('payloads/claude/captured/SubagentStop-general-purpose-subagent.json'),
    // A background sub-agent's start (status async_launched) and a task's end as hooks get it (a UserPromptSubmit).
    agentAsyncPost: load('payloads/claude/captured/background/4-PostToolUse-Agent-agent-background.json'),
    taskEnd: load('payloads/claude/captured/background/11-UserPromptSubmit-none-n11.json'),
    bigPost: load('payloads/claude/captured/PostToolUse-Bash-bash-truncated.json'),
    timeout: load('payloads/claude/captured/PostToolUseFailure-Bash-bash-timeout.json'),
    // The PowerShell tool (Windows' shell tool): Bash's events without `noOutputExpected` in the response.
    psPre: load('payloads/claude/captured/PreToolUse-PowerShell-powershell.json'),
    psPost: load('payloads/claude/captured/PostToolUse-PowerShell-powershell.json'),
    psFail: load('payloads/claude/captured/PostToolUseFailure-PowerShell-powershell-failure.json'),
  },
  codex: {
    pre: load('payloads/codex/PreToolUse-success.json'),
    post: load('payloads/codex/PostToolUse-success.json'),
    prompt: load('payloads/codex/UserPromptSubmit-prompt.json'),
    patchPre: load('payloads/codex/captured/PreToolUse-apply_patch-apply_patch.json'),
    patchPost: load('payloads/codex/captured/PostToolUse-apply_patch-apply_patch.json'),
    bigPost: load('payloads/codex/captured/PostToolUse-Bash-exec-truncated.json'),
  },
  cursor: {
    pre: load('cursor/preToolUse.json'),
    post: load('cursor/postToolUse.json'),
    fail: load('cursor/postToolUseFailure.json'),
    prompt: load('cursor/beforeSubmitPrompt.json'),
    edit: load('cursor/afterFileEdit.json'),
  },
  opencode: {
    before: load('payloads/opencode/tool.execute.before-success.json'),
    after: load('payloads/opencode/tool.execute.after-success.json'),
    prompt: load('payloads/opencode/chat.message-prompt.json'),
    editBefore: load('payloads/opencode/captured/tool.execute.before-edit-edit.json'),
    editAfter: load('payloads/opencode/captured/tool.execute.after-edit-edit.json'),
    writeBefore: load('payloads/opencode/captured/tool.execute.before-write-write.json'),
    writeAfter: load('payloads/opencode/captured/tool.execute.after-write-write.json'),
    patchBefore: load('payloads/opencode/captured/tool.execute.before-apply_patch-patch.json'),
    patchAfter: load('payloads/opencode/captured/tool.execute.after-apply_patch-patch.json'),
    taskBefore: load('payloads/opencode/captured/tool.execute.before-task-task.json'),
    taskAfter: load('payloads/opencode/captured/tool.execute.after-task-task.json'),
    bigAfter: load('payloads/opencode/captured/tool.execute.after-bash-bash-truncated.json'),
    timeoutAfter: load('payloads/opencode/captured/tool.execute.after-bash-bash-timeout.json'),
  },
};
const clone = (v) => structuredClone(v);
const TOOLS = ['claude', 'codex', 'cursor', 'opencode'];
const PROJ = '/home/dev/proj';

// Deterministic ids: a hash of the sequence id and a counter, shaped like each tool's own ids.
function idMaker(seed) {
  let n = 0;
  const hex = (len) => createHash('sha256').update(`${seed}:${n++}`).digest('hex').slice(0, len);
  return {
    uuid: () => {
      const h = hex(32);
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
    },
    codexId: () => {
      const h = hex(32);
      return `01a22c83-${h.slice(0, 4)}-7${h.slice(5, 8)}-${h.slice(8, 12)}-${h.slice(12, 24)}`;
    },
    ses: () => `ses_${hex(12)}${hex(14)}`,
    hex,
  };
}

// ---------------------------------------------------------------------------------------------------------
// A session of one tool: each method appends one step (one tool call, or a user turn) of real-shaped events.
class Session {
  constructor(tool, seqId) {
    this.tool = tool;
    this.ids = idMaker(seqId);
    this.steps = [];
    this.call = 0;
    this.session =
      tool === 'codex'
        ? this.ids.codexId()
        : tool === 'opencode'
          ? this.ids.ses()
          : tool === 'cursor'
            ? `c-${this.ids.hex(8)}`
            : this.ids.uuid();
    this.turn = tool === 'codex' ? this.ids.codexId() : tool === 'cursor' ? `g-${this.ids.hex(8)}` : this.ids.uuid();
    this.agent = null; // claude sub-agent context while inside one
  }

  callId() {
    this.call += 1;
    if (this.tool === 'claude') return `toolu_${this.ids.hex(24)}`;
    if (this.tool === 'cursor') return `tu_${this.ids.hex(16)}`;
    return `call_${this.ids.hex(24)}`;
  }

  /** Fields every Claude/Codex payload of this session shares. */
  common(t) {
    if (this.tool === 'claude') {
      const o = {
        ...t,
        session_id: this.session,
        transcript_path: `/home/dev/home/.claude/projects/-home-dev-proj/${this.session}.jsonl`,
        prompt_id: this.turn,
      };
      if (this.agent) Object.assign(o, { agent_id: this.agent, agent_type: 'general-purpose' });
      return o;
    }
    if (this.tool === 'codex') {
      // One model per session: the apply_patch captures ran as gpt-5.5 (Codex offers that tool only to catalog models).
      return {
        ...t,
        session_id: this.session,
        turn_id: this.turn,
        model: 'gpt-5.5',
        transcript_path: `/home/dev/home/.codex/sessions/2026/11/30/rollout-2026-11-30T12-00-00-${this.session}.jsonl`,
      };
    }
    // Only the fields the documented event has: cwd is on tool events, not on afterFileEdit or beforeSubmitPrompt.
    return {
      ...t,
      conversation_id: this.session,
      generation_id: this.turn,
      workspace_roots: [PROJ],
      ...('cwd' in t ? { cwd: PROJ } : {}),
    };
  }

  push(step) {
    this.steps.push(step);
    return this;
  }

  /**
   * One shell call. output: what the command printed (stdout and stderr as the tool combines them);
   * exit: its status; opts.attempt marks a call of the looping command; opts.timeout / opts.big pick the
   * captured timed-out / truncated shapes; opts.background: Claude's run_in_background.
   */
  shell(command, output, exit = 0, opts = {}) {
    const id = this.callId();
    const events = [];
    const desc = opts.description ?? 'Run the command';
    if (this.tool === 'claude' && opts.powershell) {
      // Claude Code's PowerShell tool, as captured (no background or timeout shapes were captured for it).
      const input = { command, description: desc };
      events.push(this.common({ ...clone(T.claude.psPre), tool_input: input, tool_use_id: id }));
      const response = { stdout: output, stderr: '', interrupted: false, isImage: false };
      if (exit === 0)
        events.push(
          this.common({ ...clone(T.claude.psPost), tool_input: input, tool_use_id: id, tool_response: response }),
        );
      else
        events.push(
          this.common({
            ...clone(T.claude.psFail),
            tool_input: input,
            tool_use_id: id,
            error: `Exit code ${exit}\n${output}`,
          }),
        );
    } else if (this.tool === 'claude') {
      const input = { command, description: desc, ...(opts.background ? { run_in_background: true } : {}) };
      events.push(this.common({ ...clone(T.claude.pre), tool_input: input, tool_use_id: id }));
      if (opts.timeout) {
        events.push(
          this.common({
            ...clone(T.claude.timeout),
            tool_input: { command, timeout: 120000, description: desc },
            tool_use_id: id,
            error: 'Exit code 143\nCommand timed out after 2m 0s',
            duration_ms: 120012,
          }),
        );
      } else if (opts.background) {
        events.push(
          this.common({
            ...clone(T.claude.post),
            tool_input: input,
            tool_use_id: id,
            tool_response: {
              stdout: '',
              stderr: '',
              interrupted: false,
              isImage: false,
              noOutputExpected: false,
              backgroundTaskId: `b${this.ids.hex(8)}`,
            },
          }),
        );
      } else if (exit === 0 && opts.big) {
        const t = clone(T.claude.bigPost);
        t.tool_response.stdout = output.slice(0, 30000);
        t.tool_response.persistedOutputPath = `/home/dev/home/.claude/projects/-home-dev-proj/${this.session}/tool-results/${this.ids.hex(9)}.txt`;
        t.tool_response.persistedOutputSize = output.length;
        events.push(this.common({ ...t, tool_input: input, tool_use_id: id, duration_ms: 400 + this.call }));
      } else if (exit === 0) {
        events.push(
          this.common({
            ...clone(T.claude.post),
            tool_input: input,
            tool_use_id: id,
            tool_response: { stdout: output, stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
            duration_ms: 40 + this.call,
          }),
        );
      } else {
        // Claude middle-truncates failure text over 10,000 characters (captured PostToolUseFailure-Bash-bash-failure-truncated).
        let text = `Exit code ${exit}\n${output}`;
        if (text.length > 10000)
          text = `${text.slice(0, 5000)}\n\n... [${text.length - 10000} characters truncated] ...\n\n${text.slice(-5000)}`;
        events.push(
          this.common({
            ...clone(T.claude.fail),
            tool_input: input,
            tool_use_id: id,
            error: text,
            is_interrupt: false,
            duration_ms: 40 + this.call,
          }),
        );
      }
    } else if (this.tool === 'codex') {
      events.push(this.common({ ...clone(T.codex.pre), tool_input: { command }, tool_use_id: id }));
      // A command still running when Codex yields back gets no PostToolUse (captured: exec-still-running).
      if (!opts.timeout) {
        let text = output;
        if (opts.big) {
          const lines = output.split('\n');
          text = `Warning: truncated output (original token count: ${Math.round(output.length / 4)})\nTotal output lines: ${lines.length}\n\n${lines.slice(0, 80).join('\n')}\n…${lines.length - 160} lines truncated…\n${lines.slice(-80).join('\n')}`;
        }
        events.push(
          this.common({ ...clone(T.codex.post), tool_input: { command }, tool_response: text, tool_use_id: id }),
        );
      }
    } else if (this.tool === 'cursor') {
      events.push(
        this.common({ ...clone(T.cursor.pre), tool_input: { command, working_directory: PROJ }, tool_use_id: id }),
      );
      if (opts.timeout) {
        events.push(
          this.common({
            ...clone(T.cursor.fail),
            tool_input: { command },
            tool_use_id: id,
            error_message: 'Command timed out',
            failure_type: 'timeout',
            duration: 30000,
            is_interrupt: false,
          }),
        );
      } else {
        events.push(
          this.common({
            ...clone(T.cursor.post),
            tool_input: { command },
            tool_use_id: id,
            tool_output: JSON.stringify({ exitCode: exit, stdout: output }),
            duration: 500 + this.call,
          }),
        );
      }
    } else {
      const sessionID = opts.sessionID ?? this.session;
      const args = { command, description: desc };
      events.push({
        hook: 'tool.execute.before',
        ...clone(T.opencode.before),
        input: { tool: 'bash', sessionID, callID: id },
        output: { args },
      });
      if (opts.timeout) {
        const t = clone(T.opencode.timeoutAfter);
        t.input = { tool: 'bash', sessionID, callID: id, args: { ...args, timeout: 120000 } };
        t.output.title = command;
        t.output.metadata.output = t.output.output = t.output.output.replace('1000 ms', '120000 ms');
        events.push(t);
      } else if (opts.big) {
        const t = clone(T.opencode.bigAfter);
        const path = `/home/dev/home/.local/share/opencode/tool-output/tool_${this.ids.hex(26)}`;
        const lines = output.split('\n');
        // OpenCode keeps the tail that fits its preview (about 12 KB in the capture).
        let tail = lines.slice(-2000).join('\n');
        if (tail.length > 12000) tail = tail.slice(tail.indexOf('\n', tail.length - 12000) + 1);
        const text = `...output truncated...\n\nFull output saved to: ${path}\n\n${tail}`;
        t.input = { tool: 'bash', sessionID, callID: id, args };
        t.output = {
          title: command,
          metadata: { output: text, exit, truncated: true, outputPath: path },
          output: text,
        };
        events.push(t);
      } else {
        events.push({
          hook: 'tool.execute.after',
          input: { tool: 'bash', sessionID, callID: id, args },
          output: { title: command, metadata: { output, exit, truncated: false }, output },
        });
      }
    }
    return this.push({ kind: 'shell', command, ...(opts.attempt ? { attempt: opts.attempt } : {}), events });
  }

  /** An edit through the agent's own edit tool (Claude Edit, Codex apply_patch, Cursor afterFileEdit, OpenCode edit). */
  edit(file, oldText, newText, opts = {}) {
    const id = this.callId();
    const path = `${PROJ}/${file}`;
    const events = [];
    if (this.tool === 'claude') {
      events.push(
        this.common({
          ...clone(T.claude.editPre),
          tool_input: { file_path: path, old_string: oldText, new_string: newText },
          tool_use_id: id,
        }),
      );
      const post = clone(T.claude.editPost);
      post.tool_input = { file_path: path, old_string: oldText, new_string: newText, replace_all: false };
      post.tool_response = {
        ...post.tool_response,
        filePath: path,
        oldString: oldText,
        newString: newText,
        originalFile: `${oldText}\n`,
        structuredPatch: [
          { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: [`-${oldText}`, `+${newText}`] },
        ],
      };
      events.push(this.common({ ...post, tool_use_id: id }));
    } else if (this.tool === 'codex') {
      const patch = `*** Begin Patch\n*** Update File: ${file}\n@@\n-${oldText}\n+${newText}\n*** End Patch\n`;
      events.push(this.common({ ...clone(T.codex.patchPre), tool_input: { command: patch }, tool_use_id: id }));
      events.push(
        this.common({
          ...clone(T.codex.patchPost),
          tool_input: { command: patch },
          tool_use_id: id,
          tool_response: `Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nM ${file}\n`,
        }),
      );
    } else if (this.tool === 'cursor') {
      events.push(
        this.common({
          ...clone(T.cursor.edit),
          file_path: path,
          edits: [{ old_string: oldText, new_string: newText }],
        }),
      );
    } else if (opts.patch) {
      const patchText = `*** Begin Patch\n*** Update File: ${file}\n@@\n-${oldText}\n+${newText}\n*** End Patch`;
      const before = clone(T.opencode.patchBefore);
      before.input = { ...before.input, sessionID: this.session, callID: id };
      before.output = { args: { patchText } };
      const after = clone(T.opencode.patchAfter);
      after.input = { ...after.input, sessionID: this.session, callID: id, args: { patchText } };
      const diff = `Index: ${path}\n===================================================================\n--- ${path}\n+++ ${path}\n@@ -1,1 +1,1 @@\n-${oldText}\n+${newText}\n`;
      after.output.title = after.output.output = `Success. Updated the following files:\nM ${file}`;
      after.output.metadata.diff = `${diff}\n`;
      after.output.metadata.files = [
        { filePath: path, relativePath: file, type: 'update', patch: diff, additions: 1, deletions: 1 },
      ];
      events.push(before, after);
    } else {
      const before = clone(T.opencode.editBefore);
      before.input = { ...before.input, sessionID: this.session, callID: id };
      before.output = { args: { filePath: path, oldString: oldText, newString: newText } };
      const after = clone(T.opencode.editAfter);
      after.input = {
        ...after.input,
        sessionID: this.session,
        callID: id,
        args: { filePath: path, oldString: oldText, newString: newText },
      };
      const diff = `Index: ${path}\n===================================================================\n--- ${path}\n+++ ${path}\n@@ -1,1 +1,1 @@\n-${oldText}\n+${newText}\n`;
      after.output.metadata.diff = diff;
      after.output.metadata.filediff = { file: path, patch: diff, additions: 1, deletions: 1 };
      after.output.title = file;
      events.push(before, after);
    }
    return this.push({ kind: 'edit', file, events });
  }

  /** A new file written by the agent's write tool (Codex: an apply_patch Add File; Cursor: afterFileEdit). */
  write(file, content) {
    const id = this.callId();
    const path = `${PROJ}/${file}`;
    const events = [];
    if (this.tool === 'claude') {
      events.push(
        this.common({ ...clone(T.claude.writePre), tool_input: { file_path: path, content }, tool_use_id: id }),
      );
      events.push(
        this.common({
          ...clone(T.claude.writePost),
          tool_input: { file_path: path, content },
          tool_use_id: id,
          tool_response: {
            type: 'create',
            filePath: path,
            content,
            structuredPatch: [],
            originalFile: null,
            userModified: false,
          },
        }),
      );
    } else if (this.tool === 'codex') {
      const patch = `*** Begin Patch\n*** Add File: ${file}\n${content
        .split('\n')
        .filter(Boolean)
        .map((l) => `+${l}`)
        .join('\n')}\n*** End Patch\n`;
      events.push(this.common({ ...clone(T.codex.patchPre), tool_input: { command: patch }, tool_use_id: id }));
      events.push(
        this.common({
          ...clone(T.codex.patchPost),
          tool_input: { command: patch },
          tool_use_id: id,
          tool_response: `Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nA ${file}\n`,
        }),
      );
    } else if (this.tool === 'cursor') {
      events.push(
        this.common({ ...clone(T.cursor.edit), file_path: path, edits: [{ old_string: '', new_string: content }] }),
      );
    } else {
      const before = clone(T.opencode.writeBefore);
      before.input = { ...before.input, sessionID: this.session, callID: id };
      before.output = { args: { filePath: path, content } };
      const after = clone(T.opencode.writeAfter);
      after.input = { ...after.input, sessionID: this.session, callID: id, args: { filePath: path, content } };
      after.output.title = file;
      after.output.metadata.filepath = path;
      events.push(before, after);
    }
    return this.push({ kind: 'edit', file, events });
  }

  /**
   * A sub-agent step (Claude Agent tool, OpenCode task): its own shell calls run inside it, then it completes.
   * inner: [[command, output, exit], ...] run by the sub-agent.
   */
  subagent(description, result, inner = [], opts = {}) {
    const id = this.callId();
    if (this.tool === 'claude') {
      const agentId = `a${this.ids.hex(16)}`;
      const input = { description, prompt: description, subagent_type: 'general-purpose', run_in_background: false };
      this.push({
        kind: 'subagent-start',
        events: [this.common({ ...clone(T.claude.agentPre), tool_input: input, tool_use_id: id })],
      });
      this.agent = agentId;
      for (const [c, o, e] of inner) this.shell(c, o, e, opts);
      this.push({
        kind: 'subagent-stop',
        events: [
          this.common({
            ...clone(T.claude.subagentStop),
            agent_transcript_path: `/home/dev/home/.claude/projects/-home-dev-proj/${this.session}/subagents/agent-${agentId}.jsonl`,
            last_assistant_message: result,
          }),
        ],
      });
      this.agent = null;
      const post = clone(T.claude.agentPost);
      post.tool_input = input;
      post.tool_response = {
        ...post.tool_response,
        prompt: description,
        agentId,
        content: [{ type: 'text', text: result }],
      };
      return this.push({ kind: 'subagent', events: [this.common({ ...post, tool_use_id: id })] });
    }
    if (this.tool === 'opencode') {
      const child = this.ids.ses();
      const args = { description, prompt: description, subagent_type: 'general' };
      const before = clone(T.opencode.taskBefore);
      before.input = { ...before.input, sessionID: this.session, callID: id };
      before.output = { args };
      this.push({ kind: 'subagent-start', events: [before] });
      for (const [c, o, e] of inner) this.shell(c, o, e, { ...opts, sessionID: child });
      const after = clone(T.opencode.taskAfter);
      after.input = { ...after.input, sessionID: this.session, callID: id, args };
      after.output.title = description;
      after.output.metadata = { ...after.output.metadata, parentSessionId: this.session, sessionId: child };
      after.output.output = `<task id="${child}" state="completed">\n<task_result>\n${result}\n</task_result>\n</task>`;
      return this.push({ kind: 'subagent', events: [after] });
    }
    throw new Error(`no captured sub-agent payload for ${this.tool}`);
  }

  /** A background sub-agent's start (Claude's Agent with run_in_background): it returns at once, async_launched. */
  subagentBackground(description) {
    if (this.tool !== 'claude') throw new Error(`no captured background sub-agent payload for ${this.tool}`);
    const id = this.callId();
    const agentId = `a${this.ids.hex(16)}`;
    const input = { description, prompt: description, subagent_type: 'general-purpose', run_in_background: true };
    const post = clone(T.claude.agentAsyncPost);
    post.tool_input = input;
    post.tool_response = {
      ...post.tool_response,
      agentId,
      description,
      prompt: description,
      outputFile: `/home/dev/home/tmp/claude-0/-home-dev-proj/${this.session}/tasks/${agentId}.output`,
    };
    this.push({
      kind: 'subagent-start',
      events: [this.common({ ...clone(T.claude.agentPre), tool_input: input, tool_use_id: id })],
    });
    return this.push({ kind: 'subagent', events: [this.common({ ...post, tool_use_id: id })] });
  }

  /**
   * A background task's end as Claude Code's hooks get it: a UserPromptSubmit whose prompt is the task notification
   * (captured). what: 'command' (a run_in_background command, with its exit code) or 'agent' (a sub-agent's result).
   */
  taskEnd(description, what = 'command', exit = 0, result = 'done') {
    if (this.tool !== 'claude') throw new Error(`no captured task notification for ${this.tool}`);
    const task = what === 'agent' ? `a${this.ids.hex(16)}` : `b${this.ids.hex(8)}`;
    const summary =
      what === 'agent'
        ? `Agent "${description}" finished</summary>\n<result>${result}</result>`
        : `Background command "${description}" completed (exit code ${exit})</summary>`;
    const prompt =
      `<task-notification>\n<task-id>${task}</task-id>\n<tool-use-id>toolu_${this.ids.hex(24)}</tool-use-id>\n` +
      `<output-file>/home/dev/home/tmp/claude-0/-home-dev-proj/${this.session}/tasks/${task}.output</output-file>\n` +
      `<status>completed</status>\n<summary>${summary}\n</task-notification>`;
    return this.push({ kind: 'task-end', events: [this.common({ ...clone(T.claude.taskEnd), prompt })] });
  }

  /** A new user message: a new prompt_id / turn_id / generation_id for what follows. */
  userTurn(prompt) {
    if (this.tool === 'opencode') {
      const t = clone(T.opencode.prompt);
      const msg = `msg_${this.ids.hex(26)}`;
      t.input = { sessionID: this.session };
      t.output.message = { ...t.output.message, id: msg, sessionID: this.session };
      t.output.parts = [
        {
          ...t.output.parts[0],
          text: JSON.stringify(prompt),
          messageID: msg,
          sessionID: this.session,
          id: `prt_${this.ids.hex(26)}`,
        },
      ];
      return this.push({ kind: 'user', events: [{ hook: 'chat.message', ...t }] });
    }
    this.turn =
      this.tool === 'codex' ? this.ids.codexId() : this.tool === 'cursor' ? `g-${this.ids.hex(8)}` : this.ids.uuid();
    const t =
      this.tool === 'claude'
        ? { ...clone(T.claude.prompt), prompt }
        : this.tool === 'codex'
          ? { ...clone(T.codex.prompt), prompt }
          : { ...clone(T.cursor.prompt), prompt };
    return this.push({ kind: 'user', events: [this.common(t)] });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Realistic outputs.
const vitestPass = (n, ms) =>
  ` RUN  v4.1.12 /home/dev/proj\n\n ✓ src/math.test.ts (${Math.floor(n / 2)} tests) ${ms}ms\n ✓ src/app.test.ts (${n - Math.floor(n / 2)} tests) ${ms + 7}ms\n\n Test Files  2 passed (2)\n      Tests  ${n} passed (${n})\n   Start at  12:0${ms % 10}:1${ms % 7}\n   Duration  ${(ms / 100).toFixed(2)}s (transform 41ms, setup 0ms, collect 60ms, tests ${ms}ms)\n`;
const vitestFail = (failed, total, assertion, ms = 311) =>
  ` RUN  v4.1.12 /home/dev/proj\n\n ❯ src/app.test.ts (${total} tests | ${failed} failed) ${ms}ms\n   × answer > returns the right value\n     → ${assertion}\n\n⎯⎯⎯⎯⎯⎯⎯ Failed Tests ${failed} ⎯⎯⎯⎯⎯⎯⎯\n\n FAIL  src/app.test.ts > answer > returns the right value\nAssertionError: ${assertion}\n ❯ src/app.test.ts:7:22\n\n Test Files  1 failed (1)\n      Tests  ${failed} failed | ${total - failed} passed (${total})\n   Start at  12:01:0${ms % 10}\n   Duration  ${(ms / 100).toFixed(2)}s\n`;
const pytestFail = (name, msg, seedLine = '') =>
  `============================= test session starts ==============================\nplatform linux -- Python 3.12.3, pytest-8.3.2, pluggy-1.5.0\n${seedLine}rootdir: /home/dev/proj\ncollected 12 items\n\ntests/test_api.py ....F.......                                           [100%]\n\n=================================== FAILURES ===================================\n________________________________ ${name} ________________________________\n\n    def ${name}():\n>       ${msg}\nE       ${msg.replace('assert ', 'AssertionError: assert ')}\n\ntests/test_api.py:41: AssertionError\n=========================== short test summary info ============================\nFAILED tests/test_api.py::${name} - AssertionError\n========================= 1 failed, 11 passed in 0.41s =========================\n`;
const tscErrors = (errs) =>
  `${errs.map((e) => `src/${e[0]}(${e[1]},${e[2]}): error TS${e[3]}: ${e[4]}`).join('\n')}\n\nFound ${errs.length} error${errs.length === 1 ? '' : 's'} in ${new Set(errs.map((e) => e[0])).size} file${new Set(errs.map((e) => e[0])).size === 1 ? '' : 's'}.\n`;
const CONN_REFUSED = "curl: (7) Failed to connect to localhost port 3000 after 0 ms: Couldn't connect to server\n";
const bigLog = (n, tag) =>
  Array.from({ length: n }, (_, i) => `[build] ${tag} step ${i + 1}/${n}: compiled src/module${i % 97}.ts`).join('\n');

// ---------------------------------------------------------------------------------------------------------
// The classes. Each builder returns sequences for one tool; `variants` make the corpus wide, not deep.
const ISSUE = {
  green:
    'Edit a file → `npm test` (42 passed) → edit → `npm test` …: the 3rd green run is warned ("the cause is in that output") and the 5th is refused. The same for `npx tsc --noEmit`, `npm run lint`, `ls`.',
  pollCurl:
    'Polling is refused too: `sleep 5 && curl localhost:3000/health` while a server starts (and it is told retrying cannot fix it), `sleep 30; tail -3 build.log`, `sleep`/`git status` pairs.',
  differences:
    'Six runs with different results, yet the 5th is refused: an assertion whose expected/received values differ only in a timestamp or a time of day (`expected \'2024-03-10T01:00:00Z\'…`, `Received: "11:30:00"`), a metric that moves (`p95 latency 900ms` → `750ms` → …), `ENOENT` naming a different file each time, a different caller address.',
  seeds:
    'A changing random seed (`Randomized with seed 1234`, `--randomly-seed=N`, jest `Seed:`) or test files printed in a different order each run: the same failure 8 times, never flagged. A new container id or request id each run: never flagged.',
  reworded:
    'The same command with `2>&1`, `| tail -20` → `| tail -40` → `| tail -60`, `npm t` / `npm test` / `npm run test`, a `CI=1 ` prefix: 10 rewordings, no warning.',
  hangMissed: 'Let through although they wait for a person',
  hangHarmless:
    'Refused although harmless: `npm run dev -- --help`, `npm run watch -- --help`, `yes "" | npm init`, `less -F file`, and `git stash show -p | head` (taken for the interactive `git stash -p`).',
  realFp:
    '7 in real work (a test rerun after an edit each time, a heartbeat between sub-agent steps, the `git stash` parse above, a dev server the user had asked for)',
  realLoops:
    "a sub-agent's `ls -la` ×1,156 with the same error, `pnpm run typecheck 2>&1 | head -100` ×86 identical, a static log polled 94 times, a port polled 35 times while waiting for the user",
  rewordedPoll:
    'reworded polling (comment lines, `|| echo …` suffixes, an empty `grep` reported as exit 0 one time and exit 1 the next) was caught only after 2 minutes',
  thrash:
    'Same failure across edits ("thrash": five different edits, the identical failure each time) is worth one factual note — the failure did not move; the cause may be elsewhere — and is never refused.',
};

// Issue 22's false positives and negatives, verbatim.
const ISSUE22 = {
  tmpPaths:
    "Paths under a temp directory lose their meaning. A project that lives under `/tmp` (CI scratch dirs, agent sandboxes, `mktemp -d` checkouts) or an error that names a file there: `ENOENT … '/tmp/app/src/config.json'`, then `…/routes.json`, then `…/db.json` — six different missing files — are warned from the 2nd run and refused from the 5th, because the temp-path rule replaces the whole path, file name included. The same for pytest's `/tmp/pytest-of-dev/pytest-7/test_load0/<file>.csv` with a different file each run. Real work, refused.",
  ids: 'Random ids that are noise are kept. `docker compose up` failing on the same port with a new 64-hex endpoint id each run, or `docker build` failing at the same step with a new `---> Running in <12 hex>` each run: never warned, never refused — a loop the guard cannot see.',
  userAsked:
    "The user's own request is refused. In two real sessions of two held-out sets, the user typed `npm run dev` as their prompt; the agent ran it; the hang rule refused it. It would have failed at once (`next: command not found`), so the refusal hid the error that told the agent what was wrong. In a third, `bun run start` of a CLI the agent had just written (it runs once and exits) was refused as a server. These three are the only refusals of real work left in 118 real sessions: all by the hang rule, none by the repeat rule.",
  crlf: 'A failure class that names the wrong cause. `$\'\\r\': command not found` (a script with CRLF line endings) is classed as a missing program, with "install it" advice.',
};

// Issue 33's cases (judgment by how each tool runs commands, and by what changed through the shell), verbatim.
const ISSUE33 = {
  server:
    "Codex's current exec tool runs a command in a session and returns after a short yield with `Process running with session ID …` when it is still running; the agent then polls it. So `uvicorn backend.api:app --port 8000` or `streamlit run app.py` in the foreground is real work there, not a hang. One `streamlit run` that exited at once with code 1 (port taken) was refused too, which hid the real error.",
  patrol:
    'A long-running "patrol" agent reads a tracker (`bd ready`, `bd list`, `gt mail inbox`, `tmux list-sessions`) minutes apart, and between the reads changes that tracker with other commands (`bd close X`, `bd update X --status=…`, `bd dep remove …`, `gt mail send …`). The reads return the same text; the guard counted them as a loop because nothing it knows as an edit happened.',
  lift: 'An agent polled `ls -la workflow/` every few seconds while three background sub-agents wrote files there; the listing did change, but once refused, the command stayed refused "until the user\'s next message".',
  login:
    "`gh auth login --web` was refused twice as a command that waits for a person — with the person right there: the second attempt printed the one-time code and completed in 1 m 45 s, after which the agent pushed. The user's words asked for it.",
};

const classes = [];
/** Register a class: build(session, variant) appends steps; `count` variants per tool; meta: tools, expect, … */
function cls(name, label, description, build, count, meta = {}) {
  classes.push({ name, label, description, build, count, meta });
}

// --- work ---

cls(
  'edit-test-cycle',
  'work',
  "Edit with the agent's edit tool, run the tests, the failure changes, edit again, until green.",
  (s, v) => {
    const runs = [
      [
        'npm test',
        [
          vitestFail(3, 10, 'expected 1 to be 2 // Object.is equality'),
          vitestFail(2, 10, "expected 'b' to be 'c'"),
          vitestFail(1, 10, 'expected [ 1, 2 ] to deeply equal [ 1, 2, 3 ]'),
          vitestPass(10, 290),
        ],
      ],
      [
        'npx tsc --noEmit',
        [
          tscErrors([
            ['app.ts', 4, 7, 2322, "Type 'string' is not assignable to type 'number'."],
            ['util.ts', 9, 3, 2304, "Cannot find name 'clamp'."],
          ]),
          tscErrors([['util.ts', 9, 3, 2304, "Cannot find name 'clamp'."]]),
          '',
        ],
      ],
      [
        'python -m pytest -q',
        [
          pytestFail('test_create_user', 'assert resp.status_code == 201'),
          pytestFail('test_list_users', 'assert len(users) == 3'),
          '12 passed in 0.38s\n',
        ],
      ],
      [
        'cargo test',
        [
          "running 6 tests\ntest parse::tests::empty ... FAILED\n\nfailures:\n\n---- parse::tests::empty stdout ----\nthread 'parse::tests::empty' panicked at src/parse.rs:40:9:\nassertion `left == right` failed\n  left: None\n right: Some(0)\n\ntest result: FAILED. 5 passed; 1 failed; 0 ignored\n",
          'running 6 tests\ntest result: ok. 6 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s\n',
        ],
      ],
      [
        'go test ./...',
        [
          '--- FAIL: TestSum (0.00s)\n    sum_test.go:12: Sum([1 2 3]) = 5, want 6\nFAIL\nFAIL\texample.com/calc\t0.004s\nFAIL\n',
          '--- FAIL: TestMean (0.00s)\n    mean_test.go:9: Mean([]) panicked: division by zero\nFAIL\nFAIL\texample.com/calc\t0.005s\nFAIL\n',
          'ok  \texample.com/calc\t0.004s\n',
        ],
      ],
      [
        'npx jest src/cart',
        [
          ' FAIL  src/cart/cart.test.js\n  ● cart › totals\n\n    expect(received).toBe(expected)\n\n    Expected: 30\n    Received: 25\n\nTests:       1 failed, 7 passed, 8 total\n',
          ' PASS  src/cart/cart.test.js\n\nTests:       8 passed, 8 total\n',
        ],
      ],
    ][v];
    const [cmd, outs] = runs;
    outs.forEach((out, i) => {
      s.edit(`src/file${i}.ts`, `const v = ${i};`, `const v = ${i + 1};`, { patch: v % 2 === 1 });
      s.shell(cmd, out, i === outs.length - 1 ? 0 : 1);
    });
  },
  6,
);

cls(
  'green-rerun-after-edit',
  'work',
  'A green (or empty) result rerun after each edit: normal work, never a repeat.',
  (s, v) => {
    const [cmd, out] = [
      ['npm test', vitestPass(42, 300)],
      ['npx tsc --noEmit', ''],
      ['npm run lint', '\n> proj@1.0.0 lint\n> eslint .\n\n'],
      ['ls', 'README.md\npackage.json\nsrc\ntest\n'],
      ['pytest -q', '42 passed in 0.51s\n'],
    ][v];
    for (let i = 0; i < 6; i++) {
      s.edit('src/app.ts', `export const step = ${i};`, `export const step = ${i + 1};`);
      s.shell(cmd, cmd === 'npm test' ? vitestPass(42, 300 + i * 13) : out, 0);
    }
  },
  5,
  { verbatim: ISSUE.green },
);

cls(
  'poll-server-up',
  'work',
  'Start a server in the background, poll it while it starts (a few identical refusals), then it answers.',
  (s, v) => {
    const waits = [2, 3, 4, 4][v];
    const poll = [
      'sleep 5 && curl localhost:3000/health',
      'sleep 2; curl -s localhost:3000/health',
      'sleep 5 && curl -sf localhost:3000/health',
      'curl localhost:3000/health',
    ][v];
    s.shell('npm run dev > dev.log 2>&1 &', '', 0, { description: 'Start the dev server in the background' });
    for (let i = 0; i < waits; i++) s.shell(poll, CONN_REFUSED, 7);
    s.shell(poll, '{"status":"ok","uptime":1.2}', 0);
  },
  4,
  { verbatim: ISSUE.pollCurl },
);

cls(
  'poll-log-progress',
  'work',
  'A long build watched through its log: each look shows new lines.',
  (s, v) => {
    const cmd = [
      'sleep 30; tail -3 build.log',
      'sleep 10 && tail -n 5 build.log',
      'sleep 20; grep -c compiled build.log',
    ][v];
    s.shell('npm run build > build.log 2>&1 &', '', 0);
    for (let i = 1; i <= 6; i++) {
      const out =
        v === 2
          ? `${i * 40}\n`
          : `[build] compiled ${i * 40} of 312 modules\n[build] compiled ${i * 40 + 12} of 312 modules\n[build] ${i === 6 ? 'done: wrote dist/' : 'still running'}\n`;
      s.shell(cmd, out, 0);
    }
  },
  3,
  { verbatim: ISSUE.pollCurl },
);

cls(
  'flaky-retry',
  'work',
  'A flaky test fails once (or twice, differently) and passes on retry.',
  (s, v) => {
    const cmd = ['npm test', 'npx playwright test login.spec.ts', 'pytest tests/test_api.py', 'go test ./...'][v];
    const fail = [
      'FAIL src/net.test.ts > fetches\nError: Test timed out in 5000ms.\n',
      '  1) [chromium] › login.spec.ts:12:5 › logs in\n    TimeoutError: locator.click: Timeout 30000ms exceeded.\n\n  1 failed\n  9 passed (21.4s)\n',
      pytestFail('test_retry', 'assert resp.ok'),
      '--- FAIL: TestDial (0.50s)\n    dial_test.go:20: dial tcp 127.0.0.1:5432: i/o timeout\nFAIL\n',
    ][v];
    const pass = [
      'Test Files  4 passed (4)\n     Tests  37 passed (37)\n',
      '  10 passed (19.9s)\n',
      '12 passed in 0.40s\n',
      'ok  \texample.com/db\t0.61s\n',
    ][v];
    s.shell(cmd, fail, 1);
    if (v % 2 === 1)
      s.shell(cmd, fail.replace('1)', '2)').replace('0.50s', '0.51s').replace('21.4s', '22.0s') + 'retry #1\n', 1);
    s.shell(cmd, pass, 0);
  },
  4,
);

cls(
  'bisect',
  'work',
  '`git bisect` moves the tree between runs: the same test result repeats on different commits.',
  (s, v) => {
    const test = ['npm test', 'make check', 'pytest -x tests/test_parse.py'][v];
    const bad = [
      'Tests  1 failed | 41 passed (42)\n',
      'FAIL: test_roundtrip\nmake: *** [check] Error 1\n',
      pytestFail('test_parse_empty', 'assert parse("") == []'),
    ][v];
    const good = ['Tests  42 passed (42)\n', 'All 18 tests passed\n', '12 passed in 0.30s\n'][v];
    s.shell(
      'git bisect start HEAD v1.4.0',
      'Bisecting: 15 revisions left to test after this (roughly 4 steps)\n[3f1c2d9a] Refactor parser\n',
      0,
    );
    const verdicts = ['bad', 'bad', 'good', 'bad', 'good'];
    verdicts.forEach((verdict, i) => {
      s.shell(test, verdict === 'bad' ? bad : good, verdict === 'bad' ? 1 : 0);
      s.shell(
        `git bisect ${verdict}`,
        `Bisecting: ${7 >> i} revisions left to test after this (roughly ${3 - Math.min(i, 2)} steps)\n[${createHash('sha1').update(`${v}${i}`).digest('hex').slice(0, 8)}] Commit ${i}\n`,
        0,
      );
    });
  },
  3,
);

cls(
  'git-status-between-edits',
  'work',
  '`git status` after each edit of the same file: the listing is identical, the file is not.',
  (s, v) => {
    const [cmd, out] = [
      ['git status --short', ' M src/app.ts\n'],
      [
        'git status',
        'On branch main\nChanges not staged for commit:\n  (use "git add <file>..." to update what will be committed)\n\tmodified:   src/app.ts\n\nno changes added to commit (use "git add" and/or "git commit -a")\n',
      ],
      ['git diff --stat', ' src/app.ts | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n'],
    ][v];
    for (let i = 0; i < 6; i++) {
      s.edit('src/app.ts', `return ${i};`, `return ${i + 1};`);
      s.shell(cmd, out, 0);
    }
  },
  3,
);

cls(
  'long-build',
  'work',
  'A long build rerun after each edit: the same summary with other durations.',
  (s, v) => {
    const cmd = ['npm run build', 'cargo build --release', 'docker build -t app .'][v];
    for (let i = 0; i < 5; i++) {
      s.edit(`src/mod${i}.ts`, `const x = ${i};`, `const x = ${i + 10};`);
      const secs = (40 + i * 3.7).toFixed(1);
      const out = [
        `\n> proj@1.0.0 build\n> vite build\n\nvite v6.2.0 building for production...\n✓ 812 modules transformed.\ndist/index.html   0.46 kB │ gzip: 0.30 kB\ndist/assets/index.js  143.2 kB │ gzip: 46.1 kB\n✓ built in ${secs}s\n`,
        `   Compiling app v0.3.1 (/home/dev/proj)\n    Finished \`release\` profile [optimized] target(s) in ${secs}s\n`,
        `#1 [internal] load build definition from Dockerfile\n#8 [5/5] RUN npm run build\n#8 DONE ${secs}s\n#9 exporting to image\n#9 naming to docker.io/library/app:latest done\n#9 DONE 0.4s\n`,
      ][v];
      s.shell(cmd, out, 0);
    }
  },
  3,
);

cls(
  'subagent-between-checks',
  'work',
  'The same check between sub-agent steps that do the work: identical results, real progress in between.',
  (s, v) => {
    const check = ['npm test', 'npx tsc --noEmit', 'git status --short', 'echo heartbeat && date +%H'][v];
    const out = [vitestFail(1, 12, 'expected 3 to be 4'), '', ' M src/app.ts\n', 'heartbeat\n12\n'][v];
    for (let i = 0; i < 5; i++) {
      s.subagent(`Fix step ${i + 1}`, `Updated src/step${i}.ts`, []);
      s.shell(check, out, v === 0 ? 1 : 0);
    }
  },
  4,
  { tools: ['claude', 'opencode'], verbatim: ISSUE.realFp },
);

cls(
  'user-turn-between',
  'work',
  'The user writes before each identical run (each new message starts over).',
  (s, v) => {
    const [cmd, out, exit] = [
      ['npm test', vitestFail(1, 12, 'expected 3 to be 4'), 1],
      ['ls dist', "ls: cannot access 'dist': No such file or directory\n", 2],
    ][v];
    // The user changed something outside the agent's view each time and asks for another run.
    for (let i = 0; i < 5; i++) {
      s.userTurn(i === 0 ? 'run the tests' : 'try again, I changed the config');
      s.shell(cmd, out, exit);
    }
  },
  2,
);

cls(
  'meaningful-differences',
  'work',
  'Six runs whose results differ only in values that carry meaning: nothing repeats.',
  (s, v) => {
    const outs = [
      (i) => vitestFail(1, 8, `expected '2024-03-10T0${i}:00:00Z' to be '2024-03-10T01:00:00Z'`),
      (i) =>
        ` FAIL  src/clock.test.ts\n  ● formats time\n\n    Expected: "12:00:00"\n    Received: "${i === 0 ? '11:30:00' : `11:3${i}:0${i}`}"\n\nTests:       1 failed, 3 passed, 4 total\n`,
      (i) =>
        `bench: GET /api/items\n  requests: 2000\n  p95 latency ${900 - i * 30}ms\n  p99 latency ${1300 - i * 41}ms\nFAIL: p95 latency above 600ms budget\n`,
      (i) =>
        `node:internal/fs/utils:351\n    throw err;\n    ^\n\nError: ENOENT: no such file or directory, open '/home/dev/proj/config/env${i}.json'\n    at Object.openSync (node:fs:573:18)\n    at loadConfig (/home/dev/proj/src/config.js:12:20) {\n  errno: -2,\n  code: 'ENOENT',\n  syscall: 'open',\n  path: '/home/dev/proj/config/env${i}.json'\n}\n`,
      (i) =>
        `Error: request from 10.0.0.${50 + i}:${51200 + i * 17} rejected: not in allow-list\n    at checkCaller (/home/dev/proj/src/acl.js:18:11)\ncaller address 10.0.0.${50 + i} is not allowed\n`,
      (i) =>
        `free(): double free detected in tcache 2\nguard: invalid free, caller address 0x55d3c1a2${(0xb3c4 + i * 0x1a0).toString(16)} (pool ${i})\nAborted (core dumped)\n`,
    ];
    const cmd = [
      'npm test -- src/date.test.ts',
      'npx jest src/clock.test.ts',
      'npm run bench',
      'node scripts/load-config.js',
      'node server.js',
      './build/pool_test',
    ][v];
    for (let i = 0; i < 6; i++) s.shell(cmd, outs[v](i), 1);
  },
  6,
  { verbatim: ISSUE.differences },
);

cls(
  'hang-harmless',
  'work',
  'Commands that look interactive but are not: never refused.',
  (s, v) => {
    const [cmd, out, opts] = [
      [
        'npm run dev -- --help',
        'Usage: vite [root]\n\nOptions:\n  --host [host]  [string] specify hostname\n  -h, --help     Display this message\n',
        {},
      ],
      ['npm run watch -- --help', 'Usage: tsc --watch [options]\n', {}],
      [
        'yes "" | npm init',
        'This utility will walk you through creating a package.json file.\nWrote to /home/dev/proj/package.json\n',
        {},
      ],
      ['less -F README.md', '# fixture\n', {}],
      [
        'git stash show -p | head',
        'diff --git a/src/app.ts b/src/app.ts\nindex 3b18e51..a1b2c3d 100644\n--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1 +1 @@\n-return 1;\n+return 2;\n',
        {},
      ],
      ['npm run dev', '', { background: true, description: 'Start the dev server the user asked for' }],
    ][v];
    if (opts.background && s.tool !== 'claude')
      s.shell('npm run dev > dev.log 2>&1 &', '', 0, { description: opts.description });
    else s.shell(cmd, out, 0, opts);
  },
  6,
  { verbatim: ISSUE.hangHarmless },
);

cls(
  'exploration',
  'work',
  'Different commands, each once: reading the code base.',
  (s, v) => {
    const cmds = [
      [
        ['ls -la', 'total 24\ndrwxr-xr-x 5 dev dev 4096 .\n-rw-r--r-- 1 dev dev  120 package.json\n'],
        ['cat package.json', '{ "name": "proj", "scripts": { "test": "vitest run" } }\n'],
        ['grep -rn "TODO" src', 'src/app.ts:12:// TODO: handle empty input\n'],
        ['git log --oneline -5', 'a1b2c3d Fix parser\nd4e5f6a Add tests\n'],
      ],
      [
        ['git status', 'On branch main\nnothing to commit, working tree clean\n'],
        ['npm ls --depth 0', 'proj@1.0.0 /home/dev/proj\n└── vitest@4.1.12\n'],
        ['node --version', 'v20.20.2\n'],
        ['cat src/app.ts', 'export function answer() { return 1; }\n'],
      ],
      [
        ['find src -name "*.test.ts"', 'src/app.test.ts\nsrc/math.test.ts\n'],
        ['wc -l src/*.ts', '  40 src/app.ts\n  22 src/math.ts\n  62 total\n'],
        ['head -20 src/math.ts', 'export const add = (a: number, b: number) => a + b;\n'],
        ['git diff HEAD~1 --stat', ' src/app.ts | 4 ++--\n'],
      ],
      [
        ['docker ps', 'CONTAINER ID   IMAGE     STATUS\n'],
        ['env | grep NODE', 'NODE_ENV=development\n'],
        ['cat .env.example', 'PORT=3000\n'],
        ['ls test', 'app.test.ts\n'],
      ],
    ][v];
    for (const [c, o] of cmds) s.shell(c, o, 0);
  },
  4,
);

cls(
  'sleep-git-status',
  'work',
  '`sleep`/`git status` pairs while a background generator writes files: identical for a while, then new files appear.',
  (s, v) => {
    const sleep = ['sleep 10', 'sleep 30'][v];
    s.shell('npm run codegen > codegen.log 2>&1 &', '', 0);
    for (let i = 0; i < 4; i++) {
      s.shell(sleep, '', 0);
      s.shell('git status --short', '', 0);
    }
    s.shell(sleep, '', 0);
    s.shell('git status --short', '?? src/generated/api.ts\n?? src/generated/types.ts\n', 0);
  },
  2,
  { verbatim: ISSUE.pollCurl },
);

cls(
  'thrash',
  'work',
  'Five different edits, the identical failure each time: one factual note, never a refusal.',
  (s, v) => {
    const [cmd, out] = [
      ['npm test', vitestFail(1, 10, 'expected 41 to be 42 // Object.is equality')],
      ['pytest -q tests/test_api.py', pytestFail('test_total', 'assert total == 42')],
    ][v];
    for (let i = 0; i < 5; i++) {
      s.edit(`src/part${i}.ts`, `const k = ${i};`, `const k = ${i * 2 + 1};`);
      s.shell(cmd, out, 1);
    }
  },
  2,
  {
    expect: { note: 1 },
    justification:
      'Thrash: the issue asks for one factual note (the failure did not move across edits), never a refusal.',
    verbatim: ISSUE.thrash,
  },
);

cls(
  'temp-paths',
  'work',
  'Errors that name a different file under a temp directory each run (a project under /tmp, pytest tmp_path): different results.',
  (s, v) => {
    const files = ['config', 'routes', 'db', 'users', 'auth', 'cache'];
    // Only the missing file's name differs between runs (the agent adds one file, the next one is missing).
    const [cmd, out] = [
      [
        'node src/load.js',
        (f) =>
          `node:internal/fs/utils:347\n    throw err;\n    ^\n\nError: ENOENT: no such file or directory, open '/tmp/app/src/${f}.json'\n    at Object.openSync (node:fs:573:3)\n    at load (/tmp/app/src/load.js:4:15) {\n  errno: -2,\n  code: 'ENOENT',\n  syscall: 'open',\n  path: '/tmp/app/src/${f}.json'\n}\n`,
      ],
      [
        'python -m pytest -q tests/test_load.py',
        (f, i) =>
          `F\n=================================== FAILURES ===================================\n_________________________________ test_load __________________________________\n\ntmp_path = PosixPath('/tmp/pytest-of-dev/pytest-${7 + i}/test_load0')\n\n    def test_load(tmp_path):\n>       rows = load_all(tmp_path)\nE       FileNotFoundError: [Errno 2] No such file or directory: '/tmp/pytest-of-dev/pytest-${7 + i}/test_load0/${f}.csv'\n\ntests/test_load.py:9: FileNotFoundError\n1 failed in 0.0${i + 1}s\n`,
      ],
      [
        'python tools/export.py',
        (f) =>
          `Traceback (most recent call last):\n  File "/tmp/tmp.Xk29QaLm0Z/tools/export.py", line 12, in <module>\n    main()\nFileNotFoundError: [Errno 2] No such file or directory: '/tmp/tmp.Xk29QaLm0Z/out/${f}.txt'\n`,
      ],
    ][v];
    for (const [i, f] of files.entries()) s.shell(cmd, out(f, i), 1);
  },
  3,
  { verbatim: ISSUE22.tmpPaths },
);

cls(
  'hex-results',
  'work',
  'Commands whose result is a hash or id (git rev-parse and git log after each commit, sha256sum after each build, uuidgen): each one differs.',
  (s, v) => {
    const hex = (seed, n) => createHash('sha256').update(seed).digest('hex').slice(0, n);
    for (let i = 0; i < 5; i++) {
      if (v === 0) {
        s.shell(
          `git commit -am "step ${i}"`,
          `[main ${hex(`c${i}`, 7)}] step ${i}\n 1 file changed, 1 insertion(+), 1 deletion(-)\n`,
          0,
        );
        s.shell('git rev-parse HEAD', `${hex(`c${i}`, 40)}\n`, 0);
      } else if (v === 1) {
        s.edit(`src/step${i}.ts`, `const v = ${i};`, `const v = ${i + 1};`);
        s.shell(
          'git commit -am wip',
          `[main ${hex(`c${i}`, 7)}] wip\n 1 file changed, 1 insertion(+), 1 deletion(-)\n`,
          0,
        );
        s.shell('git log --oneline -2', `${hex(`c${i}`, 7)} wip\n${hex(`c${i - 1}`, 7)} wip\n`, 0);
      } else if (v === 2) s.shell('sha256sum dist/app.js', `${hex(`b${i}`, 64)}  dist/app.js\n`, 0);
      else
        s.shell(
          'uuidgen',
          `${hex(`u${i}`, 8)}-${hex(`a${i}`, 4)}-4${hex(`b${i}`, 3)}-8${hex(`d${i}`, 3)}-${hex(`e${i}`, 12)}\n`,
          0,
        );
    }
  },
  4,
);

cls(
  'user-asked',
  'work',
  'The user typed the command as their prompt (or `bun run start` of a CLI that runs once): it runs; its result is what tells the agent what is wrong.',
  (s, v) => {
    if (v === 0) {
      s.userTurn('npm run dev');
      s.shell('npm run dev', '\n> app@0.1.0 dev\n> next dev\n\nsh: 1: next: not found\n', 127, {
        description: 'Start the dev server the user asked for',
      });
      s.shell('npm install', 'added 312 packages, and audited 313 packages in 9s\n', 0);
    } else if (v === 1) {
      s.userTurn('please run `pnpm dev` and tell me what it prints');
      s.shell(
        'pnpm dev',
        '\n> app@0.1.0 dev /home/dev/proj\n> vite\n\nsh: 1: vite: not found\n ELIFECYCLE  Command failed.\n',
        1,
      );
    } else {
      s.userTurn('write a small CLI that prints the word count of README.md');
      s.shell('bun run start', 'README.md: 42 words\n', 0);
    }
  },
  3,
  {
    verbatim: ISSUE22.userAsked,
    files: { 'package.json': JSON.stringify({ name: 'app', scripts: { dev: 'next dev', start: 'bun run index.ts' } }) },
  },
);

const BD_READY =
  '📋 Ready work (3 issues with no blockers):\n\n1. [P1] proj-3: wire the importer\n2. [P2] proj-4: docs for the importer\n3. [P2] proj-9: flaky upload test\n';
cls(
  'shell-writes-between',
  'work',
  'A patrol agent reads its tracker between commands that change it (`bd close`, `bd update`, `bd dep remove`, `gt mail send`): the reads return the same text, the tracker moved through the shell.',
  (s, v) => {
    const read = v === 0 ? 'bd ready' : 'gt mail inbox';
    const out = v === 0 ? BD_READY : '📬 Inbox: 0 unread, 4 total\n';
    const writes =
      v === 0
        ? (i) =>
            [
              [`bd update proj-${20 + i} --status=in_progress`, `✓ Updated issue: proj-${20 + i}\n`],
              [`bd close proj-${20 + i} --reason "fixed in ${i}a1b2c"`, `✓ Closed proj-${20 + i}: fixed\n`],
              [
                `bd dep remove proj-${20 + i} proj-3`,
                `✓ Removed dependency: proj-${20 + i} no longer depends on proj-3\n`,
              ],
            ][i % 3]
        : (i) => [`gt mail send worker-${i} -s "patrol ${i}" -m "take proj-${20 + i}"`, `✉ Sent to worker-${i}\n`];
    for (let i = 1; i <= 8; i++) {
      s.shell(read, out, 0, { description: 'Check the tracker' });
      const [cmd, res] = writes(i);
      s.shell(cmd, res, 0);
      s.shell('tmux list-sessions', 'mayor: 1 windows (created Mon Nov 30 09:00:00 2026)\n', 0);
    }
  },
  2,
  { verbatim: ISSUE33.patrol },
);

cls(
  'server-in-exec-session',
  'work',
  'Codex: a server started in the foreground of an exec session (which yields back while it runs), then polled; the same server command exiting at once on a taken port, judged by its result.',
  (s, v) => {
    if (v === 0) {
      s.shell('uvicorn backend.api:app --port 8000', '', 0, { timeout: true });
      s.shell('curl -s localhost:8000/health', '{"status":"ok"}\n', 0);
      s.shell('curl -s localhost:8000/api/items | head -c 200', '[{"id":1,"name":"first"}]\n', 0);
    } else {
      const taken = '  Error: Port 8501 is already in use\n';
      s.shell('streamlit run app.py --server.port 8501', `Process exited with code 1\nOutput:\n${taken}`, 1);
      s.shell('lsof -i :8501 | tail -1', 'python3 4242 dev 3u IPv4 0t0 TCP *:8501 (LISTEN)\n', 0);
      s.shell('streamlit run app.py --server.port 8501', `Process exited with code 1\nOutput:\n${taken}`, 1);
      s.shell('streamlit run app.py --server.port 8502', '', 0, { timeout: true });
    }
  },
  2,
  { tools: ['codex'], verbatim: ISSUE33.server },
);

// real: a public Codex Desktop 0.140 session (test/fixtures/judgment-sources/, provenance in PROVENANCE.md): a dev server
// started in the foreground of an exec session exits at once (EPERM in the sandbox), runs when started again with
// escalation (`Process running with session ID …`: no post event), then is used; each output is kept to its first
// 600 characters (the commands differ, so no result is compared with another beyond that).
const REAL_EXEC = JSON.parse(readFileSync(join(fx, 'judgment-sources', 'codex-exec-server-ta93abe-me.json'), 'utf8'));
cls(
  'server-in-exec-session-real',
  'work',
  'Codex, from a real public session: `wrangler dev` and `astro preview` in the foreground of an exec session, each exiting at once the first time (EPERM) and running the second (yielded back), then used with `curl` and reads.',
  (s, v) => {
    const seq = REAL_EXEC.sequences[v === 0 ? 'wrangler-dev' : 'astro-preview'];
    for (const c of seq) {
      if (c.running) s.shell(c.command, '', 0, { timeout: true });
      else s.shell(c.command, c.output.slice(0, 600), c.exit ?? 0);
    }
  },
  2,
  { tools: ['codex'], verbatim: ISSUE33.server },
);

// real: a public OpenCode session export (test/fixtures/judgment-sources/, provenance in PROVENANCE.md) that reads a
// beads tracker (`bd ready`) and closes and claims issues between the reads, with edits and builds between.
const REAL_BEADS = JSON.parse(readFileSync(join(fx, 'judgment-sources', 'opencode-beads-patrol.json'), 'utf8'));
cls(
  'shell-writes-between-real',
  'work',
  'OpenCode, from a real public session: `bd ready` read three times with `bd close` between (each read a new list), then `bd update --status in_progress`, edits, builds and `bd close` as each task is done.',
  (s) => {
    for (const st of REAL_BEADS.steps) {
      if (st.prompt !== undefined) s.userTurn(st.prompt);
      else if (st.edit !== undefined) s.edit(st.edit, 'before', 'after');
      else s.shell(st.command, st.output, st.exit);
    }
  },
  1,
  { tools: ['opencode'], verbatim: ISSUE33.patrol },
);

cls(
  'asked-login',
  'work',
  'The user asked for the sign-in in this turn (`gh auth login --web`): it runs, the person completes the device code; then the push.',
  (s) => {
    s.userTurn('log in with `gh auth login --web` and push the branch');
    s.shell(
      'gh auth login --web',
      '! First copy your one-time code: 3F2A-9B1C\nOpen this URL to continue in your web browser: https://github.com/login/device\n✓ Authentication complete.\n✓ Logged in as dev\n',
      0,
    );
    s.shell('git push -u origin fix/importer', "branch 'fix/importer' set up to track 'origin/fix/importer'.\n", 0);
  },
  1,
  { verbatim: ISSUE33.login },
);

cls(
  'task-end-between',
  'work',
  "Claude Code: a background task's end between two calls (its task notification, a UserPromptSubmit that is not the user): a dev server the user asked for still runs after a background build ended; a parent polls `ls -la workflow/` while three background sub-agents write there.",
  (s, v) => {
    if (v === 0) {
      s.userTurn('start the dev server with `npm run dev` once the build is done');
      s.shell('npm run build', '', 0, { background: true, description: 'Build the app in the background' });
      s.taskEnd('Build the app in the background');
      s.shell('npm run dev', '', 143, { timeout: true, description: 'Start the dev server the user asked for' });
      s.shell('curl -s localhost:3000/health', '{"ok":true}\n', 0);
      return;
    }
    const files = ['intake.md', 'plan.md', 'review.md'];
    const ls = (n) =>
      `total ${4 * n}\n` +
      files
        .slice(0, n)
        .map((f, i) => `-rw-r--r-- 1 dev dev 1${i}42 Nov 30 12:0${i} ${f}\n`)
        .join('');
    for (const f of files) s.subagentBackground(`Write workflow/${f}`);
    for (const [n, ended] of [[0], [0], [1], [1, true], [2], [2, true], [3], [3, true]]) {
      s.shell('ls -la workflow/', ls(n), 0, { description: 'List the workflow folder' });
      if (ended) s.taskEnd(`Write workflow/${files[n - 1]}`, 'agent', 0, `wrote workflow/${files[n - 1]}`);
    }
  },
  2,
  { tools: ['claude'], verbatim: ISSUE33.lift },
);

// --- loops ---

cls(
  'plain-repeat',
  'loop',
  'The same command, the same result, nothing in between.',
  (s, v) => {
    const [cmd, out, exit] = [
      ['ls -la /home/dev/proj/build', "ls: cannot access '/home/dev/proj/build': No such file or directory\n", 2],
      ['npm test', vitestFail(1, 12, 'expected 3 to be 4'), 1],
      ['cat config/settings.yaml', 'cat: config/settings.yaml: No such file or directory\n', 1],
      [
        'python manage.py migrate',
        'Traceback (most recent call last):\n  File "/home/dev/proj/manage.py", line 22, in <module>\n    main()\ndjango.db.utils.OperationalError: connection to server at "localhost" (127.0.0.1), port 5432 failed: Connection refused\n',
        1,
      ],
      [
        'curl -s -H "Authorization: Bearer $TOKEN" https://api.example.com/v1/me',
        '{"error":"invalid_token","status":401}\n',
        0,
      ],
    ][v];
    for (let i = 1; i <= 8; i++) s.shell(cmd, out, exit, { attempt: i });
  },
  5,
  { expect: REPEAT },
);

cls(
  'exit0-head',
  'loop',
  'A failure hidden behind `| head` (or an empty successful result): exit 0 every time, nothing changes.',
  (s, v) => {
    const [cmd, out] = [
      [
        'pnpm run typecheck 2>&1 | head -100',
        "\n> proj@1.0.0 typecheck /home/dev/proj\n> tsc --noEmit\n\nsrc/api.ts(14,5): error TS2339: Property 'id' does not exist on type '{}'.\n",
      ],
      ['npm test 2>&1 | head -50', vitestFail(1, 12, 'expected 3 to be 4')],
      ['jq \'.items[] | select(.id == "x42")\' data.json', ''],
      ['grep -rn "createUser" src | head', 'src/routes/user.ts:8:import { createUser } from "../db";\n'],
    ][v];
    for (let i = 1; i <= 8; i++) s.shell(cmd, out, 0, { attempt: i });
  },
  4,
  { expect: REPEAT, verbatim: ISSUE.realLoops },
);

cls(
  'noisy-repeat',
  'loop',
  'The same failure each run, with noise that changes: seeds, timestamps, ids, test-file order.',
  (s, v) => {
    const cmd = [
      'bundle exec rspec',
      'pytest -p randomly',
      'npx jest --randomize',
      'docker run --rm app npm test',
      'npm run e2e',
      'npx vitest run',
    ][v];
    const fail = (i) =>
      [
        `Randomized with seed ${1234 + (i - 1) * 7919}\n\nFailures:\n\n  1) User#save validates email\n     Failure/Error: expect(user.save).to be true\n       expected true\n            got false\n     # ./spec/models/user_spec.rb:14\n\n12 examples, 1 failure\n\nRandomized with seed ${1234 + (i - 1) * 7919}\n`,
        pytestFail('test_total', 'assert total == 42', `Using --randomly-seed=${3141592 + i * 271}\n`),
        ` FAIL  src/cart.test.js\n  ● cart › totals\n\n    Expected: 30\n    Received: 25\n\nTests:       1 failed, 7 passed, 8 total\nSeed:        ${-1795830470 + i * 104729}\nTime:        ${(1.2 + i * 0.1).toFixed(3)} s\n`,
        `Unable to find image locally... container ${createHash('sha1').update(`c${i}`).digest('hex').slice(0, 12)} started\nFAIL src/db.test.ts\nError: relation "users" does not exist\n`,
        `[2026-11-30T12:0${i}:1${i}.${100 + i}Z] request ${createHash('md5').update(`r${i}`).digest('hex').slice(0, 8)}-${i}a2f POST /api/login -> 500\nError: Cannot read properties of undefined (reading 'token')\n    at login (/home/dev/proj/src/auth.ts:31:18)\n1 failed\n`,
        (() => {
          const a = ' ✓ src/a.test.ts (4 tests) 12ms\n';
          const b = ' ✓ src/b.test.ts (3 tests) 9ms\n';
          const c = ' ❯ src/c.test.ts (2 tests | 1 failed) 14ms\n   × c > adds\n     → expected 3 to be 4\n';
          const order = [
            [a, b, c],
            [c, a, b],
            [b, c, a],
          ][i % 3];
          return ` RUN  v4.1.12 /home/dev/proj\n\n${order.join('')}\n Test Files  1 failed | 2 passed (3)\n      Tests  1 failed | 8 passed (9)\n`;
        })(),
      ][v];
    for (let i = 1; i <= 8; i++) s.shell(cmd, fail(i), 1, { attempt: i });
  },
  6,
  { expect: REPEAT, verbatim: ISSUE.seeds },
);

cls(
  'noisy-ids',
  'loop',
  'The same failure each run with a new random id: a Docker endpoint id, "---> Running in <hex>", a BuildKit digest, a build id.',
  (s, v) => {
    const hex = (seed, n) => createHash('sha256').update(seed).digest('hex').slice(0, n);
    const [cmd, out] = [
      [
        'docker compose up -d',
        (i) =>
          ` Network app_default  Created\n Container app-web-1  Creating\n Container app-web-1  Created\n Container app-web-1  Starting\nError response from daemon: driver failed programming external connectivity on endpoint app-web-1 (${hex(`e${i}`, 64)}): Bind for 0.0.0.0:3000 failed: port is already allocated\n`,
      ],
      [
        'docker build -t app .',
        (i) =>
          `Sending build context to Docker daemon  4.096kB\nStep 1/4 : FROM node:22\n ---> ${hex('base', 12)}\nStep 2/4 : RUN npm ci\n ---> Running in ${hex(`r${i}`, 12)}\nnpm error code ERESOLVE\nnpm error ERESOLVE could not resolve\nThe command '/bin/sh -c npm ci' returned a non-zero code: 1\n`,
      ],
      [
        'docker buildx build --progress=plain .',
        (i) =>
          `#6 [3/4] RUN npm run build\n#6 0.${400 + i} > tsc -p .\n#6 1.${100 + i} src/app.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\n#6 ERROR: process "/bin/sh -c npm run build" did not complete successfully: exit code: 2\n#7 writing image sha256:${hex(`i${i}`, 64)} done\n`,
      ],
      [
        'gcloud builds submit --tag gcr.io/proj/app',
        (i) =>
          `Created [https://cloudbuild.googleapis.com/v1/projects/proj/builds].\nBuild ID: ${hex(`b${i}`, 8)}-${hex(`c${i}`, 4)}\nERROR: build step 0 "gcr.io/cloud-builders/docker" failed: step exited with non-zero status: 1\n`,
      ],
    ][v];
    for (let i = 1; i <= 8; i++) s.shell(cmd, out(i), 1, { attempt: i });
  },
  4,
  { expect: REPEAT, verbatim: ISSUE22.ids },
);

cls(
  'failure-cause',
  'loop',
  'A failure whose class names the real cause (CRLF line endings, dependencies not installed, a missing script), repeated unchanged.',
  (s, v) => {
    const [cmd, out, exit] = [
      [
        './scripts/setup.sh',
        "./scripts/setup.sh: line 2: $'\\r': command not found\n./scripts/setup.sh: line 4: $'\\r': command not found\n",
        127,
      ],
      ['./run.sh', 'bash: ./run.sh: /bin/bash^M: bad interpreter: No such file or directory\n', 126],
      ['npm run build', '\n> web@1.0.0 build\n> vite build\n\nsh: 1: vite: not found\n', 127],
      [
        'npm run lint',
        'npm error Missing script: "lint"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run\n',
        1,
      ],
    ][v];
    for (let i = 1; i <= 8; i++) s.shell(cmd, out, exit, { attempt: i });
  },
  4,
  { expect: REPEAT, verbatim: ISSUE22.crlf },
);

cls(
  'reworded-repeat',
  'loop',
  'The same run reworded: redirections, trimming pipes, package-manager aliases, env prefixes, comments, fallbacks.',
  (s, v) => {
    const out = v < 4 ? vitestFail(1, 12, 'expected 3 to be 4') : pytestFail('test_total', 'assert total == 42');
    const lists = [
      [
        'npm test',
        'npm test 2>&1',
        'npm test 2>&1 | tail -20',
        'npm test 2>&1 | tail -40',
        'npm test 2>&1 | tail -60',
        'npm t',
        'npm run test',
        'CI=1 npm test',
        'npm test # again',
        'npm test || true',
      ],
      ['npm run test', 'npm t', 'npm test', 'CI=1 npm t', 'npm test 2>&1', 'npm test 2>&1 | tail -40'],
      [
        'npm test',
        'npm test || echo "tests failed"',
        'npm test 2>&1 | tail -20',
        'CI=1 npm run test',
        'npm t 2>&1',
        'npm test # check again',
      ],
      [
        'CI=1 npm test',
        'CI=1 npm test 2>&1',
        'CI=1 npm test 2>&1 | tail -20',
        'CI=1 npm test 2>&1 | tail -40',
        'CI=1 npm test 2>&1 | tail -60',
        'npm test',
      ],
      [
        'pytest -q',
        'pytest -q 2>&1',
        'pytest -q 2>&1 | tail -20',
        'pytest -q 2>&1 | tail -40',
        'CI=1 pytest -q',
        'pytest -q || true',
      ],
      [
        'python -m pytest tests/test_api.py',
        'python -m pytest tests/test_api.py 2>&1 | tail -30',
        'python -m pytest tests/test_api.py 2>&1 | tail -60',
        'python -m pytest tests/test_api.py # retry',
        'python -m pytest tests/test_api.py || echo failed',
        'python -m pytest tests/test_api.py 2>&1',
      ],
      [
        'pytest',
        'pytest 2>&1',
        'pytest 2>&1 | tail -20',
        'pytest 2>&1 | tail -40',
        'pytest 2>&1 | tail -60',
        'PYTHONDONTWRITEBYTECODE=1 pytest',
      ],
    ][v];
    // A trimming pipe or a fallback keeps the failure text but reports exit 0 (the pipe's last command).
    for (const [i, cmd] of lists.entries())
      s.shell(cmd, out, /\|\s*tail|\|\||echo/.test(cmd) ? 0 : 1, { attempt: i + 1 });
  },
  7,
  { expect: REPEAT, verbatim: ISSUE.reworded },
);

cls(
  'reworded-poll',
  'loop',
  'A poll that never changes, reworded each time: comments, `|| echo` suffixes, an empty grep with exit 0 then 1.',
  (s, v) => {
    const polls = [
      (i) => [
        i % 2
          ? '# wait for the server\nsleep 5 && curl -s localhost:3000/health'
          : 'sleep 5 && curl -s localhost:3000/health',
        CONN_REFUSED,
        7,
      ],
      (i) => [
        `sleep 5; curl -s localhost:3000/health || echo "not up yet (${i})"`,
        `${CONN_REFUSED}not up yet (${i})\n`,
        0,
      ],
      (i) => [
        i % 2 ? 'sleep 10; grep -i "ready" server.log' : 'sleep 10; grep -i "ready" server.log || true',
        '',
        i % 2 ? 1 : 0,
      ],
    ][v];
    for (let i = 1; i <= 12; i++) {
      const [c, o, e] = polls(i);
      s.shell(c, o, e, { attempt: i });
    }
  },
  3,
  { expect: POLL, verbatim: ISSUE.rewordedPoll },
);

cls(
  'cycle',
  'loop',
  'Two or three commands alternating, each with the same result, nothing changing.',
  (s, v) => {
    const blocks = [
      [
        ['cat /home/dev/proj/missing-a', 'cat: /home/dev/proj/missing-a: No such file or directory\n', 1],
        ['cat /home/dev/proj/missing-b', 'cat: /home/dev/proj/missing-b: No such file or directory\n', 1],
      ],
      [
        ['npm run build', "src/a.ts(3,1): error TS1005: ';' expected.\n", 2],
        ['npm test', vitestFail(1, 5, 'expected 1 to be 2'), 1],
      ],
      [
        ['git pull', "fatal: Authentication failed for 'https://github.com/acme/app.git/'\n", 128],
        ['git fetch origin', "fatal: Authentication failed for 'https://github.com/acme/app.git/'\n", 128],
        ['git status -sb', '## main...origin/main [ahead 2]\n', 0],
      ],
    ][v];
    for (let rep = 1; rep <= 6; rep++) for (const [c, o, e] of blocks) s.shell(c, o, e, { attempt: rep });
  },
  3,
  { expect: REPEAT },
);

cls(
  'static-log-poll',
  'loop',
  'A log or port polled many times with the identical result: nothing is coming.',
  (s, v) => {
    const [cmd, out, exit] = [
      [
        'sleep 30; tail -3 build.log',
        '[build] compiled 311 of 312 modules\n[build] waiting for worker 3\n[build] waiting for worker 3\n',
        0,
      ],
      ['sleep 5 && curl localhost:3000/health', CONN_REFUSED, 7],
      ['sleep 15; tail -n 20 /tmp/deploy.log', 'Waiting for approval from an operator...\n', 0],
    ][v];
    // The real sessions' counts: a static log polled 94 times, a port polled 35 times.
    const n = [94, 35, 12][v];
    for (let i = 1; i <= n; i++) s.shell(cmd, out, exit, { attempt: i });
  },
  3,
  { expect: POLL, verbatim: ISSUE.realLoops },
);

cls(
  'subagent-repeat',
  'loop',
  'A sub-agent repeating its own command with the same error.',
  (s, v) => {
    const [cmd, out] = [
      ['ls -la', "ls: cannot open directory '.': Permission denied\n"],
      ['ls -la packages/core/dist', "ls: cannot access 'packages/core/dist': No such file or directory\n"],
    ][v];
    // The sub-agent's own calls are the attempts (numbered in buildAll).
    s.subagent(
      'Inspect the build output',
      'Could not list the directory.',
      Array.from({ length: 8 }, () => [cmd, out, 2]),
    );
  },
  2,
  { tools: ['claude', 'opencode'], expect: REPEAT, verbatim: ISSUE.realLoops },
);

cls(
  'truncated-repeat',
  'loop',
  "A result too big for the tool, cut the same way each time (Claude's saved-to-file preview, Codex's truncation warning, OpenCode's \"Full output saved to\").",
  (s, v) => {
    const cmd = ['npm run build --verbose', 'cat logs/server.log'][v];
    const out = bigLog([700, 760][v], ['vite', 'server'][v]);
    for (let i = 1; i <= 6; i++) s.shell(cmd, out, 0, { attempt: i, big: true });
  },
  2,
  { tools: ['claude', 'codex', 'opencode'], expect: REPEAT },
);

cls(
  'timeout-repeat',
  'loop',
  'The same command timing out again and again (it waits for input or never exits).',
  (s, v) => {
    const cmd = ['npm run migrate', 'npx prisma migrate dev'][v];
    for (let i = 1; i <= 7; i++) s.shell(cmd, '', 143, { attempt: i, timeout: true });
  },
  2,
  { tools: ['claude', 'cursor', 'opencode'], expect: REPEAT },
);

const HANG_COMMANDS = [
  'npm create vite@latest',
  'npm init vite',
  'npx create-next-app',
  'yarn create vite',
  'pnpm create vite',
  'bun create vite',
  'python',
  'python3 -i x.py',
  'node',
  'psql',
  'mysql -p',
  'sqlite3',
  'ssh host',
  'docker run -it ubuntu bash',
  'kubectl exec -it web-0 -- sh',
  'top',
  'htop',
  'ping host',
  'nc -l 8080',
  'man git',
  'git help commit',
  'npm start',
  'gh auth login',
  'npm login',
  'git merge --edit feature',
  'git cherry-pick -e a1b2c3d',
  'git notes add',
  'git am -i 0001-fix.patch',
  'xargs vim',
  'find . -name "*.ts" -exec vim {} +',
  '$EDITOR src/app.ts',
];
cls(
  'hang-waits-for-person',
  'loop',
  'Commands that wait for a person (scaffolders, REPLs, interactive auth, full-screen tools, editors): refused before they run.',
  (s, v) => {
    // Left to run, it never ends: a timeout (Claude, Cursor, OpenCode) or, in Codex, no post event at all.
    s.shell(HANG_COMMANDS[v], '', 143, { attempt: 1, timeout: true });
  },
  HANG_COMMANDS.length,
  {
    expect: HANG,
    rotateTools: true,
    // Codex hands a long run back to the model (exec sessions yield), so a server or an endless ping is no hang there: those rows go to Claude Code.
    notInCodex: new Set(['ping host', 'nc -l 8080', 'npm start'].map((c) => HANG_COMMANDS.indexOf(c))),
    // Claude Code runs commands with GIT_EDITOR=true, so a row that waits only in git's editor is no hang there.
    notInClaude: new Set(['git merge --edit feature'].map((c) => HANG_COMMANDS.indexOf(c))),
    verbatim: ISSUE.hangMissed,
  },
);

cls(
  'reads-between',
  'loop',
  'The same tracker read with only reads between (`git status`, `ls`, `bd list`): nothing was written, so it is a loop.',
  (s, v) => {
    const between =
      v === 0
        ? ['git status --short', '']
        : ['ls -la .beads', 'total 8\ndrwxr-xr-x 2 dev dev 4096 .\n-rw-r--r-- 1 dev dev 1802 issues.jsonl\n'];
    for (let i = 1; i <= 8; i++) {
      s.shell('bd ready', BD_READY, 0, { attempt: i });
      s.shell(between[0], between[1], 0);
    }
  },
  2,
  { expect: REPEAT, verbatim: ISSUE33.patrol },
);

// ---------------------------------------------------------------------------------------------------------
// Windows (issue 29, item 4): PowerShell command lines and their results, from public sessions recorded on Windows
// (test/fixtures/PROVENANCE.md, "Windows"). The real lines are marked `real`; CRLF where PowerShell writes it.
// Claude Code's rows use its Bash payload until its PowerShell tool's payloads are wired (issue 29, item 2).

const crlf = (text) => text.replace(/\r?\n/g, '\r\n');
const LARAVEL = 'D:\\Proyectos\\opencode\\laravel-app';
// real: the OpenCode session's `php artisan test --filter=…` on Windows, its failure verbatim but for the durations.
const artisanFail = (test, line, got, secs, total) =>
  `\n   FAIL  Tests\\Feature\\PortalEstudianteTest\n  ⨯ ${test.replace(/^test_/, '').replace(/_/g, ' ')}${' '.repeat(60)}${secs}s  \n` +
  `   FAILED  Tests\\Feature\\PortalEstudianteTest > ${test.replace(/^test_/, '').replace(/_/g, ' ')}\n` +
  `  Expected response status code [200] but received ${got}.\nFailed asserting that ${got} is identical to 200.\n\n` +
  `  at tests\\Feature\\PortalEstudianteTest.php:${line}\n\n  Tests:    1 failed (1 assertions)\n  Duration: ${total}s\n\n`;
const artisanPass = (test, secs, total) =>
  `\n   PASS  Tests\\Feature\\PortalEstudianteTest\n  ✓ ${test.replace(/^test_/, '').replace(/_/g, ' ')}${' '.repeat(60)}${secs}s  \n\n` +
  `  Tests:    1 passed (4 assertions)\n  Duration: ${total}s\n\n`;
// real: Windows PowerShell's record for a word it cannot run, as the session's PowerShell printed it (in Spanish).
const psNotFound = (word, line, echo) =>
  `${word} : El término '${word}' no se reconoce como nombre de un cmdlet, función, archivo de script o programa ejecutable. \n` +
  'Compruebe si escribió correctamente el nombre o, si incluyó una ruta de acceso, compruebe que dicha ruta es correcta e \n' +
  `inténtelo de nuevo.\nEn línea: ${line} Carácter: 1\n+ ${echo}\n+ ${'~'.repeat(word.length)}\n` +
  `    + CategoryInfo          : ObjectNotFound: (${word}:String) [], CommandNotFoundException\n` +
  '    + FullyQualifiedErrorId : CommandNotFoundException\n \n';
// The English record (Windows PowerShell 5.1), with the command line echoed.
const psNotFoundEn = (word, echo) =>
  crlf(
    `${word} : The term '${word}' is not recognized as the name of a cmdlet, function, script file, or operable\n` +
      'program. Check the spelling of the name, or if a path was included, verify that the path is correct and try again.\n' +
      `At line:1 char:1\n+ ${echo}\n+ ${'~'.repeat(word.length)}\n` +
      `    + CategoryInfo          : ObjectNotFound: (${word}:String) [], CommandNotFoundException\n` +
      '    + FullyQualifiedErrorId : CommandNotFoundException\n \n',
  );
const vitestWin = (failed, total, ms, at) =>
  crlf(
    ` ❯ src/cart.test.ts (${total} tests | ${failed} failed) ${ms}ms\n   × cart > totals\n     → expected ${at} to be 30\n\n` +
      ` Test Files  1 failed (1)\n      Tests  ${failed} failed | ${total - failed} passed (${total})\n   Start at  1${ms % 10}:0${ms % 6}:1${ms % 9}\n   Duration  ${(ms / 100).toFixed(2)}s\n`,
  );

cls(
  'windows',
  'work',
  'Work on Windows in PowerShell: a Laravel test fixed in a real session, PowerShell reads, views with Select-Object, CRLF, a new missing file under AppData\\Local\\Temp each run.',
  (s, v) => {
    if (v === 0) {
      // real: the session's commands, in its order; the fix between the runs is an edit of the test's setup.
      const test = 'test_portal_con_autenticacion';
      const cmd = `cd ${LARAVEL}; php artisan test --filter="${test}" 2>&1`;
      s.shell(cmd, artisanFail(test, 159, 401, '0.47', '0.72'), 1);
      s.shell(
        `php artisan route:list --path=estudiantes 2>&1`,
        '\n  POST            api/v1/estudiantes/portal ....... Api\\V1\\Estudiantes\\EstudianteAuthController@portal\n\n                                                                    Showing [19] routes\n\n',
        0,
      );
      s.edit(
        'tests/Feature/PortalEstudianteTest.php',
        "'password' => 'password',",
        "'password' => Hash::make('password'),",
      );
      s.shell(cmd, artisanFail(test, 159, 500, '0.52', '0.80'), 1);
      s.edit(
        'app/Http/Controllers/Api/V1/Estudiantes/PortalEstudianteController.php',
        "'planCobro.detalle',",
        "'planCobro.detalles',",
      );
      s.shell(cmd, artisanPass(test, '0.49', '0.77'), 0);
      s.shell(
        `cd ${LARAVEL}; php artisan test 2>&1 | Select-Object -Last 5`,
        '\n  Tests:    14 passed (61 assertions)\n  Duration: 3.12s\n\n',
        0,
      );
    } else if (v === 1) {
      // PowerShell reads, each once (real lines: Codex's and the session's; the hang rules must let every one run).
      const reads = [
        ['Get-ChildItem -Force | Measure-Object | Select-Object -ExpandProperty Count', '23\r\n'],
        ['Get-Location', '\r\nPath\r\n----\r\nD:\\Proyectos\\opencode\\laravel-app\r\n\r\n'],
        [
          'Get-Content storage\\logs\\laravel.log -Tail 20',
          '[2026-07-24 14:11:02] testing.ERROR: Call to undefined method App\\Models\\PlanCobro::detalle()\r\n',
        ],
        [
          'Select-String -Path routes\\api.php -Pattern "estudiantes"',
          "routes\\api.php:41:Route::prefix('v1/estudiantes')->group(function () {\r\nroutes\\api.php:47:Route::middleware('auth.estudiante')->prefix('v1/estudiantes')->group(function () {\r\n",
        ],
        [
          'Get-Content package.json | ConvertFrom-Json | Select-Object -ExpandProperty scripts',
          '\r\ndev   : vite\r\nbuild : vite build\r\n\r\n',
        ],
        ['git status --short', ' M app/Models/PlanCobro.php\r\n M tests/Feature/PortalEstudianteTest.php\r\n'],
        ['Start-Process notepad storage\\logs\\laravel.log', ''],
        [
          'Invoke-Pester -Path tests',
          'Tests completed in 1.42s\r\nTests Passed: 12, Failed: 0, Skipped: 0 NotRun: 0\r\n',
        ],
      ];
      for (const [c, out] of reads) s.shell(c, out, 0);
    } else if (v === 2) {
      // Rerun after each edit through a PowerShell view: CRLF output, another failure and duration each time.
      const cmd = 'npm test 2>&1 | Select-Object -Last 20';
      s.shell(cmd, vitestWin(2, 8, 311, 25), 1);
      s.edit('src/cart.ts', 'return sum;', 'return sum + tax;');
      s.shell(cmd, vitestWin(1, 8, 287, 28), 1);
      s.edit('src/cart.ts', 'sum + tax', 'sum + tax + fee');
      s.shell(
        cmd,
        crlf(
          ' ✓ src/cart.test.ts (8 tests) 12ms\n\n Test Files  1 passed (1)\n      Tests  8 passed (8)\n   Duration  2.95s\n',
        ),
        0,
      );
      s.shell(
        'npm test *>&1 | Out-String',
        crlf(
          ' ✓ src/cart.test.ts (8 tests) 14ms\n\n Test Files  1 passed (1)\n      Tests  8 passed (8)\n   Duration  3.01s\n',
        ),
        0,
      );
    } else if (v === 4) {
      // A server started in the background, polled with PowerShell until it answers (4 identical refusals first).
      s.shell("Start-Process -NoNewWindow php -ArgumentList 'artisan','serve'", '', 0);
      const poll = 'Start-Sleep 2; Invoke-WebRequest http://127.0.0.1:8000/api/v1/up -UseBasicParsing';
      const refused = crlf(
        'Invoke-WebRequest : Unable to connect to the remote server\nAt line:1 char:16\n+ ' +
          'Start-Sleep 2; Invoke-WebRequest http://127.0.0.1:8000/api/v1/up -UseBa ...\n+                ' +
          `${'~'.repeat(56)}\n    + CategoryInfo          : InvalidOperation: (System.Net.HttpWebRequest:HttpWebRequest) ` +
          '[Invoke-WebRequest], WebException\n    + FullyQualifiedErrorId : ' +
          'WebCmdletWebResponseException,Microsoft.PowerShell.Commands.InvokeWebRequestCommand\n',
      );
      for (let i = 0; i < 4; i++) s.shell(poll, refused, 1);
      s.shell(
        poll,
        crlf('\nStatusCode        : 200\nStatusDescription : OK\nContent           : {"status":"ok"}\n\n'),
        0,
      );
    } else {
      // Each run names another missing file under the user's temp dir (a path with a space): six different results.
      for (const [i, f] of ['config', 'routes', 'db', 'users', 'auth', 'cache'].entries()) {
        s.shell(
          'npx vitest run src/load.test.ts',
          crlf(
            ` FAIL  src/load.test.ts > loads ${f}\nError: ENOENT: no such file or directory, open 'C:\\Users\\Dev User\\AppData\\Local\\Temp\\vitest-${['a8Xk2', 'Q3mZ9', 'p0Lw7', 'Zt4nB', 'k9Hq2', 'Xr5cV'][i]}\\${f}.json'\n` +
              ` Test Files  1 failed (1)\n   Duration  ${(1.1 + i / 10).toFixed(2)}s\n`,
          ),
          1,
        );
      }
    }
  },
  5,
);

// real: six Claude Code sessions recorded on Windows (D:\oh-my-posh; the PowerShell tool and Git Bash), from a public
// repository's Entire checkpoints (test/fixtures/judgment-sources/, provenance in PROVENANCE.md): the main thread's calls
// in order (of one long session a 90-step stretch), with the user's messages, edits, sub-agents and task ends between.
const REAL_WIN = JSON.parse(readFileSync(join(fx, 'judgment-sources', 'claude-windows-oh-my-posh.json'), 'utf8'));
const REAL_WIN_KEYS = Object.keys(REAL_WIN.sequences);
cls(
  'windows-claude-real',
  'work',
  "Claude Code on Windows, from real public sessions: the PowerShell tool's reads, lint runs and commits (CRLF, $env:TEMP files), Git Bash's builds, heredoc commits and an autosquash rebase -i, background sub-agents.",
  (s, v) => {
    for (const st of REAL_WIN.sequences[REAL_WIN_KEYS[v]].steps) {
      if (st.prompt !== undefined) s.userTurn(st.prompt);
      else if (st.taskEnd) s.taskEnd('a background sub-agent', 'agent');
      else if (st.agent === 'background') s.subagentBackground('a sub-agent');
      else if (st.agent) s.subagent('a sub-agent', 'done');
      else if (st.edit !== undefined) s.edit(st.edit, 'before', 'after');
      else if (st.write !== undefined) s.write(st.write, 'written\n');
      else s.shell(st.command, st.output, st.exit, { powershell: st.tool === 'PowerShell' });
    }
  },
  REAL_WIN_KEYS.length,
  { tools: ['claude'] },
);

cls(
  'windows-loop',
  'loop',
  "Loops on Windows: the real session's failing tinker call, a missing program reworded through PowerShell views, CLIXML progress on one run, Measure-Command timings.",
  (s, v) => {
    const runs = [
      // real: the OpenCode session's tinker call, whose `2>&1` on its own line PowerShell could not run.
      () => {
        const cmd = `php artisan tinker --execute="\n \`$resp = \\Illuminate\\Support\\Facades\\Http::withHeaders(['Authorization' => 'Bearer test'])->post('http://127.0.0.1:8000/api/v1/estudiantes/portal', []); echo $resp->status();"\n2>&1`;
        const out =
          '\n   Psy\\Exception\\ParseErrorException \n\n  PHP Parse error: Syntax error, unexpected T_OBJECT_OPERATOR on line 2\n\n  at vendor\\psy\\psysh\\src\\Exception\\ParseErrorException.php:44\n\n' +
          psNotFound('2>&1', 3, '2>&1');
        for (let i = 1; i <= 8; i++) s.shell(cmd, out, 1, { attempt: i });
      },
      // One missing program, the line reworded each time: the record echoes each wording at the same place.
      () => {
        const words = [
          'pnpm test',
          'pnpm test 2>&1',
          'pnpm test 2>&1 | Select-Object -Last 20',
          'pnpm test *>&1 | Out-String',
        ];
        for (let i = 1; i <= 8; i++) {
          const c = words[(i - 1) % words.length];
          s.shell(c, psNotFoundEn('pnpm', c), 1, { attempt: i });
        }
      },
      // A redirected PowerShell writes a progress record on its first run only (real shape, PROVENANCE.md).
      () => {
        const progress =
          '<Obj S="progress" RefId="0"><TN RefId="0"><T>System.Management.Automation.PSCustomObject</T><T>System.Object</T></TN><MS><I64 N="SourceId">1</I64><PR N="Record"><AV>Preparing modules for first use.</AV><AI>0</AI><Nil /><PI>-1</PI><PC>-1</PC><T>Completed</T><SR>-1</SR><SD> </SD></PR></MS></Obj>';
        const out = (first) =>
          `#< CLIXML\r\n<Objs Version="1.1.0.1" xmlns="http://schemas.microsoft.com/powershell/2004/04">${first ? progress : ''}<S S="Error">Get-Item : Cannot find path 'D:\\app\\dist\\index.js' because it does not exist._x000D__x000A_</S></Objs>`;
        for (let i = 1; i <= 8; i++)
          s.shell('pwsh -NoProfile -Command "Get-Item dist\\index.js"', out(i === 1), 1, { attempt: i });
      },
      // Measure-Command hides the build's output: only the time span changes.
      () => {
        const span = (ms) =>
          crlf(
            `\nDays              : 0\nHours             : 0\nMinutes           : 0\nSeconds           : ${Math.floor(ms / 1000)}\nMilliseconds      : ${ms % 1000}\n` +
              `Ticks             : ${ms * 10000}\nTotalDays         : ${ms / 86400000}\nTotalHours        : ${ms / 3600000}\n` +
              `TotalMinutes      : ${ms / 60000}\nTotalSeconds      : ${ms / 1000}\nTotalMilliseconds : ${ms}\n\n`,
          );
        for (let i = 1; i <= 8; i++)
          s.shell('Measure-Command { npm run build }', span(4000 + i * 137), 0, { attempt: i });
      },
    ];
    runs[v]();
  },
  4,
  { expect: REPEAT },
);

const WINDOWS_HANG = [
  'Read-Host "Continue?"',
  '$answer = Read-Host -Prompt "Password" -AsSecureString',
  'Get-Credential',
  'npm run build; pause',
  'notepad .env',
  'Get-Content storage\\logs\\laravel.log -Wait',
  'gc .\\server.log -Tail 20 -Wait',
  'Start-Process notepad.exe -ArgumentList notes.txt -Wait',
  '$Host.UI.RawUI.ReadKey("NoEcho,IncludeKeyDown")',
  'Wait-Event -SourceIdentifier FileCreated',
  'Get-Process | Out-GridView -PassThru',
  'pwsh -NoExit -Command "cd src"',
];
cls(
  'windows-hang',
  'loop',
  'PowerShell commands that wait for a person or never exit (Read-Host, Get-Credential, pause, notepad, Get-Content -Wait, …): refused before they run.',
  (s, v) => {
    s.shell(WINDOWS_HANG[v], '', 143, { attempt: 1, timeout: true });
  },
  WINDOWS_HANG.length,
  {
    expect: HANG,
    rotateTools: true,
    // Codex hands a long run back, so a follower or an endless wait is no hang there: those rows go to Claude Code.
    notInCodex: new Set([5, 6, 9]),
  },
);

// ---------------------------------------------------------------------------------------------------------

function buildAll() {
  const byClass = new Map();
  for (const c of classes) {
    const { build: fn, count, meta } = c;
    const tools = meta.tools ?? TOOLS;
    const rows = [];
    for (let v = 0; v < count; v++) {
      const rotated = tools[v % tools.length];
      const moved =
        rotated === 'codex' && meta.notInCodex?.has(v)
          ? 'claude'
          : rotated === 'claude' && meta.notInClaude?.has(v)
            ? 'cursor'
            : rotated;
      const forTools = meta.rotateTools ? [moved] : tools;
      for (const tool of forTools) {
        const id = `${c.name}/${tool}/${String(v + 1).padStart(2, '0')}`;
        const s = new Session(tool, id);
        fn(s, v);
        // Sub-agent loops: number the sub-agent's own calls as attempts.
        if (c.name === 'subagent-repeat') {
          let n = 0;
          for (const st of s.steps) if (st.kind === 'shell') st.attempt = ++n;
        }
        const seq = {
          id,
          tool,
          label: c.label,
          class: c.name,
          ...(meta.expect ? { expect: meta.expect } : {}),
          ...(meta.justification ? { justification: meta.justification } : {}),
          ...(meta.verbatim ? { issue: meta.verbatim } : {}),
          ...(meta.files ? { files: meta.files } : {}),
          title: c.description,
          steps: s.steps,
        };
        rows.push(seq);
      }
    }
    byClass.set(c.name, { label: c.label, description: c.description, rows });
  }
  return byClass;
}

function main() {
  const check = process.argv.includes('--check');
  const byClass = buildAll();
  const files = new Map();
  for (const [name, { rows }] of byClass)
    files.set(`${name}.jsonl`, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  if (check) {
    const stale = [...files]
      .filter(([f, text]) => !existsSync(join(OUT, f)) || readFileSync(join(OUT, f), 'utf8') !== text)
      .map(([f]) => f);
    const extra = existsSync(OUT) ? readdirSync(OUT).filter((f) => f.endsWith('.jsonl') && !files.has(f)) : [];
    if (stale.length || extra.length) {
      console.error(
        `make-judgment-corpus: out of date: ${[...stale, ...extra].join(', ')}; run node scripts/make-judgment-corpus.mjs`,
      );
      process.exit(1);
    }
    console.log('make-judgment-corpus: up to date');
    return;
  }
  mkdirSync(OUT, { recursive: true });
  for (const f of readdirSync(OUT)) if (f.endsWith('.jsonl')) rmSync(join(OUT, f));
  for (const [f, text] of files) writeFileSync(join(OUT, f), text);
  const all = [...byClass.values()].flatMap((c) => c.rows);
  const work = all.filter((r) => r.label === 'work').length;
  console.log(
    `make-judgment-corpus: ${all.length} sequences (${work} work, ${all.length - work} loop) in ${files.size} files under test/fixtures/judgment/`,
  );
  for (const [name, c] of byClass)
    console.log(`  ${name.padEnd(26)} ${c.label.padEnd(5)} ${String(c.rows.length).padStart(4)}`);
}

// Imported (a survey script builds sequences with Session), it writes nothing.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();

export { Session };
