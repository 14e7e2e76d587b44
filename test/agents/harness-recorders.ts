// Small recording hooks and plugins for Gemini CLI, Copilot CLI, Qwen Code, Cline and Kilo, written into a temp repo by
// harness.test.ts. They are NOT the product: they record what the real CLI hands them and give the
// answers the protocol notes say each CLI honours (deny one command; add context after a result), so a
// test can prove the harness end to end before the product is wired in.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MoreAgentName } from './runners/index.ts';

/** In a command: the recorder denies it. */
export const DENY_TAG = 'LG_HARNESS_DENY_ME';
/** The deny reason; the model must see it instead of the command's output. */
export const DENY_REASON = 'LG-HARNESS-DENY: refused by the recording hook';
/** Added after a result that contains FAILURE_TEXT; the model must see it in its next request. */
export const CONTEXT = 'LG-HARNESS-CONTEXT: noted by the recording hook';
/** What `cat` of a missing file prints: marks the failing command's result. */
export const FAILURE_TEXT = 'No such file';

export interface Recorded {
  event: string;
  payload: unknown;
}

/**
 * One recorder per tool, plus Copilot's second dialect: PascalCase event names in the same hooks file give
 * Claude-shaped payloads (the product may pick either, so both are proven).
 */
export type RecorderName = MoreAgentName | 'copilot-pascal';
export const RECORDER_NAMES: RecorderName[] = ['gemini', 'copilot', 'copilot-pascal', 'qwen', 'cline', 'kilo'];

/** Where each recorder lives, relative to the repo, and the fixture each recorded event is compared with. */
export const RECORDER: Record<
  RecorderName,
  {
    agent: MoreAgentName;
    files: string[];
    pre: { event: string; fixture: string };
    post: { event: string; fixture: string };
  }
> = {
  gemini: {
    agent: 'gemini',
    files: ['.gemini/settings.json', '.lg-harness/record.mjs'],
    pre: { event: 'BeforeTool', fixture: 'gemini/BeforeTool-failure.json' },
    post: { event: 'AfterTool', fixture: 'gemini/AfterTool-failure.json' },
  },
  qwen: {
    agent: 'qwen',
    files: ['.qwen/settings.json', '.lg-harness/record.mjs'],
    pre: { event: 'PreToolUse', fixture: 'qwen/PreToolUse-failure.json' },
    post: { event: 'PostToolUseFailure', fixture: 'qwen/PostToolUseFailure-failure.json' },
  },
  copilot: {
    agent: 'copilot',
    files: ['.github/hooks/lg-harness.json', '.lg-harness/record.mjs'],
    pre: { event: 'preToolUse', fixture: 'copilot/camel/preToolUse-failure.json' },
    post: { event: 'postToolUse', fixture: 'copilot/camel/postToolUse-failure.json' },
  },
  'copilot-pascal': {
    agent: 'copilot',
    files: ['.github/hooks/lg-harness.json', '.lg-harness/record.mjs'],
    pre: { event: 'PreToolUse', fixture: 'copilot/pascal/PreToolUse-failure.json' },
    post: { event: 'PostToolUse', fixture: 'copilot/pascal/PostToolUse-failure.json' },
  },
  cline: {
    agent: 'cline',
    files: ['.cline/plugins/lg-harness.js'],
    pre: { event: 'beforeTool', fixture: 'cline/plugin/beforeTool-failure.json' },
    post: { event: 'afterTool', fixture: 'cline/plugin/afterTool-failure.json' },
  },
  kilo: {
    agent: 'kilo',
    files: ['.kilo/plugins/lg-harness.js'],
    pre: { event: 'tool.execute.before', fixture: 'kilo/tool.execute.before-failure.json' },
    post: { event: 'tool.execute.after', fixture: 'kilo/tool.execute.after-failure.json' },
  },
};

const consts = () => `const LOG = ${JSON.stringify('__LOG__')};
const DENY_TAG = ${JSON.stringify(DENY_TAG)};
const DENY_REASON = ${JSON.stringify(DENY_REASON)};
const CONTEXT = ${JSON.stringify(CONTEXT)};
const FAILURE_TEXT = ${JSON.stringify(FAILURE_TEXT)};
let seq = 0;
function record(event, data) {
  // Never throws: a crashing hook would deny the call in Copilot (fail-closed) and spoil the test.
  try {
    fs.mkdirSync(LOG, { recursive: true });
    const name = \`\${Date.now()}-\${process.pid}-\${++seq}.json\`;
    fs.writeFileSync(path.join(LOG, name), JSON.stringify({ event, payload: data }));
  } catch {}
}
`;

/** The command hook for Gemini, Qwen and Copilot: `node record.mjs <tool> <event>`, payload on stdin. */
const COMMAND_HOOK = `// lg-harness recorder (test only)
import fs from 'node:fs';
import path from 'node:path';
${consts()}
const [tool, event] = process.argv.slice(2);
let raw = '';
try { raw = fs.readFileSync(0, 'utf8'); } catch {}
let payload;
try { payload = JSON.parse(raw); } catch { payload = { unparsed: raw }; }
record(event, payload);
const deny = raw.includes(DENY_TAG);
const failed = raw.includes(FAILURE_TEXT);
const answers = {
  gemini: {
    BeforeTool: deny && { decision: 'deny', reason: DENY_REASON },
    AfterTool: failed && { hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: CONTEXT } },
  },
  qwen: {
    PreToolUse: deny && { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: DENY_REASON } },
    PostToolUseFailure: failed && { hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: CONTEXT } },
  },
  copilot: {
    preToolUse: deny && { permissionDecision: 'deny', permissionDecisionReason: DENY_REASON },
    postToolUse: failed && { additionalContext: CONTEXT },
  },
  // Copilot with PascalCase events: the deny is Claude's nested form; context must be top-level (the nested
  // hookSpecificOutput.additionalContext is ignored on PostToolUse).
  'copilot-pascal': {
    PreToolUse: deny && { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: DENY_REASON } },
    PostToolUse: failed && { additionalContext: CONTEXT },
  },
};
const answer = answers[tool]?.[event];
if (answer) process.stdout.write(JSON.stringify(answer));
process.exit(0);
`;

/** A Cline project plugin: file hooks cannot deny one command in 3.0.65, a plugin can. */
const CLINE_PLUGIN = `// lg-harness recorder (test only)
import fs from 'node:fs';
import path from 'node:path';
${consts()}
export default {
  name: 'lg-harness',
  manifest: { capabilities: ['hooks'] },
  hooks: {
    beforeTool: (ctx) => {
      record('beforeTool', ctx);
      if (JSON.stringify(ctx?.input ?? {}).includes(DENY_TAG)) return { skip: true, reason: DENY_REASON };
      return undefined;
    },
    afterTool: (ctx) => {
      record('afterTool', ctx);
      if (JSON.stringify(ctx?.result ?? {}).includes(FAILURE_TEXT)) return { appendContext: CONTEXT };
      return undefined;
    },
  },
};
`;

/** A Kilo project plugin (OpenCode's plugin API): throwing denies, editing output.output adds context. */
const KILO_PLUGIN = `// lg-harness recorder (test only)
import fs from 'node:fs';
import path from 'node:path';
${consts()}
export const LgHarness = async () => ({
  'tool.execute.before': async (input, output) => {
    record('tool.execute.before', { input, output });
    if (String(output?.args?.command ?? '').includes(DENY_TAG)) throw new Error(DENY_REASON);
  },
  'tool.execute.after': async (input, output) => {
    record('tool.execute.after', { input, output });
    if (String(output?.output ?? '').includes(FAILURE_TEXT)) output.output = \`\${output.output}\\n\${CONTEXT}\`;
  },
});
`;

function write(repo: string, rel: string, text: string): void {
  mkdirSync(join(repo, rel, '..'), { recursive: true });
  writeFileSync(join(repo, rel), text);
}

/** Writes the tool's recorder into `repo`; records go to `logDir` as one JSON file per call. */
export function installRecorder(tool: RecorderName, repo: string, logDir: string): void {
  const fill = (src: string) => src.replace(JSON.stringify('__LOG__'), JSON.stringify(logDir));
  const script = join(repo, '.lg-harness', 'record.mjs');
  const cmd = (event: string) => `node ${JSON.stringify(script)} ${tool} ${event}`;
  if (tool === 'gemini') {
    write(repo, '.lg-harness/record.mjs', fill(COMMAND_HOOK));
    // Matched on the shell tool's name (a regex); timeouts in milliseconds.
    const entry = (event: string) => [
      {
        matcher: 'run_shell_command',
        hooks: [{ name: 'lg-harness', type: 'command', timeout: 30_000, command: cmd(event) }],
      },
    ];
    write(
      repo,
      '.gemini/settings.json',
      JSON.stringify({ hooks: { BeforeTool: entry('BeforeTool'), AfterTool: entry('AfterTool') } }, null, 2),
    );
  } else if (tool === 'qwen') {
    write(repo, '.lg-harness/record.mjs', fill(COMMAND_HOOK));
    // Claude's format; timeouts in seconds; a failing command goes to PostToolUseFailure.
    const entry = (event: string) => [
      { matcher: 'run_shell_command', hooks: [{ type: 'command', timeout: 30, command: cmd(event) }] },
    ];
    write(
      repo,
      '.qwen/settings.json',
      JSON.stringify(
        {
          hooks: {
            PreToolUse: entry('PreToolUse'),
            PostToolUse: entry('PostToolUse'),
            PostToolUseFailure: entry('PostToolUseFailure'),
          },
        },
        null,
        2,
      ),
    );
  } else if (tool === 'copilot') {
    write(repo, '.lg-harness/record.mjs', fill(COMMAND_HOOK));
    // camelCase events = Copilot's native payloads; a failing command still arrives as postToolUse.
    const entry = (event: string) => [{ type: 'command', bash: cmd(event), timeoutSec: 30 }];
    write(
      repo,
      '.github/hooks/lg-harness.json',
      JSON.stringify(
        {
          version: 1,
          hooks: {
            preToolUse: entry('preToolUse'),
            postToolUse: entry('postToolUse'),
          },
        },
        null,
        2,
      ),
    );
  } else if (tool === 'copilot-pascal') {
    write(repo, '.lg-harness/record.mjs', fill(COMMAND_HOOK));
    // Claude's nested shape, matched on the Claude-style tool name it reports (Bash); timeouts in seconds.
    const entry = (event: string) => [
      { matcher: 'Bash', hooks: [{ type: 'command', command: cmd(event), timeout: 30 }] },
    ];
    write(
      repo,
      '.github/hooks/lg-harness.json',
      JSON.stringify(
        {
          version: 1,
          hooks: {
            PreToolUse: entry('PreToolUse'),
            PostToolUse: entry('PostToolUse'),
          },
        },
        null,
        2,
      ),
    );
  } else if (tool === 'cline') {
    write(repo, '.cline/plugins/lg-harness.js', fill(CLINE_PLUGIN));
  } else {
    // .kilo/plugins/ (also .kilo/plugin/, .kilocode/…); Kilo does not load .opencode/ plugins.
    write(repo, '.kilo/plugins/lg-harness.js', fill(KILO_PLUGIN));
  }
}

/** Key paths of an object down to `depth` levels (arrays are leaves): the "shape" a fixture and a live payload share. */
export function keyShape(v: unknown, depth = 3, prefix = ''): string[] {
  if (depth === 0 || typeof v !== 'object' || v === null || Array.isArray(v)) return [];
  return Object.entries(v as Record<string, unknown>)
    .flatMap(([k, child]) => {
      const p = prefix ? `${prefix}.${k}` : k;
      return [p, ...keyShape(child, depth - 1, p)];
    })
    .sort();
}
