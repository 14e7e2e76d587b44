// Which agent tools a repository uses, with the paths that show it. Looks only at fixed paths, never walks the tree.
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { TOOL_NAMES, TOOLS, type ToolName } from '../tools/index.ts';

export interface DetectedTool {
  name: ToolName;
  evidence: string[];
}

/** The nearest directory at or above `start` holding .git (a directory, or a file in worktrees); null if none. */
export function findGitRoot(start: string): string | null {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, '.git'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function present(root: string, rel: string): boolean {
  const wantDir = rel.endsWith('/');
  try {
    const st = statSync(join(root, rel));
    return wantDir ? st.isDirectory() : st.isFile();
  } catch {
    return false;
  }
}

export function detectTools(root: string): DetectedTool[] {
  const found: DetectedTool[] = [];
  for (const name of TOOL_NAMES) {
    const evidence = TOOLS[name].evidence.filter((rel) => present(root, rel));
    if (evidence.length) found.push({ name, evidence });
  }
  return found;
}

/** Tools only suggested by weak evidence (and not detected by strong evidence): "also possible". */
export function detectWeak(root: string): DetectedTool[] {
  const strong = new Set(detectTools(root).map((d) => d.name));
  const found: DetectedTool[] = [];
  for (const name of TOOL_NAMES) {
    if (strong.has(name)) continue;
    const evidence = (TOOLS[name].weakEvidence ?? []).filter((rel) => present(root, rel));
    if (evidence.length) found.push({ name, evidence });
  }
  return found;
}

/** Parse a --tools value; unknown names are a usage error. */
export function parseToolList(value: string): { tools: ToolName[]; unknown: string[] } {
  const names = value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const tools: ToolName[] = [];
  const unknown: string[] = [];
  for (const n of names) {
    if ((TOOL_NAMES as readonly string[]).includes(n)) {
      if (!tools.includes(n as ToolName)) tools.push(n as ToolName);
    } else unknown.push(n);
  }
  return { tools, unknown };
}
