// Addresses, pids and ports, and test runners' layout: progress column, banner widths, file order.
import type { NormalizeRule, TokenRule } from './rule.ts';

/** What one process gets afresh (addresses, its pid, loopback ports; no id rules), then test runners' layout. */
export function runRules(): TokenRule[] {
  return [
    {
      name: 'hex-address',
      description:
        'Memory addresses: 0x followed by 6+ hex digits (stack frames, object reprs), and Java identity ' +
        'hashes (Foo@1b6d3586). A "caller address 0x…" names what failed and is kept; other bare hex (git ' +
        'SHAs, hashes) is kept: a changed commit is a real change.',
      example: {
        before: '<Foo object at 0x7f3a2c1b9e50>; expected: Foo@1b6d3586; commit 1a2b3c4d',
        after: '<Foo object at <hex>>; expected: Foo@<hex>; commit 1a2b3c4d',
      },
      re: /(?<![\w])(?<!\bcaller (?:address )?)0x[0-9a-f]{6,}(?![\w])|(?<=[\w$]@)(?=[a-f]*\d)[0-9a-f]{6,8}(?![\w.@-])/gi,
      to: '<hex>',
      needles: ['0x', '@'],
      needlesIgnoreCase: true,
    },
    {
      name: 'pid',
      description:
        'Process ids: "pid 12345", "PID: 12345", "pid=12345", JSON "pid":12345, "process 12345", ' +
        '"(node:12345)", and "name[12345]:" log prefixes (3+ digits, so an index like items[2]: stays).',
      example: {
        before: '(node:48213) Warning: x\nnode[48213]: listening (pid 48213)',
        after: '(node:<pid>) Warning: x\nnode[<pid>]: listening (pid <pid>)',
      },
      re: /(?<![\w])(pid|PID|Pid)(["']?[ \t]*(?:[:=#][ \t]*)?)\d+(?!\d)|(?<![\w])([Pp]rocess[ \t]+)\d{3,}(?!\d)|(\((?:node|bun|deno|electron):)\d+(?=\))|(?<=[A-Za-z0-9_)-]\[)\d{3,}(?=\]:)/g,
      to: '$1$2$3$4<pid>',
      needles: ['pid', 'process', '(node:', '(bun:', '(deno:', '(electron:', ']:'],
      needlesIgnoreCase: true,
    },
    {
      name: 'loopback-port',
      description:
        'Ephemeral ports (5 digits, 10000+) on loopback hosts (localhost, 127.0.0.1, 0.0.0.0, [::1], [::]) ' +
        'after ":" or curl\'s " port ". Lower ports (:3000, :8080) are kept: they are configured, not random.',
      example: {
        before:
          'Listening on http://localhost:53211 and 127.0.0.1:3000\ncurl: (7) Failed to connect to 127.0.0.1 port 49152 after 0 ms',
        after:
          'Listening on http://localhost:<port> and 127.0.0.1:3000\ncurl: (7) Failed to connect to 127.0.0.1 ' +
          'port <port> after <dur>',
      },
      re: /(?<![\w.-])(localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1?\])(:| port )\d{5}(?!\d)/gi,
      to: '$1$2<port>',
      needles: ['localhost', '127.0.0.1', '0.0.0.0', '[::'],
      needlesIgnoreCase: true,
    },
    {
      name: 'pytest-progress',
      description:
        'The running percentage after a pytest file line ("tests/test_a.py ..F [ 50%]"): it depends on the ' +
        'order files ran in, not on their results.',
      example: {
        before: 'tests/test_b.py ..F  [ 50%]\ntests/test_a.py ....  [100%]',
        after: 'tests/test_a.py ....\ntests/test_b.py ..F',
      },
      re: /^([\w./-]+\.py [.FEsxX]+) +\[ *\d+%\]$/gm,
      to: '$1',
      needles: ['%]'],
    },
    {
      name: 'rule-line',
      description:
        'Runs of 4 or more of one rule character (= - _ ~ * ─ ━ ═ ⎯) shorten to 3: pytest and others pad ' +
        'centred banners to the terminal width around volatile text.',
      example: {
        before: '======================== 1 failed, 2 passed in 0.12s =========================',
        after: '=== 1 failed, 2 passed in <dur> ===',
      },
      re: /([=\-_~*\u2500\u2501\u2550\u23af])\1{3,}/g,
      to: '$1$1$1',
      needles: [
        '====',
        '----',
        '____',
        '~~~~',
        '****',
        '\u2500\u2500\u2500\u2500',
        '\u2501\u2501\u2501\u2501',
        '\u2550\u2550\u2550\u2550',
        '\u23af\u23af\u23af\u23af',
      ],
    },
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Order of independent test-file blocks

// A per-file result line: vitest " ✓ src/a.test.ts (4 tests) 12ms", jest "PASS src/a.test.js", pytest "tests/test_a.py
// ..F [ 50%]".
const FILE_HEAD = String.raw`(?:(?:[\u2713\u2714\u276f\u00d7\u2717\u2718\u2193]|PASS|FAIL)\s+[\w./@-]+\.\w+(?:\s|$)|[\w./-]+\.py [.FEsxX]+$)`;
const FILE_HEAD_RE = new RegExp(`^(\\s*)${FILE_HEAD}`);
const FILE_HEAD_NEEDLES = [
  '\u2713',
  '\u2714',
  '\u276f',
  '\u00d7',
  '\u2717',
  '\u2718',
  '\u2193',
  'PASS',
  'FAIL',
  '.py ',
];

const HEAD_MARKS = new Set([0x2713, 0x2714, 0x276f, 0xd7, 0x2717, 0x2718, 0x2193, 0x50 /* P */, 0x46 /* F */]);

/** A cheap first look, so the head pattern runs only on lines that can be one. */
function maybeFileHead(line: string): boolean {
  let i = 0;
  while (i < line.length && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
  return HEAD_MARKS.has(line.charCodeAt(i)) || line.includes('.py ');
}

/**
 * Runs of consecutive per-file blocks (a file's result line and the more-indented lines under it) in a fixed order:
 * runners that work in parallel print files in the order they finish, which changes between identical runs.
 */
export function sortFileBlocks(text: string): string {
  if (!FILE_HEAD_NEEDLES.some((n) => text.includes(n))) return text;
  // Nothing moves unless a run holds two blocks, so two lines must look like a file's result line: one scan finds
  // them, where the walk below looks at every line (the text pattern's $ and \s reach at least as far, and a match
  // that crosses into a line it swallows starts on a line that is none).
  HEADS_IN_TEXT.lastIndex = 0;
  const two = HEADS_IN_TEXT.test(text) && HEADS_IN_TEXT.test(text);
  HEADS_IN_TEXT.lastIndex = 0;
  return two ? sortBlocksOneByOne(text) : text;
}
// In the whole text the indent must not cross a line: `\s*` there ate every blank line after a line start and gave
// them back, at every line start (quadratic: 200 KB of blank lines after a PASS took 10 s).
const HEADS_IN_TEXT = new RegExp(`^[^\\S\\n]*${FILE_HEAD}`, 'gm');

/** sortFileBlocks' walk over every line (exported for the test that holds its shortcut to it). */
export function sortBlocksOneByOne(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  let run: string[][] = [];
  let runIndent = -1;
  const flush = (): void => {
    if (run.length > 1) {
      // Each block's text, joined once, is what is sorted and written: the output is joined with "\n" anyway, and the
      // default sort (UTF-16 code units, as `<` compares) runs about twice as fast as one with a comparator.
      const texts = run.map((block) => block.join('\n'));
      texts.sort();
      for (const text of texts) out.push(text);
    } else for (const block of run) out.push(...block);
    run = [];
    runIndent = -1;
  };
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k] as string;
    const head = maybeFileHead(line) ? FILE_HEAD_RE.exec(line) : null;
    if (head && (runIndent === -1 || head[1]!.length === runIndent)) {
      runIndent = head[1]!.length;
      const block = [line];
      // The lines under a file's result line are indented deeper; blank lines belong to it when deeper lines follow.
      while (k + 1 < lines.length) {
        const nextLine = lines[k + 1] as string;
        const indent = nextLine.length - nextLine.trimStart().length;
        if (nextLine.trim() !== '' && indent > runIndent) {
          block.push(nextLine);
          k++;
          continue;
        }
        if (nextLine.trim() === '') {
          let m = k + 1;
          while (m < lines.length && (lines[m] as string).trim() === '') m++;
          const after = lines[m];
          if (after !== undefined && after.length - after.trimStart().length > runIndent && !FILE_HEAD_RE.test(after)) {
            block.push(...lines.slice(k + 1, m));
            k = m - 1;
            continue;
          }
        }
        break;
      }
      run.push(block);
      continue;
    }
    flush();
    out.push(line);
  }
  flush();
  return out.join('\n');
}

/** The order of file blocks, documented (it is no regex). */
export const FILE_ORDER_RULE: NormalizeRule = {
  name: 'test-file-order',
  description:
    'Runs of per-file result blocks (vitest "✓/❯/× file", jest "PASS/FAIL file", pytest "file.py ..F [ ' +
    '50%]", each with its more-indented lines) are put in a fixed order: parallel runners print files as ' +
    'they finish.',
  example: {
    before:
      ' ❯ src/c.test.ts (2 tests | 1 failed) 14ms\n   × c > adds\n ✓ src/a.test.ts (4 tests) 12ms\n\n Test ' +
      'Files  1 failed | 1 passed (2)',
    after:
      ' ✓ src/a.test.ts (4 tests) <dur>\n ❯ src/c.test.ts (2 tests | 1 failed) <dur>\n   × c > adds\n\n ' +
      'Test Files  1 failed | 1 passed (2)',
  },
};
