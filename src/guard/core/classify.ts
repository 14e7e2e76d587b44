// The failure classifier: recognises failures that running the same command again cannot fix.

import { hasNeedle } from './needles.ts';
import type { FailureClass } from './types.ts';

/** One or two sentences of advice per class, for the warning that follows a repeated failure of that class. */
export const FAILURE_ADVICE: Readonly<Record<FailureClass, string>> = {
  'command-not-found':
    'The program is not installed or not on PATH, so the same command fails the same way every time. ' +
    '`command -v <name>` shows whether it exists; installing it, calling it through the project runner ' +
    '(npx, uv run, bundle exec) or using another tool changes the outcome.',
  auth:
    'The server answered and refused the credentials, and it will refuse them again until they change. A ' +
    'login, token, API key or SSH key has to be fixed first, which usually needs the user.',
  network:
    'The host or service could not be reached (refused, unresolved or unreachable), and repeating the ' +
    'call does not start a server or repair DNS. Whether the service is running, and the host and port ' +
    'are right, is the thing to check, or the user can be told the network is unavailable.',
  'missing-file':
    'The path does not exist where the command looks for it, and a retry looks in the same place. `pwd` ' +
    'and `ls` show where the command runs and what is there; the path, the working directory or a ' +
    'missing build step is what needs to change.',
  crlf:
    'The script has Windows (CRLF) line endings, so the shell reads a stray carriage return at the end ' +
    "of each line (`$'\\r'`, `^M`). Converting it once fixes it: `sed -i 's/\\r$//' <script>` (or " +
    '`dos2unix <script>`).',
  'deps-missing':
    'A program that a package script runs is missing, which usually means the dependencies are not ' +
    'installed (no node_modules): `npm install` (or pnpm install, yarn, bun install) installs them. If ' +
    'the program is not a dependency, it has to be installed on the machine.',
  'missing-script':
    'package.json has no script of that name, so the package manager has nothing to run. `npm run` (or ' +
    'pnpm run, yarn run) lists the scripts there are; the name, or the directory it runs in, is what ' +
    'needs to change.',
};

/**
 * Checked in this order, first match wins:
 * - crlf before all (a carriage return in a command or interpreter name is the cause of the "not found" around it),
 *   then command-not-found, told apart as missing-script or deps-missing when a package manager's words say so.
 * - command-not-found first: when the program itself is missing, every other message in the output is a symptom of
 * that.
 * - auth before network: an auth refusal proves the server was reached, and auth errors often mention the host or URL.
 * - network before missing-file: a failed connection is the cause, while paths and ENOENT in the same output are
 *   usually incidental (a cache file, a socket path in a stack trace).
 */
type LineClass = 'command-not-found' | 'auth' | 'network' | 'missing-file';
const PRECEDENCE: readonly LineClass[] = ['command-not-found', 'auth', 'network', 'missing-file'];

// Only the start and the end of a huge output are read: errors sit there, and the cost stays bounded.
const HEAD = 8 * 1024;
const TAIL = 8 * 1024;

/** `lower` is the line lower-cased, computed once per line rather than once per test. */
type LineTest = (line: string, lower: string) => boolean;

/** Lower-case substrings of which every match of a test holds one, gathered as the tests below are built. */
const needles: string[] = [];
const gather = (ns: readonly string[]): void => {
  needles.push(...ns.map((n) => n.toLowerCase()));
};

const has = (...ns: string[]): LineTest => {
  gather(ns);
  return (line) => ns.some((n) => line.includes(n));
};
const hasCI = (...ns: string[]): LineTest => {
  gather(ns);
  return (_line, lower) => ns.some((n) => lower.includes(n));
};
/** A regex test, with the literal(s) it cannot match without (one of them, in lower case, is in every match). */
const re = (pattern: RegExp, ...ns: string[]): LineTest => {
  gather(ns);
  return (line) => pattern.test(line);
};
/** Any other test, with its needles as for `re`. */
const holding = (ns: readonly string[], test: LineTest): LineTest => {
  gather(ns);
  return test;
};

// Every regular expression below has bounded repetition, so a long line cannot trigger runaway backtracking.
const TESTS: Record<LineClass, readonly LineTest[]> = {
  'command-not-found': [
    holding([': command not found'], (line) => line.endsWith(': command not found')),
    re(/^(?:zsh|bash)(?::\d{1,6})?: command not found: \S/, 'command not found'),
    re(/^fish: Unknown command:? \S/, 'unknown command'),
    re(
      /^(?:\S{0,200}\/)?(?:sh|dash|ash|bash|ksh|mksh|busybox)(?::| line)? (?:line )?(?:\d{1,6}: )?\S{1,200}: not found$/,
      ': not found',
    ),
    re(/^(?:\S{0,200}\/)?env: ['‘"]?[^'’"\s]{1,200}['’"]?: No such file or directory$/, 'no such file or directory'),
    has(
      'is not recognized as an internal or external command',
      'is not recognized as the name of a cmdlet',
      'executable file not found in $PATH',
      'executable file not found in %PATH%',
      'could not determine executable to run',
      'npm ERR! Missing script:',
      'npm error Missing script:',
      'ERR_PNPM_NO_SCRIPT',
      'error: Script not found "',
    ),
    re(/\bCommand "[^"\n]{1,200}" not found\b/, '" not found'),
  ],
  auth: [
    re(/\b40[13]\b[^\n]{0,60}?\b(?:unauthori[sz]ed|forbidden)\b/i, '401', '403'),
    re(/\b(?:unauthori[sz]ed|forbidden)\b[^\n]{0,60}?\b40[13]\b/i, '401', '403'),
    re(/\bstatus(?: code)?:? 40[13]\b/i, '401', '403'),
    re(/\bHTTP\/\d(?:\.\d)? 40[13]\b/, '401', '403'),
    re(/returned error: 40[13]\b/, '401', '403'),
    re(/^npm (?:ERR!|error) code E40[13]\b/, '401', '403'),
    re(/invalid[ _-]?api[ _-]?key/i, 'invalid'),
    has(
      'could not read Username for',
      'could not read Password for',
      'Permission denied (publickey',
      'Host key verification failed',
      'HTTP Basic: Access denied',
      'Support for password authentication was removed',
      'Bad credentials',
      'Requires authentication',
      'ENEEDAUTH',
      'authentication_error',
      'Unable to locate credentials',
      'InvalidClientTokenId',
      'ExpiredToken',
      'unauthorized: authentication required',
      'requested access to the resource is denied',
      'gh auth login',
    ),
    hasCI('authentication failed', 'incorrect api key'),
  ],
  network: [
    has('ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'connect ETIMEDOUT'),
    hasCI(
      'connection refused',
      'could not resolve host',
      'temporary failure in name resolution',
      'name or service not known',
      'nodename nor servname provided',
      'network is unreachable',
      'no route to host',
      'connection timed out',
      'failed to connect to',
      "couldn't connect to server",
      'failed to establish a new connection',
      'cannot connect to the docker daemon',
      'unable to connect to the server',
    ),
    re(/: no such host$/, 'no such host'),
    re(/connection to the server \S{1,200} was refused/i, 'connection to the server'),
  ],
  'missing-file': [
    hasCI('no such file or directory', 'cannot find the path specified', 'cannot find the file specified'),
    re(/\bENOENT\b/, 'enoent'),
    re(/\bFileNotFoundError\b/, 'filenotfounderror'),
    holding(["cannot access '"], (line) => line.includes("cannot access '") && !line.includes('Permission denied')),
    re(/pathspec '[^'\n]{1,300}' did not match any file/, 'pathspec'),
  ],
};

/**
 * Output holding none of the tests' needles cannot be classified, so the ~20 regexes are neither compiled nor run on
 * it, which is most failures (a test run's assertion, a type error). Gathered from the tests, never listed twice.
 */
export const CLASS_NEEDLES: readonly string[] = [...new Set(needles)];

const anyClassNeedle = (lower: string): boolean => hasNeedle(lower, CLASS_NEEDLES);

// ANSI colour and cursor codes would hide line ends and split words.
const ANSI = /\x1b\[[0-9;?]{0,20}[A-Za-z]/g;

/**
 * Lines that report a test's name rather than an error: a passing test called "returns 401 Unauthorized"
 * says nothing about this run's credentials.
 */
function isTestReportLine(line: string): boolean {
  const t = line.trimStart();
  return (
    /^(?:[✓✔√✗✘×✕○↓●]|PASS |FAIL |ok \d|not ok \d)/.test(t) ||
    /^test \S.{0,300} \.\.\. /.test(t) ||
    /^>?\s{0,8}\d{1,6}\s{0,4}\|/.test(t)
  );
}

/** Which class of unfixable-by-retry failure this output shows, or null. exitCode may be undefined (Codex gives
 * none). */
export function classifyFailure(output: string, exitCode?: number): FailureClass | null {
  // A successful command that merely prints these words is not a failure.
  if (exitCode === 0) return null;
  if (typeof output !== 'string' || output === '') return exitCode === 127 ? 'command-not-found' : null;
  const sample = output.length > HEAD + TAIL ? output.slice(0, HEAD) + '\n' + output.slice(-TAIL) : output;
  const clean = sample.includes('\x1b') ? sample.replace(ANSI, '') : sample;
  if (exitCode === 127) return refineClass(clean, 'command-not-found');
  if (!anyClassNeedle(clean.toLowerCase())) return null;
  return refineClass(clean, classifyLines(clean));
}

/**
 * The class the line tests found, told apart where the same words have another cause: a carriage return where a
 * command or interpreter name should end (CRLF line endings), a package script that does not exist, a program a
 * package script runs that is not installed. Exported so the gate test can hold the ungated path to the same rules.
 */
export function refineClass(clean: string, found: FailureClass | null): FailureClass | null {
  if (found === null) return null;
  if (hasCrlfSign(clean)) return 'crlf';
  return found === 'command-not-found' ? refineNotFound(clean, clean.toLowerCase()) : found;
}

// bash's "$'\r': command not found" and "/bin/bash^M: bad interpreter", GNU env's "'bash\r': No such file or directory"
// (the \r and ^M are printed as those characters, not as a carriage return).
const CRLF_RE =
  /\$'\\r'|\\r['’]?: (?:command not found|No such file or directory|bad interpreter)|\^M: (?:bad interpreter|not found|command not found)/;
const hasCrlfSign = (text: string): boolean => (text.includes('\\r') || text.includes('^M')) && CRLF_RE.test(text);
// npm's script header ("> app@1.0.0 dev"), its lifecycle failure, pnpm's and yarn's: the program ran inside a script.
const SCRIPT_CONTEXT_RE =
  /^> [^\s@]*@?[^\s]* [\w:.-]+$|\bELIFECYCLE\b|npm (?:ERR!|error) (?:Lifecycle script|code 127|command sh -c)|ERR_PNPM_\w+|node_modules missing|^error Command failed with exit code 127/m;
// The package manager found no script of that name (npm, pnpm, yarn 1 and berry, bun).
const MISSING_SCRIPT_RE =
  /npm (?:ERR!|error) Missing script:|ERR_PNPM_NO_SCRIPT|^error Command "[^"\n]{1,200}" not found\.?$|Couldn't find a script named|error: Script not found "/m;

/** A missing program, told apart: a missing package script, or a program a package script runs (deps not installed). */
function refineNotFound(clean: string, lower: string): FailureClass {
  if ((lower.includes('script') || lower.includes('command "')) && MISSING_SCRIPT_RE.test(clean))
    return 'missing-script';
  if (SCRIPT_CONTEXT_RE.test(clean)) return 'deps-missing';
  return 'command-not-found';
}

/** The line tests themselves, without the needle gate (exported so a test can hold the gate to them). */
export function classifyLines(clean: string): FailureClass | null {
  const lines = clean.split('\n');
  const seen = new Set<FailureClass>();
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '' || isTestReportLine(line)) continue;
    const lower = line.toLowerCase();
    for (const cls of PRECEDENCE) {
      if (seen.has(cls)) continue;
      if (TESTS[cls].some((test) => test(line, lower))) {
        if (cls === 'command-not-found') return cls;
        seen.add(cls);
      }
    }
  }
  return PRECEDENCE.find((cls) => seen.has(cls)) ?? null;
}
