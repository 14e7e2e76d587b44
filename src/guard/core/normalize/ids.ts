// Names each run makes afresh: saved outputs, temp directories, ids and hashes.
import type { TokenRule } from './rule.ts';

/** The words that label an id: request, trace, span, build and correlation ids, in their usual spellings. */
const ID_LABEL = String.raw`(?:[Rr]equest(?:[ _-]?[Ii][Dd])?|REQUEST(?:[ _-]?ID)?|(?:[Rr]eq|[Tt]race|TRACE|[Ss]pan|SPAN|[Bb]uild|BUILD|[Cc]orrelation|CORRELATION)[ _-]?(?:[Ii][Dd]|ID))`;

// Path body: stops at whitespace, quotes, brackets and ':' so a trailing :line:col survives.
const PATH_BODY = '[^\\s\'"`<>()\\[\\]{}:,;|]*';

const isHex = (c: number): boolean => (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 102);

/**
 * Exactly `/[0-9a-f]{8}-[0-9a-f]{4}-/i.test(text)`, by jumping from dash to dash: that regex has no literal to search
 * for, so it is tried at every position and cost a twentieth of the audit's replay.
 */
export function mayHaveUuid(text: string): boolean {
  for (let p = text.indexOf('-', 8); p !== -1; p = text.indexOf('-', p + 1)) {
    if (p + 5 >= text.length) return false;
    if (text.charCodeAt(p + 5) !== 45) continue;
    let ok = true;
    for (let i = p - 8; ok && i < p; i++) ok = isHex(text.charCodeAt(i));
    for (let i = p + 1; ok && i < p + 5; i++) ok = isHex(text.charCodeAt(i));
    if (ok) return true;
  }
  return false;
}

// Temp paths: only the random segments go

// The temp root a matched path opens with; macOS's two per-user folders under /var/folders are random per machine.
const TEMP_ROOT_RE =
  /^(?:(?:\/private)?\/var\/folders\/[^/]+\/[^/]+(?:\/[TC](?=\/|$))?|(?:\/private)?\/(?:var\/)?tmp|[A-Za-z]:[\\/](?:[^\\/]+[\\/]){0,4}?Te?mp(?![\w.-])|%TE?MP%|\$\{?TMPDIR\}?|\$env:TE?MP)/i;
// A run made by mkdtemp/mktemp: 5+ letters and digits holding both, or both cases after its first character; or 3+
// digits (a pid).
const RANDOM_RUN_RE =
  /^(?:(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{5,40}|[A-Za-z][a-z]*[A-Z][A-Za-z]{3,39}|\d{3,20})$/;

/** One segment made just under the temp root, with each random run (between - _ .) shown as <rand>. */
function firstTempSegment(seg: string): string {
  // Python's tempfile: "tmp" and 8 characters of [a-z0-9_], perhaps with the suffix it was given.
  if (/^tmp[a-z0-9_]{8}(?:\.|$)/.test(seg) && /\d|_/.test(seg.slice(3, 11))) return `tmp<rand>${seg.slice(11)}`;
  return seg.replace(/[A-Za-z0-9]+/g, (run, at: number) =>
    // mktemp's "tmp.XXXXXXXXXX" and prefix-random forms: the first run of a segment is its name unless nothing precedes
    // a random run.
    (at > 0 || seg.length === run.length) && RANDOM_RUN_RE.test(run) ? '<rand>' : run,
  );
}

/** A temp path with its random segments replaced; everything else, the file name included, is kept. */
export function tempPath(path: string): string {
  const root = TEMP_ROOT_RE.exec(path);
  if (!root) return path;
  let head = root[0];
  if (/folders/i.test(head)) head = head.replace(/(folders[\\/])[^/]+\/[^/]+/i, '$1<rand>/<rand>');
  const rest = path.slice(root[0].length);
  if (rest === '') return head;
  const parts = rest.split(/([\\/])/);
  // parts: ['', sep, seg, sep, seg, ...]; the first real segment is the one a mkdtemp made.
  let first = true;
  for (let k = 0; k < parts.length; k++) {
    const seg = parts[k] as string;
    if (seg === '' || seg === '/' || seg === '\\') continue;
    if (first) {
      parts[k] = firstTempSegment(seg);
      first = false;
    } else if (/^pytest-\d+$/.test(seg)) parts[k] = 'pytest-<n>';
    else if (/^tmp\.[A-Za-z0-9]{6,}$/.test(seg)) parts[k] = 'tmp.<rand>';
  }
  return head + parts.join('');
}

// Commands whose printed ids and hashes are the result itself: a new one means something changed (or is what was
// asked).
const GIT_ID_VERBS =
  'rev-parse|rev-list|log|show|hash-object|describe|cat-file|ls-tree|write-tree|commit-tree|stash\\s+create';
const DOCKER_ID_VERBS = String.raw`inspect|images\s+-q|ps\s+-q|run\s+(?:\S+\s+){0,8}?-d|create|build\s+-q`;
const HASH_TOOLS = String.raw`(?:sha\d*|md5|b2|b3|xxh\d*|sm3)sum|shasum|md5|cksum|openssl\s+dgst|uuidgen`;
const IDS_ARE_RESULT_RE = new RegExp(
  String.raw`(?:^|[;&|(\n])\s*(?:git\s+(?:-C\s+\S+\s+)?(?:${GIT_ID_VERBS})|${HASH_TOOLS}|docker\s+(?:${DOCKER_ID_VERBS}))\b`,
);

/** True when `command`'s output ids are its result (git rev-parse, git log, sha256sum, uuidgen, docker run -d): the id
 * rules are skipped. */
export function idsAreTheResult(command: string | undefined): boolean {
  return command !== undefined && IDS_ARE_RESULT_RE.test(command);
}

/** The harness's notes (where it saved a long output, how much it cut), temp paths, then ids and hashes. */
export function idRules(): TokenRule[] {
  return [
    {
      name: 'saved-output-path',
      description:
        'Where OpenCode and Claude Code saved an over-long output ("Full output saved to: <path>"); the file ' +
        'name is a fresh id every call.',
      example: {
        before:
          '...output truncated...\n\nFull output saved to: ' +
          '/home/dev/.local/share/opencode/tool-output/tool_bbde9601d001lV7EWFjkXjCnXF',
        after: '...output truncated...\n\nFull output saved to: <saved>',
      },
      re: /(Full output saved to:?[ \t]*)[^\n]+/g,
      to: '$1<saved>',
      needles: ['Full output saved to'],
    },
    {
      name: 'truncated-size',
      description:
        'The size in Claude Code\'s "Output too large (4.8MB)" note; noise elsewhere in the output moves it.',
      example: {
        before: 'Output too large (4.8MB). Full output saved to: x',
        after: 'Output too large (<size>). Full output saved to: <saved>',
      },
      re: /(Output too large \()[^)\n]{1,24}\)/g,
      to: '$1<size>)',
      needles: ['Output too large ('],
    },
    {
      name: 'truncated-count',
      description:
        'Counts in truncation markers: Claude Code "[12345 characters truncated]", OpenCode "...90 lines ' +
        'truncated...", Codex "…33930 tokens truncated…", "original token count: N", "Total output lines: N".',
      example: {
        before: 'head\n... [12345 characters truncated] ...\ntail',
        after: 'head\n... [<n> characters truncated] ...\ntail',
      },
      re: /(?<!\w)\+?\d+( (?:characters|chars|lines|bytes|tokens) truncated)|((?:original token count|Total output lines): )\d+/g,
      to: '$2<n>$1',
      needles: [' truncated', 'original token count: ', 'Total output lines: '],
    },
    {
      name: 'temp-path',
      description:
        'A path under a temp directory (/tmp, /var/tmp, /private/tmp, macOS /var/folders/…/T, Windows ' +
        '…\\AppData\\Local\\Temp and C:\\Windows\\Temp, %TEMP%, $TMPDIR) keeps everything but its random ' +
        'segments: the directory made just under the temp root (mkdtemp "vitest-a8Xk2", mktemp ' +
        '"tmp.AbC123xYz0", npm "npm-1234-5678", Python "tmpk3j2_x9q"), pytest\'s "pytest-N" and the two ' +
        'macOS per-user folders become <rand>/<n>. The file name, the rest of the path and a repository that ' +
        'lives under /tmp are kept.',
      example: {
        before:
          "Error: /tmp/vitest-a8Xk2/src/a.test.ts:12:5 failed\nENOENT: '/tmp/pytest-of-dev/pytest-7/test_load0/users.csv'",
        after:
          "Error: /tmp/vitest-<rand>/src/a.test.ts:12:5 failed\nENOENT: '/tmp/pytest-of-dev/pytest-<n>/test_load0/users.csv'",
      },
      re: new RegExp(
        [
          `(?<![\\w.~/-])(?:/private)?(?:/var/folders/|/(?:var/)?tmp(?![\\w.-]))${PATH_BODY}`,
          `(?<![\\w])[A-Za-z]:[\\\\/](?:(?:Users|Documents and ` +
            `Settings)[\\\\/][^\\\\/\\n'"<>|:*?]+[\\\\/](?:AppData[\\\\/]Local|Local ` +
            `Settings)|Windows)[\\\\/]Te?mp(?![\\w.-])${PATH_BODY}`,
          `(?:%TE?MP%|\\$\\{?TMPDIR\\}?|\\$env:TE?MP)(?![\\w])${PATH_BODY}`,
        ].join('|'),
        'gi',
      ),
      to: tempPath,
      // Every match holds one: "/tmp", a Windows "\\Temp", %TEMP%, $TMPDIR, $env:TMP (lower-cased). A bare "temp" ran
      // the rule's large pattern on every "attempt" and "template".
      needles: ['/tmp', '\\tmp', '/temp', '\\temp', '/var/folders/', '%tmp%', '%temp%', 'tmpdir', '$env:t'],
      needlesIgnoreCase: true,
    },
    {
      name: 'uuid',
      description: 'UUIDs of any version, any case.',
      example: { before: 'request 01A22A20-2246-7E30-8194-8565cb9bf97b failed', after: 'request <uuid> failed' },
      re: /(?<![0-9A-Za-z])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9A-Za-z])/gi,
      to: '<uuid>',
      gate: mayHaveUuid,
      idRule: true,
    },
    {
      name: 'seed',
      description:
        'Random seeds that test runners print when they shuffle: rspec "Randomized with seed 1234", ' +
        'pytest-randomly "--randomly-seed=N", jest "Seed: N", vitest "with seed N", "random seed: N". A seed ' +
        'anywhere else (an argument in an error) is kept.',
      example: {
        before: 'Randomized with seed 1234\nUsing --randomly-seed=3141863\nSeed:        -1795830470',
        after: 'Randomized with seed <seed>\nUsing --randomly-seed=<seed>\nSeed:        <seed>',
      },
      re: /(Randomized with seed |--randomly-seed=|^Seed:[ \t]+|[Rr]unning tests with seed "?|[Rr]andom seed:? )-?\d+/gm,
      to: '$1<seed>',
      needles: ['seed'],
      needlesIgnoreCase: true,
    },
    {
      name: 'container-id',
      description:
        'Docker container ids (12 or 64 hex digits) after the word "container"; image digests and git SHAs are kept.',
      example: { before: 'container 3f9a1c2b7d4e started', after: 'container <id> started' },
      re: /(\b[Cc]ontainer[ \t:]+)[0-9a-f]{12}(?:[0-9a-f]{52})?(?![0-9A-Za-z])/g,
      to: '$1<id>',
      needles: ['ontainer'],
      idRule: true,
    },
    {
      name: 'request-id',
      description:
        'Request, trace, span, build and correlation ids: a token of 8+ letters, digits, "_" or "-" with a ' +
        'digit in it, right after "request", "request id", "x-request-id:", "req_id=", "trace_id=", ' +
        '"span_id=", "Build ID:", "correlation-id". Words after them ("request from 10.0.0.5", "Request ' +
        'failed") are kept.',
      example: {
        before: '[x] request 9f1c2ab8-1a2f POST /api/login -> 500; trace_id=4bf92f3577b34da6',
        after: '[x] request <id> POST /api/login -> 500; trace_id=<id>',
      },
      re: new RegExp(String.raw`(\b${ID_LABEL}["']?[ \t]*[:=]?[ \t]*["']?)(?=[\w-]{0,80}\d)[A-Za-z0-9][\w-]{7,}`, 'g'),
      to: '$1<id>',
      needles: [
        'request',
        'reqid',
        'req id',
        'req_id',
        'req-id',
        'traceid',
        'trace id',
        'trace_id',
        'trace-id',
        'spanid',
        'span id',
        'span_id',
        'span-id',
        'buildid',
        'build id',
        'build_id',
        'build-id',
        'correlation',
      ],
      needlesIgnoreCase: true,
      idRule: true,
    },
    {
      name: 'docker-endpoint',
      description:
        'The 64-hex endpoint id Docker prints when it cannot publish a port ("on endpoint app-web-1 ' +
        '(<id>)"): a new one each `compose up`, the same failure.',
      example: {
        before:
          'driver failed programming external connectivity on endpoint app-web-1 ' +
          '(3f9a1c2b7d4e5f60718293a4b5c6d7e8f90123456789abcdef0123456789abcd): Bind for 0.0.0.0:3000 failed: ' +
          'port is already allocated',
        after:
          'driver failed programming external connectivity on endpoint app-web-1 (<id>): Bind for 0.0.0.0:3000 ' +
          'failed: port is already allocated',
      },
      re: /(\bendpoint [\w.-]{1,200} \()[0-9a-f]{64}(?=\))/g,
      to: '$1<id>',
      needles: ['endpoint '],
      idRule: true,
    },
    {
      name: 'docker-build-step',
      description:
        'The classic Docker builder\'s per-step ids: "---> Running in <12 hex>" (a new container each build) ' +
        'and the " ---> <12 hex>" layer id a step ends with.',
      example: {
        before: 'Step 3/5 : RUN npm ci\n ---> Running in 8d2f1a3b4c5e\nnpm error code ERESOLVE\n ---> 1c2d3e4f5a6b',
        after: 'Step 3/5 : RUN npm ci\n ---> Running in <id>\nnpm error code ERESOLVE\n ---> <id>',
      },
      re: /^( *---> (?:Running in )?)[0-9a-f]{12}$/gm,
      to: '$1<id>',
      needles: ['--->'],
      idRule: true,
    },
    {
      name: 'build-progress-digest',
      description:
        'Digests on BuildKit progress lines ("#7 writing image sha256:…", "=> => naming … sha256:…", "#5 ' +
        'sha256:… 12.3MB / 45.1MB"): the build reports them as it goes. A digest on any other line (docker ' +
        'pull\'s "Digest:", `sha256sum`) is kept.',
      example: {
        before:
          '#7 writing image sha256:4bf92f3577b34da6a3ce929d0e0e4736aa0e1d8b2f3c4d5e6f7a8b9c0d1e2f3a ' +
          'done\nDigest: sha256:0123456789abcdef',
        after: '#7 writing image sha256:<digest> done\nDigest: sha256:0123456789abcdef',
      },
      re: /^((?:#\d+ |\s*=> )[^\n]{0,200}?sha256:)[0-9a-f]{12,64}(?![0-9a-f])/gm,
      to: '$1<digest>',
      needles: ['sha256:'],
      idRule: true,
    },
    {
      name: 'ulid',
      description: 'ULIDs: 26 Crockford base32 characters, first one 0-7.',
      example: { before: 'job 01KBC7Z3QW9X8Y7V6T5S4R3P2N queued', after: 'job <ulid> queued' },
      re: /(?<![0-9A-Za-z])[0-7][0-9A-HJKMNP-TV-Z]{25}(?![0-9A-Za-z])/gi,
      to: '<ulid>',
    },
  ];
}
