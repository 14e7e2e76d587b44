// Every text tells the truth about the tools: --help, the guard's usage line, README.md and docs/*.md name the tools
// of the records (src/tools), and no file cites an issue number (the repository stands alone, its history in git).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_TOOLS } from '../../src/audit/discover.ts';
import { HOOK_FORMATS } from '../../src/guard/adapters/index.ts';
import { usageLine } from '../../src/guard/main.ts';
import { GUARD_PATH, TOOL_NAMES, TOOLS } from '../../src/tools/index.ts';
import { cliFile, guardFile, nodeBin, repoRoot, requireBuilt } from '../helpers/paths.ts';

beforeAll(() => requireBuilt());

/** Each way a text names a tool: its id (`claude`) or its label (`Claude Code`), matched case-insensitively. */
const NAME = new RegExp(
  `\\b(?:${[...TOOL_NAMES.map((t) => TOOLS[t].label), ...TOOL_NAMES]
    .sort((a, b) => b.length - a.length)
    .map((n) => n.replace(/ /g, '\\s+'))
    .join('|')})\\b`,
  'gi',
);
const toolOf = (word: string) => {
  const w = word.replace(/\s+/g, ' ').toLowerCase();
  return TOOL_NAMES.find((t) => t === w || TOOLS[t].label.toLowerCase() === w);
};

/**
 * The tool lists in a text: runs of six or more tool names (five-tool subsets, like the harness tools, are sentences about those five) separated only by commas, `|`, slashes, "and"/"or",
 * spaces and code quotes, e.g. "Claude Code, Codex, Cursor, …" or `<claude|codex|cursor>`.
 */
function toolLists(text: string): string[][] {
  const lists: string[][] = [];
  let run: { tools: string[]; end: number } | null = null;
  for (const m of text.matchAll(NAME)) {
    const tool = toolOf(m[0]);
    if (!tool) continue;
    const gap = run ? text.slice(run.end, m.index) : '';
    // A shortened label ("Copilot CLI", "Kilo") leaves its last word in the gap.
    if (run && /^(?:\s*(?:CLI|Code))?[\s`'"*,|/<>()]*(?:(?:and|or)[\s`'"*]*)?$/.test(gap)) run.tools.push(tool);
    else {
      if (run && run.tools.length >= 6) lists.push(run.tools);
      run = { tools: [tool], end: 0 };
    }
    run.end = m.index + m[0].length;
  }
  if (run && run.tools.length >= 6) lists.push(run.tools);
  return lists;
}

/**
 * A list is true when it names every tool, or exactly one of the subsets the code defines: the tools audit reads
 * (also the ones proven in their real CLIs), or the tools that run the hook file as a command.
 */
function lie(list: readonly string[]): string | null {
  const set = new Set(list);
  const exactly = (sub: readonly string[]) => set.size === sub.length && sub.every((t) => set.has(t));
  if (exactly(TOOL_NAMES) || exactly(AUDIT_TOOLS) || exactly(HOOK_FORMATS)) return null;
  return `names ${[...set].join(', ')}; missing ${TOOL_NAMES.filter((t) => !set.has(t)).join(', ')}`;
}

function markdownFiles(): string[] {
  const docs = join(repoRoot, 'docs');
  return [
    join(repoRoot, 'README.md'),
    ...(existsSync(docs) ? readdirSync(docs).filter((f) => f.endsWith('.md')) : []).map((f) => join(docs, f)),
  ];
}

function srcFiles(dir = join(repoRoot, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? srcFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('tool lists match the records', () => {
  it('the list finder finds lists, and only lists', () => {
    expect(toolLists('Usage: node loop-guard.cjs <claude|codex|cursor|opencode|gemini|kilo> < payload.json')).toEqual([
      ['claude', 'codex', 'cursor', 'opencode', 'gemini', 'kilo'],
    ]);
    expect(toolLists('in Claude Code, Codex, Cursor, GitHub Copilot\nCLI, Kilo and Qwen\nCode.')).toEqual([
      ['claude', 'codex', 'cursor', 'copilot', 'kilo', 'qwen'],
    ]);
    expect(toolLists('Claude Code, Codex, Cursor, OpenCode, Gemini CLI and Qwen Code.')).toHaveLength(1);
    expect(toolLists('Claude Code reads hooks; Codex does too. Cursor, OpenCode and Qwen Code as well.')).toEqual([]);
    expect(lie(['claude', 'codex', 'cursor', 'opencode', 'gemini'])).toMatch(/missing copilot/);
    expect(lie([...TOOL_NAMES])).toBeNull();
  });

  it('--help names every tool by its label and lists every id for --tools, and the audit ones for audit', () => {
    const help = spawnSync(nodeBin, [cliFile, '--help'], { encoding: 'utf8' }).stdout.replace(/\s+/g, ' ');
    for (const t of TOOL_NAMES) expect(help).toContain(TOOLS[t].label);
    expect(help).toContain(TOOL_NAMES.join(','));
    expect(help).toContain(`--tools ${AUDIT_TOOLS.join(',')}`);
    expect(toolLists(help).map(lie).filter(Boolean)).toEqual([]);
  });

  it('the hook formats are the tools whose records run the hook file with their own name as the argument', () => {
    // After the guard's path in the hook command (a plain argument, or inside the `node -e` loader) comes the tool's name.
    const byRecord = TOOL_NAMES.filter((t) =>
      TOOLS[t].intents.some((i) => {
        if (i.kind !== 'json') return false;
        const at = i.hooks.command.lastIndexOf(GUARD_PATH);
        return at >= 0 && i.hooks.command.slice(at).split(' ').includes(t);
      }),
    );
    expect([...HOOK_FORMATS].sort()).toEqual(byRecord.sort());
  });

  it("the guard's usage line lists the hook formats, in the built file too", () => {
    const list = `<${HOOK_FORMATS.join('|')}>`;
    expect(usageLine()).toContain(list);
    const built = readFileSync(guardFile, 'utf8');
    expect(built).toContain(list);
    const r = spawnSync('script', ['-qec', `${nodeBin} ${guardFile} claude`, '/dev/null'], {
      encoding: 'utf8',
      input: '',
      timeout: 10_000,
    });
    // Through a terminal (script(1)), when there is one to be had: the line a person sees.
    if (r.status === 0) expect(r.stdout).toContain(list);
  });

  it('README.md and docs/*.md: every tool list names every tool (or the tools audit reads)', () => {
    const bad = markdownFiles().flatMap((f) =>
      toolLists(readFileSync(f, 'utf8'))
        .map((list) => lie(list))
        .filter((why): why is string => why !== null)
        .map((why) => `${relative(repoRoot, f)}: ${why}`),
    );
    expect(bad).toEqual([]);
  });

  it('every alternation of tool ids (like <claude|codex|cursor>) in README, docs and src is a true list', () => {
    const ids = TOOL_NAMES.join('|');
    const alternation = new RegExp(`<(?:${ids})(?:\\|(?:${ids}))+>`, 'g');
    const bad = [...markdownFiles(), ...srcFiles()].flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(alternation)]
        .filter((m) => lie(m[0].slice(1, -1).split('|')) !== null)
        .map((m) => `${relative(repoRoot, f)}: ${m[0]}`),
    );
    expect(bad).toEqual([]);
  });
});

describe('the repository stands alone', () => {
  const ISSUE = /\bissues? \d+|\(issue \d+\)/i;

  it('the rule sees issue numbers', () => {
    expect(ISSUE.test('Goals (issue 13): every ratio')).toBe(true);
    expect(ISSUE.test('Issue 12 rough edges')).toBe(true);
    expect(ISSUE.test('no issue with 13 tools')).toBe(false);
  });

  it('no README, docs or src file cites an issue number', () => {
    const bad = [...markdownFiles(), ...srcFiles()].flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (ISSUE.test(line) ? [`${relative(repoRoot, f)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(bad).toEqual([]);
  });
});
