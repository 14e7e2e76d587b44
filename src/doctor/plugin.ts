// An in-process plugin (OpenCode's plugin API; the record's `doctor.plugin`): is the file ours and current, and does it
// load and guard? It is imported in a child Node process (the tool runs plugins in-process, so a throw-away process
// stands in for it) and driven with the payload shapes the tool passes to plugin hooks (its captured payloads).
import { readOwnedHeader } from '../edit/owned-file.ts';
import { AGENT_ENV, type PluginFacts } from '../tools/index.ts';
import { type Json, loadPayload } from './payloads.ts';
import { REPLAY_COMMAND, REPLAY_OUTPUT } from './replay.ts';
import { describeExit, type ProcResult, runProcess } from './exec.ts';
import { type Check, type Env, fail, pass, RERUN } from './types.ts';

/** `<tool>.plugin`: present, ours, this version, byte-identical to what this version ships. */
export function pluginFileCheck(
  tool: string,
  label: string,
  path: string,
  text: string | null,
  expected: string,
  version: string,
): Check {
  const id = `${tool}.plugin`;
  if (text === null)
    return fail(id, `${path} does not exist, so ${label} runs no loop guard`, `${RERUN} --tools ${tool}`);
  const header = readOwnedHeader(text);
  if (!header)
    return fail(
      id,
      `${path} has no create-loop-guard header, so it is not the loop-guard plugin`,
      `move it away, then ${RERUN}`,
    );
  if (header.version !== version)
    return fail(id, `${path} is v${header.version}; this create-loop-guard is v${version}`, `${RERUN} to upgrade it`);
  if (text.replace(/\r\n/g, '\n') !== expected)
    return fail(id, `${path} differs from the plugin v${version} ships (edited by hand?)`, `${RERUN} to replace it`);
  return pass(id, `${path} is the current plugin (v${version})`);
}

/** What the child reports: problems found while loading, the replay as it happened, and what shell.env set. */
export interface PluginProbe {
  problems: string[];
  exports: string[];
  hooks: string[];
  seq: Array<{ step: 'pre' | 'post' | 'turn'; attempt: number; deny?: string; warn?: string; error?: string }>;
  env: Record<string, string> | null;
}

// Runs in the child. Node reads a .js file outside a "type": "module" package as CommonJS, which the tool (Bun) does
// not, so such a file is imported as ESM from a data: URL of the same bytes; inside one, by its file URL.
const CHILD = String.raw`
const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const job = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const { pathToFileURL } = await import('node:url');
const { readFileSync } = await import('node:fs');
const { dirname, join } = await import('node:path');
const out = { problems: [], exports: [], hooks: [], seq: [], env: null };
const msg = (e) => String((e && e.message) || e).split('\n')[0];
const isEsmPackage = (file) => {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    try { return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).type === 'module'; } catch {}
    if (dirname(dir) === dir) return false;
  }
};
let mod = null;
try {
  mod = isEsmPackage(job.path)
    ? await import(pathToFileURL(job.path).href)
    : await import('data:text/javascript;base64,' + readFileSync(job.path).toString('base64'));
} catch (err) {
  out.problems.push('does not load: ' + msg(err));
}
let hooks = null;
if (mod) {
  out.exports = Object.keys(mod);
  for (const name of out.exports) {
    const fn = mod[name];
    if (typeof fn !== 'function') { out.problems.push('exports ' + name + ', which is not a plugin function (' + job.label + ' refuses the file: "Plugin export is not a function")'); continue; }
    try {
      const h = await fn(job.ctx);
      if (h && typeof h === 'object' && !hooks) hooks = h;
    } catch (err) { out.problems.push(name + '() threw: ' + msg(err)); }
  }
}
if (hooks) {
  out.hooks = Object.keys(hooks).filter((k) => typeof hooks[k] === 'function');
  const has = (k) => typeof hooks[k] === 'function';
  const clone = (v) => JSON.parse(JSON.stringify(v));
  const sid = job.before.input.sessionID;
  const before = async (attempt) => {
    const p = clone(job.before);
    p.input.callID = 'call_doctor_' + attempt;
    p.output.args = { command: job.command, description: 'Run the tests' };
    try { await hooks['tool.execute.before'](p.input, p.output); out.seq.push({ step: 'pre', attempt }); return true; }
    catch (err) { out.seq.push({ step: 'pre', attempt, deny: msg(err) }); return false; }
  };
  if (has('tool.execute.before') && has('tool.execute.after') && has('chat.message')) {
    for (let attempt = 1; attempt <= 5; attempt++) {
      if (!(await before(attempt))) continue;
      const p = clone(job.after);
      p.input.callID = 'call_doctor_' + attempt;
      p.input.args = { command: job.command, description: 'Run the tests' };
      p.output = { title: job.command, output: job.output, metadata: { output: job.output, exit: 1, truncated: false } };
      try {
        await hooks['tool.execute.after'](p.input, p.output);
        const added = typeof p.output.output === 'string' && p.output.output !== job.output ? p.output.output.slice(job.output.length).trim() : '';
        out.seq.push({ step: 'post', attempt, ...(added ? { warn: added } : {}) });
      } catch (err) { out.seq.push({ step: 'post', attempt, error: msg(err) }); }
    }
    try { const c = clone(job.chat); await hooks['chat.message'](c.input, c.output); out.seq.push({ step: 'turn', attempt: 6 }); }
    catch (err) { out.seq.push({ step: 'turn', attempt: 6, error: msg(err) }); }
    await before(6);
  }
  if (has('shell.env')) {
    const o = { env: {} };
    try { await hooks['shell.env']({ cwd: job.ctx.directory, sessionID: sid, callID: 'call_doctor_env' }, o); out.env = o.env; }
    catch (err) { out.problems.push('shell.env threw: ' + msg(err)); }
  }
}
process.stdout.write(JSON.stringify(out));
`;

/** Load the plugin in a child process and replay; null probe when the child itself failed. */
export async function probePlugin(
  tool: string,
  label: string,
  facts: PluginFacts,
  path: string,
  root: string,
  env: Env,
): Promise<{ probe: PluginProbe | null; run: ProcResult }> {
  const load = (file: string) => loadPayload(`${tool}/${file}`);
  const init = load(facts.payloads.init);
  const job = {
    label,
    path,
    command: REPLAY_COMMAND,
    output: REPLAY_OUTPUT,
    ctx: {
      directory: root,
      worktree: root,
      project: { ...(init.project as Json), worktree: root },
      serverUrl: 'http://127.0.0.1:4096',
      client: {},
    },
    before: load(facts.payloads.before),
    after: load(facts.payloads.after),
    chat: load(facts.payloads.turn),
  };
  const run = await runProcess(process.execPath, ['--input-type=module', '-e', CHILD], {
    cwd: root,
    env,
    input: JSON.stringify(job),
  });
  if (run.status !== 0) return { probe: null, run };
  try {
    return { probe: JSON.parse(run.stdout) as PluginProbe, run };
  } catch {
    return { probe: null, run };
  }
}

/** Pure: `<tool>.load`, judged from the probe; `required` are the hooks the plugin must have. */
export function judgePlugin(
  tool: string,
  label: string,
  required: readonly string[],
  path: string,
  probe: PluginProbe | null,
  run: ProcResult,
): Check {
  const id = `${tool}.load`;
  const reinstall = `${RERUN} to reinstall ${path}`;
  if (!probe) return fail(id, `loading ${path} in Node ${describeExit(run)}`, reinstall);
  if (probe.problems.length) return fail(id, `${path} ${probe.problems.join('; ')}`, reinstall);
  if (!probe.exports.length) return fail(id, `${path} exports nothing, so ${label} loads no plugin from it`, reinstall);
  const missing = required.filter((h) => !probe.hooks.includes(h));
  if (missing.length)
    return fail(id, `${path} has no ${missing.join(', ')} hook${missing.length > 1 ? 's' : ''}`, reinstall);

  const at = (step: string, attempt: number) => probe.seq.find((s) => s.step === step && s.attempt === attempt);
  const problems: string[] = [];
  const errored = probe.seq.find((s) => s.error);
  if (errored)
    problems.push(
      `its ${errored.step === 'turn' ? 'chat.message' : 'tool.execute.after'} hook threw: ${errored.error}`,
    );
  const early = probe.seq.find((s) => s.step === 'pre' && s.attempt < 5 && s.deny);
  if (early) problems.push(`refused attempt ${early.attempt} already (expected the 5th)`);
  for (const a of [1, 2]) if (at('post', a)?.warn) problems.push(`warned on result ${a} (expected the 3rd)`);
  const third = at('post', 3)?.warn;
  if (!third) problems.push('no warning on the 3rd identical result');
  else if (!third.startsWith('loop-guard:'))
    problems.push('the 3rd result got a warning that does not start with `loop-guard:`');
  const fifth = at('pre', 5)?.deny;
  if (!early && !fifth) problems.push('the 5th attempt was not refused');
  else if (fifth && !fifth.startsWith('loop-guard:'))
    problems.push('the 5th attempt was refused with a message that does not start with `loop-guard:`');
  if (at('pre', 6)?.deny) problems.push('still refused after a new user message');
  const env = probe.env ?? {};
  const unset = Object.entries(AGENT_ENV)
    .filter(([k, v]) => env[k] !== v)
    .map(([k, v]) => `${k}=${v}`);
  if (unset.length) problems.push(`its shell.env hook does not set ${unset.join(', ')}`);
  if (problems.length)
    return fail(
      id,
      `${path} loads, but replaying 5 identical failing \`${REPLAY_COMMAND}\` runs: ${problems.join('; ')}`,
      reinstall,
    );
  return pass(
    id,
    `${path} loads with ${required.join(', ')}; it warned on the 3rd identical result, refused the 5th ` +
      `attempt, let it run after a new user message, and its shell.env sets ` +
      `${Object.keys(AGENT_ENV).join(', ')}`,
  );
}
