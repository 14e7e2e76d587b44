// Cursor runs the hooks of .claude/settings.json too (its third-party hooks, on by default) with its own, Cursor-shaped
// payload: the BUILT guard's Claude entry stays quiet where the repository's .cursor/hooks.json runs the guard itself,
// so one shell call is guarded once; and Cursor's postToolUseFailure warns like postToolUse.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cursorHooksRunGuard } from '../../src/guard/cursor-twice.ts';
import { freshStateDir, guardEnv, requireBuilt, runGuardSync } from '../helpers/guard.ts';

const fixture = (rel: string) => readFileSync(new URL(`../fixtures/cursor/${rel}`, import.meta.url), 'utf8');
/** The real cursor-agent payload, BOM and all, moved to `root` and given `command`. */
function captured(root: string, command: string, event = 'preToolUse', extra: Record<string, unknown> = {}): string {
  const text = fixture('captured/preToolUse-shell.json');
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const p = JSON.parse(text.slice(1));
  p.workspace_roots = [root];
  p.hook_event_name = event;
  p.tool_input.command = command;
  return `\uFEFF${JSON.stringify({ ...p, ...extra })}`;
}

/** The .cursor/hooks.json the installer writes (its Cursor entry; what the guard looks for). */
const CURSOR_HOOKS = JSON.stringify({
  version: 1,
  hooks: {
    preToolUse: [
      {
        command: 'test -f .agents/hooks/loop-guard.cjs && node .agents/hooks/loop-guard.cjs cursor || true',
        matcher: 'Shell',
      },
    ],
  },
});

function repo(withCursorHooks: boolean): string {
  const root = mkdtempSync(join(tmpdir(), 'lg-cursor-'));
  if (withCursorHooks) {
    mkdirSync(join(root, '.cursor'));
    writeFileSync(join(root, '.cursor/hooks.json'), CURSOR_HOOKS);
  }
  return root;
}

beforeAll(requireBuilt);

describe('the Claude entry run by Cursor', () => {
  it('knows our Cursor entry in a hooks file, and nothing else', () => {
    expect(cursorHooksRunGuard(CURSOR_HOOKS)).toBe(true);
    expect(cursorHooksRunGuard(`\uFEFF${CURSOR_HOOKS}`)).toBe(true);
    expect(cursorHooksRunGuard(CURSOR_HOOKS.replace('cjs cursor', 'cjs claude'))).toBe(false);
    expect(cursorHooksRunGuard(`${CURSOR_HOOKS.slice(0, -1)},`)).toBe(false); // Cursor cannot parse it: runs nothing
    expect(cursorHooksRunGuard(undefined)).toBe(false);
  });

  it('stays quiet where .cursor/hooks.json runs the guard: one state, the warnings from the Cursor entry alone', () => {
    const root = repo(true);
    const state = freshStateDir();
    // Cursor gives its hooks CLAUDE_PROJECT_DIR (an alias of CURSOR_PROJECT_DIR) and CURSOR_VERSION.
    const env = guardEnv(state, { CLAUDE_PROJECT_DIR: root, CURSOR_PROJECT_DIR: root, CURSOR_VERSION: '2026.09.02' });
    const answers: Record<'claude' | 'cursor', string[]> = { claude: [], cursor: [] };
    for (let i = 1; i <= 5; i++) {
      const id = { tool_use_id: `call-${i}` };
      for (const entry of ['cursor', 'claude'] as const) {
        const pre = runGuardSync(entry, captured(root, 'npm test', 'preToolUse', id), env);
        const post = runGuardSync(
          entry,
          captured(root, 'npm test', 'postToolUse', { ...id, tool_output: '{"exitCode":1,"stdout":"FAIL a.test.ts"}' }),
          env,
        );
        expect(pre.status).toBe(0);
        answers[entry].push(pre.stdout.trim(), post.stdout.trim());
      }
    }
    expect(answers.claude.every((a) => a === '{}')).toBe(true);
    expect(answers.cursor.some((a) => a.includes('"additional_context":"loop-guard:'))).toBe(true);
    expect(answers.cursor.some((a) => a.includes('"permission":"deny"'))).toBe(true);
    expect(readdirSync(state).filter((f) => f.includes('cursor') || f.includes('claude'))).toHaveLength(1);
  });

  it('guards as before where the repository has no Cursor entry (Claude set up alone)', () => {
    const root = repo(false);
    const state = freshStateDir();
    const env = guardEnv(state, { CLAUDE_PROJECT_DIR: root, CURSOR_VERSION: '2026.09.02' });
    const out: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const id = { tool_use_id: `call-${i}` };
      out.push(runGuardSync('claude', captured(root, 'npm test', 'preToolUse', id), env).stdout);
      out.push(
        runGuardSync(
          'claude',
          captured(root, 'npm test', 'postToolUse', { ...id, tool_output: '{"exitCode":1,"stdout":"FAIL a.test.ts"}' }),
          env,
        ).stdout,
      );
    }
    expect(out.some((a) => a.includes('"permission":"deny"'))).toBe(true);
  });

  it('reads the real payload with its BOM (it fell open on JSON.parse before)', () => {
    const root = repo(false);
    const env = guardEnv(freshStateDir(), { CURSOR_PROJECT_DIR: root });
    const r = runGuardSync('cursor', captured(root, 'vim notes.txt'), env);
    expect(r.stdout).toContain('"permission":"deny"');
  });
});

describe("Cursor's postToolUseFailure", () => {
  it('warns on the 3rd and 4th identical failures, as postToolUse does', () => {
    const base = JSON.parse(fixture('postToolUseFailure.json'));
    const pre = JSON.parse(fixture('preToolUse.json'));
    const env = guardEnv(freshStateDir());
    const answers: string[] = [];
    for (let i = 1; i <= 4; i++) {
      const id = { tool_use_id: `f-${i}` };
      runGuardSync('cursor', { ...pre, ...id }, env);
      answers.push(
        runGuardSync(
          'cursor',
          { ...base, ...id, failure_type: 'error', error_message: 'Exit code 1\nFAIL a' },
          env,
        ).stdout.trim(),
      );
    }
    expect(answers.slice(0, 2)).toEqual(['{}', '{}']);
    for (const a of answers.slice(2)) expect(JSON.parse(a).additional_context).toMatch(/^loop-guard: /);
  });
});
