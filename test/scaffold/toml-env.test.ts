// Table tests for the Codex `[shell_environment_policy] set` splice editor.
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { mergeCodexEnv, removeCodexEnv } from '../../src/scaffold/intents/toml-env.ts';
import { FileFormatError, type EditOutcome } from '../../src/edit/splice.ts';

const values = { GIT_PAGER: 'cat', PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', GIT_EDITOR: 'true' };
const OURS = 'GIT_PAGER = "cat", PAGER = "cat", GIT_TERMINAL_PROMPT = "0", GIT_EDITOR = "true"';
const OUR_LINES = 'GIT_PAGER = "cat"\nPAGER = "cat"\nGIT_TERMINAL_PROMPT = "0"\nGIT_EDITOR = "true"\n';
const merge = (before: string | null, extra: Partial<{ owned: string[]; force: boolean }> = {}) =>
  mergeCodexEnv(before, { values, owned: [], force: false, ...extra });

function textOf(r: { outcome: EditOutcome }): string {
  if (r.outcome.status === 'conflict') throw new Error(`unexpected conflict: ${r.outcome.reason}`);
  return r.outcome.text;
}

const crlf = (s: string) => s.replace(/\n/g, '\r\n');

/** before → exact after, for every shape we splice; each also runs with CRLF line endings. */
const cases: Array<{ name: string; before: string; after: string; created: boolean }> = [
  // Shape 1: no set table anywhere → a [shell_environment_policy.set] table at the end.
  {
    name: '1: append after comments and tables',
    before: '# top comment\nmodel = "o3"\n\n[features]\nweb = true # why not\n# trailing comment\n',
    after: `# top comment\nmodel = "o3"\n\n[features]\nweb = true # why not\n# trailing comment\n\n[shell_environment_policy.set]\n${OUR_LINES}`,
    created: true,
  },
  {
    name: '1: append after an array of tables',
    before: '[[profiles]]\nname = "a"\n\n[[profiles]]\nname = "b"\n',
    after: `[[profiles]]\nname = "a"\n\n[[profiles]]\nname = "b"\n\n[shell_environment_policy.set]\n${OUR_LINES}`,
    created: true,
  },
  {
    name: '1: no final newline stays without one',
    before: 'model = "o3"',
    after: `model = "o3"\n\n[shell_environment_policy.set]\n${OUR_LINES.trimEnd()}`,
    created: true,
  },
  {
    name: '1: trailing blank lines stay at the end',
    before: 'model = "o3"\n\n\n',
    after: `model = "o3"\n\n[shell_environment_policy.set]\n${OUR_LINES}\n\n`,
    created: true,
  },
  { name: '1: empty file', before: '', after: `[shell_environment_policy.set]\n${OUR_LINES}`, created: true },
  { name: '1: blank file', before: '\n', after: `[shell_environment_policy.set]\n${OUR_LINES}\n`, created: true },
  {
    name: '1: BOM, #:schema and non-ASCII comments',
    before: '\uFEFF#:schema https://example.com/codex.json\n# Überschrift — 設定 🎉\nmodel = "o3"\n',
    after: `\uFEFF#:schema https://example.com/codex.json\n# Überschrift — 設定 🎉\nmodel = "o3"\n\n[shell_environment_policy.set]\n${OUR_LINES}`,
    created: true,
  },
  {
    name: '1: quoted table names with dots and backslashes',
    before: `[projects.'K:\\']\ntrust_level = "trusted"\n\n[plugins."github@openai-curated"]\nenabled = true\n`,
    after: `[projects.'K:\\']\ntrust_level = "trusted"\n\n[plugins."github@openai-curated"]\nenabled = true\n\n[shell_environment_policy.set]\n${OUR_LINES}`,
    created: true,
  },
  {
    name: '5: header-like text inside multi-line strings is not a header',
    before:
      'developer_instructions = """\n[shell_environment_policy]\nset = { X = "1" }\n\\"""\n"""\nnote = \'\'\'\n[shell_environment_policy.set]\n\'\'\'\n',
    after: `developer_instructions = """\n[shell_environment_policy]\nset = { X = "1" }\n\\"""\n"""\nnote = '''\n[shell_environment_policy.set]\n'''\n\n[shell_environment_policy.set]\n${OUR_LINES}`,
    created: true,
  },
  // Shape 2: [shell_environment_policy] without set → a `set = { … }` line after its last key line.
  {
    name: '2: after the last key line, before comments of the next header',
    before: '[shell_environment_policy]\ninherit = "core" # keep\n\n# about features\n[features]\nweb = true\n',
    after: `[shell_environment_policy]\ninherit = "core" # keep\nset = { ${OURS} }\n\n# about features\n[features]\nweb = true\n`,
    created: true,
  },
  {
    name: '2: after a multi-line array value, indented like its neighbours',
    before: '[shell_environment_policy]\n  inherit = "all"\n  exclude = [\n    "AWS_*", # secrets\n  ]\n[tui]\n',
    after: `[shell_environment_policy]\n  inherit = "all"\n  exclude = [\n    "AWS_*", # secrets\n  ]\n  set = { ${OURS} }\n[tui]\n`,
    created: true,
  },
  {
    name: '2: empty table goes right after the header',
    before: '[shell_environment_policy]\n# inherit = "all"\n\n[tui]\n',
    after: `[shell_environment_policy]\nset = { ${OURS} }\n# inherit = "all"\n\n[tui]\n`,
    created: true,
  },
  {
    name: '2: last key at end of file without newline',
    before: 'a = 1\n[shell_environment_policy]\ninherit = "core"',
    after: `a = 1\n[shell_environment_policy]\ninherit = "core"\nset = { ${OURS} }`,
    created: true,
  },
  {
    name: '2: quoted and spaced header name',
    before: '[ "shell_environment_policy" ]\ninherit = "core"\n',
    after: `[ "shell_environment_policy" ]\ninherit = "core"\nset = { ${OURS} }\n`,
    created: true,
  },
  // Shape 3: single-line inline table → extend it.
  {
    name: '3: extend a one-line inline table',
    before: '# c\n[shell_environment_policy]\nset = { A = "1" } # mine\ninherit = "core"\n',
    after: `# c\n[shell_environment_policy]\nset = { A = "1", ${OURS} } # mine\ninherit = "core"\n`,
    created: false,
  },
  {
    name: '3: keep compact spacing',
    before: '[shell_environment_policy]\nset={A="1"}\n',
    after:
      '[shell_environment_policy]\nset={A="1", GIT_PAGER="cat", PAGER="cat", GIT_TERMINAL_PROMPT="0", GIT_EDITOR="true"}\n',
    created: false,
  },
  {
    name: '3: trailing comma (TOML 1.1)',
    before: '[shell_environment_policy]\nset = { A = "1", }\n',
    after: `[shell_environment_policy]\nset = { A = "1", ${OURS}, }\n`,
    created: false,
  },
  {
    name: '3: empty inline table',
    before: '[shell_environment_policy]\nset = {}\n',
    after: `[shell_environment_policy]\nset = { ${OURS} }\n`,
    created: false,
  },
  // Shape 4: [shell_environment_policy.set] table → lines after its last key line.
  {
    name: '4: adjacent set table',
    before:
      '[shell_environment_policy]\ninherit = "core"\n\n[shell_environment_policy.set]\nA = "1" # a\n\n# next\n[tui]\n',
    after: `[shell_environment_policy]\ninherit = "core"\n\n[shell_environment_policy.set]\nA = "1" # a\n${OUR_LINES}\n# next\n[tui]\n`,
    created: false,
  },
  {
    name: '4: non-adjacent set table (LIFEAI shape)',
    before:
      '[shell_environment_policy]\ninherit = "all"\n\n[features]\ngoals = true\n\n[shell_environment_policy.set]\nP = "C:\\\\x"\n\n[windows]\nsandbox = "elevated"\n',
    after: `[shell_environment_policy]\ninherit = "all"\n\n[features]\ngoals = true\n\n[shell_environment_policy.set]\nP = "C:\\\\x"\n${OUR_LINES}\n[windows]\nsandbox = "elevated"\n`,
    created: false,
  },
  {
    name: '4: set table only, indented, no final newline',
    before: '[shell_environment_policy.set]\n    A="1"',
    after:
      '[shell_environment_policy.set]\n    A="1"\n    GIT_PAGER="cat"\n    PAGER="cat"\n    GIT_TERMINAL_PROMPT="0"\n    GIT_EDITOR="true"',
    created: false,
  },
  {
    name: '4: empty set table at end of file',
    before: 'x = 1\n[shell_environment_policy.set]\n',
    after: `x = 1\n[shell_environment_policy.set]\n${OUR_LINES}`,
    created: false,
  },
  {
    name: '4: sub-table of a header in an array-like path',
    before: '[shell_environment_policy.set]\n"A.B" = "1"\n[profiles.x]\nset = 1\n',
    after: `[shell_environment_policy.set]\n"A.B" = "1"\n${OUR_LINES}[profiles.x]\nset = 1\n`,
    created: false,
  },
];

describe.each([
  ['LF', (s: string) => s],
  ['CRLF', crlf],
])('merge shapes (%s)', (_eol, conv) => {
  it.each(cases)('$name', ({ before: b, after: a, created }) => {
    const before = conv(b);
    // A file without any line break has no line ending to follow, so new lines are LF.
    const after = b.includes('\n') ? conv(a) : a;
    const r = merge(before);
    expect(textOf(r)).toBe(after);
    expect(r.createdTable).toBe(created);
    expect(r.setKeys).toEqual(Object.keys(values));
    expect(r.kept).toEqual([]);

    // Rerun is unchanged and byte-identical, and still knows which keys are ours.
    const again = merge(after, { owned: r.setKeys });
    expect(again.outcome).toEqual({ status: 'unchanged', text: after, notes: [] });
    expect(again.setKeys).toEqual(r.setKeys);
    expect(again.createdTable).toBe(false);

    // Removing gives back the original bytes.
    const back = removeCodexEnv(after, { values, createdTable: created });
    expect(back.outcome).toEqual({ status: 'changed', text: before, notes: [] });
    const hadKeys = Object.keys((parse(before) as any).shell_environment_policy?.set ?? {}).length > 0;
    expect(back.becameEmpty).toBe(!hadKeys);
  });
});

describe('null before', () => {
  it('creates a file with just the table', () => {
    const r = merge(null);
    expect(textOf(r)).toBe(`[shell_environment_policy.set]\n${OUR_LINES}`);
    expect(r.createdTable).toBe(true);
    expect(parse(textOf(r))).toEqual({ shell_environment_policy: { set: values } });
  });
});

describe('values already there', () => {
  const table = '[shell_environment_policy.set]\nGIT_PAGER = \'delta\' # mine\nPAGER = "cat"\n';

  it('keeps a different value and reports it', () => {
    const r = merge(table);
    expect(textOf(r)).toBe(`${table}GIT_TERMINAL_PROMPT = "0"\nGIT_EDITOR = "true"\n`);
    expect(r.kept).toEqual([{ key: 'GIT_PAGER', value: 'delta' }]);
    expect(r.setKeys).toEqual(['GIT_TERMINAL_PROMPT', 'GIT_EDITOR']);
    expect(r.outcome.status === 'changed' && r.outcome.notes).toEqual([
      'Kept your GIT_PAGER = "delta" in [shell_environment_policy] set (ours would be "cat"; --force replaces it).',
    ]);
  });

  it('an equal value is left alone and is not ours unless owned', () => {
    expect(merge(table).setKeys).not.toContain('PAGER');
    expect(merge(table, { owned: ['PAGER'] }).setKeys).toContain('PAGER');
  });

  it('--force replaces only the value token', () => {
    const r = merge(table, { force: true });
    expect(textOf(r)).toBe(
      '[shell_environment_policy.set]\nGIT_PAGER = "cat" # mine\nPAGER = "cat"\nGIT_TERMINAL_PROMPT = "0"\nGIT_EDITOR = "true"\n',
    );
    expect(r.setKeys).toEqual(['GIT_PAGER', 'GIT_TERMINAL_PROMPT', 'GIT_EDITOR']);
    expect(r.kept).toEqual([]);
    expect(r.outcome.status === 'changed' && r.outcome.notes[0]).toMatch(/Replaced your GIT_PAGER = "delta"/);
  });

  it('an owned key the user changed is theirs now: kept, said, and no longer recorded as ours', () => {
    const r = merge(table, { owned: ['GIT_PAGER'] });
    expect(textOf(r)).not.toContain('GIT_PAGER = "cat"');
    expect(r.kept.map((k) => k.key)).toEqual(['GIT_PAGER']);
    expect(r.setKeys).not.toContain('GIT_PAGER');
    expect(r.outcome.status === 'changed' && r.outcome.notes.join('\n')).toContain('so it is yours now');
  });

  it('--force inside an inline table, including a multi-line string value', () => {
    const before = '[shell_environment_policy]\nset = { GIT_PAGER = "less", B = "2" }\n';
    expect(textOf(merge(before, { force: true }))).toBe(
      '[shell_environment_policy]\nset = { GIT_PAGER = "cat", B = "2", PAGER = "cat", GIT_TERMINAL_PROMPT = "0", GIT_EDITOR = "true" }\n',
    );
    const multi = '[shell_environment_policy.set]\nGIT_PAGER = """\nless"""\n';
    expect(textOf(merge(multi, { force: true }))).toBe(`[shell_environment_policy.set]\n${OUR_LINES}`);
  });

  it('a non-string value is kept and shown as written', () => {
    const r = merge('[shell_environment_policy]\nset = { GIT_PAGER = 1 }\n');
    expect(r.kept).toEqual([{ key: 'GIT_PAGER', value: '1' }]);
  });

  it('nothing to do is unchanged even in a shape we would refuse to edit', () => {
    const before = `shell_environment_policy.set.GIT_PAGER = "cat"\nshell_environment_policy.set.PAGER = "less"\n`;
    const r = mergeCodexEnv(before, { values: { GIT_PAGER: 'cat', PAGER: 'cat' }, owned: [], force: false });
    expect(r.outcome).toEqual({ status: 'unchanged', text: before, notes: [expect.stringContaining('PAGER')] });
    expect(r.kept).toEqual([{ key: 'PAGER', value: 'less' }]);
  });
});

describe('quoting', () => {
  it('quotes keys that are not bare-safe and escapes values', () => {
    const odd = { 'MY.KEY': 'a"b\\c', PLAIN_1: 'tab\there\nnl\u0001 ü' };
    const r = mergeCodexEnv('', { values: odd, owned: [], force: false });
    expect(textOf(r)).toBe(
      '[shell_environment_policy.set]\n"MY.KEY" = "a\\"b\\\\c"\nPLAIN_1 = "tab\\there\\nnl\\u0001 ü"\n',
    );
    expect(parse(textOf(r))).toEqual({ shell_environment_policy: { set: odd } });
  });
});

describe('conflicts: shapes we do not edit', () => {
  const expectConflict = (before: string, fix: string, reason: RegExp) => {
    const r = merge(before);
    expect(r.outcome).toEqual({ status: 'conflict', reason: expect.stringMatching(reason), fix });
    expect(r.setKeys).toEqual([]);
  };

  it('dotted keys at the top level', () => {
    expectConflict(
      'shell_environment_policy.set.GIT_PAGER = "cat"\n[tui]\n',
      'Add these lines among the top-level keys of .codex/config.toml (above the first [table] header):\n' +
        'shell_environment_policy.set.PAGER = "cat"\nshell_environment_policy.set.GIT_TERMINAL_PROMPT = "0"\nshell_environment_policy.set.GIT_EDITOR = "true"',
      /dotted keys/,
    );
    expectConflict(
      'shell_environment_policy.inherit = "core"\n',
      'Add these lines among the top-level keys of .codex/config.toml (above the first [table] header):\n' +
        'shell_environment_policy.set.GIT_PAGER = "cat"\nshell_environment_policy.set.PAGER = "cat"\nshell_environment_policy.set.GIT_TERMINAL_PROMPT = "0"\nshell_environment_policy.set.GIT_EDITOR = "true"',
      /dotted keys/,
    );
  });

  it('dotted set keys inside the table', () => {
    expectConflict(
      '[shell_environment_policy]\nset.GIT_PAGER = "cat"\n',
      'Add these lines under [shell_environment_policy]:\nset.PAGER = "cat"\nset.GIT_TERMINAL_PROMPT = "0"\nset.GIT_EDITOR = "true"',
      /set is written with dotted keys/,
    );
  });

  it('a multi-line inline table (TOML 1.1; smol-toml parses it, we do not splice into it)', () => {
    expectConflict(
      '[shell_environment_policy]\nset = {\n  A = "1", # a comment\n}\n',
      'Add these lines inside the braces of set = { … } under [shell_environment_policy]:\n' +
        '  GIT_PAGER = "cat",\n  PAGER = "cat",\n  GIT_TERMINAL_PROMPT = "0",\n  GIT_EDITOR = "true",',
      /spans several lines/,
    );
  });

  it('the whole policy as an inline table', () => {
    expectConflict(
      'shell_environment_policy = { inherit = "core" }\n',
      `Add these entries to the set = { … } table inside your shell_environment_policy = { … } (create set = { … } if it is missing):\n${OURS}`,
      /inline table/,
    );
  });

  it('conflict CRLF input too, and the file is never touched', () => {
    const r = merge(crlf('[shell_environment_policy]\nset = {\n  A = "1",\n}\n'));
    expect(r.outcome.status).toBe('conflict');
    expect('text' in r.outcome).toBe(false);
  });
});

describe('file format errors', () => {
  it.each([
    ['a = \n', /^line 1, column 5: invalid value/],
    ['[a]\nb = 1\n[a]\n', /^line 3, column \d+: .*redefine/],
    ['x = "unterminated\n', /^line 1, column \d+: /],
  ])('malformed TOML %j', (before, message) => {
    expect(() => merge(before)).toThrow(FileFormatError);
    expect(() => merge(before)).toThrow(message);
    expect(() => removeCodexEnv(before, { values, createdTable: false })).toThrow(FileFormatError);
  });

  it.each([
    ['shell_environment_policy = 1\n', 'shell_environment_policy is a number, not a table'],
    ['[[shell_environment_policy]]\ninherit = "all"\n', 'shell_environment_policy is an array, not a table'],
    ['[shell_environment_policy]\nset = "GIT_PAGER=cat"\n', 'shell_environment_policy.set is a string, not a table'],
    ['[shell_environment_policy]\nset = ["a"]\n', 'shell_environment_policy.set is an array, not a table'],
  ])('non-table type %j', (before, message) => {
    let err: unknown;
    try {
      merge(before);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FileFormatError);
    expect((err as FileFormatError).message).toBe(message);
    expect((err as FileFormatError).fix).toContain('[shell_environment_policy.set]\nGIT_PAGER = "cat"');
  });
});

describe('removeCodexEnv', () => {
  it('leaves a value the user changed since', () => {
    const text = `[shell_environment_policy.set]\nGIT_PAGER = "less"\n`;
    const r = removeCodexEnv(text, { values: { GIT_PAGER: 'cat' }, createdTable: true });
    expect(r).toEqual({ outcome: { status: 'unchanged', text, notes: [] }, becameEmpty: false });
  });

  it('is unchanged when there is no policy', () => {
    const r = removeCodexEnv('a = 1\n', { values, createdTable: true });
    expect(r.outcome.status).toBe('unchanged');
  });

  it('keeps an emptied table it did not create', () => {
    const text = `x = 1\n\n[shell_environment_policy.set]\n${OUR_LINES}`;
    const r = removeCodexEnv(text, { values, createdTable: false });
    expect(r).toEqual({
      outcome: { status: 'changed', text: 'x = 1\n\n[shell_environment_policy.set]\n', notes: [] },
      becameEmpty: true,
    });
  });

  it('keeps a created table the user commented in or added to', () => {
    const commented = `x = 1\n\n[shell_environment_policy.set]\n# my note\n${OUR_LINES}`;
    expect(textOf(removeCodexEnv(commented, { values, createdTable: true }))).toBe(
      'x = 1\n\n[shell_environment_policy.set]\n# my note\n',
    );
    const added = `x = 1\n\n[shell_environment_policy.set]\n${OUR_LINES}MINE = "1"\n`;
    const r = removeCodexEnv(added, { values, createdTable: true });
    expect(textOf(r)).toBe('x = 1\n\n[shell_environment_policy.set]\nMINE = "1"\n');
    expect(r.becameEmpty).toBe(false);
  });

  it('removes from the middle and the front of an inline table', () => {
    const text =
      '[shell_environment_policy]\nset = { GIT_PAGER = "cat", A = "1", PAGER = "cat", B = "2", GIT_EDITOR = "true" }\n';
    expect(textOf(removeCodexEnv(text, { values, createdTable: false }))).toBe(
      '[shell_environment_policy]\nset = { A = "1", B = "2" }\n',
    );
  });

  it('keeps an emptied created inline set when the user commented on its line', () => {
    const text = `[shell_environment_policy]\nset = { ${OURS} } # keep\n`;
    const r = removeCodexEnv(text, { values, createdTable: true });
    expect(r).toEqual({
      outcome: { status: 'changed', text: '[shell_environment_policy]\nset = {} # keep\n', notes: [] },
      becameEmpty: true,
    });
  });

  it('refuses dotted keys with what to delete by hand', () => {
    const r = removeCodexEnv('shell_environment_policy.set.GIT_PAGER = "cat"\n', { values, createdTable: true });
    expect(r.outcome).toEqual({
      status: 'conflict',
      reason: expect.stringMatching(/dotted keys/),
      fix: 'Delete these keys from shell_environment_policy.set by hand: GIT_PAGER.',
    });
  });

  it('forced replacements are not round-tripped, but the rest is', () => {
    const before = '[shell_environment_policy.set]\nGIT_PAGER = "less"\n';
    const r = merge(before, { force: true });
    const mine = Object.fromEntries(r.setKeys.map((k) => [k, values[k as keyof typeof values]]));
    expect(textOf(removeCodexEnv(textOf(r), { values: mine, createdTable: r.createdTable }))).toBe(
      '[shell_environment_policy.set]\n',
    );
  });
});

describe('odd but valid files: a correct edit or a conflict, never broken text', () => {
  it.each([
    [
      'date-time with a space before the insertion point',
      '[shell_environment_policy]\nwhen = 1979-05-27 07:32:00Z # d\n',
    ],
    ['escaped quotes in keys and strings', '[shell_environment_policy.set]\n"a\\"b" = "x\\"y # not a comment"\n'],
    ['literal multi-line string ending in quotes', "[shell_environment_policy]\nx = '''a\n[b]'''''\n"],
    [
      'array of inline tables over lines with comments',
      '[shell_environment_policy]\nfilters = [\n  { a = 1 }, # one\n  { b = "]" },\n]\n',
    ],
    [
      'header with a trailing comment',
      '[shell_environment_policy] # env\n[shell_environment_policy.set] # ours go here\n',
    ],
    ['a sub-table of set without a set header', '[shell_environment_policy.set.NESTED]\ny = "1"\n'],
    [
      'policy table plus a sub-table of set',
      '[shell_environment_policy]\ninherit = "core"\n[shell_environment_policy.set.NESTED]\ny = "1"\n',
    ],
  ])('%s', (_name, before) => {
    const r = merge(before);
    if (r.outcome.status === 'conflict') {
      expect(r.outcome.fix).toContain('GIT_PAGER = "cat"');
      return;
    }
    const doc = parse(before) as any;
    doc.shell_environment_policy ??= {};
    doc.shell_environment_policy.set ??= {};
    Object.assign(doc.shell_environment_policy.set, values);
    expect(parse(r.outcome.text)).toEqual(doc);
    expect(r.outcome.text.startsWith(before.replace(/\n$/, ''))).toBe(true);
    const back = removeCodexEnv(r.outcome.text, { values, createdTable: r.createdTable });
    expect(textOf(back)).toBe(before);
  });

  it('set implied by [shell_environment_policy.set.X] next to [shell_environment_policy] is refused after verification', () => {
    const r = merge('[shell_environment_policy]\ninherit = "core"\n[shell_environment_policy.set.NESTED]\ny = "1"\n');
    expect(r.outcome).toMatchObject({ status: 'conflict', reason: expect.stringMatching(/would not give exactly/) });
  });
});

describe('generated files (fast-check)', () => {
  // Fragments that combine into many valid and some invalid files; invalid ones are skipped.
  const fragments = [
    '# comment — ü\n',
    '\n',
    'model = "o3"\n',
    '[features]\nweb = true\n',
    '[[profiles]]\nname = "x"\n',
    'doc = """\n[shell_environment_policy]\nset = {}\n"""\n',
    '[shell_environment_policy]\ninherit = "core"\n',
    '[shell_environment_policy.set]\nA = "1"\n',
    'set = { B = "2" }\n',
    'GIT_PAGER = "less"\n',
    'PAGER = "cat"\n',
    'x = [\n  1, # c\n]\n',
    '[projects.\'K:\\\']\ntrust = "t"\n',
    '[plugins."a.b@c"] # why\n',
  ];

  it('every accepted edit parses to the original plus our keys, reruns unchanged and removes exactly', async () => {
    const fc = (await import('fast-check')).default;
    let edited = 0;
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...fragments), { maxLength: 8 }),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (parts, useCrlf, dropFinal, force) => {
          let before = parts.join('');
          if (useCrlf) before = crlf(before);
          if (dropFinal) before = before.replace(/(\r?\n)+$/, '');
          let doc: any;
          try {
            doc = parse(before);
          } catch {
            return;
          }
          const r = merge(before, { force });
          if (r.outcome.status === 'conflict') return;
          if (r.outcome.status === 'unchanged') {
            expect(r.outcome.text).toBe(before);
            return;
          }
          edited++;
          const after = r.outcome.text;
          doc.shell_environment_policy ??= {};
          doc.shell_environment_policy.set ??= {};
          for (const k of r.setKeys) doc.shell_environment_policy.set[k] = values[k as keyof typeof values];
          expect(parse(after)).toEqual(doc);
          const again = merge(after, { owned: r.setKeys, force });
          expect(again.outcome).toMatchObject({ status: 'unchanged', text: after });
          expect(again.setKeys).toEqual(r.setKeys);
          if (r.outcome.notes.some((n) => n.startsWith('Replaced'))) return;
          const mine = Object.fromEntries(r.setKeys.map((k) => [k, values[k as keyof typeof values]]));
          expect(textOf(removeCodexEnv(after, { values: mine, createdTable: r.createdTable }))).toBe(before);
        },
      ),
      { numRuns: 2000 },
    );
    expect(edited).toBeGreaterThan(100);
  });
});
