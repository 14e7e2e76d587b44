// Where the package's own files are: dist/ (built guard and plugin) and templates/, from source or from the bundle.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withOwnedHeader } from './edit/owned-file.ts';
import type { PlanInput } from './scaffold/plan.ts';

declare const __VERSION__: string | undefined;

function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'create-loop-guard') return dir;
      } catch {
        // keep looking upward
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('create-loop-guard: cannot find its own package.json');
    dir = parent;
  }
}

export const packageRoot = findPackageRoot();

export const VERSION: string =
  typeof __VERSION__ === 'string'
    ? __VERSION__
    : (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;

export function readDist(name: 'loop-guard.cjs'): string {
  const file = join(packageRoot, 'dist', name);
  if (!existsSync(file)) throw new Error(`create-loop-guard: ${file} is missing (run npm run build)`);
  return readFileSync(file, 'utf8');
}

/** Text rendered from templates/ at build time (see render.ts). */
export function readRendered(name: string): string {
  const file = join(packageRoot, 'dist', 'templates', name);
  if (!existsSync(file)) throw new Error(`create-loop-guard: ${file} is missing (run npm run build)`);
  return readFileSync(file, 'utf8');
}

/** Everything we own, rendered for this version: what the plan writes and what doctor compares with. */
export function buildAssets(version: string): PlanInput['assets'] {
  return {
    guard: readDist('loop-guard.cjs'),
    // The plugins are small loaders of the guard file (the one copy of the guard in a repository).
    'opencode-plugin': withOwnedHeader(readRendered('opencode-loader.js'), '//', version),
    'cline-loader': withOwnedHeader(readRendered('cline-loader.js'), '//', version),
    'kilo-plugin': withOwnedHeader(readRendered('kilo-loader.js'), '//', version),
    'cursor-env': readRendered('cursor-env.sh'),
    'agents-gitignore': readRendered('agents-gitignore'),
    agentsBlock: readRendered('agents-block.md').replace(/\n+$/, ''),
    gitattributesBlock: readRendered('gitattributes-block').replace(/\n+$/, ''),
    profileBlock: readRendered('profile-block.sh').replace(/\n+$/, ''),
    profileFish: readRendered('profile.fish'),
  };
}
