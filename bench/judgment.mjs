// Benchmark: the guard's judgment on the labelled corpus (test/fixtures/judgment/), printed, never asserted.
// The hook is the guard's runHook bundled by esbuild into .cache/judgment/ (the same bundling as dist/loop-guard.mjs,
// minus the line that runs main); OpenCode uses the built guard file's plugin (dist/loop-guard.cjs, opencodePlugin) in process.
// Usage: npm run bench:judgment   (builds first)   |   node bench/judgment.mjs [--quiet]  (no failing-sequence list)
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import { formatReport, formatRulesFired, rulesFiredByClass, scoreCorpus } from './judgment-score.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The module that exports runHook: src/guard/main.ts today; found by content so a move of the guard's files needs no edit here. */
function findRunHookModule() {
  const preferred = join(root, 'src', 'guard', 'main.ts');
  if (existsSync(preferred) && /export function runHook\b/.test(readFileSync(preferred, 'utf8'))) return preferred;
  const stack = [join(root, 'src')];
  while (stack.length) {
    const dir = stack.pop();
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) stack.push(p);
      else if (p.endsWith('.ts') && /export function runHook\b/.test(readFileSync(p, 'utf8'))) return p;
    }
  }
  throw new Error('no module under src/ exports runHook');
}

/** The OpenCode plugin function from the built guard file (what the OpenCode loader calls). */
function pluginFunction(mod) {
  if (typeof mod.opencodePlugin !== 'function') throw new Error('dist/loop-guard.cjs exports no opencodePlugin');
  return mod.opencodePlugin('opencode');
}

async function main() {
  const quiet = process.argv.includes('--quiet');
  const entry = findRunHookModule();
  const outDir = join(root, '.cache', 'judgment');
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, 'guard-runhook.mjs');
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node18',
    define: { __VERSION__: JSON.stringify(pkg.version) },
    logLevel: 'warning',
  });
  const { runHook } = await import(`${pathToFileURL(outfile).href}?t=${Date.now()}`);
  const pluginPath = join(root, 'dist', 'loop-guard.cjs');
  if (!existsSync(pluginPath))
    throw new Error('dist/loop-guard.cjs is missing: run `npm run build` (npm run bench:judgment does)');
  const LoopGuard = pluginFunction(createRequire(import.meta.url)(pluginPath));

  const t0 = performance.now();
  const score = await scoreCorpus({ runHook, LoopGuard });
  const secs = ((performance.now() - t0) / 1000).toFixed(1);
  console.log(
    `judgment: the guard (${relative(root, entry)} bundled; dist/loop-guard.cjs) on test/fixtures/judgment/, replayed in process in ${secs}s\n`,
  );
  console.log(formatReport(score, { failing: !quiet }));

  // The normalization rules that changed each class's results (the guard's adapters and normalize, bundled).
  const rulesFile = join(outDir, 'guard-normalize.mjs');
  await build({
    stdin: {
      contents: `export { parseHook } from './src/guard/adapters/index.ts';\nexport { normalizeOutput } from './src/guard/core/normalize.ts';\n`,
      resolveDir: root,
      loader: 'js',
    },
    outfile: rulesFile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node18',
    define: { __VERSION__: JSON.stringify(pkg.version) },
    logLevel: 'warning',
  });
  const rulesImpl = await import(`${pathToFileURL(rulesFile).href}?t=${Date.now()}`);
  console.log('\nnormalization rules that changed a result, per class (each shell result of the corpus):\n');
  console.log(formatRulesFired(rulesFiredByClass(rulesImpl)));
}

try {
  await main();
} catch (err) {
  console.error(`bench:judgment could not run: ${err instanceof Error ? err.stack : err}`);
}
// A benchmark reports; it never fails the build.
process.exitCode = 0;
