// Builds dist/: the dependency-free guard file (hook and plugins in one), and the CLI.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { buildGuardFile } from './build-guard.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// The two-version --check test builds the same source as another version into another folder.
if (process.env.LOOP_GUARD_BUILD_VERSION) pkg.version = process.env.LOOP_GUARD_BUILD_VERSION;
const dist = process.env.LOOP_GUARD_BUILD_DIST || join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

const define = { __VERSION__: JSON.stringify(pkg.version) };

/** The hook and the plugin are copied into users' repos, so they may import nothing but node: builtins. */
function assertSelfContained(result, file) {
  const builtins = new Set(builtinModules);
  const out = Object.entries(result.metafile.outputs).find(([path]) => file.endsWith(path.replace(/^.*dist\//, '')));
  if (!out) throw new Error(`no metafile output for ${file}`);
  const bad = out[1].imports.map((i) => i.path).filter((p) => !(p.startsWith('node:') || builtins.has(p)));
  if (bad.length) throw new Error(`${file} imports non-builtin modules: ${bad.join(', ')}`);
  if (readFileSync(file, 'utf8').includes('\r')) throw new Error(`${file} has CR characters; hook files must be LF`);
}

/** The import paths of one esbuild output that are not node builtins (must be none). */
function nonBuiltinImports(result) {
  const builtins = new Set(builtinModules);
  return Object.values(result.metafile.outputs)
    .flatMap((o) => o.imports.map((i) => i.path))
    .filter((p) => !(p.startsWith('node:') || builtins.has(p)));
}

const guardOptions = {
  bundle: true,
  platform: 'node',
  target: 'node18',
  define,
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
};

// loop-guard.mjs: the hook as a plain ES-module bundle (tests compare the .cjs with it; not installed any more).
{
  const out = join(dist, 'loop-guard.mjs');
  const result = await build({
    ...guardOptions,
    stdin: {
      contents: "import { main } from './main.ts';\nmain();\n",
      resolveDir: join(root, 'src/guard'),
      loader: 'ts',
    },
    outfile: out,
    format: 'esm',
    banner: {
      js: `// create-loop-guard v${pkg.version} - the loop-guard hook as an ES module (dist/loop-guard.cjs is the one installed).`,
    },
  });
  assertSelfContained(result, out);
  chmodSync(out, 0o755);
}

// loop-guard.cjs, the one guard file a repository gets (src/guard/loader.ts says how its two parts work).
await buildGuardFile({ root, dist, version: pkg.version, define, guardOptions, nonBuiltinImports });

if (existsSync(join(root, 'src/cli.ts'))) {
  // Dependencies are bundled, so `npx create-loop-guard` installs nothing; code splitting keeps --help, --version
  // and --check from loading what they do not use (prompts, doctor).
  await build({
    entryPoints: { cli: join(root, 'src/cli.ts') },
    outdir: dist,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Bundled CommonJS dependencies call require() for node builtins; ES modules have none of their own.
    banner: {
      js: "import { createRequire as __lgCreateRequire } from 'node:module';\nconst require = __lgCreateRequire(import.meta.url);",
    },
    define,
    legalComments: 'none',
    logLevel: 'error',
  });
  const cli = join(dist, 'cli.mjs');
  writeFileSync(cli, `#!/usr/bin/env node\n${readFileSync(cli, 'utf8')}`);
  chmodSync(cli, 0o755);
}

// Owned text: rendered from templates/ with handlebars now, so the CLI never compiles templates at run time.
{
  const out = join(dist, 'render-templates.mjs');
  await build({
    entryPoints: [join(root, 'src/scaffold/render.ts')],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'error',
    banner: {
      js: "import { createRequire as __lgCreateRequire } from 'node:module';\nconst require = __lgCreateRequire(import.meta.url);",
    },
  });
  const { TEMPLATES, renderTemplate, templateData } = await import(pathToFileURL(out).href);
  mkdirSync(join(dist, 'templates'), { recursive: true });
  for (const [source, target] of Object.entries(TEMPLATES)) {
    writeFileSync(
      join(dist, 'templates', target),
      renderTemplate(readFileSync(join(root, 'templates', source), 'utf8'), templateData(pkg.version)),
    );
  }
  // The OpenCode plugin loader, once per host of OpenCode's plugin API (Kilo is a fork; its name goes in notes and logs).
  const loader = readFileSync(join(root, 'templates', 'opencode-loader.js.hbs'), 'utf8');
  for (const [target, tool, label] of [
    ['opencode-loader.js', 'opencode', 'OpenCode'],
    ['kilo-loader.js', 'kilo', 'Kilo'],
  ])
    writeFileSync(
      join(dist, 'templates', target),
      renderTemplate(loader, { ...templateData(pkg.version), tool, label }),
    );
  rmSync(out);
}

console.log(`built dist/ (v${pkg.version})`);
