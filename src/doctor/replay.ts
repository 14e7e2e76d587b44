// Replays one tool's hook payloads through the hook commands configured in the repo and judges the answers:
// results 1–2 silent, a `loop-guard:` warning on the 3rd, the 5th and 6th attempts denied, the 7th a hand-off (a
// refusal that also stops the turn, in the tool's own stop fields), and a user turn lets it run again.
import { type Json, loadPayload } from './payloads.ts';
import { TOOLS } from '../tools/index.ts';
import { describeExit, type ProcResult } from './exec.ts';
import { type Check, fail, pass, RERUN } from './types.ts';

export type ReplayTool = 'claude' | 'codex' | 'cursor' | 'gemini' | 'copilot' | 'qwen';

/** The failing command the replay repeats, and its output: a test failure, which the guard counts normally (an
 * "unfixable" class such as a missing file would warn on the 2nd result already). */
export const REPLAY_COMMAND = 'npm test';
export const REPLAY_OUTPUT = 'FAIL src/sum.test.ts > adds\nAssertionError: expected 2 to be 3\nTests  1 failed | 4 passed (5)\nDuration  1.21s';

/** A command the hang rules refuse before it runs (the `editor` rule, which every tool keeps), so the replay proves they are on. */
export const HANG_COMMAND = 'vim notes.txt';

export type Reading =
  | { kind: 'silent' }
  | { kind: 'warn'; text: string }
  | { kind: 'deny'; text: string }
  /** a refusal that also tells the tool to stop the turn (where the tool has a field for that) */
  | { kind: 'handoff'; text: string }
  | { kind: 'bad'; why: string };
export type Step = 'pre' | 'post' | 'turn';

export interface Driver {
  events: Record<Step, string>;
  pre(attempt: number, turn: number, command?: string): Json;
  post(attempt: number, turn: number): Json;
  userTurn(turn: number): Json;
  read(stdout: string, step: Step, event: string): Reading;
  /** The tool has no stop field the hook can set (Codex 0.171): its hand-off reads as a refusal, and the guard ends a
   *  `codex exec` run by interrupting it, which a replay cannot see. */
  handoffIsDeny?: boolean;
  /** The record's `doctor.handoffStop` (Copilot, Qwen): the event where the hand-off ends the run, sent after every pre. */
  stop?: { event: string; answer: Record<string, unknown>; payload(attempt: number, turn: number): Json };
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);

function parseJson(text: string): Obj | string {
  try {
    const v = obj(JSON.parse(text));
    return v ?? 'printed JSON that is not an object';
  } catch {
    return `printed text that is not JSON: ${JSON.stringify(text.slice(0, 80))}`;
  }
}

/** Claude Code and Codex read the same hookSpecificOutput shape; Codex also rejects any field it does not know. */
function readHookSpecific(stdout: string, step: Step, event: string, strict: boolean): Reading {
  const out = stdout.trim();
  if (out === '') return { kind: 'silent' };
  // On the user-prompt event both tools add plain stdout to the model's context.
  if (step === 'turn') return { kind: 'bad', why: `printed ${JSON.stringify(out.slice(0, 80))} on ${event}, which the tool would add to the model's context` };
  const parsed = parseJson(out);
  if (typeof parsed === 'string') return { kind: 'bad', why: `${parsed} on ${event}` };
  if (strict && Object.keys(parsed).some((k) => k !== 'hookSpecificOutput')) {
    return { kind: 'bad', why: `answered ${event} with fields Codex rejects (${Object.keys(parsed).join(', ')})` };
  }
  // Claude Code ends the turn on continue:false from PreToolUse; anywhere else it would stop the agent for nothing.
  const stops = parsed.continue === false;
  if (stops && (step !== 'pre' || typeof parsed.stopReason !== 'string' || parsed.stopReason === '')) {
    return { kind: 'bad', why: `answered ${event} with continue:false ${step !== 'pre' ? 'outside PreToolUse' : 'without a stopReason'}` };
  }
  const h = obj(parsed.hookSpecificOutput);
  if (!h) return { kind: 'silent' };
  if (h.hookEventName !== event) return { kind: 'bad', why: `answered ${event} with hookEventName ${JSON.stringify(h.hookEventName)}, which the tool rejects` };
  if (h.permissionDecision === 'allow') return { kind: 'bad', why: 'answered permissionDecision "allow", which skips the permission prompt' };
  if (h.permissionDecision === 'deny') {
    const reason = h.permissionDecisionReason;
    if (step !== 'pre') return { kind: 'bad', why: `denied on ${event}` };
    if (typeof reason !== 'string' || reason === '') return { kind: 'bad', why: 'denied without a permissionDecisionReason' };
    return { kind: stops ? 'handoff' : 'deny', text: reason };
  }
  if (stops) return { kind: 'bad', why: 'stopped the turn without refusing the command, so it runs once more' };
  if (typeof h.additionalContext === 'string') return { kind: 'warn', text: h.additionalContext };
  return { kind: 'silent' };
}

function readCursor(stdout: string, step: Step, event: string): Reading {
  const out = stdout.trim();
  if (out === '') return { kind: 'silent' };
  const parsed = parseJson(out);
  if (typeof parsed === 'string') return { kind: 'bad', why: `${parsed} on ${event}` };
  if (step === 'turn' && parsed.continue === false) return { kind: 'bad', why: 'refused the user prompt (continue: false)' };
  if (parsed.permission === 'deny') {
    if (step !== 'pre') return { kind: 'bad', why: `denied on ${event}` };
    const msg = parsed.agent_message;
    if (typeof msg !== 'string' || msg === '') return { kind: 'bad', why: 'denied without an agent_message for the model' };
    // Cursor has no field that ends the turn from preToolUse: the hand-off tells the person why in user_message.
    const user = typeof parsed.user_message === 'string' ? parsed.user_message : '';
    return { kind: user.includes('stopped the agent') ? 'handoff' : 'deny', text: msg };
  }
  if (typeof parsed.additional_context === 'string') return { kind: 'warn', text: parsed.additional_context };
  return { kind: 'silent' };
}

/** Gemini CLI and Copilot CLI: a deny is a top-level decision (Gemini) or hookSpecificOutput (Copilot); a warning is
 * hookSpecificOutput.additionalContext (Gemini) or a top-level additionalContext (Copilot); silence otherwise. */
function readGeminiOrCopilot(stdout: string, step: Step, event: string): Reading {
  const out = stdout.trim();
  if (out === '') return { kind: 'silent' };
  const parsed = parseJson(out);
  if (typeof parsed === 'string') return { kind: 'bad', why: `${parsed} on ${event}` };
  const h = obj(parsed.hookSpecificOutput);
  const denyReason = parsed.decision === 'deny' ? parsed.reason : h?.permissionDecision === 'deny' ? h.permissionDecisionReason : undefined;
  if (parsed.decision === 'deny' || h?.permissionDecision === 'deny') {
    if (step !== 'pre') return { kind: 'bad', why: `denied on ${event}, which replaces the output` };
    if (typeof denyReason !== 'string' || denyReason === '') return { kind: 'bad', why: 'denied without a reason' };
    // Gemini ends the run on continue:false beside the deny.
    return { kind: parsed.continue === false && typeof parsed.stopReason === 'string' ? 'handoff' : 'deny', text: denyReason };
  }
  if (parsed.continue === false) return { kind: 'bad', why: `stopped the run on ${event}` };
  const context = parsed.additionalContext ?? h?.additionalContext;
  if (typeof context === 'string') return { kind: 'warn', text: context };
  return { kind: 'silent' };
}

/** The payload drivers, built from the shipped payloads with only command, output and ids changed. */
export function drivers(root: string): Record<ReplayTool, Driver> {
  const claudePre = loadPayload('claude/PreToolUse-failure.json');
  const claudePost = loadPayload('claude/PostToolUseFailure-failure.json');
  const claudeTurn = loadPayload('claude/UserPromptSubmit-prompt.json');
  const codexPre = loadPayload('codex/PreToolUse-failure.json');
  const codexPost = loadPayload('codex/PostToolUse-failure.json');
  const codexTurn = loadPayload('codex/UserPromptSubmit-prompt.json');
  const cursorPre = loadPayload('cursor/preToolUse.json');
  const cursorPost = loadPayload('cursor/postToolUse.json');
  const cursorTurn = loadPayload('cursor/beforeSubmitPrompt.json');
  const geminiPre = loadPayload('gemini/BeforeTool-failure.json');
  const geminiPost = loadPayload('gemini/AfterTool-failure.json');
  const geminiTurn = loadPayload('gemini/BeforeAgent-prompt.json');
  const copilotPre = loadPayload('copilot/PreToolUse-failure.json');
  const copilotPost = loadPayload('copilot/PostToolUse-failure.json');
  const copilotTurn = loadPayload('copilot/UserPromptSubmit.json');
  const qwenPre = loadPayload('qwen/PreToolUse-failure.json');
  const qwenPost = loadPayload('qwen/PostToolUseFailure-failure.json');
  const qwenTurn = loadPayload('qwen/UserPromptSubmit-prompt.json');
  const qwenNext = loadPayload('qwen/UserPromptSubmit-continuation.json');
  const copilotPermission = loadPayload('copilot/PermissionRequest-failure.json');
  const stopOf = (tool: ReplayTool) => TOOLS[tool].doctor.handoffStop!;
  const qwenPrompt = (turn: number) => `${String(qwenPre.session_id)}########${2 * (turn - 1)}`;
  // Each tool marks a new user message with a new id; the replay does the same after the user turn.
  const promptId = (turn: number) => (turn === 1 ? claudePre.prompt_id : `doctor-prompt-${turn}`);
  const turnId = (turn: number) => (turn === 1 ? codexPre.turn_id : `doctor-turn-${turn}`);
  const generation = (turn: number) => (turn === 1 ? cursorPre.generation_id : `doctor-generation-${turn}`);
  return {
    claude: {
      events: { pre: 'PreToolUse', post: 'PostToolUseFailure', turn: 'UserPromptSubmit' },
      pre: (i, t, command = REPLAY_COMMAND) => ({ ...claudePre, cwd: root, prompt_id: promptId(t), tool_use_id: `toolu_doctor_${i}`, tool_input: { command, description: 'Run the tests' } }),
      post: (i, t) => ({
        ...claudePost,
        cwd: root,
        prompt_id: promptId(t),
        tool_use_id: `toolu_doctor_${i}`,
        tool_input: { command: REPLAY_COMMAND, description: 'Run the tests' },
        error: `Exit code 1\n${REPLAY_OUTPUT}`,
      }),
      userTurn: (t) => ({ ...claudeTurn, cwd: root, prompt_id: promptId(t), prompt: 'try a different approach' }),
      read: (out, step, event) => readHookSpecific(out, step, event, false),
    },
    codex: {
      events: { pre: 'PreToolUse', post: 'PostToolUse', turn: 'UserPromptSubmit' },
      pre: (i, t, command = REPLAY_COMMAND) => ({ ...codexPre, cwd: root, turn_id: turnId(t), tool_use_id: `call_doctor_${i}`, tool_input: { command } }),
      post: (i, t) => ({ ...codexPost, cwd: root, turn_id: turnId(t), tool_use_id: `call_doctor_${i}`, tool_input: { command: REPLAY_COMMAND }, tool_response: `${REPLAY_OUTPUT}\n` }),
      userTurn: (t) => ({ ...codexTurn, cwd: root, turn_id: turnId(t), prompt: 'try a different approach' }),
      read: (out, step, event) => readHookSpecific(out, step, event, true),
      handoffIsDeny: true,
    },
    cursor: {
      events: { pre: 'preToolUse', post: 'postToolUse', turn: 'beforeSubmitPrompt' },
      pre: (i, t, command = REPLAY_COMMAND) => ({
        ...cursorPre,
        cwd: root,
        workspace_roots: [root],
        generation_id: generation(t),
        tool_use_id: `doctor_${i}`,
        tool_input: { command, working_directory: root },
      }),
      post: (i, t) => ({
        ...cursorPost,
        cwd: root,
        workspace_roots: [root],
        generation_id: generation(t),
        tool_use_id: `doctor_${i}`,
        tool_input: { command: REPLAY_COMMAND },
        tool_output: JSON.stringify({ exitCode: 1, stdout: REPLAY_OUTPUT }),
      }),
      userTurn: (t) => ({ ...cursorTurn, workspace_roots: [root], generation_id: generation(t), prompt: 'try a different approach' }),
      read: readCursor,
    },
    gemini: {
      events: { pre: 'BeforeTool', post: 'AfterTool', turn: 'BeforeAgent' },
      pre: (_i, _t, command = REPLAY_COMMAND) => ({ ...geminiPre, cwd: root, tool_input: { command, description: 'Run the tests' } }),
      post: (i) => ({
        ...geminiPost,
        cwd: root,
        tool_input: { command: REPLAY_COMMAND, description: 'Run the tests' },
        tool_response: { llmContent: `<untrusted_context>\nOutput: ${REPLAY_OUTPUT}\nExit Code: 1\nProcess Group PGID: ${4000 + i}\n</untrusted_context>`, returnDisplay: REPLAY_OUTPUT },
      }),
      userTurn: () => ({ ...geminiTurn, cwd: root, prompt: 'try a different approach' }),
      read: readGeminiOrCopilot,
    },
    copilot: {
      events: { pre: 'PreToolUse', post: 'PostToolUse', turn: 'UserPromptSubmit' },
      stop: { ...stopOf('copilot'), payload: () => ({ ...copilotPermission, sessionId: copilotPre.session_id, cwd: root, toolInput: { command: REPLAY_COMMAND } }) },
      pre: (_i, _t, command = REPLAY_COMMAND) => ({ ...copilotPre, cwd: root, tool_input: { command, description: 'Run the tests' } }),
      post: (i) => ({
        ...copilotPost,
        cwd: root,
        tool_input: { command: REPLAY_COMMAND, description: 'Run the tests' },
        tool_result: { result_type: 'success', text_result_for_llm: `${REPLAY_OUTPUT}\n<shellId: ${i} completed with exit code 1>` },
      }),
      userTurn: () => ({ ...copilotTurn, cwd: root, prompt: 'try a different approach' }),
      read: readGeminiOrCopilot,
    },
    qwen: {
      events: { pre: 'PreToolUse', post: 'PostToolUseFailure', turn: 'UserPromptSubmit' },
      stop: { ...stopOf('qwen'), payload: (_i, t) => ({ ...qwenNext, session_id: qwenPre.session_id, cwd: root, prompt_id: qwenPrompt(t) }) },
      pre: (i, t, command = REPLAY_COMMAND) => ({ ...qwenPre, cwd: root, prompt_id: qwenPrompt(t), tool_use_id: `toolu_doctor_${i}`, tool_input: { command, description: 'Run the tests' } }),
      post: (i, t) => ({
        ...qwenPost,
        cwd: root,
        prompt_id: qwenPrompt(t),
        tool_use_id: `toolu_doctor_${i}`,
        tool_input: { command: REPLAY_COMMAND, description: 'Run the tests' },
        error: `Command: ${REPLAY_COMMAND}\nDirectory: (root)\nOutput: ${REPLAY_OUTPUT}\nError: (none)\nExit Code: 1\nSignal: (none)\nProcess Group PGID: (none)`,
      }),
      userTurn: (t) => ({ ...qwenTurn, cwd: root, prompt_id: qwenPrompt(t), prompt: 'try a different approach', submitted_prompt: 'try a different approach' }),
      read: (out, step, event) => readHookSpecific(out, step, event, false),
    },
  };
}

/** Runs one hook command with a payload on stdin. */
export type Send = (command: string, payload: Json) => Promise<ProcResult>;

interface Entry {
  step: Step;
  attempt: number;
  reading: Reading | 'no-hook';
}

function mark(e: Entry): string {
  if (e.reading === 'no-hook') return '-';
  const k = e.reading.kind;
  return k === 'silent' ? 'ok' : k === 'handoff' ? 'stop' : k;
}

/** "attempts 1–5: ok/ok ok/ok ok/warn …", one token per pre/post pair, for messages. */
function timeline(entries: readonly Entry[]): string {
  const parts: string[] = [];
  for (let a = 1; a <= 8; a++) {
    const pre = entries.find((e) => e.step === 'pre' && e.attempt === a);
    const post = entries.find((e) => e.step === 'post' && e.attempt === a);
    if (a === 8) parts.push('| user turn |');
    if (pre) parts.push(`${a}:${mark(pre)}${post ? `/${mark(post)}` : ''}`);
  }
  return parts.join(' ');
}

/**
 * Drive the sequence: 7 × (pre, post) of the same failing command (a refused attempt has no post), the user-turn
 * event, one more pre. An event the
 * config has no hook for is skipped, as the tool would skip it, so a missing hook shows as a guard that never fires.
 */
export async function replay(tool: ReplayTool, driver: Driver, commands: Readonly<Record<string, string>>, send: Send, configPath: string): Promise<Check> {
  const id = `${tool}.replay`;
  const entries: Entry[] = [];
  const fixBroken = `${RERUN} to reinstall the guard and its hook entries, then run doctor again`;
  const deliver = async (step: Step, attempt: number, payload: Json): Promise<Check | null> => {
    const event = driver.events[step];
    const command = commands[event];
    if (command === undefined) {
      entries.push({ step, attempt, reading: 'no-hook' });
      return null;
    }
    const r = await send(command, payload);
    if (r.status !== 0 || r.timedOut || r.spawnError) {
      return fail(id, `the ${event} hook command \`${command}\` ${describeExit(r)}`, fixBroken);
    }
    entries.push({ step, attempt, reading: driver.read(r.stdout, step, event) });
    return null;
  };

  // Where the stop is another event's answer, that event follows each pre, and its stop makes the attempt the hand-off.
  const stopAfter = async (attempt: number, turn: number): Promise<Check | null> => {
    const last = entries[entries.length - 1];
    const stopCommand = driver.stop ? commands[driver.stop.event] : undefined;
    if (!driver.stop || stopCommand === undefined || last?.step !== 'pre' || last.reading === 'no-hook' || last.reading.kind === 'bad') return null;
    const r = await send(stopCommand, driver.stop.payload(attempt, turn));
    if (r.status !== 0 || r.timedOut || r.spawnError) return fail(id, `the ${driver.stop.event} hook command \`${stopCommand}\` ${describeExit(r)}`, fixBroken);
    const answer = r.stdout.trim() ? parseJson(r.stdout.trim()) : {};
    const stops = typeof answer !== 'string' && Object.entries(driver.stop.answer).every(([k, v]) => answer[k] === v);
    if (stops) last.reading = { kind: 'handoff', text: last.reading.kind === 'silent' ? r.stdout.trim() : last.reading.text };
    return null;
  };

  for (let attempt = 1; attempt <= 7; attempt++) {
    const broken = (await deliver('pre', attempt, driver.pre(attempt, 1))) ?? (await stopAfter(attempt, 1));
    if (broken) return broken;
    const last = entries[entries.length - 1];
    // A denied command never runs, so there is no result to report for it.
    if (last?.step === 'pre' && last.reading !== 'no-hook' && (last.reading.kind === 'deny' || last.reading.kind === 'handoff')) continue;
    const brokenPost = await deliver('post', attempt, driver.post(attempt, 1));
    if (brokenPost) return brokenPost;
  }
  const brokenTurn = await deliver('turn', 8, driver.userTurn(2));
  if (brokenTurn) return brokenTurn;
  const brokenAgain = (await deliver('pre', 8, driver.pre(8, 2))) ?? (await stopAfter(8, 2));
  if (brokenAgain) return brokenAgain;
  const brokenHang = await deliver('pre', 9, driver.pre(9, 2, HANG_COMMAND));
  if (brokenHang) return brokenHang;

  const seen = timeline(entries);
  const bad = entries.find((e) => e.reading !== 'no-hook' && e.reading.kind === 'bad');
  if (bad && bad.reading !== 'no-hook' && bad.reading.kind === 'bad') return fail(id, `the guard ${bad.reading.why} (${seen})`, fixBroken);

  const at = (step: Step, attempt: number) => entries.find((e) => e.step === step && e.attempt === attempt)?.reading;
  const kind = (r: Reading | 'no-hook' | undefined) => (r === undefined ? 'none' : r === 'no-hook' ? 'no-hook' : r.kind);
  const problems: string[] = [];
  const hint: string[] = [];
  for (const e of ['pre', 'post', 'turn'] as const) {
    if (commands[driver.events[e]] === undefined) hint.push(`no ${driver.events[e]} hook, so ${e === 'post' ? 'results never reach the guard' : e === 'pre' ? 'nothing can be denied' : 'a new user message never reaches it'}`);
  }
  if (driver.stop && commands[driver.stop.event] === undefined) hint.push(`no ${driver.stop.event} hook, so a hand-off cannot end the run`);

  const early = entries.find((e) => e.step === 'pre' && e.attempt < 5 && kind(e.reading) === 'deny');
  if (early) problems.push(`denied attempt ${early.attempt} already (expected the 5th)`);
  for (const a of [1, 2]) if (kind(at('post', a)) === 'warn') problems.push(`warned on result ${a} (expected the 3rd)`);
  const third = at('post', 3);
  if (kind(third) !== 'warn') problems.push('no warning on the 3rd identical result');
  else if (third && third !== 'no-hook' && third.kind === 'warn' && !third.text.startsWith('loop-guard:')) problems.push('the 3rd result got a warning that does not start with `loop-guard:`');
  const fifth = at('pre', 5);
  if (!early && kind(fifth) !== 'deny') problems.push('the 5th attempt was not denied');
  else if (fifth && fifth !== 'no-hook' && fifth.kind === 'deny' && !fifth.text.startsWith('loop-guard:')) problems.push('the 5th attempt was denied with a reason that does not start with `loop-guard:`');
  if (!early && kind(at('pre', 6)) !== 'deny') problems.push('the 6th attempt was not denied');
  const seventh = at('pre', 7);
  const handedOff = driver.handoffIsDeny
    ? kind(seventh) === 'deny' && seventh !== 'no-hook' && seventh?.kind === 'deny' && seventh.text.includes('turn stops here')
    : kind(seventh) === 'handoff';
  if (!early && !handedOff && commands[driver.events.pre] !== undefined) {
    problems.push(`the 7th attempt (after 2 refusals in the turn) was not a hand-off${driver.handoffIsDeny ? '' : ' that stops the turn'} (an older guard, or LOOP_GUARD_HANDOFF=0)`);
  }
  const turn = at('turn', 8);
  if (kind(turn) === 'warn' || kind(turn) === 'deny' || kind(turn) === 'handoff') problems.push('the user-prompt event got an answer instead of passing silently');
  const after = at('pre', 8);
  if (kind(after) === 'deny' || kind(after) === 'handoff') problems.push('still denied after a new user message');
  const hang = at('pre', 9);
  if (commands[driver.events.pre] !== undefined && kind(hang) !== 'deny') problems.push(`\`${HANG_COMMAND}\` was not refused, so the hang rules are off (LOOP_GUARD_HANG=off in the hook's environment?)`);

  if (problems.length) {
    const why = hint.length ? ` (${hint.join('; ')})` : '';
    return fail(id, `replaying 7 identical failing \`${REPLAY_COMMAND}\` attempts: ${problems.join('; ')}${why}. Seen: ${seen}`, hint.length ? `${RERUN} to put the missing hook entries back in ${configPath}` : fixBroken);
  }
  return pass(id, `replayed 7 identical failing \`${REPLAY_COMMAND}\` attempts through the configured hook commands: warned on the 3rd result, denied the 5th and 6th attempts, handed off on the 7th${driver.handoffIsDeny ? ' (a refusal that says the turn stops here)' : driver.stop ? ` (refused, and stopped the run from ${driver.stop.event})` : ' (refused and stopped the turn)'}, a new user message let it run again, and \`${HANG_COMMAND}\` was refused by the hang rules`);
}
