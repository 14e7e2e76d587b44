// The --tools value: tool names, the aliases people type (claude-code, all), and a suggestion for a typo.
import { closest } from '../report/suggest.ts';
import { TOOL_NAMES, TOOLS, type ToolName } from '../tools/index.ts';

/** Names people use for a tool besides ours (the package and product names), from the records. */
const ALIASES: Readonly<Record<string, ToolName>> = Object.fromEntries(
  TOOL_NAMES.flatMap((t) => (TOOLS[t].aliases ?? []).map((a) => [a, t])),
);

export interface ToolListResult {
  tools: ToolName[];
  unknown: Array<{ name: string; suggestion?: string }>;
}

export function parseToolArg(value: string): ToolListResult {
  const tools: ToolName[] = [];
  const unknown: ToolListResult['unknown'] = [];
  const add = (t: ToolName) => tools.includes(t) || tools.push(t);
  for (const raw of value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)) {
    if (raw === 'all') TOOL_NAMES.forEach(add);
    else if ((TOOL_NAMES as readonly string[]).includes(raw)) add(raw as ToolName);
    else if (ALIASES[raw]) add(ALIASES[raw]);
    else {
      const hit = closest(raw, [...TOOL_NAMES, ...Object.keys(ALIASES)]);
      const suggestion = hit === undefined ? undefined : (ALIASES[hit] ?? hit);
      unknown.push({ name: raw, ...(suggestion ? { suggestion } : {}) });
    }
  }
  return { tools, unknown };
}

export function toolListError(value: string, r: ToolListResult): string {
  const bad = r.unknown[0];
  const hint = bad?.suggestion ? ` Did you mean ${bad.suggestion}?` : '';
  const what = bad ? `unknown tool ${JSON.stringify(bad.name)}.${hint}` : `no tool named in ${JSON.stringify(value)}.`;
  return `--tools: ${what} It takes a comma-separated list of ${TOOL_NAMES.join(', ')} (or all).`;
}
