// Every ✗ doctor prints is one line whose fix fixes: break a healthy install one way, run doctor (one ✗, for that
// cause), do what the fix says (its `npx create-loop-guard …` commands run as printed; a part it asks to do by hand
// is done by the case, after checking the fix names it), run doctor again: no ✗.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cloneSandbox, install, requireBuilt, runCli, type Sandbox, sandbox } from '../helpers/sandbox.ts';

interface Case {
  name: string;
  /** The doctor check that must be the one ✗. */
  id: string;
  /** Doctor runs over these tools only (the repository group always). */
  tools: string;
  /** Breaks the installed repository (or its environment, through `env`). */
  break(root: string, env: Record<string, string>): void;
  /** The part of the fix a person does: the fix must say `says`, then `hand` does it. */
  says?: string | RegExp;
  hand?(root: string, env: Record<string, string>): void;
}

const edit = (root: string, rel: string, f: (text: string) => string) =>
  writeFileSync(join(root, rel), f(readFileSync(join(root, rel), 'utf8')));
const json = (root: string, rel: string, f: (doc: Record<string, any>) => void) =>
  edit(root, rel, (t) => {
    const doc = JSON.parse(t);
    f(doc);
    return `${JSON.stringify(doc, null, 2)}\n`;
  });
/** A copy of the file before the break, put back by the hand step ("fix the JSON …"). */
const saved = new Map<string, string>();
const save = (root: string, rel: string) => saved.set(join(root, rel), readFileSync(join(root, rel), 'utf8'));
const restore = (root: string, rel: string) => writeFileSync(join(root, rel), saved.get(join(root, rel)) as string);

const BLOCK = /<!-- loop-guard:begin[\s\S]*?<!-- loop-guard:end -->\n?/;

const CASES: Case[] = [
  // ── the repository ──
  {
    name: 'the manifest deleted',
    id: 'repo.manifest',
    tools: 'claude',
    break: (r) => rmSync(join(r, '.agents/loop-guard.json')),
  },
  {
    name: 'the manifest not JSON',
    id: 'repo.manifest',
    tools: 'claude',
    break: (r) => writeFileSync(join(r, '.agents/loop-guard.json'), '{ "version": \n'),
    says: 'delete .agents/loop-guard.json',
    hand: (r) => rmSync(join(r, '.agents/loop-guard.json')),
  },
  {
    name: 'the manifest from an older version',
    id: 'repo.manifest',
    tools: 'claude',
    break: (r) => json(r, '.agents/loop-guard.json', (m) => (m.version = '0.0.9')),
  },
  {
    name: 'the guard file deleted',
    id: 'repo.guard',
    tools: 'claude,codex,cursor',
    break: (r) => rmSync(join(r, '.agents/hooks/loop-guard.cjs')),
  },
  {
    name: 'the guard file replaced by a no-op with our header',
    id: 'repo.guard',
    tools: 'claude,codex,cursor',
    break: (r) => edit(r, '.agents/hooks/loop-guard.cjs', (t) => `${t.split('\n')[0]}\nprocess.exitCode = 0;\n`),
  },
  {
    name: 'the guard file not ours',
    id: 'repo.guard',
    tools: 'claude',
    break: (r) => writeFileSync(join(r, '.agents/hooks/loop-guard.cjs'), 'console.log("mine");\n'),
    says: 'move it away',
    hand: (r) => renameSync(join(r, '.agents/hooks/loop-guard.cjs'), join(r, 'mine.cjs')),
  },
  {
    name: 'the guard file from an older version',
    id: 'repo.guard',
    tools: 'claude',
    break: (r) => edit(r, '.agents/hooks/loop-guard.cjs', (t) => t.replace(/v\d+\.\d+\.\d+/, 'v0.0.9')),
  },
  {
    name: 'AGENTS.md deleted',
    id: 'repo.agents-md',
    tools: 'codex',
    break: (r) => rmSync(join(r, 'AGENTS.md')),
  },
  {
    name: 'the AGENTS.md block deleted',
    id: 'repo.agents-md',
    tools: 'codex',
    break: (r) => edit(r, 'AGENTS.md', (t) => `# Notes\n${t.replace(BLOCK, '')}`),
  },
  {
    name: 'the AGENTS.md block from an older version',
    id: 'repo.agents-md',
    tools: 'codex',
    break: (r) => edit(r, 'AGENTS.md', (t) => t.replace(/v=\d+\.\d+\.\d+/, 'v=0.0.9')),
  },
  {
    name: 'a line of ours edited inside the AGENTS.md block',
    id: 'repo.agents-md',
    tools: 'codex',
    break: (r) =>
      edit(r, 'AGENTS.md', (t) =>
        t.replace('## When a command keeps failing\n', '## When a command keeps failing\n\nMy own rule.\n'),
      ),
    says: 'move your own text outside the block',
    hand: (r) => edit(r, 'AGENTS.md', (t) => `${t.replace('\nMy own rule.\n', '')}\nMy own rule.\n`),
  },
  {
    name: 'a stray end marker in AGENTS.md',
    id: 'repo.agents-md',
    tools: 'codex',
    break: (r) => edit(r, 'AGENTS.md', (t) => `${t}\n<!-- loop-guard:end -->\n`),
    says: 'delete the stray loop-guard marker lines',
    hand: (r) => edit(r, 'AGENTS.md', (t) => t.replace(/\n<!-- loop-guard:end -->\n$/, '')),
  },
  {
    name: 'LOOP_GUARD=off in the environment',
    id: 'repo.switch',
    tools: 'claude',
    break: (_r, env) => (env.LOOP_GUARD = 'off'),
    says: 'unset LOOP_GUARD',
    hand: (_r, env) => delete env.LOOP_GUARD,
  },
  {
    name: "a .gitignore rule that ignores the tools' folders",
    id: 'repo.ignored',
    tools: 'claude',
    break: (r) => writeFileSync(join(r, '.gitignore'), '.claude/\n'),
  },
  {
    name: "a rule of this machine's that ignores the guard",
    id: 'repo.ignored',
    tools: 'claude',
    break: (r) => writeFileSync(join(r, '.git/info/exclude'), '.agents/hooks/\n'),
    says: 'take the rule out',
    hand: (r) => writeFileSync(join(r, '.git/info/exclude'), ''),
  },
  // ── Claude Code ──
  {
    name: '.claude/settings.json not JSON',
    id: 'claude.hooks',
    tools: 'claude',
    break: (r) => {
      save(r, '.claude/settings.json');
      edit(r, '.claude/settings.json', (t) => t.replace('{', '{,'));
    },
    says: /fix the JSON (syntax )?in \.claude\/settings\.json at line 1, column 2/,
    hand: (r) => restore(r, '.claude/settings.json'),
  },
  {
    name: '.claude/settings.json deleted',
    id: 'claude.hooks',
    tools: 'claude',
    break: (r) => rmSync(join(r, '.claude/settings.json')),
  },
  {
    name: 'a Claude hook event removed',
    id: 'claude.hooks',
    tools: 'claude',
    break: (r) => json(r, '.claude/settings.json', (s) => delete s.hooks.PostToolUseFailure),
  },
  {
    name: '"disableAllHooks": true in .claude/settings.local.json',
    id: 'claude.hooks',
    tools: 'claude',
    break: (r) => writeFileSync(join(r, '.claude/settings.local.json'), '{ "disableAllHooks": true }\n'),
    says: 'remove "disableAllHooks" from .claude/settings.local.json',
    hand: (r) => writeFileSync(join(r, '.claude/settings.local.json'), '{}\n'),
  },
  {
    name: 'LOOP_GUARD=off in .claude/settings.local.json (the README recipe)',
    id: 'claude.hooks',
    tools: 'claude',
    break: (r) => writeFileSync(join(r, '.claude/settings.local.json'), '{ "env": { "LOOP_GUARD": "off" } }\n'),
    says: 'remove "LOOP_GUARD" from "env" in .claude/settings.local.json',
    hand: (r) => writeFileSync(join(r, '.claude/settings.local.json'), '{ "env": {} }\n'),
  },
  {
    name: 'LOOP_GUARD_HANG=off in .claude/settings.json',
    id: 'claude.hooks',
    tools: 'claude',
    break: (r) => json(r, '.claude/settings.json', (s) => (s.env.LOOP_GUARD_HANG = 'off')),
    says: 'remove "LOOP_GUARD_HANG" from "env" in .claude/settings.json',
    hand: (r) => json(r, '.claude/settings.json', (s) => delete s.env.LOOP_GUARD_HANG),
  },
  {
    name: 'LOOP_GUARD=off before a Claude hook command',
    id: 'claude.hooks',
    tools: 'claude',
    break: (r) =>
      json(r, '.claude/settings.json', (s) => {
        const h = s.hooks.PreToolUse[0].hooks[0];
        h.command = 'LOOP_GUARD=off node "$CLAUDE_PROJECT_DIR"/.agents/hooks/loop-guard.cjs claude';
      }),
    says: 'remove LOOP_GUARD=off from the PreToolUse hook command in .claude/settings.json',
    hand: (r) =>
      json(r, '.claude/settings.json', (s) => {
        const h = s.hooks.PreToolUse[0].hooks[0];
        h.command = h.command.replace('LOOP_GUARD=off ', '');
        expect(h.command).toBe('node "$CLAUDE_PROJECT_DIR"/.agents/hooks/loop-guard.cjs claude');
      }),
  },
  {
    name: 'GIT_PAGER dropped from the Claude settings env',
    id: 'claude.env',
    tools: 'claude',
    break: (r) => json(r, '.claude/settings.json', (s) => delete s.env.GIT_PAGER),
  },
  {
    name: 'GIT_PAGER=less in the Claude settings env',
    id: 'claude.env',
    tools: 'claude',
    break: (r) => json(r, '.claude/settings.json', (s) => (s.env.GIT_PAGER = 'less')),
  },
  {
    name: 'the import line removed from CLAUDE.md',
    id: 'claude.import',
    tools: 'claude',
    break: (r) => writeFileSync(join(r, 'CLAUDE.md'), '# Notes\n'),
  },
  {
    name: 'CLAUDE.md deleted',
    id: 'claude.import',
    tools: 'claude',
    break: (r) => rmSync(join(r, 'CLAUDE.md')),
  },
  // ── Codex ──
  {
    name: '.codex/config.toml not TOML',
    id: 'codex.env',
    tools: 'codex',
    break: (r) => {
      save(r, '.codex/config.toml');
      edit(r, '.codex/config.toml', (t) => `${t}x = \n`);
    },
    says: 'fix the TOML syntax in .codex/config.toml',
    hand: (r) => restore(r, '.codex/config.toml'),
  },
  {
    name: 'a Codex hook event removed',
    id: 'codex.hooks',
    tools: 'codex',
    break: (r) => json(r, '.codex/hooks.json', (s) => delete s.hooks.PostToolUse),
  },
  {
    name: 'hooks = false in [features] of .codex/config.toml',
    id: 'codex.hooks',
    tools: 'codex',
    break: (r) => edit(r, '.codex/config.toml', (t) => `[features]\nhooks = false\n\n${t}`),
    says: 'remove that line from .codex/config.toml',
    hand: (r) => edit(r, '.codex/config.toml', (t) => t.replace('[features]\nhooks = false\n\n', '')),
  },
  {
    name: 'an AGENTS.override.md at the root',
    id: 'codex.instructions',
    tools: 'codex',
    break: (r) => writeFileSync(join(r, 'AGENTS.override.md'), '# Override\n'),
    says: 'delete AGENTS.override.md',
    hand: (r) => rmSync(join(r, 'AGENTS.override.md')),
  },
  {
    name: "the AGENTS.md block past Codex's 32 KiB",
    id: 'codex.instructions',
    tools: 'codex',
    break: (r) => edit(r, 'AGENTS.md', (t) => `${'Some notes of the project.\n'.repeat(1400)}\n${t}`),
    says: 'move the loop-guard block (begin marker through end marker) to the top of AGENTS.md',
    hand: (r) => edit(r, 'AGENTS.md', (t) => `${(BLOCK.exec(t) as RegExpExecArray)[0]}\n${t.replace(BLOCK, '')}`),
  },
  // ── Cursor ──
  {
    name: '.cursor/hooks.json not JSON',
    id: 'cursor.hooks',
    tools: 'cursor',
    break: (r) => {
      save(r, '.cursor/hooks.json');
      edit(r, '.cursor/hooks.json', (t) => t.replace('{', '{,'));
    },
    says: /fix the JSON (syntax )?in \.cursor\/hooks\.json at line 1, column 2/,
    hand: (r) => restore(r, '.cursor/hooks.json'),
  },
  {
    name: '"version" dropped from .cursor/hooks.json',
    id: 'cursor.hooks',
    tools: 'cursor',
    break: (r) => json(r, '.cursor/hooks.json', (s) => delete s.version),
    says: 'add "version": 1 at the top level of .cursor/hooks.json',
    hand: (r) => json(r, '.cursor/hooks.json', (s) => (s.version = 1)),
  },
  {
    name: 'an event Cursor does not know in .cursor/hooks.json',
    id: 'cursor.events',
    tools: 'cursor',
    break: (r) => json(r, '.cursor/hooks.json', (s) => (s.hooks.beforeEverything = [{ command: 'true' }])),
    says: 'rename or remove that event in .cursor/hooks.json',
    hand: (r) => json(r, '.cursor/hooks.json', (s) => delete s.hooks.beforeEverything),
  },
  {
    name: 'the Cursor environment snippet deleted',
    id: 'cursor.env',
    tools: 'cursor',
    break: (r) => rmSync(join(r, '.cursor/loop-guard-env.sh')),
  },
  // ── OpenCode ──
  {
    name: 'the OpenCode plugin deleted',
    id: 'opencode.plugin',
    tools: 'opencode',
    break: (r) => rmSync(join(r, '.opencode/plugins/loop-guard.js')),
  },
  {
    name: 'the OpenCode plugin edited',
    id: 'opencode.plugin',
    tools: 'opencode',
    break: (r) => edit(r, '.opencode/plugins/loop-guard.js', (t) => `${t.split('\n')[0]}\nexport const X = 1;\n`),
  },
];

/** The `npx create-loop-guard …` commands a fix names, as argv: the flags and the value after `--tools`. */
function commandsOf(fix: string): string[][] {
  const out: string[][] = [];
  for (const m of fix.matchAll(/npx create-loop-guard\b([^;()]*)/g)) {
    const argv: string[] = [];
    const words = (m[1] ?? '').trim().split(/\s+/);
    for (const [i, raw] of words.entries()) {
      const word = raw.replace(/[,.]$/, '');
      if (word.startsWith('--')) argv.push(word);
      else if (words[i - 1] === '--tools') argv.push(word);
      else break;
    }
    out.push(argv);
  }
  return out;
}

function doctorRun(sb: Sandbox, env: Record<string, string>, tools: string) {
  const r = runCli(['doctor', '--cwd', sb.root, '--tools', tools], env);
  const failed = r.stdout.split('\n').filter((l) => l.includes('✗'));
  return { ...r, failed };
}

let healthy: Sandbox;
beforeAll(() => {
  requireBuilt();
  healthy = sandbox();
  install(healthy);
  const r = runCli(['doctor', '--cwd', healthy.root], healthy.env);
  if (r.status !== 0) throw new Error(`the healthy install is not green:\n${r.stdout}`);
}, 120_000);

describe('every ✗ doctor prints: one line, and its fix turns it green', () => {
  it('reads the commands out of a fix', () => {
    expect(commandsOf('npx create-loop-guard --yes to restore it')).toEqual([['--yes']]);
    expect(commandsOf('npx create-loop-guard --yes --force replaces it')).toEqual([['--yes', '--force']]);
    expect(commandsOf('fix it, then npx create-loop-guard --yes --tools cursor; then commit')).toEqual([
      ['--yes', '--tools', 'cursor'],
    ]);
    expect(commandsOf('remove that line from x')).toEqual([]);
  });

  it.each(CASES)(
    '$name → one ✗ ($id), and its fix fixes it',
    (c) => {
      const sb = cloneSandbox(healthy);
      const env = { ...sb.env };
      c.break(sb.root, env);
      const before = doctorRun(sb, env, c.tools);
      expect(before.status, before.stdout).toBe(1);
      expect(before.failed, before.stdout).toHaveLength(1);
      const line = before.failed[0] as string;
      const json = JSON.parse(runCli(['doctor', '--json', '--cwd', sb.root, '--tools', c.tools], env).stdout);
      const shown = json.tools
        .flatMap((t: any) => t.checks)
        .filter((k: any) => !k.ok && !k.info && !k.step && !k.cause);
      expect(shown.map((k: any) => k.id)).toEqual([c.id]);
      const fix = line.split(' — fix: ')[1] ?? '';
      expect(fix, line).not.toBe('');
      if (c.says) {
        if (typeof c.says === 'string') expect(fix).toContain(c.says);
        else expect(fix).toMatch(c.says);
        c.hand?.(sb.root, env);
      }
      const commands = commandsOf(fix);
      if (!c.says)
        expect(commands.length, `a fix with nothing to do by hand names a command: ${fix}`).toBeGreaterThan(0);
      for (const argv of commands) {
        const r = runCli([...argv, '--cwd', sb.root], env);
        expect(r.status, `${argv.join(' ')}:\n${r.stderr}${r.stdout}`).toBe(0);
      }
      const after = doctorRun(sb, env, c.tools);
      expect(after.failed, after.stdout).toEqual([]);
      expect(after.status, after.stdout).toBe(0);
    },
    90_000,
  );
});
