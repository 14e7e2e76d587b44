// The hand-off note: when the ladder stops a turn, .agents/handoff.md (for the next session and the person) and
// .agents/handoff.json (for scripts) say what was refused and what else was tried, each with its last lines.
// Written only inside the repository the agent works in; appended per hand-off, bounded; every failure is ignored.
import { closeSync, constants, lstatSync, mkdirSync, readSync, fstatSync, writeFileSync } from 'node:fs';
import { posix, win32 } from 'node:path';
import { gitRootOf } from './git-root.ts';
import { openNoFollow, renameReplacing } from './replace-file.ts';
import { HANDOFF_JSON, HANDOFF_NOTE } from './core/ladder.ts';
import { LOOP_WINDOW_MS } from './core/loop.ts';
import { MARKER } from './core/messages.ts';
import type { Decision, HandoffNote } from './core/types.ts';

/** The markdown note keeps its newest sections within this size; the JSON twin keeps this many hand-offs. */
export const HANDOFF_MAX_BYTES = 16 * 1024;
export const HANDOFF_MAX_ENTRIES = 10;
const SECTION = '\n## Hand-off ';

export interface HandoffRecord extends HandoffNote {
  /** ISO time */
  at: string;
  tool: string;
  session: string;
}

function fence(text: string): string {
  const body = text === '' ? '(no output)' : text;
  // A fence longer than any backtick run inside keeps the result from closing it early.
  const longest = Math.max(2, ...(body.match(/`+/g) ?? []).map((m) => m.length));
  const f = '`'.repeat(longest + 1);
  return `${f}\n${body}\n${f}`;
}

const inline = (command: string) => `\`${command.replace(/\s+/g, ' ').replace(/`/g, "'")}\``;

/** One section of the markdown note. */
export function renderSection(r: HandoffRecord): string {
  const lines = [`${SECTION.trimStart()}${r.at} (${r.tool}, session ${r.session || 'unknown'})`, ''];
  lines.push(
    `The loop guard stopped this turn after refusing ${inline(r.command)} again. Do not repeat these ` +
      `approaches; fix the cause first, then delete this file.`,
    '',
  );
  lines.push('### Refused');
  for (const c of r.refused) {
    lines.push(
      `- ${inline(c.command)}: refused ${c.refusals} ${c.refusals === 1 ? 'time' : 'times'} after ` +
        `${c.results} identical ${c.results === 1 ? 'result' : 'results'}` +
        `${c.failure ? ` (${c.failure})` : ''}; last lines:`,
      '',
      fence(c.lastLines),
      '',
    );
  }
  if (r.tried.length) {
    lines.push('### Also tried in this turn');
    for (const c of r.tried)
      lines.push(
        `- ${inline(c.command)}: ${c.results} identical ${c.results === 1 ? 'result' : 'results'} in a row` +
          `${c.failure ? ` (${c.failure})` : ''}; last lines:`,
        '',
        fence(c.lastLines),
        '',
      );
  }
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}

const HEADER =
  '# Loop-guard hand-off\n\nWritten by the loop guard when it stopped an agent that kept repeating a ' +
  'command. The next session reads this first.\n';

// No following: a symlink planted at the note's path must not pull another file into the note (openNoFollow: an
// lstat on Windows, which has no O_NOFOLLOW); the write renames over the path, so it replaces a link, never follows it.
function readSmall(path: string, max: number): string {
  let fd: number;
  try {
    fd = openNoFollow(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    return '';
  }
  try {
    if (!fstatSync(fd).isFile()) return '';
    const buf = Buffer.alloc(max);
    const n = readSync(fd, buf, 0, max, 0);
    return buf.toString('utf8', 0, n);
  } finally {
    closeSync(fd);
  }
}

/**
 * Where the note goes: `.agents/` at the root of the repository `cwd` is in (or LOOP_GUARD_HANDOFF_DIR, absolute:
 * doctor's replay points it at its throw-away dir). Pure of the platform: Windows paths (drive letters, spaces, \\?\
 * prefixes) are walked with path.win32. `exists` answers for the walk's `.git` look.
 */
export function handoffPaths(
  cwd: string,
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
  exists?: (path: string) => boolean,
): { root: string; dir: string; md: string; json: string } | undefined {
  const path = platform === 'win32' ? win32 : posix;
  const override = env.LOOP_GUARD_HANDOFF_DIR;
  // A drive or share path on Windows (not drive-relative `C:x` or `\\x`); the state dir's reading of it stays in the
  // loader.
  const absolute =
    platform === 'win32'
      ? override && /^(?:[A-Za-z]:[\\/]|[\\/]{2}[^\\/])/.test(override)
        ? override
        : undefined
      : override && posix.isAbsolute(override)
        ? override
        : undefined;
  const root = absolute ?? gitRootOf(cwd, path, exists);
  if (!root) return undefined;
  return {
    root,
    dir: path.join(root, '.agents'),
    md: path.join(root, HANDOFF_NOTE),
    json: path.join(root, HANDOFF_JSON),
  };
}

function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, text, { mode: 0o644, flag: 'wx' });
  renameReplacing(tmp, path);
}

/** The header and as many of the latest sections as fit in `max` bytes: the oldest hand-offs go first. */
export function appendBounded(existing: string, section: string, max = HANDOFF_MAX_BYTES): string {
  const sections: string[] = [];
  for (let i = existing.indexOf(SECTION); i !== -1; ) {
    const j = existing.indexOf(SECTION, i + 1);
    sections.push(`${existing.slice(i + 1, j === -1 ? undefined : j).replace(/\n+$/, '')}\n`);
    i = j;
  }
  sections.push(section);
  while (sections.length > 1 && Buffer.byteLength(`${HEADER}\n${sections.join('\n')}`) > max) sections.shift();
  return `${HEADER}\n${sections.join('\n')}`;
}

/**
 * Appends the hand-off to `<root>/.agents/handoff.md` and `.json`, where root is the repository holding `cwd`.
 * Returns the markdown path, or undefined when nothing was written (outside a repository, a symlinked `.agents`, I/O).
 */
export function writeHandoff(
  cwd: string,
  record: HandoffRecord,
  env: Record<string, string | undefined> = {},
): string | undefined {
  try {
    const paths = handoffPaths(cwd, env);
    if (!paths) return undefined;
    const { dir, md, json: jsonPath } = paths;
    try {
      if (!lstatSync(dir).isDirectory()) return undefined; // a symlink or a file: not ours to follow
    } catch {
      mkdirSync(dir, { mode: 0o755 });
    }
    writeAtomic(md, appendBounded(readSmall(md, 4 * HANDOFF_MAX_BYTES), renderSection(record)));
    let list: HandoffRecord[] = [];
    try {
      const parsed = JSON.parse(readSmall(jsonPath, 8 * HANDOFF_MAX_BYTES)) as { handoffs?: unknown };
      if (Array.isArray(parsed.handoffs)) list = parsed.handoffs as HandoffRecord[];
    } catch {
      // none yet, or not ours: start a fresh list
    }
    list.push(record);
    writeAtomic(jsonPath, `${JSON.stringify({ version: 1, handoffs: list.slice(-HANDOFF_MAX_ENTRIES) }, null, 2)}\n`);
    return md;
  } catch {
    return undefined;
  }
}

/** The most a session start shows of the note: its newest section, cut to this many characters. */
export const START_NOTE_MAX_CHARS = 3000;

/** The newest section of a note and when it was written; undefined when the text holds none. */
export function newestSection(note: string): { at: number; text: string } | undefined {
  const i = note.lastIndexOf(SECTION);
  if (i === -1) return undefined;
  const text = note.slice(i + 1).replace(/\s+$/, '');
  const at = Date.parse(/^## Hand-off (\S+)/.exec(text)?.[1] ?? '');
  return Number.isFinite(at) ? { at, text } : undefined;
}

/**
 * What a new session hears first (SessionStart): the newest hand-off of this repository's note when it is recent (a
 * loop's next session starts from it, even before it repeats a command), else nothing. Never throws.
 */
export function noteForNextSession(
  cwd: string,
  env: Record<string, string | undefined> = {},
  now = Date.now(),
  windowMs = LOOP_WINDOW_MS,
): Decision {
  try {
    const paths = handoffPaths(cwd, env);
    if (!paths) return { action: 'allow' };
    const newest = newestSection(readSmall(paths.md, 4 * HANDOFF_MAX_BYTES));
    if (!newest || now - newest.at > windowMs || newest.at - now > windowMs) return { action: 'allow' };
    const head =
      `${MARKER} the loop guard stopped the last session here because it kept repeating a command with nothing ` +
      `changed. Its hand-off note (${HANDOFF_NOTE}) follows: do not repeat what it lists; fix the cause first, or ` +
      'stop and say what must change.\n\n';
    const room = START_NOTE_MAX_CHARS - head.length;
    const body = newest.text.length <= room ? newest.text : `${newest.text.slice(0, room - 1)}…`;
    return { action: 'warn', message: head + body };
  } catch {
    return { action: 'allow' };
  }
}
