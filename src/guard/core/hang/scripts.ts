// What a package script or a make target runs, read from the project's own files: `npm start` of a CLI that runs
// once is not a server, whatever the script is called. Pure: the files come in through ProjectFiles.
import { isDetached, splitCommands, baseName } from '../shell/split.ts';
import { hasAny, positionals, resolveRunners } from './argv.ts';
import { type LongRun, longRunner, packageScript, serverRun } from './long-running.ts';
import type { ProjectFiles } from './types.ts';

/** Make targets whose names suggest a long run; only these make the rules open the Makefile. */
const MAKE_LONG_TARGETS = new Set(['run', 'dev', 'develop', 'serve', 'server', 'start', 'watch', 'up', 'preview']);
const MAX_RECIPE_LINES = 20;

/** The script `name args` runs (npm/pnpm/yarn/bun run X, or a pnpm/yarn/bun shorthand), as package.json says. */
export function packageScriptBody(name: string, args: string[], files: ProjectFiles): string | undefined {
  const script = packageScript(name, args);
  if (!script) return undefined;
  const text = files.read('package.json');
  if (text === undefined) return undefined;
  try {
    const scripts = (JSON.parse(text) as { scripts?: Record<string, unknown> }).scripts;
    const body = scripts && Object.hasOwn(scripts, script.script) ? scripts[script.script] : undefined;
    return typeof body === 'string' ? body : undefined;
  } catch {
    return undefined;
  }
}

/** The target `make` is asked for, when its name suggests a long run (make run, make dev, make serve). */
export function makeLongTarget(name: string, args: string[]): string | undefined {
  if (name !== 'make' && name !== 'gmake') return undefined;
  const target = positionals(args, new Set(['-C', '-f', '--file', '--directory', '-j', '--jobs', '-o', '-W'])).find(
    (a) => !a.includes('='),
  );
  return target !== undefined && MAKE_LONG_TARGETS.has(target) ? target : undefined;
}

/** The recipe lines of `target` in the Makefile (leading @ - + dropped), joined as one command list; undefined if
 * none. */
export function makeRecipe(target: string, files: ProjectFiles): string | undefined {
  const text = files.read('Makefile') ?? files.read('makefile') ?? files.read('GNUmakefile');
  if (text === undefined) return undefined;
  const lines = text.split('\n');
  const head = new RegExp(
    `^(?:[^\\s:=#][^:=#]*\\s)?${target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:\\s[^:=#]*)?::?(?!=)`,
  );
  for (let k = 0; k < lines.length; k++) {
    if (!head.test(lines[k] as string)) continue;
    const recipe: string[] = [];
    const inline = (lines[k] as string).split(';').slice(1).join(';').trim();
    if (inline) recipe.push(inline);
    for (let m = k + 1; m < lines.length && recipe.length < MAX_RECIPE_LINES; m++) {
      const line = lines[m] as string;
      if (!line.startsWith('\t')) {
        if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
        break;
      }
      recipe.push(
        line
          .slice(1)
          .replace(/^[@+-]+/, '')
          .trim(),
      );
    }
    return recipe.length ? recipe.join('\n') : undefined;
  }
  return undefined;
}

// Runtimes that run a file once unless the file is a server by name (server.js, app.py, api/index.ts, www).
const RUNTIMES = new Set(['node', 'bun', 'deno', 'tsx', 'ts-node', 'python', 'python3', 'ruby', 'go', 'php']);
const SERVER_FILE_RE = /(?:^|[/_.-])(?:server|serve|app|api|www|daemon|worker)(?:[/_.-]|$)/i;
// Runners of several commands at once: what they run is not parsed, so they keep the name's verdict.
const PARALLEL_RUNNERS = new Set(['concurrently', 'run-p', 'npm-run-all', 'turbo', 'nx', 'lerna', 'wireit']);

/**
 * The long run a script or recipe body starts, or null when every command in it returns (a CLI, a one-shot build).
 * `fallback` is the verdict by name, kept where the body cannot be judged (a parallel runner).
 */
export function bodyLongRun(body: string, files: ProjectFiles, fallback: LongRun | null, depth = 0): LongRun | null {
  for (const cmd of splitCommands(body)) {
    if (cmd.argv.length === 0 || isDetached(cmd)) continue;
    const argv = resolveRunners(cmd.argv);
    if (argv.length === 0) continue;
    const name = baseName(argv[0] as string);
    const args = argv.slice(1);
    if (hasAny(args, ['--help', '-h', '--version'])) continue;
    if (PARALLEL_RUNNERS.has(name)) return fallback ?? serverRun();
    // A script that runs another script: judged by that one's body in turn.
    const inner = depth < 3 ? packageScriptBody(name, args, files) : undefined;
    if (inner !== undefined) {
      const run = bodyLongRun(inner, files, longRunner(name, args), depth + 1);
      if (run) return run;
      continue;
    }
    const run = longRunner(name, args);
    if (run) return run;
    if (RUNTIMES.has(name)) {
      const file = positionals(args).find((a) => a !== 'run');
      if (file !== undefined && SERVER_FILE_RE.test(file)) return serverRun();
    }
  }
  return null;
}
