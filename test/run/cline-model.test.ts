// The model Cline 3.0.65 runs without -m, read from its providers.json before a rung (src/run/cline-model.ts): the
// file `cline auth -p openai -k dummy -m mock-model -b …` wrote (test/fixtures/PROVENANCE.md), where Cline looks for
// it, and every way of not knowing (no file, a file Cline itself would ignore) left undefined.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  clineConfiguredModel,
  clineProvidersPath,
  keepClineModel,
  modelInProviders,
} from '../../src/run/cline-model.ts';
import { tempDir } from '../helpers/sandbox.ts';

const CAPTURED = readFileSync(join(import.meta.dirname, 'fixtures', 'cline-3.0.65-providers.json'), 'utf8');
const doc = () => JSON.parse(CAPTURED) as Record<string, unknown> & { providers: Record<string, unknown> };

describe("Cline's providers.json", () => {
  it("names the last-used provider's model: the one cline auth -m wrote", () => {
    expect(modelInProviders(CAPTURED, undefined)).toBe('mock-model');
  });

  it('takes the entry of --provider (-P) over the last-used one, and none for a provider it lacks', () => {
    const d = doc();
    const entry = {
      settings: { provider: 'anthropic', model: 'claude-sonnet-4-5' },
      updatedAt: '2026-12-03T05:49:27.372Z',
    };
    d.providers.anthropic = entry;
    expect(modelInProviders(JSON.stringify(d), 'anthropic')).toBe('claude-sonnet-4-5');
    expect(modelInProviders(JSON.stringify(d), undefined)).toBe('mock-model');
    expect(modelInProviders(JSON.stringify(d), 'gemini')).toBeUndefined();
  });

  it('a file Cline would ignore names nothing: not JSON, another version, an entry without updatedAt', () => {
    expect(modelInProviders('{"version":1,', undefined)).toBeUndefined();
    expect(modelInProviders(JSON.stringify({ ...doc(), version: 2 }), undefined)).toBeUndefined();
    const d = doc();
    d.providers.other = { settings: { provider: 'other', model: 'x' } };
    expect(modelInProviders(JSON.stringify(d), undefined)).toBeUndefined();
  });

  it('a provider with no model set names nothing (Cline would take its catalog default)', () => {
    const d = doc() as { providers: { 'openai-compatible': { settings: Record<string, unknown> } } };
    delete d.providers['openai-compatible'].settings.model;
    expect(modelInProviders(JSON.stringify(d), undefined)).toBeUndefined();
  });
});

describe('where Cline 3.0.65 keeps it', () => {
  const home = '/home/dev';
  it('$HOME/.cline/data/settings/providers.json by default; CLINE_DIR and --config move the .cline folder', () => {
    expect(clineProvidersPath({ HOME: home }, [], '/repo')).toBe('/home/dev/.cline/data/settings/providers.json');
    expect(clineProvidersPath({ HOME: home, CLINE_DIR: '/c' }, [], '/repo')).toBe('/c/data/settings/providers.json');
    expect(clineProvidersPath({ HOME: home, CLINE_DIR: '/c' }, ['--config', '/k'], '/repo')).toBe(
      '/k/data/settings/providers.json',
    );
    expect(clineProvidersPath({ HOME: home }, ['--config=/k'], '/repo')).toBe('/k/data/settings/providers.json');
  });

  it('CLINE_DATA_DIR over the .cline folder, CLINE_PROVIDER_SETTINGS_PATH over both', () => {
    const env = { HOME: home, CLINE_DATA_DIR: '/d' };
    expect(clineProvidersPath(env, ['--config', '/k'], '/repo')).toBe('/d/settings/providers.json');
    expect(clineProvidersPath({ ...env, CLINE_PROVIDER_SETTINGS_PATH: '/p.json' }, [], '/repo')).toBe('/p.json');
  });

  it('--data-dir (a sandbox) holds its own, relative to the run folder or --cwd; a sandbox in a temp folder is unknown', () => {
    const env = { HOME: home, CLINE_PROVIDER_SETTINGS_PATH: '/p.json' };
    expect(clineProvidersPath(env, ['--data-dir', 'state'], '/repo')).toBe('/repo/state/settings/providers.json');
    expect(clineProvidersPath(env, ['-c', 'sub', '--data-dir', 'state'], '/repo')).toBe(
      '/repo/sub/state/settings/providers.json',
    );
    expect(clineProvidersPath({ ...env, CLINE_SANDBOX: '1', CLINE_SANDBOX_DATA_DIR: '/s' }, [], '/repo')).toBe(
      '/s/settings/providers.json',
    );
    expect(clineProvidersPath({ ...env, CLINE_SANDBOX: '1' }, [], '/repo')).toBeUndefined();
    expect(clineProvidersPath({}, [], '/repo')).toBeUndefined();
  });

  it('reads the file there; a missing one is undefined', () => {
    const dir = tempDir('lg-cline-settings-');
    expect(clineConfiguredModel({ HOME: dir }, [], dir)).toBeUndefined();
    mkdirSync(join(dir, '.cline', 'data', 'settings'), { recursive: true });
    writeFileSync(join(dir, '.cline', 'data', 'settings', 'providers.json'), CAPTURED);
    expect(clineConfiguredModel({ HOME: dir }, [], dir)).toBe('mock-model');
  });
});

describe("a run's -m does not become the user's Cline model", () => {
  /** A HOME whose providers.json is the captured one; returns the file's path. */
  const home = () => {
    const dir = tempDir('lg-cline-keep-');
    mkdirSync(join(dir, '.cline', 'data', 'settings'), { recursive: true });
    const path = join(dir, '.cline', 'data', 'settings', 'providers.json');
    writeFileSync(path, CAPTURED);
    return { dir, path };
  };
  /** What Cline 3.0.65 does with `-m <model>`: the provider's model saved, its updatedAt refreshed. */
  const clineSaves = (path: string, model: string) => {
    const d = JSON.parse(readFileSync(path, 'utf8'));
    d.providers['openai-compatible'].settings.model = model;
    d.providers['openai-compatible'].updatedAt = '2026-12-03T07:00:00.000Z';
    writeFileSync(path, `${JSON.stringify(d, null, 2)}\n`);
  };

  it('puts back the model field only, keeping what Cline changed beside it', () => {
    const { dir, path } = home();
    const restore = keepClineModel({ HOME: dir }, [], dir, 'small-model');
    clineSaves(path, 'small-model');
    restore?.();
    const after = JSON.parse(readFileSync(path, 'utf8'));
    expect(after.providers['openai-compatible'].settings.model).toBe('mock-model');
    expect(after.providers['openai-compatible'].updatedAt).toBe('2026-12-03T07:00:00.000Z');
    expect(modelInProviders(readFileSync(path, 'utf8'), undefined)).toBe('mock-model');
  });

  it('leaves the file untouched when the model did not change, and -P names the entry it keeps', () => {
    const { dir, path } = home();
    keepClineModel({ HOME: dir }, [], dir, 'small-model')?.();
    expect(readFileSync(path, 'utf8')).toBe(CAPTURED);
    expect(keepClineModel({ HOME: dir }, ['-P', 'anthropic'], dir, 'small-model')).toBeUndefined();
  });

  it('a model set by hand during the rung (not the one the run passed) stays', () => {
    const { dir, path } = home();
    const restore = keepClineModel({ HOME: dir }, [], dir, 'small-model');
    clineSaves(path, 'picked-by-hand');
    const written = readFileSync(path, 'utf8');
    restore?.();
    expect(readFileSync(path, 'utf8')).toBe(written);
  });

  it('nothing to keep without a file or a model; a file gone or broken by then is left as it is', () => {
    const empty = tempDir('lg-cline-keep-');
    expect(keepClineModel({ HOME: empty }, [], empty, 'small-model')).toBeUndefined();
    const gone = home();
    const restoreGone = keepClineModel({ HOME: gone.dir }, [], gone.dir, 'small-model');
    rmSync(gone.path);
    expect(() => restoreGone?.()).not.toThrow();
    const broken = home();
    const restoreBroken = keepClineModel({ HOME: broken.dir }, [], broken.dir, 'small-model');
    writeFileSync(broken.path, '{"version":1,');
    restoreBroken?.();
    expect(readFileSync(broken.path, 'utf8')).toBe('{"version":1,');
  });
});
