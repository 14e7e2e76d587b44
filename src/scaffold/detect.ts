// Which agent tools a repository uses, with the paths that show it. Looks only at fixed paths, never walks the tree.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { TOOL_NAMES, TOOLS, type ToolName } from '../tools/index.ts';

export interface DetectedTool {
  name: ToolName;
  evidence: string[];
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
