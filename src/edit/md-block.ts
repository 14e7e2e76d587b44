// Managed blocks between whole-line markers in files we don't own (AGENTS.md, shell rc files).
import { createHash } from 'node:crypto';
import { type Line, joinLines, scanFences, splitLines, detectEol, splitBom } from './text.ts';
import type { EditOutcome } from './outcome.ts';

export type CommentStyle = 'markdown' | 'shell';

export interface BlockSpec {
  /** e.g. 'loop-guard' */
  id: string;
  version: string;
  /** without markers; LF; no trailing newline needed */
  body: string;
  style: CommentStyle;
}

export type BlockState = 'absent' | 'current' | 'outdated' | 'edited' | 'broken';

/** Told to the reader of the file, inside the begin marker so the body hash covers only the body. */
const NOTE = 'managed by create-loop-guard: edit outside this block, or rerun with --force';

/** The body as hashed and written: LF lines, trailing newlines dropped so "body\n" and "body" agree. */
function normalizeBody(body: string): string {
  return body.replace(/\r\n/g, '\n').replace(/\n+$/, '');
}

/** The body as a formatter cannot change it: every run of whitespace one space (prettier rewraps prose with
 *  proseWrap, and puts blank lines around the markers). */
function looseBody(body: string): string {
  return body.replace(/\s+/g, ' ').trim();
}

/** First 12 hex digits of sha256 over the body with its whitespace runs collapsed, so a formatter's rewrap or blank
 *  lines are not a hand edit; short enough to read, long enough to never collide by accident. */
export function bodyHash(body: string): string {
  return createHash('sha256').update(looseBody(body), 'utf8').digest('hex').slice(0, 12);
}

/** The hash markers written before whitespace was collapsed held: still read as ours, untouched. */
function exactHash(body: string): string {
  return createHash('sha256').update(normalizeBody(body), 'utf8').digest('hex').slice(0, 12);
}

function checkSpec(id: string, version?: string): void {
  // The id and version go into marker lines and regexes, so keep them to plain tokens.
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id)) throw new Error(`invalid block id ${JSON.stringify(id)}`);
  if (version !== undefined && !/^[0-9A-Za-z][0-9A-Za-z.+-]*$/.test(version)) {
    throw new Error(`invalid block version ${JSON.stringify(version)}`);
  }
}

/** The begin marker line, e.g. `<!-- loop-guard:begin v=0.1.0 sha=0123456789ab (managed by …) -->`. */
export function beginMarker(spec: BlockSpec): string {
  checkSpec(spec.id, spec.version);
  const fields = `${spec.id}:begin v=${spec.version} sha=${bodyHash(spec.body)} (${NOTE})`;
  return spec.style === 'markdown' ? `<!-- ${fields} -->` : `# >>> ${fields} >>>`;
}

/** The end marker line, e.g. `<!-- loop-guard:end -->` or `# <<< loop-guard:end <<<`. */
export function endMarker(spec: Pick<BlockSpec, 'id' | 'style'>): string {
  checkSpec(spec.id);
  return spec.style === 'markdown' ? `<!-- ${spec.id}:end -->` : `# <<< ${spec.id}:end <<<`;
}

/** Byte offset just past our end marker in a Markdown file (AGENTS.md); null when there is no block. */
export function blockEndOffset(text: string): number | null {
  const marker = endMarker({ id: 'loop-guard', style: 'markdown' });
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.replace(/\r$/, '').trim() === marker);
  if (at === -1) return null;
  return Buffer.byteLength(lines.slice(0, at + 1).join('\n'), 'utf8');
}

/** The block's lines without terminators: begin marker, body, end marker. */
export function renderBlock(spec: BlockSpec): string[] {
  const body = normalizeBody(spec.body);
  // Markdown gets a blank line inside each marker, as prettier puts one around an HTML comment before a heading.
  const pad = spec.style === 'markdown' && body !== '' ? [''] : [];
  return [beginMarker(spec), ...pad, ...(body === '' ? [] : body.split('\n')), ...pad, endMarker(spec)];
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Loose marker recognisers: a mangled begin line is still ours (then "edited"), never a reason to add a second
 * block. */
function markerPatterns(id: string, style: CommentStyle): { begin: RegExp; end: RegExp } {
  const i = escapeRegExp(id);
  return style === 'markdown'
    ? // Up to 3 spaces: 4 or more make the line an indented code block, i.e. a quotation of our marker.
      {
        begin: new RegExp(`^ {0,3}<!--\\s*${i}:begin(?=\\s|-->|$)`),
        end: new RegExp(`^ {0,3}<!--\\s*${i}:end(?=\\s|-->|$)`),
      }
    : {
        begin: new RegExp(`^\\s*#\\s*>>>\\s*${i}:begin(?=\\s|>|$)`),
        end: new RegExp(`^\\s*#\\s*<<<\\s*${i}:end(?=\\s|<|$)`),
      };
}

type Scan =
  | { kind: 'absent' }
  | { kind: 'broken'; detail: string; fix: string }
  | {
      kind: 'block';
      begin: number;
      end: number;
      version: string | undefined;
      sha: string | undefined;
      /** Hash of the text between the markers, compared with `sha` to spot hand edits. */
      innerHash: string;
      /** The same in the form markers held before (whitespace kept). */
      innerExact: string;
    };

interface Parsed {
  bom: string;
  lines: Line[];
  eol: '\n' | '\r\n';
  scan: Scan;
  /** 0-based opening line of a Markdown fence that runs to end of file, or null. */
  unclosedFence: number | null;
}

/** "line 3" / "lines 3, 9" / "no line", from 0-based indices. */
function lineList(indices: readonly number[]): string {
  if (indices.length === 0) return 'no line';
  return `${indices.length === 1 ? 'line' : 'lines'} ${indices.map((n) => n + 1).join(', ')}`;
}

function parse(text: string, id: string, style: CommentStyle): Parsed {
  checkSpec(id);
  const { bom, rest } = splitBom(text);
  const lines = splitLines(rest);
  const eol = detectEol(rest);
  // A fence in the front matter (YAML) opens nothing: the block put after it must still read as our block.
  const fences = style === 'markdown' ? scanFences(lines, headLength(lines, style)) : null;
  const pattern = markerPatterns(id, style);
  const begins: number[] = [];
  const ends: number[] = [];
  lines.forEach((line, n) => {
    // A marker inside a fenced code block is documentation quoting us, not a marker.
    if (fences?.inFence[n]) return;
    if (pattern.begin.test(line.text)) begins.push(n);
    else if (pattern.end.test(line.text)) ends.push(n);
  });
  const unclosedFence = fences ? fences.unclosedFrom : null;
  const endLine = endMarker({ id, style });

  let scan: Scan;
  if (begins.length === 0 && ends.length === 0) {
    scan = { kind: 'absent' };
  } else if (begins.length > 1 || ends.length > 1) {
    scan = {
      kind: 'broken',
      detail:
        `${begins.length} ${id} begin marker(s) (${lineList(begins)}) and ` +
        `${ends.length} end marker(s) (${lineList(ends)}), but a file holds at most one block`,
      fix: `Delete all but one ${id} block (each runs from a begin marker line through its end marker line), then rerun.`,
    };
  } else if (ends.length === 0) {
    const b = begins[0]! + 1;
    scan = {
      kind: 'broken',
      detail: `a ${id} begin marker on line ${b} with no end marker`,
      fix: `Add the line \`${endLine}\` where the block's text ends, or delete line ${b}, then rerun.`,
    };
  } else if (begins.length === 0) {
    const e = ends[0]! + 1;
    scan = {
      kind: 'broken',
      detail: `a ${id} end marker on line ${e} with no begin marker`,
      fix: `Delete line ${e} (the stray end marker), then rerun.`,
    };
  } else if (ends[0]! < begins[0]!) {
    const b = begins[0]! + 1;
    const e = ends[0]! + 1;
    scan = {
      kind: 'broken',
      detail: `a ${id} end marker (line ${e}) before its begin marker (line ${b})`,
      fix: `Delete both marker lines (${e} and ${b}), keeping any text of yours between them, then rerun.`,
    };
  } else {
    const begin = begins[0]!;
    const end = ends[0]!;
    const head = lines[begin]!.text;
    const inner = lines
      .slice(begin + 1, end)
      .map((l) => l.text)
      .join('\n');
    scan = {
      kind: 'block',
      begin,
      end,
      version: /\sv=([0-9A-Za-z][0-9A-Za-z.+-]*)/.exec(head)?.[1],
      sha: /\ssha=([0-9a-f]{12})(?![0-9a-f])/.exec(head)?.[1],
      innerHash: bodyHash(inner),
      innerExact: exactHash(inner),
    };
  }
  return { bom, lines, eol, scan, unclosedFence };
}

/** Where the block sits, for messages. */
function span(scan: { begin: number; end: number }): string {
  return `lines ${scan.begin + 1}–${scan.end + 1}`;
}

function isHandEdited(scan: { sha: string | undefined; innerHash: string; innerExact: string }): boolean {
  return scan.sha === undefined || (scan.sha !== scan.innerHash && scan.sha !== scan.innerExact);
}

function classify(parsed: Parsed, spec: BlockSpec): { state: BlockState; version?: string; detail?: string } {
  const { scan } = parsed;
  if (scan.kind === 'absent') return { state: 'absent' };
  if (scan.kind === 'broken') return { state: 'broken', detail: scan.detail };
  const version = scan.version;
  const base = version === undefined ? {} : { version };
  if (isHandEdited(scan)) {
    const why =
      scan.sha === undefined
        ? 'its begin marker has no sha= field'
        : 'its text no longer matches the sha= in its begin marker';
    return { state: 'edited', ...base, detail: `the ${spec.id} block (${span(scan)}) was edited by hand: ${why}` };
  }
  if (scan.version === spec.version && scan.sha === bodyHash(spec.body)) return { state: 'current', ...base };
  const from = version === undefined ? 'an unknown version' : `v${version}`;
  return {
    state: 'outdated',
    ...base,
    detail: `the ${spec.id} block (${span(scan)}) is ${from}; this is v${spec.version}`,
  };
}

/** Whether the text holds a block with this id, in any state (absent is the only "no"). */
export function hasBlock(text: string, id: string, style: CommentStyle): boolean {
  return parse(text, id, style).scan.kind !== 'absent';
}

/** Inspect without editing. */
export function inspectBlock(text: string, spec: BlockSpec): { state: BlockState; version?: string; detail?: string } {
  return classify(parse(text, spec.id, spec.style), spec);
}

/** Lines that must stay above a block put at the start: a shebang, or Markdown front matter. */
function headLength(lines: readonly Line[], style: CommentStyle): number {
  const first = lines[0]?.text;
  if (first === undefined) return 0;
  if (style === 'shell') return first.startsWith('#!') ? 1 : 0;
  if (first !== '---') return 0;
  for (let i = 1; i < lines.length; i++) if (lines[i]!.text === '---' || lines[i]!.text === '...') return i + 1;
  return 0;
}

function withEol(texts: readonly string[], eol: Line['eol']): Line[] {
  return texts.map((text) => ({ text, eol }));
}

/** Insert or upgrade our block. null before = new file containing only the block. */
export function upsertBlock(
  before: string | null,
  spec: BlockSpec,
  opts: { force: boolean; position?: 'end' | 'start' },
): EditOutcome {
  const block = renderBlock(spec);
  if (before === null) return verified(`${block.join('\n')}\n`, spec, []);

  const parsed = parse(before, spec.id, spec.style);
  const { bom, lines, eol, scan } = parsed;
  const state = classify(parsed, spec);

  if (scan.kind === 'broken') {
    return { status: 'conflict', reason: `Found ${scan.detail}.`, fix: scan.fix };
  }

  if (scan.kind === 'block') {
    if (state.state === 'current') return { status: 'unchanged', text: before, notes: [] };
    const notes: string[] = [];
    if (state.state === 'edited') {
      if (!opts.force) {
        return {
          status: 'conflict',
          reason: `The ${spec.id} block (${span(scan)}) was edited by hand (its text no longer matches the hash in its begin marker).`,
          fix:
            `Rerun with --force to replace it, or move your edits outside the block (then delete the block so a ` +
            `rerun writes it fresh).`,
        };
      }
      notes.push(
        `Replaced the hand-edited ${spec.id} block (${span(scan)}) because of --force; edits inside it are gone.`,
      );
    } else if (scan.version !== spec.version) {
      const verb = scan.version && newerThan(scan.version, spec.version) ? 'Downgraded' : 'Upgraded';
      notes.push(
        `${verb} the ${spec.id} block from ${scan.version ? `v${scan.version}` : 'an unknown version'} to v${spec.version}.`,
      );
    } else {
      notes.push(`Updated the text of the ${spec.id} block (v${spec.version}).`);
    }
    // The end marker keeps its own terminator, so a file without a final newline still has none.
    const replacement = withEol(block, eol);
    replacement[replacement.length - 1]!.eol = lines[scan.end]!.eol;
    const out = [...lines.slice(0, scan.begin), ...replacement, ...lines.slice(scan.end + 1)];
    return verified(bom + joinLines(out), spec, notes);
  }

  // Absent: insert.
  if (lines.length === 0) return verified(`${bom}${block.join(eol)}${eol}`, spec, []);
  const blank: Line = { text: '', eol };

  if (opts.position === 'start') {
    const n = headLength(lines, spec.style);
    const head = lines.slice(0, n).map((l) => ({ ...l, eol: l.eol || eol }));
    const tail = lines.slice(n);
    const inserted = withEol(block, eol);
    if (tail.length === 0) {
      // Only a head: the block ends the file and takes over the head's final-newline state.
      inserted[inserted.length - 1]!.eol = lines[n - 1]!.eol;
      return verified(bom + joinLines([...head, ...inserted]), spec, []);
    }
    return verified(bom + joinLines([...head, ...inserted, blank, ...tail]), spec, []);
  }

  if (parsed.unclosedFence !== null) {
    // Appending inside an open fence would turn the rule into a code sample and hide it from us on rerun.
    const at = parsed.unclosedFence + 1;
    return {
      status: 'conflict',
      reason: `The code fence opened on line ${at} is never closed, so a block appended at the end would sit inside it.`,
      fix: `Close the code fence that opens on line ${at} (add a matching \`\`\` line), then rerun.`,
    };
  }
  const last = lines[lines.length - 1]!;
  const head = [...lines.slice(0, -1), { ...last, eol: last.eol || eol }];
  const inserted = withEol(block, eol);
  inserted[inserted.length - 1]!.eol = last.eol === '' ? '' : eol;
  return verified(bom + joinLines([...head, blank, ...inserted]), spec, []);
}

/** Each editor checks its own output: the new text must read back as our current block. */
function verified(text: string, spec: BlockSpec, notes: string[]): EditOutcome {
  const check = inspectBlock(text, spec);
  if (check.state !== 'current') {
    throw new Error(
      `upsertBlock produced a ${check.state} ${spec.id} block${check.detail ? ` (${check.detail})` : ''}; ` +
        'the body must not contain marker lines or unbalanced code fences',
    );
  }
  return { status: 'changed', text, notes };
}

/**
 * Remove our block. Gives back the exact original bytes when the block was added by upsertBlock:
 * the blank separator line goes with it, and a missing final newline is restored.
 */
export function removeBlock(
  before: string,
  spec: Pick<BlockSpec, 'id' | 'style'>,
  opts: { force: boolean },
): { outcome: EditOutcome; becameEmpty: boolean } {
  const { bom, lines, scan } = parse(before, spec.id, spec.style);
  if (scan.kind === 'absent') return { outcome: { status: 'unchanged', text: before, notes: [] }, becameEmpty: false };
  if (scan.kind === 'broken') {
    return { outcome: { status: 'conflict', reason: `Found ${scan.detail}.`, fix: scan.fix }, becameEmpty: false };
  }
  const notes: string[] = [];
  if (isHandEdited(scan)) {
    if (!opts.force) {
      return {
        outcome: {
          status: 'conflict',
          reason: `The ${spec.id} block (${span(scan)}) was edited by hand, so removing it would lose those edits.`,
          fix: 'Rerun with --force to remove it anyway, or move your edits outside the block first.',
        },
        becameEmpty: false,
      };
    }
    notes.push(`Removed the hand-edited ${spec.id} block (${span(scan)}) because of --force.`);
  }

  const above = lines.slice(0, scan.begin);
  const below = lines.slice(scan.end + 1);
  if (below.length === 0) {
    if (above.length > 0 && above[above.length - 1]!.text === '') above.pop();
    // The block ended the file without a newline, so the line above did too before we came.
    if (lines[scan.end]!.eol === '' && above.length > 0)
      above[above.length - 1] = { ...above[above.length - 1]!, eol: '' };
  } else if (below[0]!.text === '') {
    below.shift();
  } else if (above.length > 0 && above[above.length - 1]!.text === '') {
    above.pop();
  }
  const rest = joinLines([...above, ...below]);
  return { outcome: { status: 'changed', text: bom + rest, notes }, becameEmpty: rest === '' };
}

/** a > b for dotted version numbers (pre-release tags ignored); a block from a newer release is a downgrade to
 * rewrite. */
function newerThan(a: string, b: string): boolean {
  const pa = a.split(/[.-]/).map((x) => Number.parseInt(x, 10) || 0);
  const pb = b.split(/[.-]/).map((x) => Number.parseInt(x, 10) || 0);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) > (pb[i] ?? 0);
  return false;
}
