// Synthetic failing test-runner output shared by the benchmarks.

// A few KB of failing test-runner output (vitest style, colours on), with the durations that differ run to run.
export function testOutput(bytes, variant) {
  const ms = (k) => `${((variant * 7 + k * 13) % 90) + 1}ms`;
  const head = [
    '',
    ' \x1b[7m\x1b[1m\x1b[36m RUN \x1b[39m\x1b[22m\x1b[27m \x1b[36mv3.2.4 \x1b[39m\x1b[90m/home/dev/proj\x1b[39m',
    '',
  ];
  const body = [];
  for (let k = 0; head.join('\n').length + body.join('\n').length < bytes - 1400; k++) {
    body.push(
      ` \x1b[32m✓\x1b[39m test/unit${k % 9}/parser${k}.test.ts \x1b[2m(${(k % 17) + 3} tests)\x1b[22m\x1b[90m ${ms(k)}\x1b[39m`,
    );
  }
  const tail = [
    ` \x1b[31m❯\x1b[39m test/unit3/lexer.test.ts \x1b[2m(12 tests | \x1b[22m\x1b[31m1 failed\x1b[39m\x1b[2m)\x1b[22m\x1b[90m ${ms(99)}\x1b[39m`,
    `   \x1b[31m×\x1b[39m lexer > splits nested template literals\x1b[90m ${ms(98)}\x1b[39m`,
    '',
    '\x1b[31m⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯\x1b[39m',
    '',
    '\x1b[41m\x1b[1m FAIL \x1b[22m\x1b[49m test/unit3/lexer.test.ts\x1b[2m > \x1b[22mlexer\x1b[2m > \x1b[22msplits nested template literals',
    '\x1b[31m\x1b[1mAssertionError\x1b[22m: expected [ Array(3) ] to deeply equal [ Array(4) ]\x1b[39m',
    '',
    '\x1b[32m- Expected\x1b[39m',
    '\x1b[31m+ Received\x1b[39m',
    '',
    '  Array [',
    '    "`a${",',
    '\x1b[32m-   "`b${c}`",\x1b[39m',
    '\x1b[32m-   "}`",\x1b[39m',
    '\x1b[31m+   "`b${c}`}`",\x1b[39m',
    '  ]',
    '',
    '\x1b[36m \x1b[2m❯\x1b[22m test/unit3/lexer.test.ts:\x1b[2m42:23\x1b[22m\x1b[39m',
    "    \x1b[90m 40|\x1b[39m   \x1b[34mit\x1b[39m(\x1b[32m'splits nested template literals'\x1b[39m, () => {",
    '    \x1b[90m 41|\x1b[39m     \x1b[35mconst\x1b[39m tokens = \x1b[34mlex\x1b[39m(src);',
    '    \x1b[90m 42|\x1b[39m     \x1b[34mexpect\x1b[39m(tokens).\x1b[34mtoEqual\x1b[39m(expected);',
    '    \x1b[90m   |\x1b[39m                       \x1b[31m^\x1b[39m',
    '',
    '\x1b[31m\x1b[2m⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯\x1b[22m\x1b[39m',
    '',
    `\x1b[2m Test Files \x1b[22m \x1b[1m\x1b[31m1 failed\x1b[39m\x1b[22m\x1b[2m | \x1b[22m\x1b[1m\x1b[32m${body.length} passed\x1b[39m\x1b[22m\x1b[90m (${body.length + 1})\x1b[39m`,
    `\x1b[2m      Tests \x1b[22m \x1b[1m\x1b[31m1 failed\x1b[39m\x1b[22m\x1b[2m | \x1b[22m\x1b[1m\x1b[32m${body.length * 9} passed\x1b[39m\x1b[22m\x1b[90m (${body.length * 9 + 1})\x1b[39m`,
    `\x1b[2m   Start at \x1b[22m 10:${String(variant % 60).padStart(2, '0')}:${String((variant * 7) % 60).padStart(2, '0')}`,
    `\x1b[2m   Duration \x1b[22m ${(1 + (variant % 9) / 10).toFixed(2)}s\x1b[2m (transform ${ms(1)}, setup 0ms, collect ${ms(2)}, tests ${ms(3)})\x1b[22m`,
    '',
  ];
  return [...head, ...body, ...tail].join('\n');
}
