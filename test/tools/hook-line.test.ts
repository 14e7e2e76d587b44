// The installed hook line must mean the same to every shell a tool may run it in (src/tools/hook-command.ts). Run
// here for real: sh (dash), bash, zsh and fish. Parsed for real: PowerShell, with the PowerShell grammar of
// tree-sitter-powershell (no PowerShell runs on this machine: no registry we reach has it). cmd.exe can be neither
// run nor parsed here, so its rules are checked on the text.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  symlinkSync,
  writeFileSync,
  mkdtempSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  guardCommand,
  guardLoader,
  innerGuardCommand,
  LOADER_FORBIDDEN,
  ourLoaderRoot,
  powershellGuardCommand,
} from '../../src/tools/hook-command.ts';
import { GUARD_PATH } from '../../src/tools/markers.ts';
import { TOOL_NAMES, TOOLS } from '../../src/tools/index.ts';
import { guardFile, payloadsDir, requireBuilt } from '../helpers/paths.ts';

const lines = [
  ...new Set(TOOL_NAMES.flatMap((t) => TOOLS[t].intents.flatMap((i) => (i.kind === 'json' ? [i.hooks.command] : [])))),
];
const loaderLines = lines.filter((l) => ourLoaderRoot(l));

describe('the hook line, as text', () => {
  it('the hook tools run our loader line', () => {
    expect(loaderLines.length).toBeGreaterThanOrEqual(5);
    for (const l of loaderLines)
      expect(l).toMatch(/^node -e '[^']+' _ [a-z]+( # & if exist \S+ node \S+ [a-z]+| \|\| true)$/);
  });

  it('the loader holds nothing a shell reads or a tool mangles', () => {
    expect(LOADER_FORBIDDEN).toEqual(expect.arrayContaining([' ', '"', "'", '$', '%', '&', '|']));
    for (const env of [undefined, 'CLAUDE_PROJECT_DIR', 'QWEN_PROJECT_DIR', 'GEMINI_PROJECT_DIR'])
      for (const ch of LOADER_FORBIDDEN) expect(guardLoader(env), JSON.stringify(ch)).not.toContain(ch);
  });

  it('is told apart from other node -e lines, and doctor runs it as it is', () => {
    expect(ourLoaderRoot(guardCommand('claude', { rootEnv: 'CLAUDE_PROJECT_DIR' }))).toEqual({
      rootEnv: 'CLAUDE_PROJECT_DIR',
    });
    expect(ourLoaderRoot(guardCommand('codex'))).toEqual({});
    expect(ourLoaderRoot("node -e 'require(1)' _ claude")).toBeNull();
    expect(ourLoaderRoot(guardCommand('codex').replace('node .agents', 'node ../x/.agents'))).toBeNull();
    expect(ourLoaderRoot(guardCommand('codex').replace('.git', '.hg'))).toBeNull();
    expect(innerGuardCommand(guardCommand('copilot', { posix: true }))).toBe(
      guardCommand('copilot', { posix: true }).slice(0, -' || true'.length),
    );
    expect(innerGuardCommand(guardCommand('codex'))).toBe(guardCommand('codex'));
    // An install made before this line keeps working until the rerun replaces it.
    expect(innerGuardCommand('test -f x.cjs && node x.cjs claude || true')).toBe('node x.cjs claude');
  });
});

/** The PowerShell syntax tree of a line, as tree-sitter-powershell reads it. */
let parsePs: (line: string) => { hasError: boolean; sexp: string; commands: number };

describe('the hook line in PowerShell (Windows PowerShell 5.1 and PowerShell 7 read these lines alike)', () => {
  beforeAll(async () => {
    const { Parser, Language } = await import('web-tree-sitter');
    await Parser.init();
    const wasm = createRequire(import.meta.url).resolve('tree-sitter-powershell/tree-sitter-powershell.wasm');
    const parser = new Parser();
    parser.setLanguage(await Language.load(wasm));
    parsePs = (line) => {
      const tree = parser.parse(line);
      if (!tree) throw new Error('no tree');
      const sexp = tree.rootNode.toString();
      return { hasError: tree.rootNode.hasError, sexp, commands: tree.rootNode.descendantsOfType('command').length };
    };
  });

  it('the grammar is real: it rejects the POSIX line we installed before, and sees a variable where one is', () => {
    const old = 'test -f "$CLAUDE_PROJECT_DIR"/.agents/hooks/loop-guard.cjs && node x claude || true';
    expect(parsePs(old).hasError).toBe(true);
    expect(parsePs('node -e "$x" claude').sexp).toContain('(variable)');
  });

  const psLines = loaderLines.filter((l) => !l.endsWith('|| true'));
  it.each(psLines)("%s: one call of node, its code one literal string, cmd.exe's half a comment", (line) => {
    const ps = parsePs(line);
    expect(ps.hasError).toBe(false);
    expect(ps.commands).toBe(1);
    expect(ps.sexp).toMatch(/^\(program \(statement_list \(pipeline \(pipeline_chain \(command command_name:/);
    // A single-quoted string is verbatim in PowerShell: the loader reaches node as written.
    expect(ps.sexp).toContain('(verbatim_string_characters)');
    expect(ps.sexp).not.toMatch(/variable|sub_expression|expandable/);
    expect(ps.sexp).toMatch(/\(comment\)\)+$/);
    // As Claude Code runs a hook in PowerShell when Git Bash is missing: its exit-code suffix follows the line.
    expect(parsePs(`${line}; if (-not $?) { exit 1 }`).hasError).toBe(false);
  });

  it("Copilot CLI's powershell field: node checked first, the loader one verbatim string, then exit 0", () => {
    const entry = TOOLS.copilot.intents.find((i) => i.kind === 'json');
    const line = entry?.kind === 'json' ? entry.hooks.shells?.powershell : undefined;
    expect(line).toBe(powershellGuardCommand('copilot'));
    const ps = parsePs(line as string);
    expect(ps.hasError).toBe(false);
    expect(ps.sexp).toContain('(if_statement');
    expect(ps.sexp).toContain('(verbatim_string_characters)');
    expect(line).toMatch(
      /^if \(Get-Command node -CommandType Application -ErrorAction SilentlyContinue\) \{ node -e '/,
    );
    expect(line).toMatch(/ \}; exit 0$/);
  });
});

/** The shells that run hook lines on Linux and macOS, and Git Bash's bash on Windows, by where they are. */
const SHELLS = Object.fromEntries(
  ['sh', 'dash', 'bash', 'zsh', 'fish'].flatMap((name) => {
    const at = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
    return at ? [[name, at]] : [];
  }),
);
const PAYLOAD = readFileSync(join(payloadsDir, 'claude', 'PreToolUse-success.json'), 'utf8').replace(
  'echo hello-from-mock',
  'vim notes.txt',
);

describe('the hook line in real shells', () => {
  let tmp = '';
  let repo = '';
  beforeAll(() => {
    requireBuilt();
    tmp = mkdtempSync(join(tmpdir(), 'lg-hook-line-'));
    repo = join(tmp, 'repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    mkdirSync(join(repo, '.agents', 'hooks'), { recursive: true });
    mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
    copyFileSync(guardFile, join(repo, '.agents', 'hooks', 'loop-guard.cjs'));
    // A guard above the repository's top must never be run from inside it.
    mkdirSync(join(tmp, '.agents', 'hooks'), { recursive: true });
    copyFileSync(guardFile, join(tmp, '.agents', 'hooks', 'loop-guard.cjs'));
    mkdirSync(join(tmp, 'bare', 'sub'), { recursive: true });
    mkdirSync(join(tmp, 'bare', '.git'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('at least sh, dash and bash are here to run it (.ci/run installs zsh and fish)', () => {
    expect(Object.keys(SHELLS)).toEqual(expect.arrayContaining(['sh', 'dash', 'bash']));
    if (process.env.CI) expect(Object.keys(SHELLS)).toEqual(expect.arrayContaining(['zsh', 'fish']));
  });

  const claude = guardCommand('claude', { rootEnv: 'CLAUDE_PROJECT_DIR' });
  const run = (shell: string, line: string, cwd: string, env: Record<string, string> = {}) =>
    spawnSync(SHELLS[shell] as string, ['-c', line], {
      cwd,
      input: PAYLOAD,
      encoding: 'utf8',
      // HOME has no profile: bash reads ~/.bashrc when its stdin is a socket, as Node's pipes are.
      env: { PATH: process.env.PATH ?? '', HOME: tmp, LOOP_GUARD_STATE_DIR: join(tmp, 'state'), ...env },
    });

  it.each(Object.keys(SHELLS))(
    '%s: the guard answers from the top, a subfolder, and the project-dir variable',
    (shell) => {
      for (const [cwd, env] of [
        [repo, {}],
        [join(repo, 'src', 'deep'), {}],
        [tmp, { CLAUDE_PROJECT_DIR: repo }],
      ] as const) {
        const r = run(shell, claude, cwd, env);
        expect(r.status, r.stderr).toBe(0);
        expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, `${shell} in ${cwd}`).toBe('deny');
      }
    },
  );

  it.each(Object.keys(SHELLS))(
    '%s: no guard up to the repository top is exit 0 and silent, even with one above',
    (shell) => {
      for (const line of loaderLines) {
        const r = run(shell, line, join(tmp, 'bare', 'sub'));
        expect([r.status, r.stdout, r.stderr], line).toEqual([0, '', '']);
      }
    },
  );

  it('odd trees: a path with spaces reached through a symlink, and a `.git` file (a worktree, a submodule)', () => {
    // The repository through a symlinked folder whose name has spaces; the walk is by path, not by real path.
    const spaced = join(tmp, 'my projects');
    mkdirSync(spaced);
    symlinkSync(repo, join(spaced, 'the repo'));
    const deep = join(spaced, 'the repo', 'src', 'deep');
    const r = run('sh', guardCommand('codex'), deep);
    expect([r.status, r.stderr]).toEqual([0, '']);
    const claudeLine = run('sh', claude, deep);
    expect(JSON.parse(claudeLine.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    // A submodule's `.git` is a file: the walk stops there too, so the outer repository's guard is not run.
    const sub = join(repo, 'vendor', 'lib');
    mkdirSync(join(sub, 'src'), { recursive: true });
    writeFileSync(join(sub, '.git'), 'gitdir: ../../.git/modules/lib\n');
    const inSub = run('sh', claude, join(sub, 'src'));
    expect([inSub.status, inSub.stdout, inSub.stderr]).toEqual([0, '', '']);
  });

  // cmd.exe (Qwen Code's shell on Windows, and maybe Cursor's) runs nowhere here, so its reading is modelled: it splits
  // the line at `&` outside double quotes (the line has none) and passes each word to node as typed.
  it.each(loaderLines.filter((l) => l.includes(' & ')))('cmd.exe: %s', (line) => {
    expect(line).not.toContain('"');
    const [first, second, ...more] = line.split(' & ');
    expect(more).toEqual([]);
    // The quoted loader is one word holding its quotes: to node -e a JavaScript string, run without reading stdin.
    const words = (first as string).split(' ');
    expect(words.slice(0, 2)).toEqual(['node', '-e']);
    const asTyped = spawnSync(process.execPath, words.slice(1), { cwd: repo, input: PAYLOAD, encoding: 'utf8' });
    expect([asTyped.status, asTyped.stdout, asTyped.stderr]).toEqual([0, '', '']);
    // Then `if exist <guard> node <guard> <tool>`, from the root where cmd runs hooks.
    const m = /^if exist (\S+) node (\S+) ([a-z]+)$/.exec(second as string);
    expect(m?.[1]).toBe(GUARD_PATH.replaceAll('/', '\\'));
    expect(m?.[2]).toBe(m?.[1]);
    expect(existsSync(join(repo, GUARD_PATH))).toBe(true);
    expect(line.startsWith(`node -e '${guardLoader(ourLoaderRoot(line)?.rootEnv)}' _ ${m?.[3]} `)).toBe(true);
  });

  // fish is left out: an unknown command ends its whole line there, `|| true` or not (no tool runs a POSIX field in it).
  it.each(Object.keys(SHELLS).filter((s) => s !== 'fish'))(
    '%s: a missing node fails the plain line; `|| true` (POSIX fields only) keeps 0',
    (shell) => {
      const env = { PATH: join(tmp, 'no-bin') };
      const bare = spawnSync(SHELLS[shell] as string, ['-c', guardCommand('codex')], { cwd: repo, env });
      expect(bare.status).not.toBe(0);
      const posix = spawnSync(SHELLS[shell] as string, ['-c', guardCommand('copilot', { posix: true })], {
        cwd: repo,
        env,
      });
      expect([posix.status, posix.stdout.toString()]).toEqual([0, '']);
    },
  );
});
