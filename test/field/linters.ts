// The repository's own lint and spell checks over the files the install wrote, as its CI would run them after its
// pre-commit formatter: the real biome (`check --error-on-warnings`, the command better-auth's `pnpm lint` runs) and
// cspell (with the repository's own config and word lists) from our devDependencies. Only our files are judged: the
// layout's own files are cut-down copies, and what they say is the repository's business.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../helpers/paths.ts';
import type { Layout } from './layout.ts';

export interface LintRun {
  tool: 'biome' | 'cspell';
  /** The config's path in the repository. */
  config: string;
}

const BIOME = /^biome\.jsonc?$/;
const CSPELL = /^(\.?cspell\.jsonc?|\.?cspell\.config\.(json|ya?ml|[cm]?js)|cspell\.ya?ml)$/;

/** The root lint configs a layout has (a biome config biome refuses, noFormatter, is not run). */
export function lintersOf(layout: Layout): LintRun[] {
  const runs: LintRun[] = [];
  for (const f of layout.files) {
    if (f.mode === '120000') continue;
    if (BIOME.test(f.path) && !layout.noFormatter) runs.push({ tool: 'biome', config: f.path });
    else if (CSPELL.test(f.path)) runs.push({ tool: 'cspell', config: f.path });
  }
  return runs;
}

function run(bin: string, args: string[], cwd: string): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, {
      cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, NO_COLOR: '1', CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, out }));
  });
}

/** Runs the check over `files` (repository paths); null when it passes, else what it said. */
export async function lint(top: string, l: LintRun, files: readonly string[]): Promise<string | null> {
  if (!files.length) return null;
  const bin = join(repoRoot, 'node_modules', '.bin', l.tool);
  const args =
    l.tool === 'biome'
      ? ['check', '--error-on-warnings', '--no-errors-on-unmatched', '--files-ignore-unknown=true', ...files]
      : ['--no-progress', '--no-summary', '--no-must-find-files', '--config', l.config, ...files];
  const r = await run(bin, args, top);
  return r.status === 0
    ? null
    : `${l.tool} ${args.slice(0, -files.length).join(' ')}: exit ${r.status}\n${r.out.slice(0, 2000)}`;
}
