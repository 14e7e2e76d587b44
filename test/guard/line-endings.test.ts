// The guard file and its plugin loaders as a Windows checkout can leave them: CRLF line endings (core.autocrlf=true,
// Git for Windows' default, before .gitattributes pinned them LF), a UTF-8 BOM an editor put in front, or both. The
// hook must judge as it does on the LF file, and the plugin loaders must load it (docs/guard-file.md).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshStateDir, guardEnv, loadPayload, nodeBin } from '../helpers/guard.ts';
import { repoRoot, requireFiles } from '../helpers/paths.ts';

const built = join(repoRoot, 'dist', 'loop-guard.cjs');
const templates = join(repoRoot, 'dist', 'templates');
beforeAll(() => requireFiles([built, join(templates, 'opencode-loader.js'), join(templates, 'cline-loader.js')]));

const crlf = (s: string) => s.replace(/\n/g, '\r\n');
const bom = (s: string) => `\ufeff${s}`;
const SHAPES: Array<[string, (s: string) => string]> = [
  ['CRLF', crlf],
  ['a BOM', bom],
  ['CRLF and a BOM', (s) => bom(crlf(s))],
];

/** A repository holding the guard file (and the plugin loaders) in `shape`. */
function repoWith(shape: (s: string) => string): string {
  const repo = realpathSync(mkdtempSync(join(tmpdir(), 'lg-eol-')));
  mkdirSync(join(repo, '.agents', 'hooks'), { recursive: true });
  writeFileSync(join(repo, '.agents', 'hooks', 'loop-guard.cjs'), shape(readFileSync(built, 'latin1')), 'utf8');
  for (const [template, at] of [
    ['opencode-loader.js', '.opencode/plugins/loop-guard.mjs'],
    ['cline-loader.js', '.cline/plugins/loop-guard.js'],
  ] as const) {
    mkdirSync(join(repo, at, '..'), { recursive: true });
    writeFileSync(join(repo, at), shape(readFileSync(join(templates, template), 'utf8')));
  }
  return repo;
}

function hook(repo: string, payload: object, state: string): string {
  const file = join(repo, '.agents', 'hooks', 'loop-guard.cjs');
  const r = spawnSync(nodeBin, [file, 'claude'], {
    input: JSON.stringify(payload),
    env: guardEnv(state),
    encoding: 'utf8',
  });
  expect(r.status).toBe(0);
  return r.stdout;
}

describe.each(SHAPES)('the guard file with %s', (_what, shape) => {
  it('as a hook: refuses `vim`, and a repeated identical failure by the 5th attempt', () => {
    const repo = repoWith(shape);
    const state = freshStateDir();
    const pre = loadPayload('claude/PreToolUse-failure.json') as { tool_input: { command: string }; cwd: string };
    const vim = { ...pre, cwd: repo, tool_input: { ...pre.tool_input, command: 'vim notes.txt' } };
    expect(JSON.parse(hook(repo, vim, state)).hookSpecificOutput.permissionDecision).toBe('deny');
    const first = { ...pre, cwd: repo };
    const post = {
      ...(loadPayload('claude/PostToolUseFailure-failure.json') as object),
      cwd: repo,
      tool_input: pre.tool_input,
    };
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) {
      answers.push(hook(repo, { ...first, tool_use_id: `toolu_${i}` }, state));
      hook(repo, { ...post, tool_use_id: `toolu_${i}` }, state);
    }
    // As on the LF file: the first run goes through, a repeat is refused by the 5th.
    expect(answers[0]).not.toContain('"deny"');
    expect(answers.some((a) => a.includes('"deny"'))).toBe(true);
  });

  it('required by a plugin loader: OpenCode and Cline get their hooks', async () => {
    const repo = repoWith(shape);
    const mod = (await import(pathToFileURL(join(repo, '.opencode', 'plugins', 'loop-guard.mjs')).href)) as {
      LoopGuard: (ctx: unknown) => Promise<Record<string, unknown>>;
    };
    const logs: unknown[] = [];
    const hooks = await mod.LoopGuard({
      directory: repo,
      worktree: repo,
      client: { app: { log: async (o: { body: unknown }) => logs.push(o.body) } },
    });
    expect(logs).toEqual([]);
    expect(Object.keys(hooks)).toContain('tool.execute.before');
    const cline = createRequire(import.meta.url)(join(repo, '.cline', 'plugins', 'loop-guard.js')) as {
      hooks: Record<string, unknown>;
    };
    expect(Object.keys(cline.hooks).length).toBeGreaterThan(0);
  });
});

// Claude Code's PowerShell tool (its shell tool on Windows): the payloads Claude Code 2.1.332 sent its hooks for a
// PowerShell call that exited 1 (captured with a stand-in pwsh, test/fixtures/payloads/README.md).
describe("Claude Code's PowerShell tool", () => {
  it('is judged as Bash is: `vim` refused, a repeated failure refused by the 5th attempt', () => {
    const repo = repoWith((s) => s);
    const state = freshStateDir();
    const pre = {
      ...(loadPayload('claude/captured/PreToolUse-PowerShell-powershell-failure.json') as {
        tool_input: { command: string };
      }),
      cwd: repo,
    };
    const vim = { ...pre, tool_input: { ...pre.tool_input, command: 'vim notes.txt' } };
    expect(JSON.parse(hook(repo, vim, state)).hookSpecificOutput.permissionDecision).toBe('deny');
    const post = {
      ...(loadPayload('claude/captured/PostToolUseFailure-PowerShell-powershell-failure.json') as object),
      cwd: repo,
    };
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) {
      answers.push(hook(repo, { ...pre, tool_use_id: `toolu_${i}` }, state));
      hook(repo, { ...post, tool_use_id: `toolu_${i}` }, state);
    }
    expect(answers[0]).not.toContain('"deny"');
    expect(answers.some((a) => a.includes('"deny"'))).toBe(true);
  });
});
