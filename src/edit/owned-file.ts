// Files we own outright (the guard hook, the OpenCode plugin, the Cursor env snippet): a header line says so.
import type { EditOutcome } from './outcome.ts';
import { splitBom } from './text.ts';

export interface OwnedHeader {
  product: 'create-loop-guard';
  version: string;
}

export type HeaderCommentStyle = '//' | '#';

const PRODUCT = 'create-loop-guard';
const VERSION = /^[0-9A-Za-z][0-9A-Za-z.+-]*$/;

/**
 * Our header line, e.g.
 * `// create-loop-guard v0.1.0 - generated file; edits are replaced on upgrade (rerun npx create-loop-guard)`.
 */
export function ownedHeaderLine(style: HeaderCommentStyle, version: string): string {
  if (!VERSION.test(version)) throw new Error(`invalid version ${JSON.stringify(version)}`);
  return `${style} ${PRODUCT} v${version} - generated file; edits are replaced on upgrade (rerun npx ${PRODUCT})`;
}

/** Put our header on `content`: first line, or second after a shebang so the file still runs. */
export function withOwnedHeader(content: string, style: HeaderCommentStyle, version: string): string {
  const header = ownedHeaderLine(style, version);
  if (content.startsWith('#!')) {
    const nl = content.indexOf('\n');
    if (nl === -1) return `${content}\n${header}\n`;
    return `${content.slice(0, nl + 1)}${header}\n${content.slice(nl + 1)}`;
  }
  return `${header}\n${content}`;
}

// Only the product name and version are load-bearing, so older wordings of the rest still parse.
const HEADER = /^(?:\/\/|#)[ \t]*create-loop-guard v([0-9A-Za-z][0-9A-Za-z.+-]*)(?=[\s]|$)/;

/** Parse our header from line 1, or line 2 after a shebang; null if the file is not ours. */
export function readOwnedHeader(text: string): OwnedHeader | null {
  const lines = splitBom(text)
    .rest.split('\n', 3)
    .map((l) => l.replace(/\r$/, ''));
  const candidate = lines[0]?.startsWith('#!') ? lines[1] : lines[0];
  const m = candidate === undefined ? null : HEADER.exec(candidate);
  return m ? { product: PRODUCT, version: m[1]! } : null;
}

/**
 * Plan an owned file: null before → create; ours with the same content → unchanged; ours but
 * different → changed (upgrade); not ours → conflict unless force. `desired` must carry our header.
 */
export function planOwnedFile(
  before: string | null,
  desired: string,
  opts: { force: boolean; sameCode?: (before: string, desired: string) => boolean },
): EditOutcome {
  const want = readOwnedHeader(desired);
  if (want === null) throw new Error('planOwnedFile: the desired text has no create-loop-guard header');
  if (before === null) return { status: 'changed', text: desired, notes: [] };
  if (before === desired) return { status: 'unchanged', text: before, notes: [] };

  const have = readOwnedHeader(before);
  // Our file as a formatter left it (prettier, biome), or as a core.autocrlf checkout gives it (CRLF): the same code,
  // so it is kept as it is, not called edited (a rewrite to LF would come back as CRLF at the next checkout).
  const sameCode = opts.sameCode ?? ((a: string, b: string) => codeFingerprint(a) === codeFingerprint(b));
  if (have?.version === want.version && sameCode(before, desired))
    return { status: 'unchanged', text: before, notes: [] };
  const notes: string[] = [];
  if (have === null) {
    if (before.trim() === '') {
      notes.push('Replaced an empty file of the same name.');
    } else if (!opts.force) {
      return {
        status: 'conflict',
        reason: `A file of the same name exists without the ${PRODUCT} header, so it is not ours to replace.`,
        fix: 'Move it away (or merge what you need into your own file elsewhere) and rerun, or rerun with --force to overwrite it.',
      };
    } else {
      notes.push(`Overwrote a file without the ${PRODUCT} header because of --force.`);
    }
  } else if (before.replace(/\r\n/g, '\n') === desired) {
    // Typically git's autocrlf on checkout; hook scripts must stay LF.
    notes.push(
      'Only the line endings differed (CRLF); rewritten as LF. A .gitattributes `eol=lf` rule keeps it that way.',
    );
  } else if (have.version !== want.version) {
    const direction =
      compareVersions(have.version, want.version) > 0 ? ' (a downgrade: the file is newer than this tool)' : '';
    notes.push(`Replaced v${have.version} with v${want.version}${direction}.`);
  } else {
    notes.push(`The file differed from what v${want.version} writes (edited by hand?); it is replaced.`);
  }
  return { status: 'changed', text: desired, notes };
}

/** Numeric compare of dotted versions, enough to word a note; prerelease tags sort before the release. */
function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core = '', pre] = v.split('-', 2);
    return { nums: core.split('.').map((n) => Number.parseInt(n, 10) || 0), pre };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < Math.max(x.nums.length, y.nums.length); i++) {
    const d = (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
    if (d !== 0) return d;
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return x.pre < y.pre ? -1 : 1;
}

/**
 * What a formatter cannot change in a script: the text without whitespace, semicolons, commas, parentheses, quotes
 * and backslashes (prettier and biome re-indent, re-quote, add or drop semicolons, trailing commas and parentheses
 * around arrow parameters). Any edit of a name, a number, an operator or a word in a string still shows.
 */
export function codeFingerprint(text: string): string {
  return splitBom(text).rest.replace(/[\s;,()'"`\\]+/g, '');
}
