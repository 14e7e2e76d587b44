// codex.trust / codex.hook-approval, and the Codex settings doctor reads: always from a temp CODEX_HOME.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { approvalReminder, CODEX_DOC_BUDGET, codexHome, docBudget, hooksDisabled, parseCodexConfig, readCodexConfig, rootKeys, snakeEvent, trustCheck } from '../../src/doctor/codex-trust.ts';
import { tempDir } from '../helpers/doctor.ts';

const ROOT = '/srv/proj';
const cfg = (text: string) => parseCodexConfig('c', text);

describe('codexHome', () => {
  it('CODEX_HOME wins, else ~/.codex', () => {
    expect(codexHome({ CODEX_HOME: '/x' }, '/h')).toBe('/x');
    expect(codexHome({}, '/h')).toBe('/h/.codex');
    expect(codexHome({ CODEX_HOME: '' }, '/h')).toBe('/h/.codex');
  });
});

describe('trustCheck (codex.trust)', () => {
  it('passes for a trusted project', () => {
    const c = trustCheck(cfg(`model = "x"\n[projects."${ROOT}"]\ntrust_level = "trusted"\n`), [ROOT], '~/.codex/config.toml');
    expect(c).toMatchObject({ id: 'codex.trust', ok: true });
  });
  it('passes when Codex recorded the path with a trailing slash', () => {
    expect(trustCheck(cfg(`[projects."${ROOT}/"]\ntrust_level = "trusted"\n`), [ROOT], 'c').ok).toBe(true);
  });
  it('fails for another project only', () => {
    const c = trustCheck(cfg(`[projects."/elsewhere"]\ntrust_level = "trusted"\n`), [ROOT], '~/.codex/config.toml');
    expect(c.ok).toBe(false);
    expect(c.message).toContain(`has no [projects."${ROOT}"] trust_level = "trusted"`);
    expect(c.fix).toBe('`codex` → trust this folder, or `codex exec --trust` once');
  });
  it('fails for an explicitly untrusted project', () => {
    const c = trustCheck(cfg(`[projects."${ROOT}"]\ntrust_level = "untrusted"\n`), [ROOT], 'c');
    expect(c.ok).toBe(false);
    expect(c.message).toContain('trust_level = "untrusted"');
  });
  it('fails, without crashing, on a missing or unparsable user config', () => {
    const dir = tempDir();
    const missing = trustCheck(readCodexConfig(join(dir, 'config.toml')), [ROOT], '$CODEX_HOME/config.toml');
    expect(missing.ok).toBe(false);
    expect(missing.message).toContain('$CODEX_HOME/config.toml does not exist');
    writeFileSync(join(dir, 'config.toml'), '[projects\ntrust_level = = 1\n');
    const broken = trustCheck(readCodexConfig(join(dir, 'config.toml')), [ROOT], 'c');
    expect(broken.ok).toBe(false);
    expect(broken.message).toMatch(/^cannot read c: /);
    expect(broken.fix).toContain('fix the TOML syntax');
  });
  it('matches the repo through a symlinked path', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'real'));
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    const keys = rootKeys(join(dir, 'link'));
    expect(keys).toContain(join(dir, 'link'));
    expect(keys.length).toBe(2);
    expect(trustCheck(cfg(`[projects.${JSON.stringify(keys[1])}]\ntrust_level = "trusted"\n`), keys, 'c').ok).toBe(true);
  });
});

describe('approvalReminder (codex.hook-approval: a reminder, never a pass)', () => {
  const events = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit'];
  it('says how to approve when nothing is recorded', () => {
    const c = approvalReminder(cfg(''), [ROOT], events);
    expect(c).toMatchObject({ id: 'codex.hook-approval', ok: true, info: true });
    expect(c.message).toContain('/hooks');
    expect(c.message).toContain('no approval is recorded');
  });
  it('reports the approvals it can see', () => {
    const text = `[hooks.state."${ROOT}/.codex/hooks.json:pre_tool_use:0:0"]\ntrusted_hash = "sha256:ab"\n[hooks.state."${ROOT}/.codex/hooks.json:post_tool_use:0:0"]\ntrusted_hash = "sha256:cd"\n`;
    const c = approvalReminder(cfg(text), [ROOT], events);
    expect(c.ok).toBe(true);
    expect(c.message).toContain('approvals are recorded for PreToolUse, PostToolUse but not UserPromptSubmit');
  });
  it('still only reminds when the user config is missing', () => {
    expect(approvalReminder({ path: 'x', missing: true }, [ROOT], events).ok).toBe(true);
  });
  it('snakeEvent', () => expect(snakeEvent('UserPromptSubmit')).toBe('user_prompt_submit'));
});

describe('other Codex settings', () => {
  it('hooksDisabled', () => {
    expect(hooksDisabled((cfg('[features]\nhooks = false\n') as { doc: Record<string, unknown> }).doc)).toBe(true);
    expect(hooksDisabled((cfg('[features]\ncodex_hooks = false\n') as { doc: Record<string, unknown> }).doc)).toBe(true);
    expect(hooksDisabled((cfg('[features]\nhooks = true\n') as { doc: Record<string, unknown> }).doc)).toBe(false);
    expect(hooksDisabled(undefined)).toBe(false);
  });
  it('docBudget: project, then user, then 32 KiB', () => {
    expect(docBudget(undefined, undefined)).toBe(CODEX_DOC_BUDGET);
    expect(docBudget({ project_doc_max_bytes: 1000 }, undefined)).toBe(1000);
    expect(docBudget({ project_doc_max_bytes: 1000 }, { project_doc_max_bytes: 2000 })).toBe(2000);
  });
});
