// The package as npm ships it: `npm pack` a clean source tree (prepack builds dist/), check what the tarball holds, then run the
// tarball with npx (real registry for its dependencies, fresh npm cache) in a fresh repository, like a user would.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/tools/index.ts';
import { HOOK_MARKER } from '../../src/tools/types.ts';
import { fixtureRepo, readTree, requireCli } from '../helpers/cli.ts';
import { freshStateDir, guardEnv, guardFile, payloadsDir, repoRoot } from '../helpers/guard.ts';

const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
const work = mkdtempSync(join(tmpdir(), 'lg-pack-'));
let tarball = '';
let entries: string[] = [];

/**
 * A clean source tree, as a fresh clone has it: the files git tracks (and new ones it does not ignore), no dist/.
 * node_modules is linked in for the build tools; `npm pack` must build dist/ itself (prepack).
 */
function cleanSource(): string {
  const src = join(work, 'src-clone');
  const ls = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (ls.status !== 0) throw new Error(`git ls-files failed: ${ls.stderr}`);
  for (const rel of ls.stdout.split('\0').filter(Boolean)) {
    if (!existsSync(join(repoRoot, rel))) continue; // deleted in the work tree, not yet committed
    mkdirSync(dirname(join(src, rel)), { recursive: true });
    copyFileSync(join(repoRoot, rel), join(src, rel));
  }
  symlinkSync(join(repoRoot, 'node_modules'), join(src, 'node_modules'), 'dir');
  return src;
}

beforeAll(() => {
  requireCli();
  const src = cleanSource();
  expect(existsSync(join(src, 'dist'))).toBe(false);
  const pack = spawnSync('npm', ['pack', '--pack-destination', work, '--json'], {
    cwd: src,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (pack.status !== 0) throw new Error(`npm pack failed (${pack.status}): ${pack.stderr}`);
  const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as Array<{ filename: string }>;
  tarball = join(work, info!.filename);
  const tar = spawnSync('tar', ['tzf', tarball], { encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`tar tzf failed: ${tar.stderr}`);
  entries = tar.stdout.split('\n').filter(Boolean).sort();
}, 180_000);

// The tarball and a whole npm cache: ~15 MB a run.
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * npx with the tarball, no TTY, CI=true, a fresh npm cache (so the dependencies really come from the registry).
 * `file:` is needed: npx runs a bare absolute path as a command (`sh: 1: /tmp/…tgz: Permission denied`).
 */
function npx(args: string[], cwd: string) {
  const env = {
    ...process.env,
    CI: 'true',
    NO_COLOR: '1',
    npm_config_cache: join(work, 'npm-cache'),
    npm_config_update_notifier: 'false',
  };
  return spawnSync('npx', ['--yes', `file:${tarball}`, ...args], {
    cwd,
    env,
    input: '',
    encoding: 'utf8',
    timeout: 150_000,
  });
}

describe('npm pack', () => {
  it('the tarball holds the built files, rendered templates, payloads, README, CHANGELOG and LICENSE, and nothing of the sources', () => {
    for (const f of [
      'package/package.json',
      'package/dist/cli.mjs',
      'package/dist/loop-guard.cjs',
      'package/dist/loop-guard-source/guard/entry.ts',
      'package/dist/templates/opencode-loader.js',
      'package/dist/templates/kilo-loader.js',
      'package/README.md',
      'package/LICENSE',
    ]) {
      expect(entries, f).toContain(f);
    }
    expect(entries.filter((e) => /^package\/dist\/templates\/[^/]+$/.test(e)).length).toBeGreaterThan(0);
    // Only what runs: the template sources are rendered at build time, and nothing reads a VERSION file.
    expect(entries.filter((e) => e.startsWith('package/templates/') || e === 'package/dist/VERSION')).toEqual([]);
    for (const f of ['package/CHANGELOG.md']) expect(entries, f).toContain(f);
    expect(
      entries.filter((e) => e.startsWith('package/assets/payloads/') && e.endsWith('.json')).length,
    ).toBeGreaterThan(0);
    for (const bad of ['src/', 'test/', 'node_modules/', '.cache/']) {
      expect(
        entries.filter((e) => e.startsWith(`package/${bad}`) || e.includes(`/${bad}`)),
        bad,
      ).toEqual([]);
    }
  });

  it('the packed package.json has what a registry page and provenance need', () => {
    const r = spawnSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' });
    const pkg = JSON.parse(r.stdout) as Record<string, unknown> & {
      repository?: { url?: string };
      bugs?: { url?: string };
      engines?: { node?: string };
      bin?: Record<string, string>;
    };
    expect(pkg.repository?.url).toMatch(/^git\+https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/);
    expect(String(pkg.homepage)).toMatch(/^https:\/\//);
    expect(pkg.bugs?.url).toMatch(/^https:\/\//);
    expect((pkg.keywords as string[]).length).toBeGreaterThan(3);
    expect(pkg.engines?.node).toBe('>=20');
    expect(pkg.bin).toEqual({ 'create-loop-guard': 'dist/cli.mjs' });
    expect(Object.keys(pkg.dependencies ?? {})).toEqual([]);
  });

  it('npx <tarball> --yes in a fresh repository installs the guard, the Claude hooks and AGENTS.md', {
    timeout: 180_000,
  }, () => {
    const dir = fixtureRepo(null);
    mkdirSync(join(dir, '.claude'));
    const r = npx(['--yes'], dir);
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/^ {2}Claude Code /m);

    const tree = readTree(dir);
    for (const f of ['.agents/hooks/loop-guard.cjs', '.claude/settings.json', 'AGENTS.md'])
      expect(tree.has(f), f).toBe(true);
    expect(tree.get('.agents/hooks/loop-guard.cjs')).toBe(readFileSync(guardFile, 'utf8'));
    expect(tree.get('AGENTS.md')).toMatch(/^<!-- loop-guard:begin v=/m);

    // Our hook, once per Claude Code event we use.
    const intent = TOOLS.claude.intents.find((i) => i.kind === 'json' && i.path === '.claude/settings.json');
    const hooks = intent?.kind === 'json' ? intent.hooks : undefined;
    if (!hooks) throw new Error('no Claude Code hooks intent');
    const settings = JSON.parse(tree.get('.claude/settings.json')!) as {
      hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ command: string }> }>>;
    };
    for (const { event, matcher } of hooks.events) {
      const ours = (settings.hooks[event] ?? [])
        .filter((g) => g.matcher === matcher)
        .flatMap((g) => g.hooks)
        .filter((h) => h.command.includes(HOOK_MARKER));
      expect(
        ours.map((h) => h.command),
        event,
      ).toEqual([hooks.command]);
    }

    // The installed guard, run the way Claude Code runs it (its command through a shell), on real payloads.
    const env = guardEnv(freshStateDir(), { CLAUDE_PROJECT_DIR: dir });
    const hook = (name: string, extra: Record<string, unknown>) => {
      const payload = JSON.parse(readFileSync(join(payloadsDir, 'claude', name), 'utf8')) as Record<string, unknown>;
      const r = spawnSync('sh', ['-c', hooks.command], {
        cwd: dir,
        env,
        input: JSON.stringify({ ...payload, cwd: dir, ...extra }),
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(r.stderr, name).toBe('');
      expect(r.status, name).toBe(0);
      return r.stdout;
    };
    expect(hook('PreToolUse-success.json', {})).toBe('');
    // And it is really working, not failing open: the same failure 4 times, then the 5th attempt is refused.
    for (let i = 0; i < 4; i++) {
      expect(hook('PreToolUse-failure.json', { tool_use_id: `t${i}` })).toBe('');
      hook('PostToolUseFailure-failure.json', { tool_use_id: `t${i}` });
    }
    const refused = JSON.parse(hook('PreToolUse-failure.json', { tool_use_id: 't4' })) as {
      hookSpecificOutput: Record<string, string>;
    };
    expect(refused.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(refused.hookSpecificOutput.permissionDecisionReason).toMatch(/^loop-guard: /);
  });

  it('npx <tarball> --version prints the package.json version', { timeout: 180_000 }, () => {
    const r = npx(['--version'], fixtureRepo(null));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(version);
  });
});
