// The further checks a record names (doctor.checks), config-file location and the record's rules, always from temp
// files: codex.hook-approval, the instruction budget setting, $VAR-moved files, the hooks-off switches.
import { describe, expect, it } from 'vitest';
import { brokenRule, type LoadedFile, locate, parseText } from '../../src/doctor/config-files.ts';
import { approvalReminder, budgetOf, snakeEvent } from '../../src/doctor/extra-checks.ts';
import { TOOLS } from '../../src/tools/index.ts';

const ROOT = '/srv/proj';
const file = (shown: string, text: string | null, path = shown): LoadedFile => ({
  path,
  shown,
  text,
  ...parseText(path, text),
});
const cfg = (text: string) => file('c', text, 'config.toml');
const approval = TOOLS.codex.doctor.checks?.find((c) => c.kind === 'hook-approval');
const how = approval?.kind === 'hook-approval' ? approval.how : '';
const remind = (user: LoadedFile, roots: string[], events: string[]) =>
  approvalReminder('codex', how, user, '.codex/hooks.json', roots, events);

describe('locate: where a config file is and how messages name it', () => {
  const where = {
    root: '/r',
    home: '/h',
    env: {} as Record<string, string | undefined>,
    tilde: (p: string) => p.replace(/^\/h\//, '~/'),
  };
  const user = TOOLS.codex.doctor.files?.user;
  it('CODEX_HOME wins (named $CODEX_HOME/…), an empty one does not, else ~/.codex', () => {
    if (!user) throw new Error('codex names no user file');
    expect(locate(user, { ...where, env: { CODEX_HOME: '/x' } })).toEqual({
      abs: '/x/config.toml',
      shown: '$CODEX_HOME/config.toml',
    });
    expect(locate(user, where)).toEqual({ abs: '/h/.codex/config.toml', shown: '~/.codex/config.toml' });
    expect(locate(user, { ...where, env: { CODEX_HOME: '' } }).abs).toBe('/h/.codex/config.toml');
  });
  it('a repo file stays repo-relative', () =>
    expect(locate({ path: '.claude/settings.local.json' }, where)).toEqual({
      abs: '/r/.claude/settings.local.json',
      rel: '.claude/settings.local.json',
      shown: '.claude/settings.local.json',
    }));
  it('the first variable set wins (Gemini: the trusted-folders path, then its home)', () => {
    const f = TOOLS.gemini.doctor.files?.trustedFolders;
    if (!f) throw new Error('gemini names no trustedFolders file');
    expect(locate(f, { ...where, env: { GEMINI_CLI_HOME: '/g' } }).abs).toBe('/g/.gemini/trustedFolders.json');
    expect(
      locate(f, { ...where, env: { GEMINI_CLI_HOME: '/g', GEMINI_CLI_TRUSTED_FOLDERS_PATH: '/t.json' } }).abs,
    ).toBe('/t.json');
  });
});

describe("brokenRule: the record's hooks-off switches", () => {
  const rules = TOOLS.codex.doctor.hookRules ?? [];
  const files = (env: string, user: string) =>
    new Map([
      ['env', file('.codex/config.toml', env)],
      ['user', file('~/.codex/config.toml', user, 'u.toml')],
    ]);
  it('[features] hooks = false or codex_hooks = false, the project file named first', () => {
    expect(brokenRule('codex.hooks', rules, files('[features]\nhooks = false\n', ''))?.message).toBe(
      '.codex/config.toml sets [features] hooks = false, so Codex runs no hooks at all',
    );
    expect(brokenRule('codex.hooks', rules, files('', '[features]\ncodex_hooks = false\n'))?.message).toContain(
      '~/.codex/config.toml sets',
    );
    expect(brokenRule('codex.hooks', rules, files('[features]\nhooks = true\n', ''))).toBeNull();
  });
  it('isNot: a required top-level value (Cursor\'s "version": 1), only in a file that parses', () => {
    const cursor = TOOLS.cursor.doctor.hookRules ?? [];
    expect(
      brokenRule('cursor.hooks', cursor, new Map([['hooks', file('.cursor/hooks.json', '{"hooks":{}}')]]))?.fix,
    ).toBe('add "version": 1 at the top level of .cursor/hooks.json');
    expect(
      brokenRule('cursor.hooks', cursor, new Map([['hooks', file('.cursor/hooks.json', '{"version":1}')]])),
    ).toBeNull();
    expect(brokenRule('cursor.hooks', cursor, new Map([['hooks', file('.cursor/hooks.json', null)]]))).toBeNull();
  });
});

describe('approvalReminder (codex.hook-approval: a reminder, never a pass)', () => {
  const events = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit'];
  it('says how to approve when nothing is recorded', () => {
    const c = remind(cfg(''), [ROOT], events);
    expect(c).toMatchObject({ id: 'codex.hook-approval', ok: true, info: true });
    expect(c.message).toContain('/hooks');
    expect(c.message).toContain('no approval is recorded');
  });
  it('reports the approvals it can see', () => {
    const text = `[hooks.state."${ROOT}/.codex/hooks.json:pre_tool_use:0:0"]\ntrusted_hash = "sha256:ab"\n[hooks.state."${ROOT}/.codex/hooks.json:post_tool_use:0:0"]\ntrusted_hash = "sha256:cd"\n`;
    const c = remind(cfg(text), [ROOT], events);
    expect(c.ok).toBe(true);
    expect(c.message).toContain('approvals are recorded for PreToolUse, PostToolUse but not UserPromptSubmit');
  });
  it('still only reminds when the user config is missing', () => {
    expect(remind(file('x', null), [ROOT], events).ok).toBe(true);
  });
  it('snakeEvent', () => expect(snakeEvent('UserPromptSubmit')).toBe('user_prompt_submit'));
});

describe('budgetOf: the instruction budget setting', () => {
  it("project, then user, then the record's default", () => {
    expect(budgetOf('project_doc_max_bytes', undefined, undefined, 32 * 1024)).toBe(32 * 1024);
    expect(budgetOf('project_doc_max_bytes', { project_doc_max_bytes: 1000 }, undefined, 1)).toBe(1000);
    expect(budgetOf('project_doc_max_bytes', { project_doc_max_bytes: 1000 }, { project_doc_max_bytes: 2000 }, 1)).toBe(
      2000,
    );
  });
});
