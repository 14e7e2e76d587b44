import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { classifyFailure, classifyLines, FAILURE_ADVICE, refineClass } from '../../src/guard/core/classify.ts';
import type { FailureClass } from '../../src/guard/core/types.ts';

const PAYLOADS = fileURLToPath(new URL('../fixtures/payloads', import.meta.url));

type Case = readonly [name: string, output: string, exitCode: number | undefined, expected: FailureClass | null];

const CASES: readonly Case[] = [
  // command-not-found
  ['bash', 'bash: rg: command not found', 127, 'command-not-found'],
  ['bash script line', './scripts/ci.sh: line 12: shellcheck: command not found', 1, 'command-not-found'],
  ['bash via Claude', 'Exit code 127\n/bin/bash: line 1: pnpm: command not found', undefined, 'command-not-found'],
  ['zsh', 'zsh: command not found: python', 127, 'command-not-found'],
  ['zsh with line', 'zsh:1: command not found: tsx', undefined, 'command-not-found'],
  ['dash', 'sh: 1: yarn: not found', 127, 'command-not-found'],
  ['busybox', '/bin/sh: jq: not found', 127, 'command-not-found'],
  [
    'cmd.exe',
    "'node' is not recognized as an internal or external command,\noperable program or batch file.",
    1,
    'command-not-found',
  ],
  [
    'powershell',
    "pnpm : The term 'pnpm' is not recognized as the name of a cmdlet, function, script file, or operable program.",
    1,
    'command-not-found',
  ],
  ['env shebang', "/usr/bin/env: 'python': No such file or directory", 127, 'command-not-found'],
  ['env shebang, no exit code', 'env: ‘node’: No such file or directory', undefined, 'command-not-found'],
  [
    'docker exec',
    'OCI runtime exec failed: exec failed: unable to start container process: exec: "bash": executable file not found in $PATH: unknown',
    126,
    'command-not-found',
  ],
  ['npx', 'npm error could not determine executable to run', 1, 'command-not-found'],
  [
    'npm missing script',
    'npm error Missing script: "dev"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run',
    1,
    'missing-script',
  ],
  ['yarn missing command', 'error Command "lint" not found.', 1, 'missing-script'],
  ['pnpm missing script', ' ERR_PNPM_NO_SCRIPT  Missing script: dev\n\nCommand "dev" not found.', 1, 'missing-script'],
  ['bun missing script', 'error: Script not found "dev"', 1, 'missing-script'],
  // crlf: a script saved with Windows line endings (the real cause, not a missing program or file)
  [
    "bash $'\\r'",
    "./setup.sh: line 2: $'\\r': command not found\n./setup.sh: line 5: syntax error near unexpected token `$'{\\r''",
    127,
    'crlf',
  ],
  ['bad interpreter ^M', 'bash: ./run.sh: /bin/bash^M: bad interpreter: No such file or directory', 126, 'crlf'],
  ['env shebang with \\r', "/usr/bin/env: 'bash\\r': No such file or directory", 127, 'crlf'],
  ['env shebang, curly quotes', '/usr/bin/env: ‘python3\\r’: No such file or directory', 127, 'crlf'],
  // deps-missing: a program a package script runs is missing (node_modules not installed)
  ['npm run dev, next missing', '\n> app@0.1.0 dev\n> next dev\n\nsh: 1: next: not found\n', 127, 'deps-missing'],
  [
    'npm 10 lifecycle failure',
    '> web@1.0.0 build\n> vite build\n\nsh: vite: command not found\nnpm error Lifecycle script `build` failed with error:\nnpm error code 127',
    127,
    'deps-missing',
  ],
  [
    'pnpm without node_modules',
    '> app@1.0.0 dev /home/dev/proj\n> vite\n\nsh: 1: vite: not found\n ELIFECYCLE  Command failed.\n WARN   Local package.json exists, but node_modules missing, did you mean to install?',
    1,
    'deps-missing',
  ],
  [
    'yarn 1',
    'yarn run v1.22.22\n$ tsc -p .\n/bin/sh: tsc: command not found\nerror Command failed with exit code 127.',
    127,
    'deps-missing',
  ],
  ['exit 127 alone', '', 127, 'command-not-found'],
  ['exit 127 with other text', 'something odd happened', 127, 'command-not-found'],
  // auth
  [
    'git https',
    "remote: Invalid username or password.\nfatal: Authentication failed for 'https://github.com/acme/app.git/'",
    128,
    'auth',
  ],
  ['git no prompt', "fatal: could not read Username for 'https://github.com': terminal prompts disabled", 128, 'auth'],
  [
    'git ssh',
    'git@github.com: Permission denied (publickey).\nfatal: Could not read from remote repository.',
    128,
    'auth',
  ],
  ['ssh host key', 'Host key verification failed.\nfatal: Could not read from remote repository.', 128, 'auth'],
  ['curl -f', 'curl: (22) The requested URL returned error: 401', 22, 'auth'],
  ['HTTP status line', 'HTTP/1.1 403 Forbidden\ncontent-type: text/html', 1, 'auth'],
  ['401 Unauthorized', 'Error: 401 Unauthorized', 1, 'auth'],
  ['forbidden then code', 'Forbidden (403): you cannot push to this repository', 1, 'auth'],
  ['axios', 'AxiosError: Request failed with status code 401', 1, 'auth'],
  [
    'npm E401',
    'npm error code E401\nnpm error Unable to authenticate, need: Basic realm="GitHub Package Registry"',
    1,
    'auth',
  ],
  ['gh', 'HTTP 401: Bad credentials (https://api.github.com/graphql)', 1, 'auth'],
  ['gh login', 'To get started with GitHub CLI, please run:  gh auth login', 4, 'auth'],
  ['anthropic', '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}', 1, 'auth'],
  ['openai', 'openai.AuthenticationError: Error code: 401 - Incorrect API key provided: sk-abc***', 1, 'auth'],
  ['invalid api key', 'Error: Invalid API key. Check STRIPE_KEY.', 1, 'auth'],
  ['aws', 'Unable to locate credentials. You can configure credentials by running "aws configure".', 253, 'auth'],
  ['docker push', 'denied: requested access to the resource is denied', 1, 'auth'],
  [
    'postgres password',
    'psql: error: connection to server at "db" (10.0.0.5), port 5432 failed: FATAL:  password authentication failed for user "app"',
    2,
    'auth',
  ],
  // network
  [
    'node refused',
    'Error: connect ECONNREFUSED 127.0.0.1:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)',
    1,
    'network',
  ],
  [
    'curl refused',
    "curl: (7) Failed to connect to localhost port 3000 after 0 ms: Couldn't connect to server",
    7,
    'network',
  ],
  ['curl dns', 'curl: (6) Could not resolve host: api.example.invalid', 6, 'network'],
  ['getaddrinfo', 'Error: getaddrinfo ENOTFOUND registry.npmjs.org', 1, 'network'],
  [
    'EAI_AGAIN',
    'npm error request to https://registry.npmjs.org/vite failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org',
    1,
    'network',
  ],
  ['resolver', 'ssh: Could not resolve hostname github.com: Temporary failure in name resolution', 255, 'network'],
  ['name or service', 'ping: example.invalid: Name or service not known', 2, 'network'],
  ['unreachable', 'connect: Network is unreachable', 1, 'network'],
  ['connect timeout', 'Error: connect ETIMEDOUT 10.0.0.1:443', 1, 'network'],
  [
    'python requests',
    "requests.exceptions.ConnectionError: HTTPConnectionPool(host='localhost', port=8000): Max retries exceeded with url: / (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f1c>: Failed to establish a new connection: [Errno 111] Connection refused'))",
    1,
    'network',
  ],
  ['go dial', 'dial tcp 127.0.0.1:6379: connect: connection refused', 1, 'network'],
  ['go dns', 'dial tcp: lookup db.internal on 127.0.0.53:53: no such host', 1, 'network'],
  [
    'docker daemon',
    'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?',
    1,
    'network',
  ],
  [
    'kubectl',
    'The connection to the server localhost:8080 was refused - did you specify the right host or port?',
    1,
    'network',
  ],
  ['ssh refused', 'ssh: connect to host 10.0.0.9 port 22: Connection refused', 255, 'network'],
  // missing-file
  ['ls payload', "ls: cannot access '/nonexistent-dir': No such file or directory", 2, 'missing-file'],
  ['cat', 'cat: config.json: No such file or directory', 1, 'missing-file'],
  ['node ENOENT', "Error: ENOENT: no such file or directory, open '/app/config.yml'", 1, 'missing-file'],
  [
    'python',
    "python3: can't open file '/home/dev/proj/main.py': [Errno 2] No such file or directory",
    2,
    'missing-file',
  ],
  ['python FileNotFoundError', "FileNotFoundError: [Errno 2] No such file or directory: 'data.csv'", 1, 'missing-file'],
  ['windows path', 'The system cannot find the path specified.', 1, 'missing-file'],
  ['gcc header', 'main.c:1:10: fatal error: missing.h: No such file or directory', 1, 'missing-file'],
  ['git pathspec', "error: pathspec 'src/old.ts' did not match any file(s) known to git", 1, 'missing-file'],
  ['cannot access, no suffix', "ls: cannot access 'build'", 2, 'missing-file'],
  // precedence
  ['cnf beats missing-file', 'bash: foo: command not found\ncat: x: No such file or directory', 1, 'command-not-found'],
  [
    'auth beats network',
    "fatal: Authentication failed for 'https://git.example.com/'\nerror: Connection refused on retry",
    128,
    'auth',
  ],
  [
    'network beats missing-file',
    "Error: ENOENT: no such file or directory, open '.cache/x'\nError: connect ECONNREFUSED 127.0.0.1:3000",
    1,
    'network',
  ],
  ['cnf late in the output', 'ok\n'.repeat(50) + 'sh: 1: vitest: not found', 1, 'command-not-found'],
  // not these classes / false-positive guards
  ['grep hit, success', 'docs/ops.md:12: If you see "Connection refused", start the database.', 0, null],
  ['grep hit for ENOENT, success', 'src/fs.ts:40:  if (err.code === "ENOENT") return null;', 0, null],
  ['echo command not found, success', 'bash: foo: command not found', 0, null],
  [
    'passing test named 401 in a failing run',
    ' ✓ api › returns 401 Unauthorized without a token (12ms)\n × api › creates a user (30ms)\nAssertionError: expected 500 to be 201',
    1,
    null,
  ],
  [
    'jest PASS line',
    'PASS src/auth.test.ts\n  ✓ rejects with 403 Forbidden (4 ms)\nFAIL src/user.test.ts\n  ● user › saves\n    expected 1 to be 2',
    1,
    null,
  ],
  [
    'test name mentioning ENOENT',
    '  ✓ handles ENOENT gracefully\n  ✗ parses config\n    TypeError: x is not a function',
    1,
    null,
  ],
  [
    'code frame',
    "  > 12 |   it('handles Connection refused', async () => {\n       |   ^\nTypeError: fetch is not a function",
    1,
    null,
  ],
  [
    'rust test line',
    'test net::tests::retries_on_connection_refused ... ok\ntest fs::tests::bad ... FAILED',
    101,
    null,
  ],
  ['plain test failure', 'FAIL  src/math.test.ts > adds\nAssertionError: expected 3 to be 4', 1, null],
  ['tsc error', "src/a.ts(3,10): error TS2304: Cannot find name 'foo'.", 2, null],
  ['permission denied is not missing', "ls: cannot access '/root/x': Permission denied", 2, null],
  ['404 is not auth', 'curl: (22) The requested URL returned error: 404', 22, null],
  ['word without code', 'note: authorization header is optional for public endpoints', 1, null],
  ['no output', '', 1, null],
  ['no output, no code', '', undefined, null],
  [
    'codex text, no code, missing file',
    "ls: cannot access '/nonexistent-dir': No such file or directory\n",
    undefined,
    'missing-file',
  ],
  ['codex text, no code, nothing', 'hello-from-mock\n', undefined, null],
];

describe('classifyFailure', () => {
  it(`has many cases (${CASES.length})`, () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
  });

  it.each(CASES.map((c) => [...c]))('%s', (_name, output, exitCode, expected) => {
    expect(classifyFailure(output as string, exitCode as number | undefined)).toBe(expected);
  });

  it('ignores ANSI colours around the error', () => {
    expect(classifyFailure('\x1b[31mError: connect ECONNREFUSED 127.0.0.1:5432\x1b[39m', 1)).toBe('network');
    expect(classifyFailure('\x1b[1mbash: foo: command not found\x1b[0m', 1)).toBe('command-not-found');
  });

  it('handles CRLF output', () => {
    expect(classifyFailure('bash: foo: command not found\r\nmore\r\n', 1)).toBe('command-not-found');
  });

  it('reads only the first and last 8 KB of a huge output', () => {
    const filler = 'progress line without anything interesting\n'.repeat(2_000);
    expect(classifyFailure('Error: connect ECONNREFUSED 127.0.0.1:80\n' + filler, 1)).toBe('network');
    expect(classifyFailure(filler + 'Error: connect ECONNREFUSED 127.0.0.1:80\n', 1)).toBe('network');
    // In the unread middle: not classified.
    expect(classifyFailure(filler + 'Error: connect ECONNREFUSED 127.0.0.1:80\n' + filler, 1)).toBeNull();
  });

  it('stays fast on hostile input', () => {
    const started = performance.now();
    classifyFailure('4'.repeat(1_000_000), 1);
    classifyFailure(('401 ' + 'x'.repeat(59) + ' ').repeat(20_000), 1);
    classifyFailure('/'.repeat(1_000_000) + ': not found', 1);
    classifyFailure('sh: ' + 'a:'.repeat(500_000), 1);
    classifyFailure("env: '" + 'x'.repeat(1_000_000), 1);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('never throws', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 400 }),
        fc.option(fc.integer({ min: -1, max: 255 }), { nil: undefined }),
        (s, code) => {
          const result = classifyFailure(s, code);
          expect(result === null || result in FAILURE_ADVICE).toBe(true);
        },
      ),
      { numRuns: 2_000 },
    );
    expect(classifyFailure(undefined as unknown as string, 1)).toBeNull();
  });
});

describe('classifyFailure on the captured payloads', () => {
  it('classifies the failing ls from Claude Code, Codex and OpenCode as missing-file', () => {
    const claude = JSON.parse(readFileSync(`${PAYLOADS}/claude/PostToolUseFailure-failure.json`, 'utf8')) as {
      error: string;
    };
    const codex = JSON.parse(readFileSync(`${PAYLOADS}/codex/PostToolUse-failure.json`, 'utf8')) as {
      tool_response: string;
    };
    const opencode = JSON.parse(readFileSync(`${PAYLOADS}/opencode/tool.execute.after-failure.json`, 'utf8')) as {
      output: { output: string; metadata: { exit: number } };
    };
    expect(classifyFailure(claude.error, 2)).toBe('missing-file');
    expect(classifyFailure(codex.tool_response)).toBe('missing-file');
    expect(classifyFailure(opencode.output.output, opencode.output.metadata.exit)).toBe('missing-file');
  });

  it('leaves the succeeding commands alone', () => {
    const codex = JSON.parse(readFileSync(`${PAYLOADS}/codex/PostToolUse-success.json`, 'utf8')) as {
      tool_response: string;
    };
    expect(classifyFailure(codex.tool_response)).toBeNull();
  });
});

describe('FAILURE_ADVICE', () => {
  it('has one or two sentences of advice for every class', () => {
    const classes: FailureClass[] = [
      'auth',
      'network',
      'command-not-found',
      'missing-file',
      'crlf',
      'deps-missing',
      'missing-script',
    ];
    expect(Object.keys(FAILURE_ADVICE).sort()).toEqual([...classes].sort());
    for (const cls of classes) {
      const text = FAILURE_ADVICE[cls];
      const sentences = text.split(/(?<=[.!?])\s+(?=[A-Z`])/).filter(Boolean);
      expect(sentences.length, cls).toBeGreaterThanOrEqual(1);
      expect(sentences.length, cls).toBeLessThanOrEqual(2);
      expect(text.length, cls).toBeLessThan(400);
    }
  });
});

describe('the needle gate', () => {
  // Every needle must be a substring of every match of its test; if one is not, the gate hides a class that the
  // line tests would find. The gate is held to the ungated line tests on each case above, mangled in case and
  // wrapped in noise, and on random lines built from the words the tests look for.
  const ANSI = /\x1b\[[0-9;?]{0,20}[A-Za-z]/g;
  const ungated = (output: string, exitCode?: number): FailureClass | null => {
    if (exitCode === 0) return null;
    if (output === '') return exitCode === 127 ? 'command-not-found' : null;
    const sample = output.length > 16 * 1024 ? `${output.slice(0, 8 * 1024)}\n${output.slice(-8 * 1024)}` : output;
    const clean = sample.replace(ANSI, '');
    return refineClass(clean, exitCode === 127 ? 'command-not-found' : classifyLines(clean));
  };

  it('agrees with the ungated line tests on every case, in any case, among other lines', () => {
    for (const [name, output, code] of CASES) {
      for (const text of [
        output,
        output.toUpperCase(),
        output.toLowerCase(),
        `PASS a.test.ts\n\x1b[31m${output}\x1b[0m\ndone in 2s`,
      ]) {
        expect({ name, text, got: classifyFailure(text, code) }).toEqual({ name, text, got: ungated(text, code) });
      }
    }
  });

  it('agrees with them on random lines made of the words they look for', () => {
    const words = [
      'bash:',
      'zsh:1:',
      'fish:',
      'Unknown',
      'command',
      'not',
      'found',
      'found:',
      'sh:',
      '1:',
      'env:',
      "'node'",
      'No',
      'such',
      'file',
      'or',
      'directory',
      'Command',
      '"x"',
      'HTTP/1.1',
      '401',
      '403',
      'Unauthorized',
      'forbidden',
      'status',
      'code',
      'E401',
      'npm',
      'ERR!',
      'error',
      'invalid',
      'api',
      'key',
      'invalid_api_key',
      'returned',
      'error:',
      'ECONNREFUSED',
      'connect',
      'ETIMEDOUT',
      'connection',
      'refused',
      'to',
      'the',
      'server',
      'localhost:5432',
      'was',
      'no',
      'host',
      'ENOENT',
      'FileNotFoundError',
      'cannot',
      'access',
      "'x'",
      'pathspec',
      'did',
      'match',
      'any',
      'files',
      'Missing',
      'script:',
      'is',
      'recognized',
      'as',
      'an',
      'internal',
      'executable',
      'in',
      '$PATH',
      '✓',
      'FAIL',
    ];
    const line = fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 9 }).map((w) => w.join(' '));
    const output = fc
      .array(
        fc.oneof(
          line,
          line.map((l) => l.toUpperCase()),
          line.map((l) => l.replace(/ /g, '')),
        ),
        { minLength: 1, maxLength: 6 },
      )
      .map((ls) => ls.join('\n'));
    fc.assert(
      fc.property(
        output,
        fc.constantFrom(1, undefined),
        (text, code) => classifyFailure(text, code) === ungated(text, code),
      ),
      { numRuns: 3000 },
    );
  });
});
