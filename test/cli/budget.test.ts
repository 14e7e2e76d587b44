// What `--tools all` writes into an empty repository is a pull request someone reviews: one copy of the guard, every
// other file small, every line readable in a diff view. These numbers are the budget; a change that breaks one of them
// has to change this test, in the open.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { GUARD_PATH } from '../../src/tools/markers.ts';
import { fixtureRepo, readTree, requireCli, runCli } from '../helpers/cli.ts';
import { repoRoot } from '../helpers/paths.ts';

beforeAll(requireCli);

/** All files written, in bytes (KB = 1024 bytes). */
// Raised from 250 KB for issue 29 (PowerShell hang rules, command key and normalization, state on Windows): the guard
// file grew 237,436 → 256,134 bytes (normalize-windows.ts's rule docs left out, as normalize.ts's are), `--tools all`
// 255,015 → 273,713 (267.3 KB).
// Judgment by what changed through the shell (core/writes.ts, the asked sign-in, the exited server) added ~1.9 KB.
// The stop rule as its own block in CLAUDE.md and GEMINI.md (1,272 bytes each, where the import was 11) and the lint
// markers (+228 guard, +113 per loader) added ~3 KB.
// Loops that outlive a session (the loop state, SessionStart's hand-off note) added ~9 KB. All merged, with the quiet
// Claude entry under Cursor and the BOM-tolerant stdin: the guard file is 269,288 bytes, --tools all 290,604 (283.8 KB).
// One hook line for every shell, Windows' too (src/tools/hook-command.ts: the `node -e` loader and cmd.exe's half,
// ~330 characters where `test -f … && node … || true` was ~130, and Copilot's `powershell` field) added ~5.9 KB over
// the 25 hook entries. The long functions split into named steps (issue 34; esbuild keeps a class method's doc
// comment) added 976 bytes to the guard file. Together: 297,542 (290.6 KB). Claude Code's SubagentStop entry (a
// sub-agent's end is a change) added 675: 298,217 (291.2 KB). The hand-off note at a session's first prompt (Gemini
// CLI, Qwen Code, Copilot CLI), a background task's end as a change, and the core's kept answers per command (the
// audit's speed) added 1,586: 299,803 (292.8 KB). A POSIX heredoc gate for the PowerShell reader and Claude Code's
// GIT_EDITOR=true as a tool fact added 377: 300,180 (293.1 KB). The normalization split by subject (issue 34: four
// module headers, three rule builders) added 561: 300,849 (293.8 KB). The command key's tokenizer reading by
// character tables and writesState's kept answers (the audit's speed) added 796: 301,645 (294.6 KB). The splitter's
// plain-line shortcut and normalizeLines' gate (the audit's speed, each with its test against the long way) added
// 1,112: 302,757 (295.7 KB). The same for the file-block sort and the cycle check, and the trailing-blank look,
// added 424: 303,181 (296.1 KB). The split line shared with the next caller, the kept hang answers per context and
// the command key's plain-line shortcut (the audit's speed) added 1,126: 304,307 (297.2 KB).
const TOTAL_BUDGET = 298 * 1024;
/** Only the guard file may be larger than this. */
const LARGE = 40 * 1024;
/** No written line may be longer (scripts/build-guard.mjs holds the guard file to the same number). */
const MAX_LINE = 210;
/** Only the guard file carries the guard's code: these come from its body (the loader's marker, two core functions). */
const GUARD_SIGNS = ['/*@loop-guard-body', 'function decide(', 'function normalizeOutput('];

function installAll(): Map<string, string> {
  const dir = fixtureRepo(null);
  const run = runCli(['--yes', '--tools', 'all'], { cwd: dir });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return readTree(dir);
}

describe('--tools all in an empty repository', () => {
  it(`writes at most ${TOTAL_BUDGET / 1024} KB, with exactly one file over ${LARGE / 1024} KB: the guard`, () => {
    const tree = installAll();
    const sizes = [...tree].map(([path, text]) => [path, Buffer.byteLength(text)] as const);
    const total = sizes.reduce((sum, [, n]) => sum + n, 0);
    expect(total, sizes.map(([p, n]) => `${p} ${n}`).join('\n')).toBeLessThanOrEqual(TOTAL_BUDGET);
    expect(sizes.filter(([, n]) => n > LARGE).map(([p]) => p)).toEqual([GUARD_PATH]);
  });

  it('writes one copy of the guard: no other file carries its code', () => {
    const tree = installAll();
    const carriers = [...tree].filter(([, text]) => GUARD_SIGNS.some((s) => text.includes(s))).map(([p]) => p);
    expect(carriers).toEqual([GUARD_PATH]);
    // The signs are real: each is in the guard file as written.
    for (const s of GUARD_SIGNS) expect(tree.get(GUARD_PATH), s).toContain(s);
  });

  // Markdown is prose, which diff views and editors wrap (the AGENTS.md block's rules are one line each); code is not.
  // A hook's "command" in JSON is one string the tool runs: it cannot be wrapped (Codex's finds the repository root).
  it(`writes no line of code or config longer than ${MAX_LINE} characters`, () => {
    const tree = installAll();
    const code = [...tree].filter(([path]) => !path.endsWith('.md'));
    expect(code.map(([p]) => p)).toContain(GUARD_PATH);
    const hookCommand = (path: string, line: string) =>
      path.endsWith('.json') && /^\s*"(command|powershell)": "/.test(line);
    const long = code.flatMap(([path, text]) =>
      text
        .split('\n')
        .flatMap((line, i) =>
          line.length > MAX_LINE && !hookCommand(path, line) ? [`${path}:${i + 1} (${line.length})`] : [],
        ),
    );
    expect(long).toEqual([]);
  });

  it('the guard file is the shipped dist/loop-guard.cjs, byte for byte', () => {
    const tree = installAll();
    expect(tree.get(GUARD_PATH)).toBe(readFileSync(join(repoRoot, 'dist', 'loop-guard.cjs'), 'utf8'));
  });
});
