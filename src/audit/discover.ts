// Where each agent tool keeps its transcripts on this machine. Only listing and stat here: nothing is read.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { TOOL_NAMES, type ToolName } from '../tools/names.ts';

export type SourceKind = 'jsonl' | 'json' | 'sqlite';

export interface Source {
  tool: ToolName;
  path: string;
  kind: SourceKind;
  size: number;
  mtimeMs: number;
  /** The folder name says which project the session ran in (Claude Code's encoded cwd). */
  projectDir?: string;
}

export interface DiscoverEnv {
  home: string;
  env: Record<string, string | undefined>;
}

export interface Discovery {
  sources: Source[];
  /** Folders or files that exist but could not be listed or stat'ed. */
  unreadable: Array<{ path: string; error: string }>;
}

/** The transcript roots per tool (each honours the tool's own environment variable). */
export function roots(where: DiscoverEnv): Partial<Record<ToolName, string>> {
  const { home, env } = where;
  const dataHome = env.XDG_DATA_HOME?.startsWith('/') ? env.XDG_DATA_HOME : join(home, '.local', 'share');
  return {
    claude: join(env.CLAUDE_CONFIG_DIR || join(home, '.claude'), 'projects'),
    codex: join(env.CODEX_HOME || join(home, '.codex'), 'sessions'),
    opencode: join(dataHome, 'opencode'),
    gemini: join(home, '.gemini', 'tmp'),
    copilot: join(env.COPILOT_HOME || join(home, '.copilot'), 'session-state'),
    qwen: join(env.QWEN_HOME || join(home, '.qwen'), 'projects'),
    cline: join(home, '.cline', 'data', 'sessions'),
    kilo: join(dataHome, 'kilo'),
  };
}

/** Claude Code names a project folder after its cwd with every non-alphanumeric character turned into "-". */
export function claudeProjectDir(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

function list(dir: string, out: Discovery): string[] {
  try {
    return readdirSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') out.unreadable.push({ path: dir, error: code ?? String(err) });
    return [];
  }
}

function add(out: Discovery, tool: ToolName, path: string, kind: SourceKind, extra: Partial<Source> = {}): void {
  try {
    const st = statSync(path);
    if (!st.isFile()) return;
    out.sources.push({ tool, path, kind, size: st.size, mtimeMs: st.mtimeMs, ...extra });
  } catch (err) {
    out.unreadable.push({ path, error: (err as NodeJS.ErrnoException).code ?? String(err) });
  }
}

/** Every file under dir (bounded depth) whose name passes the test. */
function walk(
  dir: string,
  depth: number,
  test: (name: string) => boolean,
  found: (path: string) => void,
  out: Discovery,
): void {
  for (const name of list(dir, out)) {
    const p = join(dir, name);
    if (test(name)) found(p);
    else if (depth > 0 && !name.includes('.')) walk(p, depth - 1, test, found, out);
  }
}

/** How each tool's transcripts are laid out under its root. */
const FINDERS: Readonly<Partial<Record<ToolName, (root: string, out: Discovery) => void>>> = {
  claude: (root, out) => {
    for (const project of list(root, out)) {
      // Sessions, and their sub-agents in <session>/subagents/.
      walk(
        join(root, project),
        2,
        (n) => n.endsWith('.jsonl'),
        (p) => add(out, 'claude', p, 'jsonl', { projectDir: project }),
        out,
      );
    }
  },
  codex: (root, out) =>
    walk(
      root,
      4,
      (n) => n.startsWith('rollout-') && n.endsWith('.jsonl'),
      (p) => add(out, 'codex', p, 'jsonl'),
      out,
    ),
  opencode: (root, out) => add(out, 'opencode', join(root, 'opencode.db'), 'sqlite'),
  gemini: (root, out) => {
    for (const project of list(root, out)) {
      for (const name of list(join(root, project, 'chats'), out)) {
        if (/^session-.*\.jsonl$/.test(name)) add(out, 'gemini', join(root, project, 'chats', name), 'jsonl');
        else if (/^session-.*\.json$/.test(name)) add(out, 'gemini', join(root, project, 'chats', name), 'json');
      }
    }
  },
  copilot: (root, out) => {
    for (const id of list(root, out)) add(out, 'copilot', join(root, id, 'events.jsonl'), 'jsonl');
  },
  qwen: (root, out) => {
    for (const project of list(root, out)) {
      for (const name of list(join(root, project, 'chats'), out))
        if (name.endsWith('.jsonl')) add(out, 'qwen', join(root, project, 'chats', name), 'jsonl');
    }
  },
  // The conversation; its metadata file (<id>.json, which holds the cwd) is read with it (scan.ts companions).
  cline: (root, out) => {
    for (const id of list(root, out)) add(out, 'cline', join(root, id, `${id}.messages.json`), 'json');
  },
  // Kilo is an OpenCode fork and keeps the same tables in its own database.
  kilo: (root, out) => add(out, 'kilo', join(root, 'kilo.db'), 'sqlite'),
};

/** The agent tools whose transcripts audit reads: those with a finder above (Cursor has none). */
export const AUDIT_TOOLS: readonly ToolName[] = TOOL_NAMES.filter((t) => FINDERS[t] !== undefined);

export function discover(where: DiscoverEnv, tools: readonly ToolName[]): Discovery {
  const out: Discovery = { sources: [], unreadable: [] };
  const r = roots(where);
  for (const tool of tools) {
    const root = r[tool];
    if (root !== undefined) FINDERS[tool]?.(root, out);
  }
  // A missing database is not an error; add() recorded ENOENT for it only when it was unreadable otherwise.
  out.unreadable = out.unreadable.filter((u) => u.error !== 'ENOENT');
  return out;
}
