// One option names tools for every command: --tools for the installer, doctor and audit (audit's --tool kept as an
// alias); an unknown name is a usage error (exit 2) with a suggestion, under --json too.
import { beforeAll, describe, expect, it } from 'vitest';
import { CI_ENV, install, requireBuilt, runCli, sandbox } from '../helpers/sandbox.ts';

beforeAll(() => requireBuilt());

describe('--tools on doctor and audit', () => {
  const sb = sandbox({ env: CI_ENV });

  it.each([
    ['doctor', 'claud', 'claude'],
    ['audit', 'codx', 'codex'],
    ['audit', 'gemni', 'gemini'],
  ])('%s --tools %s: exit 2, did you mean %s', (command, typo, meant) => {
    const r = runCli([command, '--tools', typo], sb.env, sb.root);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`unknown tool "${typo}". Did you mean ${meant}?`);
    expect(r.stdout).toBe('');
  });

  it('--json: the usage error is the report, with a {level, code, text} message', () => {
    const r = runCli(['audit', '--json', '--tools', 'x'], sb.env, sb.root);
    expect(r.status).toBe(2);
    const report = JSON.parse(r.stdout) as { exitCode: number; messages: Array<Record<string, string>> };
    expect(report.exitCode).toBe(2);
    expect(report.messages).toEqual([{ level: 'error', code: 'usage', text: expect.stringContaining('"x"') }]);
  });

  it("audit's --tool is an alias of --tools; all means every tool audit reads; Cursor it cannot read", () => {
    const scope = (args: string[]) =>
      (JSON.parse(runCli(['audit', '--json', ...args], sb.env, sb.root).stdout) as { scope: { tools: string[] } }).scope
        .tools;
    expect(scope(['--tool', 'codex'])).toEqual(['codex']);
    expect(scope(['--tools', 'claude-code,codex'])).toEqual(['claude', 'codex']);
    expect(scope(['--tools', 'all'])).not.toContain('cursor');
    const cursor = runCli(['audit', '--tools', 'cursor'], sb.env, sb.root);
    expect(cursor.status).toBe(2);
    expect(cursor.stderr).toContain('no reader for Cursor transcripts');
  });

  it('doctor --tools checks the named tools only, set up or not', () => {
    const installed = sandbox();
    install(installed, 'claude,codex');
    const groups = (args: string[]) =>
      (
        JSON.parse(runCli(['doctor', '--json', ...args], installed.env, installed.root).stdout) as {
          tools: Array<{ name: string }>;
        }
      ).tools.map((g) => g.name);
    expect(groups([])).toEqual(['repo', 'claude', 'codex']);
    expect(groups(['--tools', 'codex'])).toEqual(['repo', 'codex']);
    expect(groups(['--tools', 'gemini'])).toEqual(['repo', 'gemini']);
  });
});
