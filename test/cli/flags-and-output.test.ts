// Rough edges of the CLI's flags and output, one test each, through the BUILT CLI.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../../src/tools/names.ts';
import { cliFile, fixtureRepo, homeFor, requireCli, runCli } from '../helpers/cli.ts';
import { nodeBin } from '../helpers/paths.ts';

beforeAll(requireCli);

describe('rough edges', () => {
  it('--remove summarizes the guard file instead of printing it', () => {
    const dir = fixtureRepo('claude');
    expect(runCli(['--yes'], { cwd: dir }).status).toBe(0);
    const r = runCli(['--remove', '--dry-run'], { cwd: dir });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^ {2}delete {5}\.agents\/hooks\/loop-guard\.cjs /m);
    expect(r.stdout).not.toContain('use strict');
    expect(r.stdout.split('\n').length).toBeLessThan(40);
  });

  it.each([[['--dry-run']], [['--dry-run', '--diff']]])('%j | head -1: no EPIPE trace', (args) => {
    const dir = fixtureRepo('all');
    const r = spawnSync(
      'sh',
      ['-c', `"${nodeBin}" "${cliFile}" ${args.join(' ')} | head -1; echo "exit=\${PIPESTATUS:-}"`],
      {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: homeFor(dir), CI: 'true', NO_COLOR: '1' },
        encoding: 'utf8',
      },
    );
    expect(r.stdout.split('\n')[0]).toBe('Agent tools:');
    expect(r.stderr).not.toMatch(/EPIPE|Error|at /);
  });

  it('--cwd /nope says the directory does not exist (exit 2)', () => {
    const r = runCli(['--cwd', '/nope-lg-missing'], { cwd: fixtureRepo(null) });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--cwd /nope-lg-missing: the directory does not exist.');
    expect(r.stdout).toBe('');
  });

  it('unknown flags get our own message, with "did you mean"', () => {
    const dir = fixtureRepo(null);
    const bogus = runCli(['--bogus'], { cwd: dir });
    expect(bogus.status).toBe(2);
    expect(bogus.stderr).toBe('create-loop-guard: unknown option --bogus. Run with --help for usage.\n');
    const typo = runCli(['--chek'], { cwd: dir });
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain('unknown option --chek. Did you mean --check?');
    expect(runCli(['--tools'], { cwd: dir }).stderr).toContain('--tools needs a value');
    expect(runCli(['doctr'], { cwd: dir }).stderr).toContain('Did you mean doctor?');
  });

  it('--tools: did you mean; claude-code and all accepted', () => {
    const dir = fixtureRepo(null);
    const r = runCli(['--tools', 'claud', '--dry-run'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unknown tool "claud". Did you mean claude?');
    const alias = runCli(['--tools', 'claude-code', '--dry-run', '--json'], { cwd: dir });
    expect(alias.status).toBe(0);
    expect(JSON.parse(alias.stdout).tools.map((t: { name: string }) => t.name)).toEqual(['claude']);
    const all = runCli(['--tools', 'all', '--dry-run', '--json'], { cwd: dir });
    expect(JSON.parse(all.stdout).tools.map((t: { name: string }) => t.name)).toEqual([...TOOL_NAMES]);
  });

  it('help and -v are accepted', () => {
    const dir = fixtureRepo(null);
    const help = runCli(['help'], { cwd: dir });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: npx create-loop-guard');
    expect(runCli(['-v'], { cwd: dir }).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('--check on a never-set-up repo says so, not "Drift: 5 file(s)"', () => {
    const r = runCli(['--check'], { cwd: fixtureRepo('claude') });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('loop-guard is not set up in');
    expect(r.stdout).not.toContain('Drift');
  });

  it('--check names --force when a conflict needs it', () => {
    const dir = fixtureRepo('claude');
    expect(runCli(['--yes'], { cwd: dir }).status).toBe(0);
    writeFileSync(join(dir, '.agents/hooks/loop-guard.cjs'), 'console.log("mine")\n');
    const r = runCli(['--check'], { cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stdout.trim().split('\n').at(-1)).toContain('npx create-loop-guard --yes --force');
  });

  it('--json: structured messages, and the reason of every non-zero exit', () => {
    const dir = fixtureRepo('claude');
    const cases: Array<[string[], string]> = [
      [['--tools', 'claud'], 'usage'],
      [[], 'needs-yes'],
      [['--check'], 'not-set-up'],
    ];
    for (const [args, code] of cases) {
      const r = runCli(['--json', ...args], { cwd: dir });
      expect(r.status).not.toBe(0);
      const data = JSON.parse(r.stdout);
      expect(data.exitCode).toBe(r.status);
      for (const m of data.messages) {
        expect(Object.keys(m).sort()).toEqual(['code', 'level', 'text']);
        expect(m.text).not.toMatch(/^\n/);
      }
      expect(data.messages).toContainEqual(expect.objectContaining({ level: 'error', code }));
    }
    for (const args of [['--bogus'], ['--cwd', '/nope-lg-missing']]) {
      const r = runCli(['--json', ...args], { cwd: dir });
      expect(r.status).toBe(2);
      expect(JSON.parse(r.stdout).messages).toContainEqual(expect.objectContaining({ level: 'error', code: 'usage' }));
    }
    const bad = fixtureRepo('malformed');
    const parse = JSON.parse(runCli(['--json', '--yes'], { cwd: bad }).stdout);
    expect(parse.exitCode).toBe(2);
    expect(parse.messages).toContainEqual(expect.objectContaining({ level: 'error', code: 'parse-error' }));
  });

  it("the preview is short: the file list once, the compact diff of the user's own files, then the closing line", () => {
    const r = runCli([], { cwd: fixtureRepo('all') });
    expect(r.status).toBe(1);
    expect(r.stdout.match(/\.claude\/settings\.json/g)?.length).toBe(2); // its plan line and its compact diff
    expect(r.stdout).not.toContain('Summary:');
    expect(r.stdout).not.toContain('\n+++ ');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toContain('Pass --yes');
    // A four-tool repository's preview fits on one screen beside the question (it was 230 lines).
    expect(lines.length - 1).toBeLessThanOrEqual(40);
  });

  it('owned files and the ownership record are summarized by purpose and size unless --diff', () => {
    const dir = fixtureRepo('cursor');
    const plain = runCli(['--dry-run'], { cwd: dir });
    expect(plain.stdout).toMatch(
      /^ {2}create {5}\.agents\/loop-guard\.json +what create-loop-guard owns here \(\d+ lines, ours\)$/m,
    );
    expect(plain.stdout).not.toContain('"$comment"');
    expect(plain.stdout).toMatch(
      /^ {2}create {5}\.cursor\/loop-guard-env\.sh +the environment for Cursor's agent shell \(\d+ lines, ours\)$/m,
    );
    const full = runCli(['--dry-run', '--diff'], { cwd: dir });
    expect(full.stdout).toContain('"$comment"');
    expect(runCli(['--dry-run', '--verbose'], { cwd: dir }).stdout).toContain('"$comment"');
  });

  it('next steps mention committing, doctor and CI', () => {
    const r = runCli(['--yes'], { cwd: fixtureRepo('claude') });
    const steps = r.stdout.slice(r.stdout.indexOf('Next steps:'));
    expect(steps).toContain('git commit');
    expect(steps).toContain('npx create-loop-guard doctor');
    expect(steps).toMatch(/npx create-loop-guard@\d+(\.\d+)? --check/);
  });

  it("the install's machine steps use doctor's words and commands (trust, the shell profile)", () => {
    const dir = fixtureRepo(null);
    const home = homeFor(dir);
    const r = runCli(['--yes', '--tools', 'codex,copilot,cursor'], {
      cwd: dir,
      env: { HOME: home, SHELL: '/bin/bash' },
    });
    expect(r.status).toBe(0);
    const steps = r.stdout.slice(r.stdout.indexOf('Left to do on this machine (doctor checks these too):'));
    expect(steps).toContain('○ Codex: `codex` → trust this folder, or `codex exec --trust` once');
    expect(steps).toMatch(
      /○ GitHub Copilot CLI: start copilot here and trust the folder, or add ".*" to "trustedFolders" in ~\/\.copilot\/config\.json/,
    );
    expect(steps).toContain('○ Cursor: npx create-loop-guard --shell-profile, or add this line to your shell profile:');
    expect(r.stdout).not.toContain('which we could not test here');
    const doctor = runCli(['doctor'], { cwd: dir, env: { HOME: home, SHELL: '/bin/bash' } });
    const left = doctor.stdout.slice(doctor.stdout.indexOf('Left to do on this machine'));
    for (const line of ['○ Codex: `codex` → trust this folder', '○ Cursor: npx create-loop-guard --shell-profile'])
      expect(left).toContain(line);
  });

  it('--check says what happened to each drift (deleted, our part deleted, edited), and --diff shows the lines in text mode', () => {
    const dir = fixtureRepo('all');
    expect(runCli(['--yes'], { cwd: dir }).status).toBe(0);
    const toml = join(dir, '.codex/config.toml');
    writeFileSync(toml, readFileSync(toml, 'utf8').replace(/\n\[shell_environment_policy\.set\][^[]*/, '\n'));
    rmSync(join(dir, '.cursor/loop-guard-env.sh'));
    const hooks = join(dir, '.codex/hooks.json');
    writeFileSync(hooks, readFileSync(hooks, 'utf8').replace('"timeout": 10', '"timeout": 99'));
    const plain = runCli(['--check'], { cwd: dir });
    expect(plain.status).toBe(1);
    expect(plain.stdout).toContain('  drift      .codex/config.toml  (our 6 lines were deleted from it)');
    expect(plain.stdout).toContain('  drift      .cursor/loop-guard-env.sh  (deleted)');
    expect(plain.stdout).toContain('  drift      .codex/hooks.json  (our part was edited since it was written)');
    expect(plain.stdout).not.toContain('+GIT_PAGER');
    const diff = runCli(['--check', '--diff'], { cwd: dir });
    expect(diff.status).toBe(1);
    expect(diff.stdout).toContain('--- a/.codex/config.toml\n+++ b/.codex/config.toml\n');
    expect(diff.stdout).toMatch(/^\+GIT_PAGER = "cat"\r?$/m); // the fixture's config.toml has CRLF line ends
    expect(diff.stdout).toContain('--- /dev/null\n+++ b/.cursor/loop-guard-env.sh\n');
    expect(diff.stdout).toMatch(/^- +"timeout": 99,?$/m);
    expect(diff.stdout).toMatch(/^\+ +"timeout": 10,?$/m);
  });

  it('a preview words notes as what would happen', () => {
    const dir = fixtureRepo('claude');
    expect(runCli(['--yes'], { cwd: dir }).status).toBe(0);
    const guard = join(dir, '.agents/hooks/loop-guard.cjs');
    writeFileSync(
      guard,
      readFileSync(guard, 'utf8').replace(/^\/\/ create-loop-guard v\S+/, '// create-loop-guard v0.0.1'),
    );
    const r = runCli(['--dry-run'], { cwd: dir });
    expect(r.stdout).toContain('Would replace v0.0.1 with v');
    expect(r.stdout).not.toContain('Replaced');
  });
});
