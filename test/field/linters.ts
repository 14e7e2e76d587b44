// The repository's own lint and spell checks over the files the install wrote, as its CI would run them after its
// pre-commit formatter: the real biome (`check --error-on-warnings`, the command better-auth's `pnpm lint` runs) and
// cspell (with the repository's own config and word lists) from our devDependencies. Only our files are judged: the
// layout's own files are cut-down copies, and what they say is the repository's business.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers/paths.ts';
import type { Layout } from './layout.ts';
import { runTool } from './tool-run.ts';

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

/** Runs the check over `files` (repository paths); null when it passes, else what it said. */
export async function lint(top: string, l: LintRun, files: readonly string[]): Promise<string | null> {
  if (!files.length) return null;
  const bin = join(repoRoot, 'node_modules', '.bin', l.tool);
  const args =
    l.tool === 'biome'
      ? ['check', '--error-on-warnings', '--no-errors-on-unmatched', '--files-ignore-unknown=true', ...files]
      : ['--no-progress', '--no-summary', '--no-must-find-files', '--config', l.config, ...files];
  const r = await runTool(bin, args, top);
  return r.status === 0
    ? null
    : `${l.tool} ${args.slice(0, -files.length).join(' ')}: exit ${r.status}\n${r.out.slice(0, 2000)}`;
}

/** The hooks of pre-commit/pre-commit-hooks a layout's .pre-commit-config.yaml lists, with check-added-large-files'
 *  limit; pre-commit itself is Python and not installed here, so `preCommitRules` checks what those hooks check. */
export function preCommitHooksOf(layout: Layout): { ids: string[]; maxKb: number } | null {
  const cfg = layout.files.find((f) => f.path === '.pre-commit-config.yaml')?.text;
  if (!cfg) return null;
  const block = /repo:\s*https:\/\/github\.com\/pre-commit\/pre-commit-hooks\b([\s\S]*?)(?=\n\s*-\s*repo:|$)/.exec(cfg);
  if (!block) return null;
  const ids = [...(block[1] ?? '').matchAll(/-\s*id:\s*([\w-]+)/g)].map((m) => m[1] as string);
  const maxKb = Number(/--maxkb=(\d+)/.exec(block[1] ?? '')?.[1] ?? 500);
  return ids.length ? { ids, maxKb } : null;
}

/** What each listed hook of pre-commit-hooks would say about one file (its bytes and exec bit), as its source does. */
const RULES: Record<string, (text: Buffer, exec: boolean, maxKb: number) => string | null> = {
  'trailing-whitespace': (t) => (/[ \t]\r?$/m.test(t.toString('utf8')) ? 'trailing whitespace' : null),
  'end-of-file-fixer': (t) =>
    t.length === 0
      ? null
      : !t.toString('utf8').endsWith('\n')
        ? 'no final newline'
        : /\n\s*\n$/.test(t.toString('utf8'))
          ? 'blank lines at the end'
          : null,
  'mixed-line-ending': (t) => {
    const s = t.toString('utf8');
    return /\r\n/.test(s) && /(^|[^\r])\n/.test(s) ? 'mixed line endings' : null;
  },
  'check-added-large-files': (t, _e, maxKb) => (t.length > maxKb * 1024 ? `${Math.ceil(t.length / 1024)} KB` : null),
  'check-executables-have-shebangs': (t, exec) =>
    exec && !t.toString('utf8').startsWith('#!') ? 'executable, no shebang' : null,
  'check-shebang-scripts-are-executable': (t, exec) =>
    !exec && t.toString('utf8').startsWith('#!') ? 'shebang, not executable' : null,
};

/** The listed hooks' rules over `files`; null when every one passes, else each file and what it breaks. */
export function preCommitRules(
  top: string,
  hooks: { ids: string[]; maxKb: number },
  files: readonly string[],
): string | null {
  const bad: string[] = [];
  for (const f of files) {
    const abs = join(top, f);
    const text = readFileSync(abs);
    const exec = (statSync(abs).mode & 0o111) !== 0;
    for (const id of hooks.ids) {
      const said = RULES[id]?.(text, exec, hooks.maxKb);
      if (said) bad.push(`${id}: ${f}: ${said}`);
    }
  }
  return bad.length ? bad.join('\n') : null;
}
