// The recovery table: what `run` does after the Nth failure of a step, as data a team can edit. The defaults below
// are the policy when the repository has no table; a table that cannot be read is an error naming file:line:column.

/** Where a repository keeps its own table (next to the guard's other files). */
export const TABLE_PATH = '.agents/recovery.txt';

export const ACTIONS = ['attempt', 'retry-with-reason', 'fresh-context', 'smallest-step', 'hand-off'] as const;
export type Action = (typeof ACTIONS)[number];

/** Classes a table may halt on: the guard's failure classes (run/classify.ts), and the run's own (an exhausted budget,
 *  a hook's refusal). */
export const HALT_CLASSES = [
  'auth',
  'network',
  'command-not-found',
  'missing-file',
  'deps-missing',
  'missing-script',
  'crlf',
  'budget',
  'scope',
] as const;
export type HaltClass = (typeof HALT_CLASSES)[number];

export interface Rung {
  rung: number;
  /** The step's failure count that selects this rung; `orMore` on the last row (`4+`). */
  failures: number;
  orMore: boolean;
  action: Action;
  /** Share of the run's budget this rung may spend. */
  share: number;
  /** The agent's turn cap on this rung where the tool has one; null = the tool's own default. */
  turns: number | null;
}

export interface Policy {
  rungs: Rung[];
  /** Classes of failure that halt the run at once. */
  halt: HaltClass[];
  /** Per tool, the model rung 3 (smallest-step) runs instead of the tool's default: the tool's model option value. */
  smallerModel: Partial<Record<string, string>>;
  /** Where the policy came from: the table's path, or null for the defaults. */
  source: string | null;
}

export const DEFAULT_POLICY: Policy = {
  rungs: [
    { rung: 0, failures: 0, orMore: false, action: 'attempt', share: 0.25, turns: null },
    { rung: 1, failures: 1, orMore: false, action: 'retry-with-reason', share: 0.15, turns: null },
    { rung: 2, failures: 2, orMore: false, action: 'fresh-context', share: 0.25, turns: null },
    { rung: 3, failures: 3, orMore: false, action: 'smallest-step', share: 0.35, turns: 8 },
    { rung: 4, failures: 4, orMore: true, action: 'hand-off', share: 0, turns: null },
  ],
  // Not missing-file: a verifier's "No such file" is often the very file the task is to write.
  halt: ['auth', 'network', 'command-not-found', 'budget', 'scope'],
  // The cheaper sibling of each vendor's default model; tools whose models are the user's provider/model pairs
  // (OpenCode, Kilo, Cline) or a service's own choice (Copilot) have none until the table names one.
  smallerModel: {
    claude: 'claude-haiku-4-5',
    codex: 'gpt-5-mini',
    gemini: 'gemini-2.5-flash',
    qwen: 'qwen3-coder-flash',
  },
  source: null,
};

/** A table that cannot be used: where, what, and the fix. */
export class TableError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    what: string,
    readonly fix: string,
  ) {
    super(`${file}:${line}:${column}: ${what} ${fix}`);
  }
}

interface Token {
  text: string;
  column: number;
}

/** Whitespace-separated words of a line with their 1-based columns, up to a `#` comment. */
function tokens(line: string): Token[] {
  const out: Token[] = [];
  for (const m of line.matchAll(/\S+/g)) {
    if (m[0].startsWith('#')) break;
    out.push({ text: m[0], column: (m.index ?? 0) + 1 });
  }
  return out;
}

/** Selects the rung for a step that has failed `failures` times. */
export function rungFor(policy: Policy, failures: number): Rung {
  const exact = policy.rungs.find((r) => r.failures === failures && !r.orMore);
  if (exact) return exact;
  const more = policy.rungs.filter((r) => r.orMore && failures >= r.failures);
  // parsePolicy guarantees a last `N+` row; the defaults have one too.
  return more[more.length - 1] ?? (policy.rungs[policy.rungs.length - 1] as Rung);
}

const FIX_ROW = 'A row is: rung failures action share turns, e.g. `3  3  smallest-step  0.35  8`.';

/** Throws the table's error at a token of the line (its end when the token is missing). */
type Fail = (tok: Token | undefined, what: string, fix: string) => never;

/** Reads a table's text. Rows: `rung failures action share turns`; `halt <class…>`; `smaller-model <tool> <model>`. */
export function parsePolicy(file: string, text: string, tools: readonly string[]): Policy {
  const rungs: Rung[] = [];
  let halt: HaltClass[] | null = null;
  const smallerModel: Partial<Record<string, string>> = {};
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  let last = { line: 1, column: 1 };
  for (const [i, raw] of lines.entries()) {
    const n = i + 1;
    const t = tokens(raw);
    const first = t[0];
    if (!first) continue;
    last = { line: n, column: first.column };
    const fail: Fail = (tok, what, fix) => {
      throw new TableError(file, n, tok?.column ?? raw.length + 1, what, fix);
    };
    if (first.text === 'rung') continue; // the header row
    if (first.text === 'halt') halt = haltRow(t, fail);
    else if (first.text === 'smaller-model') smallerRow(t, tools, fail, smallerModel);
    else rungs.push(rungRow(t, rungs, fail));
  }
  checkTable(rungs, (what, fix) => {
    throw new TableError(file, last.line, last.column, what, fix);
  });
  return {
    rungs,
    halt: halt ?? DEFAULT_POLICY.halt,
    smallerModel: { ...DEFAULT_POLICY.smallerModel, ...smallerModel },
    source: file,
  };
}

/** `halt <class…>`: the failure classes that stop the climb. */
function haltRow(t: readonly Token[], fail: Fail): HaltClass[] {
  const halt: HaltClass[] = [];
  for (const tok of t.slice(1)) {
    if (!(HALT_CLASSES as readonly string[]).includes(tok.text))
      fail(tok, `unknown failure class "${tok.text}".`, `Classes: ${HALT_CLASSES.join(', ')}.`);
    halt.push(tok.text as HaltClass);
  }
  return halt;
}

/** `smaller-model <tool> <model>`: the model the smallest-step rung gives the tool (`-`: its default). */
function smallerRow(
  t: readonly Token[],
  tools: readonly string[],
  fail: Fail,
  smallerModel: Partial<Record<string, string>>,
): void {
  const [, tool, model, extra] = t;
  if (!tool || !tools.includes(tool.text))
    fail(
      tool,
      `smaller-model needs a tool name.`,
      `Tools: ${tools.join(', ')}, e.g. \`smaller-model claude claude-haiku-4-5\`.`,
    );
  if (!model)
    fail(
      model,
      `smaller-model ${tool?.text} needs a model.`,
      "Write the value of the tool's model option, or - to keep its default.",
    );
  if (extra) fail(extra, 'one model per line.', 'Remove what follows the model.');
  if (model && tool) smallerModel[tool.text] = model.text === '-' ? '' : model.text;
}

/** `rung failures action share turns`: one rung, checked against the rows before it. */
function rungRow(t: readonly Token[], rungs: readonly Rung[], fail: Fail): Rung {
  const first = t[0] as Token;
  if (!/^\d+$/.test(first.text))
    fail(
      first,
      `"${first.text}" is not a row.`,
      `${FIX_ROW} Other lines: \`halt <classes>\`, \`smaller-model <tool> <model>\`, or # comments.`,
    );
  const [rungTok, failTok, actionTok, shareTok, turnsTok, extra] = t;
  const rung = Number(first.text);
  if (rung !== rungs.length)
    fail(
      rungTok,
      `rung ${rung} is out of order.`,
      `Number the rungs 0, 1, 2, … in order; this row should be rung ${rungs.length}.`,
    );
  const fm = /^(\d+)(\+?)$/.exec(failTok?.text ?? '');
  if (!fm)
    fail(
      failTok,
      'the failures column needs a count.',
      'Write the failure count that selects this rung: `2`, or `4+` on the last row.',
    );
  const failures = Number(fm?.[1]);
  const prev = rungs[rungs.length - 1];
  if (prev?.orMore)
    fail(
      rungTok,
      `rung ${rung} follows a \`${prev.failures}+\` row, which already takes every higher count.`,
      'Make `N+` the last row.',
    );
  if (prev && failures <= prev.failures)
    fail(failTok, `failures ${failures} is not above the previous row's ${prev.failures}.`, 'Counts grow row by row.');
  if (!rungs.length && failures !== 0)
    fail(
      failTok,
      'the first row must be for 0 failures (the first attempt).',
      'Start the table with `0  0  attempt  0.25  -`.',
    );
  const action = actionTok?.text;
  if (!action || !(ACTIONS as readonly string[]).includes(action))
    fail(actionTok, `unknown action "${action ?? ''}".`, `Actions: ${ACTIONS.join(', ')}.`);
  const share = Number(shareTok?.text);
  if (!shareTok || !/^\d*\.?\d+$/.test(shareTok.text) || share > 1)
    fail(shareTok, 'the share needs a number from 0 to 1.', "Write this rung's part of the budget, e.g. 0.25.");
  let turns: number | null = null;
  if (turnsTok && turnsTok.text !== '-') {
    if (!/^[1-9]\d{0,4}$/.test(turnsTok.text))
      fail(
        turnsTok,
        'turns must be a whole number of 1 or more, or -.',
        "Write the turn cap, or - for the tool's own.",
      );
    turns = Number(turnsTok.text);
  }
  if (extra) fail(extra, 'too many columns.', FIX_ROW);
  return { rung, failures, orMore: fm?.[2] === '+', action: action as Action, share, turns };
}

/** The table as a whole: rungs, one hand-off and last, shares that add up to 1 at most. */
function checkTable(rungs: readonly Rung[], at: (what: string, fix: string) => never): void {
  const end = rungs[rungs.length - 1];
  if (!end) at('the table has no rungs.', `${FIX_ROW} Delete the file to use the defaults.`);
  if (end && (!end.orMore || end.action !== 'hand-off'))
    at(
      'the last rung must be `N+ hand-off`.',
      'End the table with e.g. `4  4+  hand-off  0.00  -`, so every run ends.',
    );
  if (rungs.filter((r) => r.action === 'hand-off').length > 1)
    at('more than one hand-off row.', 'Keep one hand-off, the last row.');
  const sum = rungs.reduce((s, r) => s + r.share, 0);
  if (sum > 1.000001)
    at(
      `the shares add up to ${Math.round(sum * 1000) / 1000}, over 1.`,
      'Lower some shares so they add up to 1 at most.',
    );
}

/** The table's text as the defaults, documented: what a team starts from when it wants its own. */
export function defaultTableText(tools: readonly string[]): string {
  const rows = DEFAULT_POLICY.rungs.map(
    (r) =>
      `${String(r.rung).padEnd(6)}${`${r.failures}${r.orMore ? '+' : ''}`.padEnd(10)}${r.action.padEnd(19)}${r.share.toFixed(2).padEnd(7)}${r.turns ?? '-'}`,
  );
  const models = tools.map((t) => `smaller-model  ${t.padEnd(9)}${DEFAULT_POLICY.smallerModel[t] || '-'}`);
  return [
    '# The recovery table of `npx create-loop-guard run`: what happens after the Nth failure of a step.',
    "# failures: the step's failure count that selects the row (N+ = N or more; the last row must be N+ hand-off).",
    "# action: attempt | retry-with-reason (the verifier's objection as the instruction, same session) |",
    '#   fresh-context (a new session with the approaches tried and rejected) | smallest-step (the smallest change,',
    '#   on the smaller model below, at most `turns` turns) | hand-off (ESCALATED line, exit 4; costs nothing).',
    '# share: the part of --budget the rung may spend (they add up to 1 at most). turns: the turn cap, or -.',
    'rung  failures  action             share  turns',
    ...rows,
    '',
    '# Failure classes that halt at once: retrying cannot fix them.',
    `halt  ${DEFAULT_POLICY.halt.join(' ')}`,
    '',
    "# The smaller model of the smallest-step rung, per tool: the value of the tool's model option (- = its default).",
    ...models,
    '',
  ].join('\n');
}
