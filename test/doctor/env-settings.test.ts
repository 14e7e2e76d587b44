import { describe, expect, it } from 'vitest';
import { envSettingsCheck, guardSwitchedOff, includeOnlyDrops, valueWaits } from '../../src/doctor/env-settings.ts';

const OURS = { GIT_PAGER: 'cat', PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', GIT_EDITOR: 'true' };

describe('envSettingsCheck (claude.env / codex.env)', () => {
  it('passes with our values', () => {
    expect(envSettingsCheck('claude', 'x "env"', { ...OURS, OTHER: 1 })).toMatchObject({ id: 'claude.env', ok: true });
  });
  it('passes, noting a user value that does not wait', () => {
    const c = envSettingsCheck('claude', 'x', { ...OURS, GIT_PAGER: 'delta --paging=never' });
    expect(c.ok).toBe(true);
    expect(c.message).toContain('your own GIT_PAGER="delta --paging=never" kept');
  });
  it('fails on missing keys', () => {
    const c = envSettingsCheck('codex', '.codex/config.toml [shell_environment_policy] set', { GIT_PAGER: 'cat' });
    expect(c.ok).toBe(false);
    expect(c.message).toContain('does not set PAGER, GIT_TERMINAL_PROMPT, GIT_EDITOR');
  });
  it('fails on no env table at all', () => {
    expect(envSettingsCheck('claude', 'x', undefined).ok).toBe(false);
  });
  it('fails on a value that waits, with the --force fix', () => {
    const c = envSettingsCheck('claude', 'x', { ...OURS, GIT_EDITOR: 'vim' });
    expect(c.ok).toBe(false);
    expect(c.message).toContain('GIT_EDITOR="vim", which waits for a person');
    expect(c.fix).toContain('--force replaces it with GIT_EDITOR=true');
  });
  it('fails when the config switches the guard off', () => {
    const c = envSettingsCheck('claude', 'x', { ...OURS, LOOP_GUARD: 'off' });
    expect(c.ok).toBe(false);
    expect(c.message).toContain('switches the guard off');
  });
  it('fails on extra problems (include_only)', () => {
    expect(envSettingsCheck('codex', 'x', OURS, ['its include_only list drops GIT_EDITOR']).ok).toBe(false);
  });
});

describe('helpers', () => {
  it('valueWaits', () => {
    expect(valueWaits('PAGER', 'less')).toBe(true);
    expect(valueWaits('PAGER', '')).toBe(false);
    expect(valueWaits('GIT_TERMINAL_PROMPT', '1')).toBe(true);
    expect(valueWaits('GIT_EDITOR', ':')).toBe(false);
  });
  it('guardSwitchedOff', () => {
    expect(guardSwitchedOff(' OFF ')).toBe(true);
    expect(guardSwitchedOff('on')).toBe(false);
    expect(guardSwitchedOff(undefined)).toBe(false);
  });
  it('includeOnlyDrops: case-insensitive globs', () => {
    expect(includeOnlyDrops(undefined)).toEqual([]);
    expect(includeOnlyDrops([])).toEqual([]);
    expect(includeOnlyDrops(['PATH', 'git_*'])).toEqual(['PAGER']);
    expect(includeOnlyDrops(['*'])).toEqual([]);
  });
});
