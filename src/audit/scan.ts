// Reads each transcript as a stream and replays its sessions; unknown lines are skipped and counted, an unreadable
// transcript is reported by name, and sessions outside the scope are dropped as early as their path or first lines
// allow.
import { sep } from 'node:path';
import { TOOLS } from '../tools/index.ts';
import { claudeProjectDir, type Source } from './discover.ts';
import { obj, type AuditEvent, type Obj, type SessionInfo } from './events.ts';
import { CLAUDE_NEEDLES, createClaudeParser } from './formats/claude.ts';
import { CODEX_NEEDLES, codexLineWorth, createCodexParser } from './formats/codex.ts';
import { createClineParser } from './formats/cline.ts';
import { createCopilotParser } from './formats/copilot.ts';
import { createGeminiParser } from './formats/gemini.ts';
import { openCodePartEvents } from './formats/opencode.ts';
import { createQwenParser } from './formats/qwen.ts';
import type { RecordParser } from './formats/types.ts';
import type { GuardSettings } from './judge.ts';
import type { Pricer } from './prices.ts';
import { Finder, forEachLineBytes, headKeyAt, lineText, MAX_LINE_CHARS, Needles } from './lines.ts';
import { SessionRun, type SessionSummary } from './session.ts';
import { columnsOf, SqliteReader } from './sqlite.ts';
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface Scope {
  /** Only sessions whose working directory is this folder or inside it; undefined = every project. */
  project?: string;
  /** Only sessions active at or after this time (epoch ms). */
  since?: number;
}

export interface ScanStats {
  files: number;
  bytes: number;
  /** Lines that were not JSON or not a record the format knows. */
  unknownLines: number;
  oversizeLines: number;
  unreadable: Array<{ file: string; error: string }>;
  /** Sessions of other projects, per tool, seen while reading (for "none here, but N elsewhere"). */
  elsewhere?: Partial<Record<Source['tool'], number>>;
  /** When the newest of them was last written (epoch ms). */
  elsewhereNewest?: number;
}

/** Counts a session that ran in another project. */
function countElsewhere(stats: ScanStats, tool: Source['tool'], mtimeMs: number): void {
  stats.elsewhere ??= {};
  stats.elsewhere[tool] = (stats.elsewhere[tool] ?? 0) + 1;
  if (stats.elsewhereNewest === undefined || mtimeMs > stats.elsewhereNewest) stats.elsewhereNewest = mtimeMs;
}

export function inScope(cwd: string | undefined, scope: Scope): boolean {
  if (scope.project === undefined) return true;
  if (cwd === undefined) return false;
  const root = scope.project.endsWith(sep) ? scope.project.slice(0, -1) : scope.project;
  return cwd === root || cwd.startsWith(root + sep);
}

interface Format {
  /** A parser that searches lines may be given the scanner's Finder, to share what both search for. */
  parser?: (find?: Finder) => RecordParser;
  /** Claude Code: sub-agent turns inside the main file are replayed apart. */
  sidechains?: boolean;
  /**
   * Byte strings one of which every line worth parsing holds (once the session's cwd is known): the other lines are
   * bookkeeping or conversation text, known without a JSON.parse or even decoding them.
   */
  needles?: readonly string[];
  /** The same answer as the needles, read from the line's head; undefined when the head does not tell. */
  worthAtHead?: (view: string, start: number, end: number) => boolean | undefined;
  /** Whole-JSON files read before the transcript (Cline keeps the session's cwd in a metadata file beside it). */
  companions?: (path: string) => string[];
}

/** What the scanner needs per transcript format. OpenCode and Kilo are databases, read apart. */
const FORMATS: Readonly<Partial<Record<Source['tool'], Format>>> = {
  claude: { parser: createClaudeParser, sidechains: true, needles: CLAUDE_NEEDLES },
  codex: { parser: createCodexParser, needles: CODEX_NEEDLES, worthAtHead: codexLineWorth },
  gemini: { parser: createGeminiParser },
  copilot: { parser: createCopilotParser },
  qwen: { parser: createQwenParser },
  cline: {
    parser: createClineParser,
    companions: (p) => [join(dirname(p), basename(p).replace(/\.messages\.json$/, '.json'))],
  },
  opencode: {},
  kilo: {},
};

/**
 * True when the line's own isSidechain key, among its first ones (`{"parentUuid":…,"isSidechain":false`), is false:
 * then no search of the whole line for `"isSidechain":true` is needed. False when the head does not tell.
 */
function notSidechainAtHead(view: string, start: number, end: number): boolean {
  const key = '"isSidechain":';
  // Searched in the head only: a line without the key must not send the search through the rest of the chunk.
  const k = headKeyAt(view, start, end, key, 200);
  return k !== -1 && view.startsWith('false', k + key.length);
}

/** Claude Code's folder name rules a session in or out before a byte of it is read. */
function pathMayBeInScope(src: Source, scope: Scope): boolean {
  if (scope.project === undefined || src.projectDir === undefined) return true;
  const enc = claudeProjectDir(scope.project);
  return src.projectDir === enc || src.projectDir.startsWith(`${enc}-`);
}

/** A replay lane: one parser and the session it feeds. */
interface Lane {
  parser: RecordParser;
  run: SessionRun;
}

/** One transcript file being read: its format, the session's lane, and the sub-agent lane when one turns up. */
interface FileScan extends Lane {
  src: Source;
  /** The searches of the file's chunks, shared by the scanner and its main parser. */
  find: Finder;
  scope: Scope;
  stats: ScanStats;
  format: Format;
  /** A parser of the format, for the sub-agent lane. */
  newParser: () => RecordParser;
  settings: GuardSettings;
  pricer: Pricer | undefined;
  emit: (e: AuditEvent) => void;
  /**
   * Older Claude Code versions wrote a sub-agent's turns into the main file (isSidechain); the guard counts a
   * sub-agent apart from its session, so they are replayed apart.
   */
  side: Lane | undefined;
  /** The session said it ran elsewhere: reading stopped. */
  outOfScope: boolean;
}

/** One parsed record, to its lane; false when reading can stop (the session ran in another project). */
function onRecord(f: FileScan, rec: Obj): boolean {
  const { format, src, parser, stats } = f;
  if (format.sidechains && rec.isSidechain === true && src.path.indexOf(`${sep}subagents${sep}`) === -1) {
    f.side ??= { parser: f.newParser(), run: new SessionRun(src.tool, src.path, f.settings, f.pricer) };
    const lane = f.side;
    if (!lane.parser.push(rec, (e) => lane.run.feed(e))) stats.unknownLines++;
    return true;
  }
  if (!parser.push(rec, f.emit)) stats.unknownLines++;
  // Stop reading as soon as the session says it ran elsewhere.
  if (parser.info.cwd !== undefined && !inScope(parser.info.cwd, f.scope)) {
    f.outOfScope = true;
    return false;
  }
  return true;
}

/** A whole-JSON transcript, its companion files first; false when it is not read (too large, or elsewhere). */
function readJsonFile(f: FileScan, maxLine: number): boolean {
  const { src, stats } = f;
  if (src.size > maxLine) {
    stats.oversizeLines++;
    return false;
  }
  for (const companion of f.format.companions?.(src.path) ?? []) {
    const size = statSync(companion, { throwIfNoEntry: false })?.size;
    if (size === undefined || size > maxLine) continue;
    const meta = obj(JSON.parse(readFileSync(companion, 'utf8')));
    stats.bytes += size;
    if (meta && !onRecord(f, meta)) f.outOfScope = true;
  }
  if (f.outOfScope) {
    countElsewhere(stats, src.tool, src.mtimeMs);
    return false;
  }
  const rec = obj(JSON.parse(readFileSync(src.path, 'utf8')));
  stats.bytes += src.size;
  if (!rec) stats.unknownLines++;
  else onRecord(f, rec);
  return true;
}

/** A JSON-lines transcript, line by line; lines no record of interest can be in are skipped before any parse. */
function readJsonLines(f: FileScan, maxLine: number): void {
  const { format, parser, stats, emit } = f;
  const worth = format.needles ? new Needles(format.needles, f.find) : undefined;
  const typed = new Needles(['"type":"'], f.find);
  const lineStats = forEachLineBytes(
    f.src.path,
    (buf, start, end, view) => {
      if (start === end) return true;
      if (
        worth &&
        parser.info.cwd !== undefined &&
        !(format.worthAtHead?.(view, start, end) ?? worth.any(view, start, end))
      ) {
        // Not decoded: a known record type (bookkeeping), unless it does not even look like one.
        if (buf[start] !== 0x7b || !typed.any(view, start, end)) stats.unknownLines++;
        return true;
      }
      // Sub-agent turns (isSidechain) go to their own lane, which only a parsed record can tell.
      if (
        parser.skipLine &&
        (!format.sidechains ||
          notSidechainAtHead(view, start, end) ||
          !f.find.has(view, '"isSidechain":true', start, end)) &&
        parser.skipLine(view, start, end, emit)
      )
        return true;
      let rec: Obj | undefined;
      try {
        rec = obj(JSON.parse(lineText(buf, start, end, view)));
      } catch {
        rec = undefined;
      }
      if (!rec) {
        stats.unknownLines++;
        return true;
      }
      return onRecord(f, rec);
    },
    maxLine,
  );
  stats.bytes += lineStats.bytes;
  stats.oversizeLines += lineStats.oversize;
}

/** The file's sessions (the main one, and the sub-agent lane's), or none when it ran elsewhere or before `since`. */
function summariesOf(f: FileScan): SessionSummary[] {
  const { src, scope, stats, side } = f;
  const info: SessionInfo = f.parser.info;
  if (f.outOfScope || (scope.project !== undefined && !inScope(info.cwd, scope))) {
    countElsewhere(stats, src.tool, src.mtimeMs);
    return [];
  }
  const summaries = [f.run.finish(info)];
  if (side)
    summaries.push(
      side.run.finish({
        ...side.parser.info,
        id: `${side.parser.info.id ?? info.id ?? ''}/sidechain`,
        ...(info.cwd ? { cwd: info.cwd } : {}),
      }),
    );
  return summaries.filter((s) => scope.since === undefined || s.lastAt === undefined || s.lastAt >= scope.since);
}

export function scanSource(
  src: Source,
  scope: Scope,
  settings: GuardSettings,
  stats: ScanStats,
  maxLine = MAX_LINE_CHARS,
  pricer?: Pricer,
): SessionSummary[] {
  if (scope.since !== undefined && src.mtimeMs < scope.since) return [];
  if (src.kind === 'sqlite') return scanOpenCode(src, scope, settings, stats, pricer);
  if (!pathMayBeInScope(src, scope)) {
    // A sub-agent's file is part of its session, not a session of its own.
    if (src.path.indexOf(`${sep}subagents${sep}`) === -1) countElsewhere(stats, src.tool, src.mtimeMs);
    return [];
  }
  const format = FORMATS[src.tool];
  if (!format?.parser) return [];
  const find = new Finder();
  const parser = format.parser(find);
  const run = new SessionRun(src.tool, src.path, settings, pricer);
  const emit = (e: AuditEvent) => run.feed(e);
  const f: FileScan = {
    src,
    find,
    scope,
    stats,
    format,
    newParser: format.parser,
    settings,
    pricer,
    parser,
    run,
    emit,
    side: undefined,
    outOfScope: false,
  };
  stats.files++;
  try {
    if (src.kind === 'json') {
      if (!readJsonFile(f, maxLine)) return [];
    } else readJsonLines(f, maxLine);
    parser.end?.(emit);
  } catch (err) {
    stats.unreadable.push({ file: src.path, error: (err as Error).message ?? String(err) });
    return [];
  }
  return summariesOf(f);
}

/** OpenCode's (and Kilo's) database: sessions from `session`, then every part in insertion order, routed to its
 * session's replay. */
function scanOpenCode(
  src: Source,
  scope: Scope,
  settings: GuardSettings,
  stats: ScanStats,
  pricer?: Pricer,
): SessionSummary[] {
  let db: SqliteReader | undefined;
  stats.files++;
  try {
    db = new SqliteReader(src.path);
    const table = (name: string) => {
      const root = db?.rootPage(name);
      const cols = db ? columnsOf(db, name) : undefined;
      if (root === undefined || !cols)
        throw new Error(`no ${name} table (a ${TOOLS[src.tool].label} version this audit does not know)`);
      return { root, col: (c: string) => cols.indexOf(c) };
    };
    const sessions = new Map<string, { info: SessionInfo; run: SessionRun; updated: number }>();
    const tool = src.tool;
    const s = table('session');
    for (const row of db.rows(s.root)) {
      const id = row[s.col('id')];
      const dir = row[s.col('directory')];
      const updated = row[s.col('time_updated')];
      if (typeof id !== 'string' || typeof dir !== 'string') {
        stats.unknownLines++;
        continue;
      }
      if (!inScope(dir, scope)) {
        countElsewhere(stats, tool, typeof updated === 'number' ? updated : src.mtimeMs);
        continue;
      }
      if (scope.since !== undefined && typeof updated === 'number' && updated < scope.since) continue;
      sessions.set(id, {
        info: { id, cwd: dir },
        run: new SessionRun(tool, `${src.path}#${id}`, settings, pricer),
        updated: typeof updated === 'number' ? updated : 0,
      });
    }
    if (sessions.size === 0) return [];
    const m = table('message');
    const userMessages = new Set<string>();
    /** Assistant message id → its model (bounded: only the ids of sessions in scope). */
    const models = new Map<string, string>();
    for (const row of db.rows(m.root)) {
      const sid = row[m.col('session_id')];
      if (typeof sid !== 'string' || !sessions.has(sid)) continue;
      const data = row[m.col('data')];
      // Cheap test first: most messages are the assistant's.
      if (typeof data === 'string' && data.includes('"role":"user"')) userMessages.add(String(row[m.col('id')]));
      else if (typeof data === 'string') {
        const model = /"modelID":"([^"\\]{1,200})"/.exec(data)?.[1];
        if (model) models.set(String(row[m.col('id')]), model);
      }
    }
    const p = table('part');
    const started = new Set<string>();
    for (const row of db.rows(p.root)) {
      const sid = row[p.col('session_id')];
      const session = typeof sid === 'string' ? sessions.get(sid) : undefined;
      if (!session) continue;
      const raw = row[p.col('data')];
      let data: Obj | undefined;
      try {
        data = typeof raw === 'string' ? obj(JSON.parse(raw)) : undefined;
      } catch {
        data = undefined;
      }
      if (!data) {
        stats.unknownLines++;
        continue;
      }
      stats.bytes += typeof raw === 'string' ? raw.length : 0;
      const mid = String(row[p.col('message_id')]);
      const isUser = userMessages.has(mid);
      const first = isUser && !started.has(mid);
      if (first) started.add(mid);
      const created = row[p.col('time_created')];
      for (const e of openCodePartEvents(
        data,
        isUser,
        first,
        typeof created === 'number' ? created : undefined,
        models.get(mid),
      ))
        session.run.feed(e);
    }
    return [...sessions.values()].map(({ info, run }) => run.finish(info));
  } catch (err) {
    stats.unreadable.push({ file: src.path, error: (err as Error).message ?? String(err) });
    return [];
  } finally {
    db?.close();
  }
}
