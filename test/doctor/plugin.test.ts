// <tool>.plugin / <tool>.load for the plugin tool (OpenCode): the built loader, with the built guard file where the
// scaffolder puts it, loads and guards; broken plugins are named.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { judgePlugin, pluginFileCheck, probePlugin } from '../../src/doctor/plugin.ts';
import { TOOLS } from '../../src/tools/index.ts';

const facts = TOOLS.opencode.doctor.plugin as NonNullable<typeof TOOLS.opencode.doctor.plugin>;
import { withOwnedHeader } from '../../src/edit/owned-file.ts';
import { mainDir, requireBuilt, tempDir } from '../helpers/sandbox.ts';

beforeAll(requireBuilt);

const shipped = () =>
  withOwnedHeader(readFileSync(join(mainDir, 'dist', 'templates', 'opencode-loader.js'), 'utf8'), '//', '0.1.0');
const env = () => ({ PATH: process.env.PATH ?? '' });

async function load(text: string, packageJson?: string, guard = true) {
  const root = tempDir();
  if (packageJson) writeFileSync(join(root, 'package.json'), packageJson);
  mkdirSync(join(root, '.opencode', 'plugins'), { recursive: true });
  mkdirSync(join(root, '.agents', 'hooks'), { recursive: true });
  if (guard) copyFileSync(join(mainDir, 'dist', 'loop-guard.cjs'), join(root, '.agents', 'hooks', 'loop-guard.cjs'));
  const file = join(root, '.opencode', 'plugins', 'loop-guard.js');
  writeFileSync(file, text);
  const { probe, run } = await probePlugin('opencode', 'OpenCode', facts, file, root, env());
  return {
    check: judgePlugin('opencode', 'OpenCode', facts.hooks, '.opencode/plugins/loop-guard.js', probe, run),
    probe,
  };
}

describe('pluginFileCheck (opencode.plugin)', () => {
  it('passes for the shipped file', () =>
    expect(pluginFileCheck('opencode', 'OpenCode', 'p', shipped(), shipped(), '0.1.0')).toMatchObject({
      id: 'opencode.plugin',
      ok: true,
    }));
  it('fails when missing, foreign, old or edited', () => {
    expect(pluginFileCheck('opencode', 'OpenCode', 'p', null, shipped(), '0.1.0').message).toContain('does not exist');
    expect(
      pluginFileCheck('opencode', 'OpenCode', 'p', 'export const X = async () => ({});\n', shipped(), '0.1.0').message,
    ).toContain('no create-loop-guard header');
    expect(pluginFileCheck('opencode', 'OpenCode', 'p', shipped(), shipped(), '0.2.0').message).toContain('is v0.1.0');
    expect(pluginFileCheck('opencode', 'OpenCode', 'p', `${shipped()}// mine\n`, shipped(), '0.1.0').message).toContain(
      'differs from the plugin',
    );
  });
});

describe('probePlugin + judgePlugin (opencode.load)', () => {
  it('passes for the built plugin, in a folder without "type": "module"', async () => {
    const { check, probe } = await load(shipped());
    expect(check).toMatchObject({ id: 'opencode.load', ok: true });
    expect(probe?.env).toMatchObject({ GIT_PAGER: 'cat', GIT_EDITOR: 'true' });
  });

  it('passes inside a "type": "commonjs" package too', async () => {
    expect((await load(shipped(), '{"type":"commonjs"}')).check.ok).toBe(true);
  });

  it('fails for a plugin whose hooks do nothing', async () => {
    const { check } = await load(
      `export const P = async () => ({ 'tool.execute.before': async () => {}, 'tool.execute.after': async () => {}, 'chat.message': async () => {}, 'shell.env': async () => {} });\n`,
    );
    expect(check.ok).toBe(false);
    expect(check.message).toContain('no warning on the 3rd identical result');
    expect(check.message).toContain('the 5th attempt was not refused');
    expect(check.message).toContain('does not set GIT_PAGER=cat');
  });

  it('fails for a plugin without shell.env', async () => {
    const loader = shipped();
    expect(loader).toContain('(ctx);');
    const { check } = await load(loader.replace('(ctx);', '(ctx).then((h) => { delete h["shell.env"]; return h; });'));
    expect(check.ok).toBe(false);
    expect(check.message).toContain('has no shell.env hook');
  });

  it('fails for a file exporting a constant (OpenCode refuses it)', async () => {
    const { check } = await load(`${shipped()}\nexport const VERSION = '1';\n`);
    expect(check.ok).toBe(false);
    expect(check.message).toContain('exports VERSION, which is not a plugin function');
  });

  it('without the guard file the loader fails open: it loads, exports its function, and gives no hooks', async () => {
    const { check, probe } = await load(shipped(), undefined, false);
    expect(probe?.problems).toEqual([]);
    expect(probe?.exports).toEqual(['LoopGuard']);
    expect(probe?.hooks).toEqual([]);
    expect(check.ok).toBe(false);
    expect(check.message).toContain('has no tool.execute.before');
  });

  it('fails for a file that does not parse', async () => {
    const { check } = await load('export const = ;\n');
    expect(check.ok).toBe(false);
    expect(check.message).toContain('does not load');
  });

  it('fails for a file that exports nothing', async () => {
    expect((await load('// nothing\n')).check.message).toContain('exports nothing');
  });
});

describe('module type', () => {
  it('inside a "type": "module" package the file is imported by its file URL', async () => {
    expect((await load(shipped(), '{"type":"module"}')).check.ok).toBe(true);
  });
});
