import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { parse, tokenize } from 'comment-json';
import { diffChars, structuredPatch } from 'diff';
import { mergeJson, type EnvSpec, type HookEntrySpec, type MergeSpec } from '../../src/scaffold/intents/json-hooks.ts';
import { removeFromJson, type RemoveSpec } from '../../src/scaffold/intents/json-hooks-remove.ts';
import { FileFormatError } from '../../src/edit/outcome.ts';

// ───────── specs ─────────

const MARKER = '.agents/hooks/loop-guard';
const CLAUDE_CMD = 'node "$CLAUDE_PROJECT_DIR"/.agents/hooks/loop-guard.cjs claude';
const CURSOR_CMD = 'node .agents/hooks/loop-guard.cjs cursor';

const nested: HookEntrySpec = {
  style: 'nested',
  events: [
    { event: 'PreToolUse', matcher: 'Bash' },
    { event: 'PostToolUse', matcher: 'Bash' },
    { event: 'UserPromptSubmit' },
  ],
  command: CLAUDE_CMD,
  timeout: 10,
  marker: MARKER,
};
const flat: HookEntrySpec = {
  style: 'flat',
  events: [{ event: 'preToolUse', matcher: 'Shell' }, { event: 'beforeSubmitPrompt' }],
  command: CURSOR_CMD,
  timeout: 10,
  marker: MARKER,
};
const envValues = { GIT_PAGER: 'cat', PAGER: 'cat' };
const env = (over: Partial<EnvSpec> = {}): EnvSpec => ({
  path: ['env'],
  values: envValues,
  owned: [],
  force: false,
  ...over,
});
const claude: MergeSpec = { hooks: nested, env: env() };
const cursor: MergeSpec = { hooks: flat, ensureTop: { version: 1 } };
const removeClaude = { marker: MARKER, ownedEnv: { path: ['env'], values: envValues } };
const removeCursor = { marker: MARKER, ensureTop: { version: 1 } };

// ───────── helpers ─────────

function changed(before: string | null, spec: MergeSpec): string {
  const r = mergeJson(before, spec);
  if (r.outcome.status !== 'changed') throw new Error(`expected a change, got ${JSON.stringify(r.outcome)}`);
  return r.outcome.text;
}

function removed(text: string, spec: RemoveSpec = removeClaude): string {
  const r = removeFromJson(text, spec);
  if (r.outcome.status !== 'changed') throw new Error(`expected a change, got ${JSON.stringify(r.outcome)}`);
  return r.outcome.text;
}

/** Every comment's text, read by comment-json's own tokenizer so the check does not trust the editor's scanner. */
function comments(text: string): string[] {
  return (tokenize(text.replace(/^\uFEFF/, '')) as Array<{ type: string; value: string }>)
    .filter((t) => t.type === 'LineComment' || t.type === 'BlockComment')
    .map((t) => `${t.type}:${t.value}`);
}

type LineRule = 'comma' | 'inline';
/**
 * The edit only inserted text; on the line level every line is kept except that a line may gain a
 * comma ('comma'), an empty `{}`/`[]` may be opened onto new lines (`opened`), or, for containers
 * written on one line, the line may grow ('inline').
 */
function expectAdditionsOnly(before: string, after: string, rule: LineRule = 'comma', opened = false): void {
  expect(diffChars(before, after).filter((p) => p.removed)).toEqual([]);
  if (rule === 'inline') return;
  for (const hunk of structuredPatch('a', 'b', before, after).hunks) {
    const minus = hunk.lines.filter((l) => l.startsWith('-')).map((l) => l.slice(1));
    const plus = hunk.lines.filter((l) => l.startsWith('+')).map((l) => l.slice(1));
    for (const old of minus) {
      const i = plus.findIndex((neu) => {
        for (let k = 0; k < neu.length; k++)
          if (neu[k] === ',' && neu.slice(0, k) + neu.slice(k + 1) === old) return true;
        return opened && old.replace(/([{[])\s*[}\]](,?)\s*$/, '$1') === neu.replace(/\s+$/, '');
      });
      expect(i, `line ${JSON.stringify(old)} changed by more than a comma`).toBeGreaterThanOrEqual(0);
      plus.splice(i, 1);
    }
  }
}

/** The full contract for a file that has nothing of ours yet. */
function roundTrip(
  before: string,
  spec: MergeSpec,
  removeSpec: RemoveSpec,
  rule: LineRule = 'comma',
  opened = false,
): string {
  const after = changed(before, spec);
  expect(() => parse(after)).not.toThrow();
  expectAdditionsOnly(before, after, rule, opened);
  expect(comments(after)).toEqual(expect.arrayContaining(comments(before)));
  const again = mergeJson(after, spec);
  expect(again.outcome).toEqual({ status: 'unchanged', text: after, notes: [] });
  expect(removed(after, removeSpec)).toBe(before);
  return after;
}

const plain = (text: string): unknown => JSON.parse(JSON.stringify(parse(text.replace(/^\uFEFF/, ''), null, true)));

// ───────── expected texts ─────────

const CREATED_CLAUDE = `{
  "env": {
    "GIT_PAGER": "cat",
    "PAGER": "cat"
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "node \\"$CLAUDE_PROJECT_DIR\\"/.agents/hooks/loop-guard.cjs claude",
            "timeout": 10
          }
        ]
      }
    ],
    "PostToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "node \\"$CLAUDE_PROJECT_DIR\\"/.agents/hooks/loop-guard.cjs claude",
            "timeout": 10
          }
        ]
      }
    ],
    "UserPromptSubmit": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "node \\"$CLAUDE_PROJECT_DIR\\"/.agents/hooks/loop-guard.cjs claude",
            "timeout": 10
          }
        ]
      }
    ]
  }
}
`;

const CREATED_CURSOR = `{
  "version": 1,
  "hooks": {
    "preToolUse": [
      {
        "command": "node .agents/hooks/loop-guard.cjs cursor",
        "matcher": "Shell",
        "timeout": 10
      }
    ],
    "beforeSubmitPrompt": [
      {
        "command": "node .agents/hooks/loop-guard.cjs cursor",
        "timeout": 10
      }
    ]
  }
}
`;

/** Our Claude group, rendered at `indent` with `unit` steps, as the editor should write it. */
function claudeGroup(indent: string, unit: string, eol = '\n', matcher: string | null = 'Bash'): string {
  const i1 = indent + unit;
  const i2 = i1 + unit;
  const i3 = i2 + unit;
  const lines = [
    `${indent}{`,
    ...(matcher === null ? [] : [`${i1}"matcher": "${matcher}",`]),
    `${i1}"hooks": [`,
    `${i2}{`,
    `${i3}"type": "command",`,
    `${i3}"command": ${JSON.stringify(CLAUDE_CMD)},`,
    `${i3}"timeout": 10`,
    `${i2}}`,
    `${i1}]`,
    `${indent}}`,
  ];
  return lines.join(eol);
}

// ───────── tests ─────────

describe('missing file', () => {
  test('nested (Claude Code / Codex) shape, 2-space indent, LF, final newline', () => {
    expect(changed(null, claude)).toBe(CREATED_CLAUDE);
  });

  test('flat (Cursor) shape with version first', () => {
    expect(changed(null, cursor)).toBe(CREATED_CURSOR);
  });

  test('setKeys reports every env key as set', () => {
    expect(mergeJson(null, claude).setKeys).toEqual(['GIT_PAGER', 'PAGER']);
  });

  test('remove leaves only what we would create empty, and says so', () => {
    expect(removeFromJson(CREATED_CLAUDE, { ...removeClaude, ensureTop: {} })).toEqual({
      outcome: { status: 'changed', text: '{}\n', notes: [] },
      becameEmpty: true,
    });
    expect(removeFromJson(CREATED_CURSOR, removeCursor)).toEqual({
      outcome: { status: 'changed', text: '{\n  "version": 1\n}\n', notes: [] },
      becameEmpty: true,
    });
  });

  test('nothing to write creates nothing', () => {
    expect(mergeJson(null, {}).outcome).toEqual({ status: 'unchanged', text: '', notes: [] });
  });
});

describe('formatting is kept', () => {
  const base = (unit: string, eol: string, finalNewline = true): string =>
    [
      '{',
      `${unit}"model": "opus",`,
      `${unit}"permissions": {`,
      `${unit}${unit}"allow": ["Bash(ls:*)"]`,
      `${unit}}`,
      '}',
    ].join(eol) + (finalNewline ? eol : '');

  test.each([
    ['2 spaces', '  '],
    ['4 spaces', '    '],
    ['tabs', '\t'],
  ])('%s: inserted lines use the file indent', (_name, unit) => {
    const before = base(unit, '\n');
    const after = roundTrip(
      before,
      { hooks: { ...nested, events: [{ event: 'PreToolUse', matcher: 'Bash' }] } },
      removeClaude,
    );
    expect(after).toBe(
      [
        '{',
        `${unit}"model": "opus",`,
        `${unit}"permissions": {`,
        `${unit}${unit}"allow": ["Bash(ls:*)"]`,
        `${unit}},`,
        `${unit}"hooks": {`,
        `${unit}${unit}"PreToolUse": [`,
        claudeGroup(unit.repeat(3), unit),
        `${unit}${unit}]`,
        `${unit}}`,
        '}',
        '',
      ].join('\n'),
    );
  });

  test('CRLF stays CRLF, no bare LF is introduced', () => {
    const before = base('  ', '\r\n');
    const after = roundTrip(before, claude, removeClaude);
    expect(after.replace(/\r\n/g, '')).not.toContain('\n');
    // Same bytes as the LF edit, line breaks aside.
    expect(after).toBe(changed(base('  ', '\n'), claude).replace(/\n/g, '\r\n'));
  });

  test('BOM is kept', () => {
    const before = '\uFEFF' + base('  ', '\n');
    const after = roundTrip(before, claude, removeClaude);
    expect(after.startsWith('\uFEFF{\n  "model"')).toBe(true);
    expect(after.indexOf('\uFEFF', 1)).toBe(-1);
  });

  test('no final newline stays without one', () => {
    const before = base('    ', '\n', false);
    const after = roundTrip(before, claude, removeClaude);
    expect(after.endsWith('}')).toBe(true);
    expect(after.endsWith('\n}')).toBe(true);
  });

  test('a minified file stays on one line, without spaces', () => {
    const before =
      '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"npx block-no-verify"}]}]}}';
    const after = roundTrip(
      before,
      {
        hooks: { ...nested, events: [{ event: 'PreToolUse', matcher: 'Bash' }, { event: 'UserPromptSubmit' }] },
        env: env(),
      },
      removeClaude,
      'inline',
    );
    const ours = `{"type":"command","command":${JSON.stringify(CLAUDE_CMD)},"timeout":10}`;
    expect(after).toBe(
      `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"npx block-no-verify"}]},{"matcher":"Bash","hooks":[${ours}]}],"UserPromptSubmit":[{"hooks":[${ours}]}]},"env":{"GIT_PAGER":"cat","PAGER":"cat"}}`,
    );
  });

  test('a minified empty object is expanded (nothing to keep on one line)', () => {
    expect(changed('{}', { env: env() })).toBe('{\n  "env": {\n    "GIT_PAGER": "cat",\n    "PAGER": "cat"\n  }\n}');
    expect(removed(changed('{}', { env: env() }))).toBe('{}');
  });

  test('single-line arrays grow on their own line, spaced like the rest of the file', () => {
    const before =
      '{\n  "version": 1,\n  "hooks": {\n    "preToolUse": [{ "matcher": "Write", "command": "node guard.mjs" }],\n    "stop": [{ "command": "x", "loop_limit": 3 }]\n  }\n}\n';
    const after = roundTrip(before, cursor, removeCursor, 'inline');
    expect(after).toContain(
      `"preToolUse": [{ "matcher": "Write", "command": "node guard.mjs" }, { "command": "${CURSOR_CMD}", "matcher": "Shell", "timeout": 10 }],`,
    );
    expect(after).toContain(
      `    "stop": [{ "command": "x", "loop_limit": 3 }],\n    "beforeSubmitPrompt": [\n      {\n`,
    );
  });

  test('an empty env object or event array is opened onto its own lines', () => {
    const before = '{\n  "env": {},\n  "hooks": {\n    "PreToolUse": []\n  }\n}\n';
    const after = changed(before, {
      hooks: { ...nested, events: [{ event: 'PreToolUse', matcher: 'Bash' }] },
      env: env(),
    });
    expectAdditionsOnly(before, after, 'comma', true);
    expect(after).toBe(
      [
        '{',
        '  "env": {',
        '    "GIT_PAGER": "cat",',
        '    "PAGER": "cat"',
        '  },',
        '  "hooks": {',
        '    "PreToolUse": [',
        claudeGroup('      ', '  '),
        '    ]',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    // The empty containers became empty "because of us" on the way back, so they go: keys lost, values equal.
    expect(removed(after)).toBe('{}\n');
  });

  test('comments at every position survive, byte for byte outside the insertions', () => {
    const before = `// header: team settings
/* block header */
{
  // before a key
  "model": "opus", // after a value
  "permissions": /* after colon */ {
    "allow": [
      "Bash(ls:*)" // last item
      // a dangling comment in an array
    ]
  },
  "env": {
    "FOO": "1" /* block after last value */
    // commented out: "BAR": "2"
  },
  "hooks": {
    "PreToolUse": [
      // user's guard
      {
        "matcher": "Bash",
        "hooks": [{ "type": "command", "command": "guard.sh" }] // inline
      }
    ]
  }
  // before the closing brace
}
// footer
`;
    const after = roundTrip(before, claude, removeClaude);
    expect(after).toBe(`// header: team settings
/* block header */
{
  // before a key
  "model": "opus", // after a value
  "permissions": /* after colon */ {
    "allow": [
      "Bash(ls:*)" // last item
      // a dangling comment in an array
    ]
  },
  "env": {
    "FOO": "1", /* block after last value */
    // commented out: "BAR": "2"
    "GIT_PAGER": "cat",
    "PAGER": "cat"
  },
  "hooks": {
    "PreToolUse": [
      // user's guard
      {
        "matcher": "Bash",
        "hooks": [{ "type": "command", "command": "guard.sh" }] // inline
      },
${claudeGroup('      ', '  ')}
    ],
    "PostToolUse": [
${claudeGroup('      ', '  ')}
    ],
    "UserPromptSubmit": [
${claudeGroup('      ', '  ', '\n', null)}
    ]
  }
  // before the closing brace
}
// footer
`);
  });

  test('an empty object holding only a comment gets ours after the comment', () => {
    const before = '{\n  "env": {\n    // none yet\n  }\n}\n';
    const after = roundTrip(before, { env: env() }, removeClaude);
    expect(after).toBe('{\n  "env": {\n    // none yet\n    "GIT_PAGER": "cat",\n    "PAGER": "cat"\n  }\n}\n');
  });

  test('JSONC trailing commas: ours follow the same style, the rest is untouched', () => {
    const before = '{\n  "model": "opus",\n  "env": {\n    "FOO": "1",\n  },\n  "list": [1, 2,],\n}\n';
    const after = roundTrip(before, { env: env() }, removeClaude);
    expect(after).toBe(
      '{\n  "model": "opus",\n  "env": {\n    "FOO": "1",\n    "GIT_PAGER": "cat",\n    "PAGER": "cat",\n  },\n  "list": [1, 2,],\n}\n',
    );
    const withHooks = roundTrip(
      before,
      { hooks: { ...nested, events: [{ event: 'UserPromptSubmit' }] } },
      removeClaude,
    );
    expect(
      withHooks.endsWith(
        `  "list": [1, 2,],\n  "hooks": {\n    "UserPromptSubmit": [\n${claudeGroup('      ', '  ', '\n', null)}\n    ]\n  },\n}\n`,
      ),
    ).toBe(true);
  });

  test('trailing whitespace on the last line stays on that line', () => {
    const before = '{\n  "model": "opus"   \n}\n';
    const after = roundTrip(before, { env: env() }, removeClaude);
    expect(after.startsWith('{\n  "model": "opus",   \n  "env": {')).toBe(true);
  });
});

describe('hook entries', () => {
  const userGroup =
    '{\n        "matcher": "Bash",\n        "hooks": [\n          {\n            "type": "command",\n            "command": "guard.sh"\n          }\n        ]\n      }';

  test('user hooks on the same events and matcher: ours is a separate group, theirs untouched', () => {
    const before = `{\n  "hooks": {\n    "PreToolUse": [\n      ${userGroup}\n    ],\n    "UserPromptSubmit": [\n      {\n        "hooks": [{ "type": "command", "command": "log.sh" }]\n      }\n    ]\n  }\n}\n`;
    const after = roundTrip(before, { hooks: nested }, removeClaude);
    const value = plain(after) as { hooks: Record<string, unknown[]> };
    expect(value.hooks.PreToolUse).toHaveLength(2);
    expect(value.hooks.PreToolUse![0]).toEqual({ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh' }] });
    expect(value.hooks.UserPromptSubmit).toHaveLength(2);
    expect(value.hooks.UserPromptSubmit![1]).toEqual({
      hooks: [{ type: 'command', command: CLAUDE_CMD, timeout: 10 }],
    });
  });

  test('upgrade: our old entry is replaced in place (command, timeout), not duplicated', () => {
    const old = 'node .agents/hooks/loop-guard.js claude';
    const before = `{\n  "hooks": {\n    "PreToolUse": [\n      {\n        "matcher": "Bash",\n        "hooks": [\n          {\n            "type": "command",\n            "command": "${old}",\n            "timeout": 5\n          }\n        ]\n      }\n    ]\n  }\n}\n`;
    const after = changed(before, { hooks: { ...nested, events: [{ event: 'PreToolUse', matcher: 'Bash' }] } });
    expect(after).toBe(
      before.replace(JSON.stringify(old), JSON.stringify(CLAUDE_CMD)).replace('"timeout": 5', '"timeout": 10'),
    );
    expect(
      mergeJson(after, { hooks: { ...nested, events: [{ event: 'PreToolUse', matcher: 'Bash' }] } }).outcome.status,
    ).toBe('unchanged');
  });

  test("an earlier version's group with another matcher is fixed in place", () => {
    const before = `{\n  "hooks": {\n    "PreToolUse": [\n      {\n        "matcher": "Bash|Shell",\n        "hooks": [{ "type": "command", "command": "${CURSOR_CMD}", "timeout": 10 }]\n      }\n    ],\n    "UserPromptSubmit": [\n      {\n        "matcher": "Bash",\n        "hooks": [{ "type": "command", "command": "${CURSOR_CMD}", "timeout": 10 }]\n      }\n    ]\n  }\n}\n`;
    const spec = {
      hooks: { ...nested, events: [{ event: 'PreToolUse', matcher: 'Bash' }, { event: 'UserPromptSubmit' }] },
    };
    const after = changed(before, spec);
    const ours = `"hooks": [{ "type": "command", "command": ${JSON.stringify(CLAUDE_CMD)}, "timeout": 10 }]`;
    expect(after).toBe(
      `{\n  "hooks": {\n    "PreToolUse": [\n      {\n        "matcher": "Bash",\n        ${ours}\n      }\n    ],\n    "UserPromptSubmit": [\n      {\n        ${ours}\n      }\n    ]\n  }\n}\n`,
    );
  });

  test("ours inside the user's group with our matcher (a hand edit) is updated there, no second copy", () => {
    const before = `{\n  "hooks": {\n    "PreToolUse": [\n      {\n        "matcher": "Bash",\n        "hooks": [\n          { "type": "command", "command": "guard.sh" },\n          { "type": "command", "command": "node .agents/hooks/loop-guard.mjs old" }\n        ]\n      }\n    ]\n  }\n}\n`;
    const spec = { hooks: { ...nested, events: [{ event: 'PreToolUse', matcher: 'Bash' }] } };
    const after = changed(before, spec);
    expect(after).toBe(
      before.replace('"node .agents/hooks/loop-guard.mjs old" }', `${JSON.stringify(CLAUDE_CMD)}, "timeout": 10 }`),
    );
    // Remove takes only our entry out of their group.
    expect(removed(after)).toBe(
      before.replace(',\n          { "type": "command", "command": "node .agents/hooks/loop-guard.mjs old" }', ''),
    );
  });

  test("ours inside a user's group with another matcher moves to its own group; theirs keeps its hooks", () => {
    const before = `{\n  "hooks": {\n    "PreToolUse": [\n      {\n        "matcher": "Write",\n        "hooks": [\n          { "type": "command", "command": "fmt.sh" },\n          { "type": "command", "command": "${CURSOR_CMD}" }\n        ]\n      }\n    ]\n  }\n}\n`;
    const after = changed(before, { hooks: { ...nested, events: [{ event: 'PreToolUse', matcher: 'Bash' }] } });
    expect(plain(after)).toEqual({
      hooks: {
        PreToolUse: [
          { matcher: 'Write', hooks: [{ type: 'command', command: 'fmt.sh' }] },
          { matcher: 'Bash', hooks: [{ type: 'command', command: CLAUDE_CMD, timeout: 10 }] },
        ],
      },
    });
  });

  test('duplicates of ours (two groups, or twice in one group) collapse to one', () => {
    const o = `{ "type": "command", "command": "${CURSOR_CMD}", "timeout": 10 }`;
    const before = `{\n  "hooks": {\n    "PreToolUse": [\n      { "matcher": "Bash", "hooks": [${o}, ${o}] },\n      { "matcher": "Edit", "hooks": [{ "type": "command", "command": "x" }] },\n      { "matcher": "Bash", "hooks": [${o}] }\n    ]\n  }\n}\n`;
    const after = changed(before, { hooks: { ...nested, events: [{ event: 'PreToolUse', matcher: 'Bash' }] } });
    expect(plain(after)).toEqual({
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: CLAUDE_CMD, timeout: 10 }] },
          { matcher: 'Edit', hooks: [{ type: 'command', command: 'x' }] },
        ],
      },
    });
    expect(after).toContain('      { "matcher": "Edit", "hooks": [{ "type": "command", "command": "x" }] }\n    ]');
  });

  test('a duplicate before the kept entry is removed without losing track of the kept one', () => {
    const before = `{\n  "hooks": {\n    "PreToolUse": [\n      { "matcher": "Edit", "hooks": [{ "command": "${CURSOR_CMD}" }] },\n      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "x" }, { "command": "${CURSOR_CMD}" }] }\n    ]\n  }\n}\n`;
    const r = mergeJson(before, { hooks: { ...nested, events: [{ event: 'PreToolUse', matcher: 'Bash' }] } });
    expect(r.outcome.status).toBe('changed');
    if (r.outcome.status !== 'changed') return;
    expect(plain(r.outcome.text)).toEqual({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: 'x' },
              { command: CLAUDE_CMD, type: 'command', timeout: 10 },
            ],
          },
        ],
      },
    });
  });

  test('entries under an event this version no longer uses are removed, with a note', () => {
    const before = changed(null, {
      hooks: { ...nested, events: [{ event: 'PreToolUse', matcher: 'Bash' }, { event: 'Stop' }] },
    });
    const r = mergeJson(before, { hooks: { ...nested, events: [{ event: 'PreToolUse', matcher: 'Bash' }] } });
    expect(r.outcome.status).toBe('changed');
    if (r.outcome.status !== 'changed') return;
    expect(plain(r.outcome.text)).toEqual({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: CLAUDE_CMD, timeout: 10 }] }] },
    });
    expect(r.outcome.notes).toEqual(["Removed loop-guard's hook from hooks.Stop, which this version no longer uses."]);
  });

  test('flat: appended to the event array; an old entry is updated in place, matcher included', () => {
    const before =
      '{\n  "version": 1,\n  "hooks": {\n    "preToolUse": [\n      { "command": "node .agents/hooks/loop-guard.mjs", "matcher": "Bash" },\n      { "command": "guard.sh" }\n    ]\n  }\n}\n';
    const after = changed(before, cursor);
    expect(after).toBe(
      `{\n  "version": 1,\n  "hooks": {\n    "preToolUse": [\n      { "command": "${CURSOR_CMD}", "matcher": "Shell", "timeout": 10 },\n      { "command": "guard.sh" }\n    ],\n    "beforeSubmitPrompt": [\n      {\n        "command": "${CURSOR_CMD}",\n        "timeout": 10\n      }\n    ]\n  }\n}\n`,
    );
  });

  test('flat: a version we added stays after remove (it is required by Cursor, and unmarked)', () => {
    const before = '{\n  "hooks": {\n    "stop": [{ "command": "x" }]\n  }\n}\n';
    const after = changed(before, cursor);
    expect(after.startsWith('{\n  "hooks": {\n    "stop": [{ "command": "x" }],\n')).toBe(true);
    expect(after.endsWith('  },\n  "version": 1\n}\n')).toBe(true);
    expect(removed(after, removeCursor)).toBe(
      '{\n  "hooks": {\n    "stop": [{ "command": "x" }]\n  },\n  "version": 1\n}\n',
    );
  });

  test('flat: version is added only when absent', () => {
    const noVersion = '{\n  "hooks": {}\n}\n';
    expect(plain(changed(noVersion, cursor))).toMatchObject({ version: 1 });
    const v2 = '{\n  "version": 2,\n  "hooks": {}\n}\n';
    expect(plain(changed(v2, cursor))).toMatchObject({ version: 2 });
  });
});

describe('env', () => {
  const withEnv = (body: string): string => `{\n  "env": {\n${body}\n  }\n}\n`;

  test('absent keys are set and reported; the user keys around them are untouched', () => {
    const before = withEnv('    "FOO": "1"');
    const r = mergeJson(before, { env: env() });
    expect(r.setKeys).toEqual(['GIT_PAGER', 'PAGER']);
    expect(r.kept).toEqual([]);
    expect(roundTrip(before, { env: env() }, removeClaude)).toBe(
      withEnv('    "FOO": "1",\n    "GIT_PAGER": "cat",\n    "PAGER": "cat"'),
    );
  });

  test('a key already holding our value is left alone and is not ours', () => {
    const before = withEnv('    "GIT_PAGER": "cat"');
    const r = mergeJson(before, { env: env({ values: { GIT_PAGER: 'cat' } }) });
    expect(r).toEqual({ outcome: { status: 'unchanged', text: before, notes: [] }, setKeys: [], kept: [] });
    // ...unless an earlier run recorded it as ours.
    expect(mergeJson(before, { env: env({ values: { GIT_PAGER: 'cat' }, owned: ['GIT_PAGER'] }) }).setKeys).toEqual([
      'GIT_PAGER',
    ]);
  });

  test("a user's different value is kept and reported", () => {
    const before = withEnv('    "GIT_PAGER": "delta"');
    const r = mergeJson(before, { env: env() });
    expect(r.kept).toEqual([{ key: 'GIT_PAGER', value: 'delta' }]);
    expect(r.setKeys).toEqual(['PAGER']);
    expect(r.outcome.status).toBe('changed');
    if (r.outcome.status !== 'changed') return;
    expect(r.outcome.text).toBe(withEnv('    "GIT_PAGER": "delta",\n    "PAGER": "cat"'));
    expect(r.outcome.notes).toEqual([
      'Kept your env.GIT_PAGER="delta"; loop-guard would set "cat" (use --force to replace it).',
    ]);
    // Remove takes out only what still holds our value.
    expect(removed(r.outcome.text)).toBe(before);
  });

  test('force replaces the value in place; a key we own that the user changed is theirs now', () => {
    const before = withEnv('    "GIT_PAGER": "delta", // mine\n    "FOO": "1"');
    const expected = withEnv('    "GIT_PAGER": "cat", // mine\n    "FOO": "1",\n    "PAGER": "cat"');
    const forced = mergeJson(before, { env: env({ force: true }) });
    expect(forced.setKeys).toEqual(['GIT_PAGER', 'PAGER']);
    expect(forced.outcome).toMatchObject({
      status: 'changed',
      text: expected,
      notes: ['Replaced your env.GIT_PAGER="delta" with "cat" (--force).'],
    });
    const changed = mergeJson(before, { env: env({ owned: ['GIT_PAGER'] }) });
    expect(changed.outcome).toMatchObject({
      status: 'changed',
      text: withEnv('    "GIT_PAGER": "delta", // mine\n    "FOO": "1",\n    "PAGER": "cat"'),
      notes: [
        'Kept your env.GIT_PAGER="delta": you changed loop-guard\'s "cat", so it is yours now (--force puts ours back).',
      ],
    });
    expect(changed.setKeys).toEqual(['PAGER']);
  });

  test('an owned key we no longer want is removed', () => {
    const before = withEnv('    "FOO": "1",\n    "LESS": "-R",\n    "GIT_PAGER": "cat"');
    const r = mergeJson(before, { env: env({ values: { GIT_PAGER: 'cat' }, owned: ['GIT_PAGER', 'LESS'] }) });
    expect(r.outcome).toMatchObject({ status: 'changed', text: withEnv('    "FOO": "1",\n    "GIT_PAGER": "cat"') });
  });

  test('a non-string value of theirs is kept as its JSON text', () => {
    const r = mergeJson(withEnv('    "PAGER": 0'), { env: env({ values: { PAGER: 'cat' } }) });
    expect(r.kept).toEqual([{ key: 'PAGER', value: '0' }]);
  });

  test('a deeper env path is created as nested objects, and removed again', () => {
    const ownedEnv = { path: ['shell', 'env'], values: envValues };
    const before = '{\n  "model": "opus"\n}\n';
    const after = roundTrip(before, { env: env({ path: ['shell', 'env'] }) }, { marker: MARKER, ownedEnv });
    expect(plain(after)).toEqual({ model: 'opus', shell: { env: envValues } });
    // Known limit: a parent that was already empty looks emptied by us, so it goes too.
    const emptyParent = changed('{\n  "shell": {}\n}\n', { env: env({ path: ['shell', 'env'] }) });
    expect(removed(emptyParent, { marker: MARKER, ownedEnv })).toBe('{}\n');
  });

  test('an env object holding a comment is never collapsed, so the comment stays', () => {
    const before = '{\n  "env": {\n    // team: pagers off\n  }\n}\n';
    const after = roundTrip(before, { env: env() }, removeClaude);
    expect(after).toContain('// team: pagers off\n    "GIT_PAGER": "cat",');
  });
});

describe('wrong shapes are FileFormatError', () => {
  const fails = (text: string, spec: MergeSpec, message: RegExp): void => {
    let err: unknown;
    try {
      mergeJson(text, spec);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FileFormatError);
    expect((err as FileFormatError).message).toMatch(message);
    expect((err as FileFormatError).fix.length).toBeGreaterThan(0);
  };

  test.each([
    ['{ "a": 1 ', /not valid JSON/],
    ['{ "a": 1, , }', /not valid JSON/],
    ["{ 'a': 1 }", /not valid JSON/],
    ['', /not valid JSON/],
    ['{ "a": 1 } { "b": 2 }', /not valid JSON/],
  ])('malformed %j', (text, message) => fails(text, claude, message));

  test('top level not an object', () => {
    fails('[1, 2]', claude, /top level is an array; it should be an object/);
    fails('"x"', claude, /top level is a string/);
  });

  test('hooks as an array or a string names the key and the shape', () => {
    fails('{ "hooks": [] }', claude, /`hooks` is an array; it should be an object mapping event names/);
    fails('{ "hooks": "x" }', cursor, /`hooks` is a string; it should be an object/);
  });

  test('an event value that is not an array', () => {
    fails(
      '{ "hooks": { "PreToolUse": {} } }',
      claude,
      /`hooks.PreToolUse` is an object; it should be an array of hook groups/,
    );
    fails(
      '{ "hooks": { "preToolUse": null } }',
      cursor,
      /`hooks.preToolUse` is null; it should be an array of hook entries/,
    );
  });

  test('env that is not an object', () => {
    fails('{ "env": ["A=1"] }', { env: env() }, /`env` is an array; it should be an object of environment variables/);
    fails('{ "shell": 1 }', { env: env({ path: ['shell', 'env'] }) }, /`shell` is a number/);
  });

  test('remove also refuses a file it cannot parse', () => {
    expect(() => removeFromJson('{', removeClaude)).toThrow(FileFormatError);
  });
});

describe('removeFromJson', () => {
  test('nothing ours → unchanged', () => {
    const text = '{\n  "hooks": { "PreToolUse": [] },\n  "env": { "GIT_PAGER": "delta" }\n}\n';
    expect(removeFromJson(text, removeClaude)).toEqual({
      outcome: { status: 'unchanged', text, notes: [] },
      becameEmpty: false,
    });
  });

  test('a user file with something left is not reported empty', () => {
    const after = changed('{\n  "model": "opus"\n}\n', claude);
    expect(removeFromJson(after, removeClaude).becameEmpty).toBe(false);
  });

  test('a comment the user put in our created file keeps it from being deleted', () => {
    const text = CREATED_CURSOR.replace('"version": 1,', '"version": 1, // keep');
    const r = removeFromJson(text, removeCursor);
    expect(r.outcome).toMatchObject({ status: 'changed', text: '{\n  "version": 1 // keep\n}\n' });
    expect(r.becameEmpty).toBe(false);
  });

  test('env keys whose value the user changed stay', () => {
    const text = CREATED_CLAUDE.replace('"PAGER": "cat"', '"PAGER": "less"');
    const r = removeFromJson(text, removeClaude);
    expect(r.outcome).toMatchObject({ status: 'changed', text: '{\n  "env": {\n    "PAGER": "less"\n  }\n}\n' });
  });

  test('flat entries are removed from a nested-style call too (remove does not need the style)', () => {
    expect(removed(CREATED_CURSOR, removeCursor)).toBe('{\n  "version": 1\n}\n');
  });
});

describe('properties', () => {
  const numRuns = Number(process.env.FC_RUNS ?? 300);
  const timeout = Math.max(30_000, numRuns * 40);
  // Keys that would be read as hooks/env are left out: those have their own tests and may throw.
  const key = fc.string({ maxLength: 6 }).filter((k) => !['hooks', 'env', 'version', '__proto__'].includes(k));
  const value = fc.letrec((tie) => ({
    v: fc.oneof(
      { depthSize: 'small' },
      fc.string({ maxLength: 5 }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('v'), { maxLength: 3 }),
      fc.dictionary(key, tie('v'), { maxKeys: 3 }),
    ),
  })).v;
  const layout = fc.record({
    indent: fc.constantFrom(0, 2, 4, '\t'),
    eol: fc.constantFrom('\n', '\r\n'),
    finalNewline: fc.boolean(),
    bom: fc.boolean(),
    header: fc.boolean(),
  });

  test(
    'merge is additions-only, idempotent and undone byte-for-byte by remove',
    () => {
      fc.assert(
        fc.property(fc.dictionary(key, value, { maxKeys: 5 }), layout, fc.boolean(), (generated, l, useCursor) => {
          // Cursor files carry their version already; a version we add stays after remove (tested above).
          const obj = useCursor ? { version: 1, ...generated } : generated;
          let text = JSON.stringify(obj, null, l.indent).replace(/\n/g, l.eol);
          if (l.header) text = `// settings${l.eol}${text}`;
          if (l.finalNewline) text += l.eol;
          if (l.bom) text = '\uFEFF' + text;
          const spec = useCursor ? cursor : claude;
          const rule: LineRule = l.indent === 0 && Object.keys(obj).length > 0 ? 'inline' : 'comma';
          // An empty `{}` document gets opened, and indent 0 puts nested empties on one line.
          roundTrip(text, spec, useCursor ? removeCursor : removeClaude, rule, true);
        }),
        { numRuns },
      );
    },
    timeout,
  );

  // Files already holding entries of ours in odd places: old commands, duplicates, wrong groups, strays.
  const oursOld = fc.record(
    {
      type: fc.constant('command'),
      command: fc.constantFrom(CLAUDE_CMD, 'node .agents/hooks/loop-guard.mjs old'),
      timeout: fc.constantFrom(5, 10),
    },
    { requiredKeys: ['command'] },
  );
  const userHook = fc.nat(99).map((n) => ({ type: 'command', command: `user-${n}.sh` }));
  const matcher = fc.constantFrom(undefined, 'Bash', 'Edit', '', '*');
  const group = fc
    .tuple(matcher, fc.array(fc.oneof(oursOld, userHook), { minLength: 1, maxLength: 3 }))
    .map(([m, hooks]) => (m === undefined ? { hooks } : { matcher: m, hooks }));
  const eventArray = fc.array(fc.oneof({ weight: 4, arbitrary: group }, { weight: 1, arbitrary: oursOld }), {
    maxLength: 4,
  });
  const events = fc.dictionary(fc.constantFrom('PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop'), eventArray);

  /** The user's hook entries per event, each with its group's matcher, in order: these must never change. */
  function userEntries(value: unknown): string[] {
    const hooks = ((value as { hooks?: Record<string, unknown[]> }).hooks ?? {}) as Record<string, unknown[]>;
    return Object.entries(hooks).flatMap(([ev, arr]) =>
      arr.flatMap((g) => {
        const grp = g as { matcher?: string; hooks?: Array<{ command: string }> };
        return (grp.hooks ?? [])
          .filter((h) => !h.command.includes(MARKER))
          .map((h) => `${ev}|${grp.matcher}|${JSON.stringify(h)}`);
      }),
    );
  }

  test(
    'upgrading a file with entries of ours anywhere: one per event, user entries untouched',
    () => {
      fc.assert(
        fc.property(events, fc.constantFrom(0, 2), (hooks, indent) => {
          const before = JSON.stringify({ hooks }, null, indent) + '\n';
          const r = mergeJson(before, { hooks: nested });
          expect(r.outcome.status).not.toBe('conflict');
          const after = r.outcome.status === 'changed' ? r.outcome.text : before;
          const value = plain(after) as {
            hooks: Record<
              string,
              Array<{ matcher?: string; hooks?: Array<{ command: string; timeout?: number }>; command?: string }>
            >;
          };
          for (const ev of nested.events) {
            const ours = value.hooks[ev.event]!.flatMap((g) =>
              (g.hooks ?? []).filter((h) => h.command.includes(MARKER)).map((h) => ({ h, m: g.matcher })),
            );
            expect(ours, ev.event).toHaveLength(1);
            expect(ours[0]!.h).toMatchObject({ command: CLAUDE_CMD, timeout: 10 });
            expect([ev.matcher, ...(ev.matcher ? [] : ['', '*'])]).toContain(ours[0]!.m);
            expect(value.hooks[ev.event]!.some((g) => typeof g.command === 'string')).toBe(false);
          }
          expect(JSON.stringify(value.hooks.Stop ?? []).includes(MARKER)).toBe(false);
          expect(userEntries(value)).toEqual(userEntries(JSON.parse(before)));
          expect(mergeJson(after, { hooks: nested }).outcome.status).toBe('unchanged');
          const back = removeFromJson(after, removeClaude);
          const rest = back.outcome.status === 'changed' ? back.outcome.text : after;
          expect(rest.includes(MARKER)).toBe(false);
          expect(userEntries(plain(rest))).toEqual(userEntries(JSON.parse(before)));
        }),
        { numRuns },
      );
    },
    timeout,
  );

  test(
    'flat: upgrading a file with entries of ours anywhere: one per event, user entries untouched',
    () => {
      const oursFlat = fc.record(
        {
          command: fc.constantFrom(CURSOR_CMD, 'node .agents/hooks/loop-guard.mjs'),
          matcher: fc.constantFrom('Shell', 'Bash'),
          timeout: fc.constantFrom(5, 10),
        },
        { requiredKeys: ['command'] },
      );
      const userFlat = fc.nat(99).map((n) => ({ command: `user-${n}.sh` }));
      const flatEvents = fc.dictionary(
        fc.constantFrom('preToolUse', 'beforeSubmitPrompt', 'stop'),
        fc.array(fc.oneof(oursFlat, userFlat), { maxLength: 4 }),
      );
      const users = (v: unknown): string[] =>
        Object.entries((v as { hooks: Record<string, Array<{ command: string }>> }).hooks).flatMap(([ev, arr]) =>
          arr.filter((e) => !e.command.includes(MARKER)).map((e) => `${ev}|${JSON.stringify(e)}`),
        );
      fc.assert(
        fc.property(flatEvents, (hooks) => {
          const before = JSON.stringify({ version: 1, hooks }, null, 2);
          const r = mergeJson(before, cursor);
          expect(r.outcome.status).not.toBe('conflict');
          const after = r.outcome.status === 'changed' ? r.outcome.text : before;
          const value = plain(after) as { hooks: Record<string, Array<{ command: string }>> };
          for (const ev of flat.events) {
            const ours = value.hooks[ev.event]!.filter((e) => e.command.includes(MARKER));
            expect(ours).toEqual(
              [
                ev.matcher
                  ? { command: CURSOR_CMD, matcher: ev.matcher, timeout: 10 }
                  : { command: CURSOR_CMD, timeout: 10 },
              ].map((o) => expect.objectContaining(o)),
            );
            if (!ev.matcher) expect(ours[0]).not.toHaveProperty('matcher');
          }
          expect(JSON.stringify(value.hooks.stop ?? []).includes(MARKER)).toBe(false);
          expect(users(value)).toEqual(users(JSON.parse(before)));
          expect(mergeJson(after, cursor).outcome.status).toBe('unchanged');
        }),
        { numRuns },
      );
    },
    timeout,
  );

  test(
    'comments anywhere between tokens survive merge and remove',
    () => {
      fc.assert(
        fc.property(
          fc.dictionary(key, value, { minKeys: 1, maxKeys: 5 }),
          fc.constantFrom(2, 4, '\t'),
          fc.constantFrom('\n', '\r\n'),
          fc.array(fc.constantFrom('none', 'line', 'block', 'both'), { minLength: 60, maxLength: 60 }),
          fc.boolean(),
          (obj, indent, eol, marks, trailingCommas) => {
            // Pretty-printed JSON never has a token across lines, so every line start and end is between tokens.
            const pretty = JSON.stringify(obj, null, indent).split('\n');
            // JSONC style: a comma after every last member, when asked.
            const lines = pretty.map((line, i) =>
              trailingCommas && /^\s*[}\]]/.test(pretty[i + 1] ?? '') && !/[[{]$/.test(line) ? `${line},` : line,
            );
            const text = lines
              .map((line, i) => {
                const m = marks[i % marks.length];
                const lead = /^\s*/.exec(line)![0];
                const withBlock =
                  m === 'block' || m === 'both' ? `${lead}/* b${i} */ ${line.slice(lead.length)}` : line;
                return m === 'line' || m === 'both' ? `${withBlock} // c${i}` : withBlock;
              })
              .join(eol);
            roundTrip(`// head${eol}${text}${eol}// foot${eol}`, claude, removeClaude, 'comma', true);
          },
        ),
        { numRuns },
      );
    },
    timeout,
  );
});
