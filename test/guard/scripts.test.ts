// A package script or make target is judged by what it runs (read from package.json / the Makefile, only when the
// hang rule is about to refuse it by name): a CLI that runs once is not a server.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkHang } from '../../src/guard/core/hang/rules.ts';
import type { ProjectFiles } from '../../src/guard/core/hang/types.ts';
import { runHook } from '../../src/guard/main.ts';
import { loadPayload } from '../helpers/paths.ts';

const filesOf = (files: Record<string, string>): ProjectFiles & { reads: string[] } => {
  const reads: string[] = [];
  return {
    reads,
    read: (name) => {
      reads.push(name);
      return files[name];
    },
  };
};
const pkg = (scripts: Record<string, string>) => ({ 'package.json': JSON.stringify({ name: 'app', scripts }) });
const hang = (command: string, files?: ProjectFiles) =>
  checkHang(command, { longRunsReturn: false, background: false, ...(files ? { files } : {}) });

describe('package scripts by what they run', () => {
  it.each([
    ['bun run start of a freshly written CLI', 'bun run start', { start: 'bun run src/index.ts' }],
    ['npm start of a CLI', 'npm start', { start: 'node dist/cli.js --once' }],
    ['a one-shot build named dev', 'pnpm dev', { dev: 'tsc -p . && node scripts/copy.mjs' }],
    [
      'a start script that builds, through another script',
      'npm start',
      { start: 'npm run build', build: 'vite build' },
    ],
  ])('%s runs', (_label, command, scripts) => {
    expect(hang(command, filesOf(pkg(scripts)))).toBeNull();
  });

  it.each([
    ['next dev', 'npm run dev', { dev: 'next dev' }, 'dev-server'],
    ['node server.js', 'npm start', { start: 'node server.js' }, 'dev-server'],
    ['a watcher', 'yarn dev', { dev: 'tsc --watch' }, 'watch-mode'],
    ['a parallel runner', 'npm run dev', { dev: 'concurrently "next dev" "tsc -w"' }, 'dev-server'],
    ['through another script', 'npm start', { start: 'npm run serve', serve: 'vite' }, 'dev-server'],
  ])('%s is still refused, naming what the script runs', (_label, command, scripts, rule) => {
    const verdict = hang(command, filesOf(pkg(scripts)));
    expect(verdict?.rule).toBe(rule);
    expect(verdict?.message).toContain('its script runs `');
    expect(verdict?.message.length).toBeLessThan(600);
  });

  it('without a package.json, or without that script, the name decides as before', () => {
    expect(hang('npm run dev', filesOf({}))?.rule).toBe('dev-server');
    expect(hang('npm run dev', filesOf(pkg({ build: 'tsc' })))?.rule).toBe('dev-server');
    expect(hang('npm run dev')?.rule).toBe('dev-server');
    expect(hang('npm run dev', filesOf({ 'package.json': '{ not json' }))?.rule).toBe('dev-server');
  });

  it('reads no file on the common path (a command no rule refuses by name)', () => {
    const files = filesOf(pkg({ test: 'vitest run' }));
    for (const c of ['npm test', 'npm run build', 'make test', 'git status', 'ls -la'])
      expect(hang(c, files)).toBeNull();
    expect(files.reads).toEqual([]);
  });
});

describe('make targets by their recipe', () => {
  const make = (recipe: string) => ({ Makefile: `.PHONY: run dev\n\nbuild:\n\tgo build ./...\n\n${recipe}` });
  it('make run of a server is refused (the Makefile says so)', () => {
    const verdict = hang('make run', filesOf(make('run: build\n\t@go run ./cmd/server --port 8080\n')));
    expect(verdict?.rule).toBe('dev-server');
    expect(verdict?.message).toContain('its make target runs `go run ./cmd/server --port 8080`');
  });
  it('make run of a one-shot tool runs', () => {
    expect(hang('make run', filesOf(make('run: build\n\t./bin/report --once\n')))).toBeNull();
  });
  it('make dev that runs a package script is judged by that script', () => {
    const files = filesOf({ ...make('dev:\n\tnpm run dev\n'), ...pkg({ dev: 'vite' }) });
    expect(hang('make dev', files)?.rule).toBe('dev-server');
  });
  it('a target with no recipe found, or no Makefile, runs as before', () => {
    expect(hang('make run', filesOf({}))).toBeNull();
    expect(hang('make run')).toBeNull();
  });
});

describe('end to end: the hook reads package.json in the payload cwd', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  it('Claude Code: `bun run start` of a CLI is not refused; `npm run dev` of next is', () => {
    const proj = mkdtempSync(join(tmpdir(), 'lg-scripts-'));
    const state = mkdtempSync(join(tmpdir(), 'lg-scripts-state-'));
    dirs.push(proj, state);
    writeFileSync(
      join(proj, 'package.json'),
      JSON.stringify({ scripts: { start: 'bun run index.ts', dev: 'next dev' } }),
    );
    const pre = (command: string, id: string) =>
      JSON.stringify({
        ...loadPayload('claude/PreToolUse-success.json'),
        cwd: proj,
        tool_input: { command, description: 'run' },
        tool_use_id: id,
      });
    const env = { LOOP_GUARD_STATE_DIR: state, PATH: process.env.PATH ?? '' };
    expect(runHook(pre('bun run start', 'toolu_s1'), 'claude', env)).toBe('');
    expect(runHook(pre('npm run dev', 'toolu_s2'), 'claude', env)).toMatch(/"permissionDecision":"deny".*next dev/);
  });
});
