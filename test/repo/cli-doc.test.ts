// docs/cli.md's table of hook entries per tool is generated from the tool records, so it cannot go stale: this test
// compares it with the records and, with LOOP_GUARD_WRITE_DOCS=1, writes it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ourLoaderRoot } from '../../src/tools/hook-command.ts';
import { type Intent, TOOL_NAMES, TOOLS } from '../../src/tools/index.ts';
import { repoRoot } from '../helpers/paths.ts';

const DOC = join(repoRoot, 'docs', 'cli.md');
const START = '<!-- generated from src/tools (test/repo/cli-doc.test.ts): hook entries per tool -->';
const END = '<!-- end of the generated table -->';

const code = (s: string) => `\`${s.replace(/\|/g, '\\|')}\``;

/** One intent in words: the file, and for a hooks file each event with its matcher. */
function describeIntent(intent: Intent): string | null {
  switch (intent.kind) {
    case 'json': {
      const events = intent.hooks.events
        .map((e) => (e.matcher ? `${code(e.event)} (${code(e.matcher)})` : code(e.event)))
        .join(', ');
      return `${code(intent.path)}: ${events}${intent.env ? `; env at ${code(intent.env.path.join('.'))}` : ''}`;
    }
    case 'toml-env':
      return `${code(intent.path)}: ${code('[shell_environment_policy] set')}`;
    case 'import':
      return `${code(intent.path)}: ${code(intent.line)}`;
    case 'owned':
      // The guard file and .agents/.gitignore are every tool's: the table's last line lists them.
      return intent.asset === 'guard' || intent.asset === 'agents-gitignore' ? null : code(intent.path);
    case 'block':
      return null;
  }
}

/** The hook command each tool runs (one per tool: every json intent of a tool runs the same command). */
function commandOf(intents: readonly Intent[]): string {
  const cmds = [...new Set(intents.flatMap((i) => (i.kind === 'json' ? [i.hooks.command] : [])))];
  // Our `node -e` line is named by where its loader starts (guard-file.md shows the loader itself).
  const say = (c: string) => {
    const start = ourLoaderRoot(c);
    if (!start) return code(c);
    const tail = c.slice(c.lastIndexOf('" ') + 2);
    return `${code(`node -e "<loader>" ${tail}`)} (from ${start.rootEnv ? `${code(`$${start.rootEnv}`)}, else ` : ''}the cwd)`;
  };
  return cmds.length ? cmds.map(say).join('<br>') : 'in-process plugin';
}

function toolTable(): string {
  const rows = TOOL_NAMES.map((t) => {
    const r = TOOLS[t];
    const files = r.intents.map(describeIntent).filter((x): x is string => x !== null);
    return `| ${r.label} | ${files.join('<br>')} | ${commandOf(r.intents)} |`;
  });
  return [
    START,
    '',
    '| Tool | Entries (event and matcher) | Hook command |',
    '| --- | --- | --- |',
    ...rows,
    '',
    END,
  ].join('\n');
}

describe('docs/cli.md', () => {
  it('the per-tool hook table is the one the records give', () => {
    const text = readFileSync(DOC, 'utf8');
    const a = text.indexOf(START);
    const b = text.indexOf(END);
    expect(a, `docs/cli.md has no generated table (${START})`).toBeGreaterThan(-1);
    const want = toolTable();
    if (process.env.LOOP_GUARD_WRITE_DOCS === '1') {
      writeFileSync(DOC, text.slice(0, a) + want + text.slice(b + END.length));
      return;
    }
    expect(text.slice(a, b + END.length), 'stale: rerun with LOOP_GUARD_WRITE_DOCS=1').toBe(want);
  });
});
