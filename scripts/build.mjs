// Builds dist/: the dependency-free guard hook, the OpenCode plugin, and the CLI.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

const define = { __VERSION__: JSON.stringify(pkg.version) };

const guardHeader = [
  `// create-loop-guard v${pkg.version} — loop-guard hook. Generated file: rerun \`npx create-loop-guard\` to upgrade; edits are replaced.`,
  '// Stops a coding agent from running the same command with the same result again and again: it warns the agent',
  '// on the 3rd identical result, refuses the command after the 4th, and starts over when the user writes again.',
  '// Usage, from a hook: node .agents/hooks/loop-guard.mjs <claude|codex|cursor>   (the hook payload on stdin)',
  '// Settings: LOOP_GUARD=off  LOOP_GUARD_WARN=3  LOOP_GUARD_BLOCK=4  LOOP_GUARD_HANG=off  LOOP_GUARD_STATE_DIR=<dir>',
  '// No dependencies; any internal error allows the command. https://www.npmjs.com/package/create-loop-guard',
].join('\n');

/** The hook and the plugin are copied into users' repos, so they may import nothing but node: builtins. */
function assertSelfContained(result, file) {
  const builtins = new Set(builtinModules);
  const out = Object.entries(result.metafile.outputs).find(([path]) => file.endsWith(path.replace(/^.*dist\//, '')));
  if (!out) throw new Error(`no metafile output for ${file}`);
  const bad = out[1].imports.map((i) => i.path).filter((p) => !(p.startsWith('node:') || builtins.has(p)));
  if (bad.length) throw new Error(`${file} imports non-builtin modules: ${bad.join(', ')}`);
  if (readFileSync(file, 'utf8').includes('\r')) throw new Error(`${file} has CR characters; hook files must be LF`);
}

const guardBuild = await build({
  entryPoints: [join(root, 'src/guard/entry.ts')],
  metafile: true,
  outfile: join(dist, 'loop-guard.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node18',
  banner: { js: guardHeader },
  define,
  legalComments: 'none',
  logLevel: 'warning',
});
assertSelfContained(guardBuild, join(dist, 'loop-guard.mjs'));
chmodSync(join(dist, 'loop-guard.mjs'), 0o755);

if (existsSync(join(root, 'src/guard/adapters/opencode.ts'))) {
  const pluginBuild = await build({
    entryPoints: [join(root, 'src/guard/adapters/opencode.ts')],
    metafile: true,
    outfile: join(dist, 'opencode-plugin.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node18',
    define,
    legalComments: 'none',
    logLevel: 'warning',
  });
  assertSelfContained(pluginBuild, join(dist, 'opencode-plugin.js'));
}

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
    banner: { js: "import { createRequire as __lgCreateRequire } from 'node:module';\nconst require = __lgCreateRequire(import.meta.url);" },
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
  await build({ entryPoints: [join(root, 'src/scaffold/render.ts')], outfile: out, bundle: true, platform: 'node', format: 'esm', logLevel: 'error',
    banner: { js: "import { createRequire as __lgCreateRequire } from 'node:module';\nconst require = __lgCreateRequire(import.meta.url);" } });
  const { TEMPLATES, renderTemplate, templateData } = await import(pathToFileURL(out).href);
  mkdirSync(join(dist, 'templates'), { recursive: true });
  for (const [source, target] of Object.entries(TEMPLATES)) {
    writeFileSync(join(dist, 'templates', target), renderTemplate(readFileSync(join(root, 'templates', source), 'utf8'), templateData(pkg.version)));
  }
  rmSync(out);
}

console.log(`built dist/ (v${pkg.version})`);
