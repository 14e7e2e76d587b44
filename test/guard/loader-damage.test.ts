// The plugin loaders (OpenCode, Kilo, Cline) with a guard file that is there but broken: cut short by an interrupted
// checkout, or hand-edited into a syntax error. Each loader must load, give its tool no hooks, and say why in the
// tool's log, exactly as when the file is missing (docs/guard-file.md, "The loaders").
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, requireFiles } from '../helpers/paths.ts';

const built = join(repoRoot, 'dist', 'loop-guard.cjs');
const templates = join(repoRoot, 'dist', 'templates');
beforeAll(() => requireFiles([built, join(templates, 'opencode-loader.js'), join(templates, 'cline-loader.js')]));

/** The intact guard file, then two broken versions of it. */
function damaged(): Array<[string, string]> {
  const intact = readFileSync(built, 'latin1');
  const body = intact.indexOf('\n/*@loop-guard-body\n');
  return [
    ['cut halfway through its body', intact.slice(0, body + Math.floor((intact.length - body) / 2))],
    ['a syntax error in its loader part', intact.replace('function runHook() {', 'function runHook( {')],
  ];
}

/** A repository as the scaffolder leaves it, with `guard` as its guard file and the loader `template` at `at`. */
function repoWith(guard: string, template: string, at: string): string {
  const repo = realpathSync(mkdtempSync(join(tmpdir(), 'lg-loader-damage-')));
  mkdirSync(join(repo, '.agents', 'hooks'), { recursive: true });
  writeFileSync(join(repo, '.agents', 'hooks', 'loop-guard.cjs'), guard);
  mkdirSync(join(repo, at, '..'), { recursive: true });
  copyFileSync(join(templates, template), join(repo, at));
  return repo;
}

const notActive =
  /^loop-guard: not active, \S*\.agents\/hooks\/loop-guard\.cjs did not load \(.+\); run npx create-loop-guard to reinstall it$/;

describe('a plugin loader with a broken guard file', () => {
  for (const [tool, template] of [
    ['opencode', 'opencode-loader.js'],
    ['kilo', 'kilo-loader.js'],
  ] as const) {
    it(`${tool}: the plugin returns no hooks and logs once, at warn, why`, async () => {
      for (const [what, guard] of damaged()) {
        // .mjs: the loaders are ES modules (OpenCode and Kilo import them), here outside a "type": "module" package.
        const repo = repoWith(guard, template, `.${tool}/plugins/loop-guard.mjs`);
        const mod = (await import(pathToFileURL(join(repo, `.${tool}`, 'plugins', 'loop-guard.mjs')).href)) as {
          LoopGuard: (ctx: unknown) => Promise<unknown>;
        };
        const logs: Array<{ service: string; level: string; message: string }> = [];
        const ctx = {
          directory: repo,
          worktree: repo,
          client: { app: { log: async (o: { body: never }) => logs.push(o.body) } },
        };
        expect(await mod.LoopGuard(ctx), what).toEqual({});
        expect(logs, what).toHaveLength(1);
        expect(logs[0]?.service).toBe('loop-guard');
        expect(logs[0]?.level).toBe('warn');
        expect(logs[0]?.message, what).toMatch(notActive);
      }
    });
  }

  it('cline: the plugin object has no hooks, and its setup logs why through the logger Cline passes', () => {
    for (const [what, guard] of damaged()) {
      const repo = repoWith(guard, 'cline-loader.js', '.cline/plugins/loop-guard.js');
      const plugin = createRequire(import.meta.url)(join(repo, '.cline', 'plugins', 'loop-guard.js')) as {
        hooks: object;
        setup: (api: unknown, ctx: unknown) => void;
      };
      expect(plugin.hooks, what).toEqual({});
      const logged: string[] = [];
      plugin.setup({}, { logger: { error: (m: string) => logged.push(m), log() {}, debug() {} } });
      expect(logged, what).toHaveLength(1);
      expect(logged[0], what).toMatch(notActive);
    }
  });
});
