// <tool>.trust: each trust kind, driven by the records that name it (Codex's projects table, Gemini's folder rules,
// Copilot's folder list). All three CLIs skip project hooks silently in an untrusted folder.
import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type LoadedFile, parseText } from '../../src/doctor/config-files.ts';
import { rootKeys, trustCheck } from '../../src/doctor/trust.ts';
import { TOOLS, type ToolName, type TrustFacts } from '../../src/tools/index.ts';
import { tempDir } from '../helpers/sandbox.ts';

const facts = (tool: ToolName): TrustFacts => {
  const t = TOOLS[tool].doctor.trust;
  if (!t) throw new Error(`${tool} has no trust facts`);
  return t;
};
/** A loaded file from text (null = missing), named as messages name it. */
const file = (shown: string, text: string | null, path = shown): LoadedFile => ({
  path,
  shown,
  text,
  ...parseText(path, text),
});
const json = (shown: string, doc: unknown) => file(shown, doc === undefined ? null : JSON.stringify(doc));
const check = (
  tool: ToolName,
  root: string,
  env: Record<string, string>,
  files: Record<string, LoadedFile>,
  roots = [root],
) => trustCheck(tool, facts(tool), { root, roots, env, files: new Map(Object.entries(files)) });

describe('gemini.trust (folder rules)', () => {
  const where = '~/.gemini/trustedFolders.json';
  const gemini = (env: Record<string, string>, user: unknown, rules: unknown, root = '/w/repo') =>
    check('gemini', root, env, { user: json('~/.gemini/settings.json', user), trustedFolders: json(where, rules) });
  it('passes for a TRUST_FOLDER rule on the folder or a parent, a TRUST_PARENT rule beside it, the env switch, or trust turned off', () => {
    expect(gemini({}, {}, { '/w/repo': 'TRUST_FOLDER' }).ok).toBe(true);
    expect(gemini({}, {}, { '/w': 'TRUST_FOLDER' }).ok).toBe(true);
    expect(gemini({}, {}, { '/w/other': 'TRUST_PARENT' }).ok).toBe(true);
    expect(gemini({ GEMINI_CLI_TRUST_WORKSPACE: 'true' }, {}, undefined).ok).toBe(true);
    const off = gemini({}, { security: { folderTrust: { enabled: false } } }, undefined);
    expect(off).toMatchObject({
      ok: true,
      message: 'folder trust is off in ~/.gemini/settings.json, so project hooks load',
    });
  });
  it('fails with the exact rule to add when nothing trusts it, a sibling prefix does not count, and DO_NOT_TRUST wins', () => {
    const none = gemini({}, {}, undefined);
    expect(none).toMatchObject({ id: 'gemini.trust', ok: false });
    expect(none.fix).toBe(`start gemini here and choose "Trust folder", or add "/w/repo": "TRUST_FOLDER" to ${where}`);
    expect(gemini({}, {}, { '/w/repo': 'TRUST_FOLDER' }, '/w/repo-2').ok).toBe(false);
    const denied = gemini({}, {}, { '/w': 'TRUST_FOLDER', '/w/repo': 'DO_NOT_TRUST' });
    expect(denied.ok).toBe(false);
    expect(denied.message).toContain(`(${where} says DO_NOT_TRUST)`);
  });
});

describe('copilot.trust (folder list)', () => {
  const where = '~/.copilot/config.json';
  const copilot = (env: Record<string, string>, config: unknown, root = '/w/repo') =>
    check('copilot', root, env, { user: json(where, config) });
  it('passes for a trustedFolders entry on the folder or a parent, or COPILOT_ALLOW_ALL=true', () => {
    expect(copilot({}, { trustedFolders: ['/w/repo'] })).toMatchObject({
      ok: true,
      message: `${where} trusts /w/repo, so Copilot CLI loads .github/hooks`,
    });
    expect(copilot({}, { trustedFolders: ['/w'] }).ok).toBe(true);
    expect(copilot({ COPILOT_ALLOW_ALL: 'true' }, undefined).ok).toBe(true);
  });
  it('fails otherwise (COPILOT_ALLOW_ALL must be exactly "true"; a sibling prefix does not count)', () => {
    expect(copilot({}, undefined)).toMatchObject({ id: 'copilot.trust', ok: false });
    expect(copilot({ COPILOT_ALLOW_ALL: '1' }, {}).ok).toBe(false);
    expect(copilot({}, { trustedFolders: ['/w/repo'] }, '/w/repo-2').ok).toBe(false);
  });
});

describe('codex.trust (projects table)', () => {
  const ROOT = '/srv/proj';
  const codex = (text: string | null, shown = '~/.codex/config.toml', roots = [ROOT]) =>
    check('codex', ROOT, {}, { user: file(shown, text, 'config.toml') }, roots);
  it('passes for a trusted project, also when recorded with a trailing slash', () => {
    expect(codex(`model = "x"\n[projects."${ROOT}"]\ntrust_level = "trusted"\n`)).toMatchObject({
      id: 'codex.trust',
      ok: true,
    });
    expect(codex(`[projects."${ROOT}/"]\ntrust_level = "trusted"\n`).ok).toBe(true);
  });
  it('fails for another project only, or an explicitly untrusted one', () => {
    const c = codex(`[projects."/elsewhere"]\ntrust_level = "trusted"\n`);
    expect(c.ok).toBe(false);
    expect(c.message).toContain(`has no [projects."${ROOT}"] trust_level = "trusted"`);
    expect(c.fix).toBe('`codex` → trust this folder, or `codex exec --trust` once');
    expect(codex(`[projects."${ROOT}"]\ntrust_level = "untrusted"\n`).message).toContain('trust_level = "untrusted"');
  });
  it('fails, without crashing, on a missing or unparsable user config', () => {
    const missing = codex(null, '$CODEX_HOME/config.toml');
    expect(missing.ok).toBe(false);
    expect(missing.message).toContain('$CODEX_HOME/config.toml does not exist');
    const broken = codex('[projects\ntrust_level = = 1\n', 'c');
    expect(broken.ok).toBe(false);
    expect(broken.message).toMatch(/^cannot read c: /);
    expect(broken.fix).toContain('fix the TOML syntax');
  });
  it('matches the repo through a symlinked path', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'real'));
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    const keys = rootKeys(join(dir, 'link'), realpathSync);
    expect(keys).toContain(join(dir, 'link'));
    expect(keys.length).toBe(2);
    expect(codex(`[projects.${JSON.stringify(keys[1])}]\ntrust_level = "trusted"\n`, 'c', keys).ok).toBe(true);
  });
});
