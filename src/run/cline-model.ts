// The model Cline (3.0.65) runs when its argv names none: the `model` of its last-used provider in its providers.json
// (`cline auth -m` writes it, and so does every run's `-m`), read before a rung so each usage event is priced as it
// streams. Where the file lives follows Cline's own bundle: CLINE_PROVIDER_SETTINGS_PATH, CLINE_DATA_DIR, --config,
// CLINE_DIR, $HOME/.cline, and --data-dir (its sandbox). Anything unreadable or unclear is undefined: priced at end.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { obj, str } from '../guard/json-value.ts';

/** The value of `--name v` or `--name=v` (any of the names) in the user's flags for Cline, the last one winning. */
function flag(extra: readonly string[], names: readonly string[]): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < extra.length; i++) {
    const a = extra[i] as string;
    if (names.includes(a)) found = extra[i + 1];
    const eq = a.indexOf('=');
    if (eq > 0 && names.includes(a.slice(0, eq))) found = a.slice(eq + 1);
  }
  return found?.trim() || undefined;
}

const set = (v: string | undefined): string | undefined => v?.trim() || undefined;

/** Where this Cline run reads its provider settings; undefined when it cannot be told (a sandbox in a temp folder). */
export function clineProvidersPath(
  env: Record<string, string | undefined>,
  extra: readonly string[],
  cwd: string,
): string | undefined {
  const dataDir = flag(extra, ['--data-dir']);
  // --data-dir (or CLINE_SANDBOX=1) moves all of Cline's state, its provider settings included, to that folder.
  if (dataDir || env.CLINE_SANDBOX?.trim() === '1') {
    const dir = dataDir ?? set(env.CLINE_SANDBOX_DATA_DIR);
    return dir ? join(resolve(cwd, flag(extra, ['-c', '--cwd']) ?? '.', dir), 'settings', 'providers.json') : undefined;
  }
  const explicit = set(env.CLINE_PROVIDER_SETTINGS_PATH);
  if (explicit) return explicit;
  const data = set(env.CLINE_DATA_DIR);
  if (data) return join(data, 'settings', 'providers.json');
  const clineDir =
    flag(extra, ['--config']) ?? set(env.CLINE_DIR) ?? (set(env.HOME) && join(env.HOME as string, '.cline'));
  return clineDir ? join(clineDir, 'data', 'settings', 'providers.json') : undefined;
}

/**
 * The model in a providers.json text: the entry of `--provider` (`-P`) or else of `lastUsedProvider`. Cline ignores
 * a file that fails its schema (version 1, every entry with its settings and an `updatedAt`), so that is undefined.
 */
export function modelInProviders(text: string, provider: string | undefined): string | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  const o = obj(doc);
  const providers = obj(o?.providers);
  if (o?.version !== 1 || !providers) return undefined;
  const entries = Object.values(providers).map(obj);
  if (entries.some((e) => !e || !obj(e.settings) || typeof e.updatedAt !== 'string')) return undefined;
  const id = provider ?? str(o.lastUsedProvider);
  return id ? str(obj(obj(providers[id])?.settings)?.model) : undefined;
}

/** The model Cline will run for these flags and this environment, from its own settings file; undefined if unknown. */
export function clineConfiguredModel(
  env: Record<string, string | undefined>,
  extra: readonly string[],
  cwd: string,
): string | undefined {
  const path = clineProvidersPath(env, extra, cwd);
  if (!path) return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  return modelInProviders(text, flag(extra, ['-P', '--provider']));
}

/**
 * Before a rung where `run` itself passes Cline a model (rung 3's smaller one): a function that puts the provider's
 * model back as it was, because Cline 3.0.65 saves a run's `-m` as the provider's model and the user's own later
 * `cline` would run it. Only that field is written back (Cline may have refreshed other fields during the run), and
 * only when it names the model the run passed; a file gone or of another shape by then is left as it is. Undefined
 * when there is nothing to keep (no settings file, or no model in it).
 */
export function keepClineModel(
  env: Record<string, string | undefined>,
  extra: readonly string[],
  cwd: string,
  passed: string,
): (() => void) | undefined {
  const path = clineProvidersPath(env, extra, cwd);
  let text: string;
  try {
    text = path ? readFileSync(path, 'utf8') : '';
  } catch {
    return undefined;
  }
  const chosen = flag(extra, ['-P', '--provider']);
  const before = modelInProviders(text, chosen);
  const id = chosen ?? str(obj(parsed(text))?.lastUsedProvider);
  if (!path || before === undefined || id === undefined) return undefined;
  return () => {
    try {
      const now = readFileSync(path, 'utf8');
      // Still a file Cline reads (its schema), with a model of its own for the provider: else it is not ours to mend.
      if (modelInProviders(now, id) === undefined) return;
      const doc = parsed(now) as Record<string, unknown>;
      const settings = obj(obj(obj(doc.providers)?.[id])?.settings) as Record<string, unknown>;
      // Only the model this run passed is ours to take back: one set meanwhile by hand (`cline auth -m`) stays.
      if (settings.model !== passed || passed === before) return;
      settings.model = before;
      writeFileSync(path, `${JSON.stringify(doc, null, 2)}\n`);
    } catch {
      // The user's file as Cline left it: never a reason for the run to fail.
    }
  };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
