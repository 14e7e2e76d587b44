import { describe, expect, it } from 'vitest';
import { auditHooks, listHookCommands, matcherSelects } from '../../src/doctor/hooks.ts';

const CMD = 'node "$CLAUDE_PROJECT_DIR"/.agents/hooks/loop-guard.cjs claude';
const nested = (events: Record<string, string | undefined>) => ({
  hooks: Object.fromEntries(
    Object.entries(events).map(([event, matcher]) => [
      event,
      [{ ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: 'command', command: CMD, timeout: 10 }] }],
    ]),
  ),
});
const CLAUDE_POST = 'Bash|PowerShell|Edit|Write|MultiEdit|NotebookEdit|Agent|Task';
const claudeAll = nested({
  PreToolUse: 'Bash|PowerShell',
  PostToolUse: CLAUDE_POST,
  PostToolUseFailure: 'Bash|PowerShell',
  UserPromptSubmit: undefined,
  SessionStart: undefined,
  SubagentStop: undefined,
});

describe('matcherSelects', () => {
  it.each([
    [undefined, true],
    ['', true],
    ['*', true],
    ['Bash', true],
    ['Edit|Bash', true],
    ['Edit, Bash', true],
    ['Edit', false],
    ['Bas', false],
    ['^B.*', true],
    ['Sh.ll', false],
    ['(', false],
  ])('%s selects Bash: %s', (m, want) => expect(matcherSelects(m, 'Bash')).toBe(want));
});

describe('listHookCommands', () => {
  it('reads nested groups and skips non-command handlers', () => {
    const doc = {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'http', url: 'x' },
              { type: 'command', command: 'a' },
            ],
          },
        ],
        Bad: 5,
      },
    };
    expect(listHookCommands(doc, 'nested', 'f')).toEqual([
      { event: 'PreToolUse', matcher: 'Bash', command: 'a', source: 'f' },
    ]);
  });
  it("reads Cursor's flat entries", () => {
    const doc = { version: 1, hooks: { preToolUse: [{ command: 'b', matcher: 'Shell' }] } };
    expect(listHookCommands(doc, 'flat', 'f')).toEqual([
      { event: 'preToolUse', matcher: 'Shell', command: 'b', source: 'f' },
    ]);
  });
  it('tolerates junk', () => {
    for (const doc of [null, 5, [], { hooks: [] }, { hooks: { X: [null, 3, { hooks: 'no' }] } }])
      expect(listHookCommands(doc, 'nested', 'f')).toEqual([]);
  });
});

describe('auditHooks (claude.hooks / codex.hooks / cursor.hooks)', () => {
  it('passes when every event has our entry, and hands back the commands to replay', () => {
    const a = auditHooks('claude', listHookCommands(claudeAll, 'nested', 's'), '.claude/settings.json');
    expect(a.check).toMatchObject({ id: 'claude.hooks', ok: true });
    expect(Object.keys(a.commands)).toEqual([
      'PreToolUse',
      'PostToolUse',
      'PostToolUseFailure',
      'UserPromptSubmit',
      'SessionStart',
      'SubagentStop',
    ]);
    expect(a.commands.PreToolUse).toBe(CMD);
  });

  it('fails on settings that leave out PowerShell (Windows) on any event, naming what each misses', () => {
    const doc = nested({
      PreToolUse: 'Bash',
      PostToolUse: CLAUDE_POST,
      PostToolUseFailure: 'Bash',
      UserPromptSubmit: undefined,
    });
    const a = auditHooks('claude', listHookCommands(doc, 'nested', 's'), '.claude/settings.json');
    expect(a.check.ok).toBe(false);
    expect(a.check.message).toContain('PreToolUse (matcher "Bash" does not select PowerShell)');
    expect(a.check.message).toContain('PostToolUseFailure (matcher "Bash" does not select PowerShell)');
    expect(a.check.fix).toContain('--yes');
  });

  it('fails when PostToolUse selects only the shell tool (an install from before edits counted as change), naming the tools it misses', () => {
    const doc = nested({
      PreToolUse: 'Bash|PowerShell',
      PostToolUse: 'Bash|PowerShell',
      PostToolUseFailure: 'Bash|PowerShell',
      UserPromptSubmit: undefined,
      SessionStart: undefined,
      SubagentStop: undefined,
    });
    const a = auditHooks('claude', listHookCommands(doc, 'nested', 's'), '.claude/settings.json');
    expect(a.check.ok).toBe(false);
    expect(a.check.message).toContain(
      'PostToolUse (matcher "Bash|PowerShell" does not select Edit, Write, MultiEdit, NotebookEdit, Agent, Task)',
    );
    expect(a.check.fix).toContain(CLAUDE_POST);
    const codex = auditHooks(
      'codex',
      listHookCommands(nested({ PreToolUse: 'Bash', PostToolUse: 'Bash', UserPromptSubmit: undefined }), 'nested', 'h'),
      '.codex/hooks.json',
    );
    expect(codex.check.message).toContain('does not select apply_patch');
  });

  it('fails naming the missing event, with the entry to add', () => {
    const doc = nested({ PreToolUse: 'Bash', PostToolUse: CLAUDE_POST, UserPromptSubmit: undefined });
    const a = auditHooks('claude', listHookCommands(doc, 'nested', 's'), '.claude/settings.json');
    expect(a.check.ok).toBe(false);
    expect(a.check.message).toContain('no loop-guard hook on PostToolUseFailure');
    expect(a.check.fix).toContain('hooks.PostToolUseFailure');
    expect(a.commands.PostToolUseFailure).toBeUndefined();
  });

  it('fails when our entry sits behind a matcher that never selects the shell tool', () => {
    const doc = nested({ PreToolUse: 'Edit', PostToolUse: 'Bash|apply_patch', UserPromptSubmit: undefined });
    const a = auditHooks('codex', listHookCommands(doc, 'nested', 'h'), '.codex/hooks.json');
    expect(a.check.ok).toBe(false);
    expect(a.check.message).toContain('PreToolUse (matcher "Edit" does not select Bash)');
  });

  it('ignores a matcher on the user-prompt event (the tools ignore it too)', () => {
    const doc = nested({
      PreToolUse: 'Bash',
      PostToolUse: 'Bash|apply_patch',
      UserPromptSubmit: 'whatever',
      SessionStart: undefined,
    });
    expect(auditHooks('codex', listHookCommands(doc, 'nested', 'h'), '.codex/hooks.json').check.ok).toBe(true);
  });

  it('a foreign hook on the event is not ours', () => {
    const doc = { version: 1, hooks: { preToolUse: [{ command: 'node my-own.js', matcher: 'Shell' }] } };
    const a = auditHooks('cursor', listHookCommands(doc, 'flat', 'c'), '.cursor/hooks.json');
    expect(a.check.ok).toBe(false);
    expect(a.check.message).toContain(
      'no loop-guard hook on preToolUse, postToolUse, postToolUseFailure, beforeSubmitPrompt, afterFileEdit',
    );
  });

  it('reports an unreadable config once', () => {
    const a = auditHooks('cursor', [], '.cursor/hooks.json', 'does not exist');
    expect(a.check).toMatchObject({ ok: false, message: '.cursor/hooks.json: does not exist' });
  });
});
