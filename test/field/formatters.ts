// The repository's own formatter over its whole tree, as a developer or a pre-commit run would: the real prettier or
// biome from our devDependencies, from the folder that holds the repository's config.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { repoRoot } from '../helpers/paths.ts';
import type { Layout } from './layout.ts';
import { runTool } from './tool-run.ts';

export interface FormatterRun {
  tool: 'prettier' | 'biome';
  /** Folder of the config, relative to the repository. */
  dir: string;
  /** Why the run differs from the repository's own (a plugin we do not install), or ''. */
  note: string;
}

const PRETTIER_CONFIG = /(^|\/)(\.prettierrc[^/]*|prettier\.config\.[cm]?js)$/;
const BIOME_CONFIG = /(^|\/)biome\.jsonc?$/;

/** The formatter configs a layout has, shallowest first (a package's own config after the root's). */
export function formattersOf(layout: Layout): FormatterRun[] {
  if (layout.noFormatter) return [];
  const runs: FormatterRun[] = [];
  const seen = new Set<string>();
  const files = [...layout.files].sort((a, b) => a.path.split('/').length - b.path.split('/').length);
  for (const f of files) {
    if (f.path.startsWith('.agents/') || f.mode === '120000') continue;
    const dir = dirname(f.path);
    let tool: FormatterRun['tool'] | null = null;
    if (BIOME_CONFIG.test(f.path)) tool = 'biome';
    else if (PRETTIER_CONFIG.test(f.path)) tool = 'prettier';
    else if (f.path.endsWith('package.json') && f.text && 'prettier' in JSON.parse(f.text)) tool = 'prettier';
    if (!tool || seen.has(`${tool}:${dir}`)) continue;
    // One prettier run per tree: a nested config is found by prettier itself from the root run.
    if (tool === 'prettier' && [...seen].some((s) => s.startsWith('prettier:'))) continue;
    seen.add(`${tool}:${dir}`);
    runs.push({ tool, dir, note: '' });
  }
  return runs;
}

/**
 * A prettier config whose plugins we do not install, with them left out (tailwind, astro: they format only their own
 * languages, none of which we write). JS configs are loaded with each plugin's `require` answered by an empty module.
 */
function configWithoutPlugins(configPath: string): string | null {
  let config: Record<string, unknown>;
  if (/\.[cm]?js$/.test(configPath)) {
    const req = createRequire(configPath);
    const Module = req('node:module') as { _load: (r: string, ...rest: unknown[]) => unknown };
    const load = Module._load;
    Module._load = (request: string, ...rest: unknown[]) =>
      /^prettier-plugin-/.test(request) ? {} : load(request, ...rest);
    try {
      config = req(configPath) as Record<string, unknown>;
    } finally {
      Module._load = load;
    }
  } else {
    try {
      config = JSON.parse(readFileSync(configPath, 'utf8')) as Record<string, unknown>;
    } catch {
      return null; // YAML or TOML: no plugins handled here
    }
  }
  if (!config.plugins) return null;
  const { plugins: _dropped, ...rest } = config;
  const out = join(mkdtempSync(join(tmpdir(), 'lg-prettierrc-')), '.prettierrc.json');
  writeFileSync(out, JSON.stringify(rest));
  return out;
}

/** Formats the whole tree from the config's folder; throws with the formatter's output when it fails. */
export async function format(top: string, f: FormatterRun, layout: Layout): Promise<string> {
  const cwd = join(top, f.dir);
  const bin = join(repoRoot, 'node_modules', '.bin', f.tool);
  let note = '';
  const args = f.tool === 'prettier' ? ['--write', '.', '--log-level', 'warn'] : ['format', '--write', '.'];
  if (f.tool === 'prettier') {
    const cfg = layout.files.find((x) => dirname(x.path) === f.dir && PRETTIER_CONFIG.test(x.path));
    const stripped = cfg ? configWithoutPlugins(join(top, cfg.path)) : null;
    if (stripped) {
      args.push('--config', stripped);
      note = `${cfg?.path}: plugins left out (not installed here)`;
    }
  } else args.push('--no-errors-on-unmatched');
  const r = await runTool(bin, args, cwd);
  // Prettier still writes every file it can parse; a file of the repository's own that it cannot parse is theirs.
  const failed = [...r.out.matchAll(/^\[error\] ([^:\n]+): /gm)].map((x) => join(f.dir, x[1] ?? ''));
  const own = new Set(layout.files.map((x) => x.path));
  if (f.tool === 'prettier' && r.status === 2 && failed.length && failed.every((p) => own.has(p)))
    return `${note}${note ? '; ' : ''}prettier cannot parse the repository's own ${[...new Set(failed)].join(', ')}`;
  if (r.status !== 0)
    throw new Error(`${f.tool} ${args.join(' ')} in ${f.dir}: exit ${r.status}\n${r.out.slice(0, 2000)}`);
  return note;
}
