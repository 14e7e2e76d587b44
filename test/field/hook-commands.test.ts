// Every installed hook command fails open quietly: with the guard file gone (a clone without it, a deleted file) it
// prints nothing and exits 0, which each tool reads as "no opinion"; with the file there it runs it with node.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { GUARD_PATH, HOOK_MARKER, TOOL_NAMES, TOOLS } from '../../src/tools/index.ts';
import { fixtureRepo, requireCli, runCliAsync } from '../helpers/cli.ts';

beforeAll(requireCli);

/** Our hook commands in an installed repository, with the tool they belong to. */
function installedCommands(dir: string): Array<{ tool: string; command: string }> {
  const out: Array<{ tool: string; command: string }> = [];
  for (const tool of TOOL_NAMES)
    for (const intent of TOOLS[tool].intents) {
      if (intent.kind !== 'json') continue;
      const text = readFileSync(join(dir, intent.path), 'utf8');
      const found = new Set([...text.matchAll(/"command": "((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`)));
      for (const command of found) if (command.includes(HOOK_MARKER)) out.push({ tool, command });
    }
  return out;
}

function run(shell: string, dir: string, tool: string, command: string) {
  const vars = Object.fromEntries(
    Object.entries(TOOLS[tool as keyof typeof TOOLS].doctor.hookEnv ?? {}).map(([k, v]) => [
      k,
      v.replace('{root}', dir),
    ]),
  );
  return spawnSync(shell, ['-c', command], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: `${dir}.home`, ...vars },
    input: '{}',
    encoding: 'utf8',
  });
}

describe('installed hook commands', () => {
  it('with the guard file missing: exit 0, nothing on stdout or stderr, in sh and bash, for every tool', async () => {
    const dir = fixtureRepo(null);
    const r = await runCliAsync(['--yes', '--tools', 'all'], { cwd: dir });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const commands = installedCommands(dir);
    expect(new Set(commands.map((c) => c.tool))).toEqual(
      new Set(['claude', 'codex', 'cursor', 'gemini', 'qwen', 'copilot']),
    );
    rmSync(join(dir, GUARD_PATH));
    for (const shell of ['sh', 'bash'])
      for (const { tool, command } of commands) {
        const res = run(shell, dir, tool, command);
        expect({ tool, shell, status: res.status, stdout: res.stdout, stderr: res.stderr }).toEqual({
          tool,
          shell,
          status: 0,
          stdout: '',
          stderr: '',
        });
      }
  });

  it('with the guard file there: the command runs it with node and the tool name', async () => {
    const dir = fixtureRepo(null);
    const r = await runCliAsync(['--yes', '--tools', 'all'], { cwd: dir });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    writeFileSync(join(dir, GUARD_PATH), 'process.stdout.write(`ran ${process.argv[2]}`);\n');
    for (const { tool, command } of installedCommands(dir))
      expect(run('sh', dir, tool, command).stdout).toBe(`ran ${tool}`);
  });
});
