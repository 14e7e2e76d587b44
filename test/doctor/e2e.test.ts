// End to end with the built CLI: install, `doctor` says 0; break it three ways, `doctor` says 1 and names each one.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { withOwnedHeader } from '../../src/edit/owned-file.ts';
import { cloneSandbox, install, requireBuilt, runCli, type Sandbox, sandbox } from '../helpers/sandbox.ts';

/** Every file under a directory with its hash, mode and mtime: proof that nothing was written. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const st = statSync(p);
        out[p] = `${createHash('sha256').update(readFileSync(p)).digest('hex')} ${st.mode} ${st.mtimeMs}`;
      }
    }
  };
  walk(dir);
  return out;
}

let healthy: Sandbox;
beforeAll(() => {
  requireBuilt();
  healthy = sandbox();
  install(healthy);
}, 60_000);

describe('create-loop-guard doctor', () => {
  it('a healthy install: exit 0, a checklist grouped by tool, and nothing written anywhere', () => {
    const before = { repo: snapshot(healthy.root), home: snapshot(healthy.home), codex: snapshot(healthy.codexHome) };
    const r = runCli(['doctor', '--cwd', healthy.root], healthy.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^create-loop-guard doctor v\d+\.\d+\.\d+ — /);
    for (const label of ['Repository', 'Claude Code', 'Codex', 'Cursor', 'OpenCode'])
      expect(r.stdout).toContain(`\n${label}\n`);
    expect(r.stdout).not.toContain('✗');
    expect(r.stdout).toMatch(/All \d+ checks passed/);
    // No colour when stdout is not a terminal.
    expect(r.stdout).not.toContain('\u001b[');
    expect({ repo: snapshot(healthy.root), home: snapshot(healthy.home), codex: snapshot(healthy.codexHome) }).toEqual(
      before,
    );
    // Temp state dirs are gone again.
    expect(readdirSync(healthy.tmp)).toEqual([]);
  }, 60_000);

  it('from a subdirectory it checks the repository root', () => {
    const r = runCli(['doctor', '--cwd', join(healthy.root, '.agents', 'hooks')], healthy.env);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`— ${healthy.root}\n`);
  }, 60_000);

  it('broken three ways: exit 1, each one named with its fix', () => {
    const sb = cloneSandbox(healthy);
    // 1. The guard replaced by a no-op that keeps our header and always exits 0 silently.
    writeFileSync(
      join(sb.root, '.agents/hooks/loop-guard.cjs'),
      withOwnedHeader(
        'process.exitCode = 0;\n',
        '//',
        JSON.parse(readFileSync(join(sb.root, '.agents/loop-guard.json'), 'utf8')).version,
      ),
    );
    // 2. A hook event removed.
    const settingsPath = join(sb.root, '.claude/settings.json');
    const settings = JSON.parse(readFileSync(settingsPath, 'utf8'));
    delete settings.hooks.PostToolUseFailure;
    writeFileSync(settingsPath, `${JSON.stringify(settings, null, 2)}\n`);
    // 3. The AGENTS.md block deleted.
    const agents = join(sb.root, 'AGENTS.md');
    writeFileSync(
      agents,
      readFileSync(agents, 'utf8').replace(/<!-- loop-guard:begin[\s\S]*?<!-- loop-guard:end -->\n?/, ''),
    );

    const r = runCli(['doctor', '--cwd', sb.root], sb.env);
    expect(r.status).toBe(1);
    const failed = r.stdout.split('\n').filter((l) => l.includes('✗'));
    const line = (text: string) => failed.find((l) => l.includes(text));
    // One cause, one line: the no-op guard's failing replays fold into its own line, the removed event's into the hooks line.
    expect(failed, r.stdout).toHaveLength(3);
    expect(r.stdout).not.toContain('no warning on the 3rd identical result');
    expect(line('.agents/hooks/loop-guard.cjs carries the v')).toContain('fix: npx create-loop-guard --yes');
    // The removed event.
    expect(line('.claude/settings.json: no loop-guard hook on PostToolUseFailure')).toContain('fix:');
    // The deleted block.
    expect(line('AGENTS.md has no loop-guard block')).toContain('fix: npx create-loop-guard --yes');
    expect(r.stdout).toMatch(
      /^Broken: 3 problems in the repository or the install \(repo\.guard, repo\.agents-md, claude\.hooks\); \d+ checks passed/m,
    );

    // --json: the same findings as data.
    const j = runCli(['doctor', '--json', '--cwd', sb.root], sb.env);
    expect(j.status).toBe(1);
    const data = JSON.parse(j.stdout) as {
      version: string;
      root: string;
      exitCode: number;
      tools: Array<{ name: string; checks: Array<{ id: string; ok: boolean; message: string; fix?: string }> }>;
    };
    expect(data).toMatchObject({ root: sb.root, exitCode: 1 });
    expect(data.tools.map((t) => t.name)).toEqual(['repo', 'claude', 'codex', 'cursor', 'opencode']);
    const failedIds = data.tools.flatMap((t) => t.checks.filter((c) => !c.ok).map((c) => c.id));
    expect(failedIds).toEqual(
      expect.arrayContaining([
        'repo.guard',
        'repo.agents-md',
        'claude.hooks',
        'claude.replay',
        'codex.replay',
        'cursor.replay',
      ]),
    );
    for (const c of data.tools.flatMap((t) => t.checks)) {
      if (c.ok) expect(c.fix).toBeUndefined();
      else expect(c.fix).toBeTruthy();
    }
  }, 90_000);

  it('--json on a healthy install', () => {
    const r = runCli(['doctor', '--json', '--cwd', healthy.root], healthy.env);
    expect(r.status).toBe(0);
    const data = JSON.parse(r.stdout);
    expect(Object.keys(data)).toEqual(['version', 'root', 'tools', 'verdict', 'exitCode']);
    expect(data.exitCode).toBe(0);
    expect(data.tools.every((t: { checks: Array<{ ok: boolean }> }) => t.checks.every((c) => c.ok))).toBe(true);
  }, 60_000);

  it('not set up at all: exit 2 and how to set it up', () => {
    const sb = sandbox();
    const r = runCli(['doctor', '--cwd', sb.root], sb.env);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Run npx create-loop-guard to set it up');
    const j = runCli(['doctor', '--json', '--cwd', sb.root], sb.env);
    expect(j.status).toBe(2);
    expect(JSON.parse(j.stdout)).toMatchObject({ tools: [], exitCode: 2 });
  }, 60_000);
});
