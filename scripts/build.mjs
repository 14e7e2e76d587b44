// Builds dist/: the dependency-free guard hook, the OpenCode plugin, and the CLI.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// The two-version --check test builds the same source as another version into another folder.
if (process.env.LOOP_GUARD_BUILD_VERSION) pkg.version = process.env.LOOP_GUARD_BUILD_VERSION;
const dist = process.env.LOOP_GUARD_BUILD_DIST || join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

const define = { __VERSION__: JSON.stringify(pkg.version) };

// The tool arguments the hook file reads (HOOK_FORMATS in src/guard/adapters/index.ts), for the header's usage line.
const hookFormats = /HOOK_FORMATS[^=]*= \[([^\]]+)\]/
  .exec(readFileSync(join(root, 'src/guard/adapters/index.ts'), 'utf8'))?.[1]
  ?.match(/[a-z]+/g);
if (!hookFormats?.length) throw new Error('build: HOOK_FORMATS not found in src/guard/adapters/index.ts');

const guardHeader = [
  `// create-loop-guard v${pkg.version} - loop-guard hook. Generated file: rerun \`npx create-loop-guard\` to upgrade; edits are replaced.`,
  '// Stops a coding agent from running the same command with the same result again and again: it warns the agent',
  '// on the 3rd identical result, refuses the command after the 4th, and starts over when the user writes again.',
  `// Usage, from a hook: node .agents/hooks/loop-guard.cjs <${hookFormats.join('|')}>   (the hook payload on stdin)`,
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

// loop-guard.mjs: the plain ES-module bundle, for installs made before the switch to .cjs (the scaffolder still
// installs this name until the switch is wired in).
{
  const out = join(dist, 'loop-guard.mjs');
  const result = await build({
    ...guardOptions,
    entryPoints: [join(root, 'src/guard/entry.ts')],
    outfile: out,
    format: 'esm',
    banner: { js: guardHeader },
  });
  assertSelfContained(result, out);
  chmodSync(out, 0o755);
}

// loop-guard.cjs: CommonJS (an ES-module entry alone costs Node 20 ~17% of its start-up), in two parts in one file:
// a small loader, then the hook's body inside a comment, which the loader compiles with a V8 code cache kept in the
// state directory (src/guard/loader.ts). Node parses only the loader; the body is compiled once, by the loader.
{
  const out = join(dist, 'loop-guard.cjs');
  // Minified: Node reads the whole file and V8 scans the comment, and the loader reads the body again, so every byte
  // of it costs start-up time on every event (~35% smaller, ~0.4 ms). The readable build is dist/loop-guard.mjs.
  const body = await build({
    ...guardOptions,
    entryPoints: [join(root, 'src/guard/entry.ts')],
    write: false,
    outfile: out,
    format: 'cjs',
    minify: true,
  });
  // esbuild's /* @__PURE__ */ marks mean nothing once bundled; dropping them leaves no "*/" that could end the comment.
  // So do the doc comments esbuild keeps on class members (whole lines).
  const bodyText = body.outputFiles[0].text
    .replaceAll('/* @__PURE__ */ ', '')
    .replace(/^[ \t]*\/\*[^\n]*?\*\/[ \t]*\n/gm, '');
  if (bodyText.includes('*/')) throw new Error('loop-guard.cjs: the body contains "*/", which would end its comment');
  // The loader decodes the body as latin1 (cheaper than UTF-8, and V8's one-byte strings scan faster), so the body is
  // made ASCII: each remaining UTF-16 unit becomes \uXXXX, which means the same in strings, regexes and comments.
  // (A backslash right before such a character would turn into an escaped backslash, so that is refused.)
  if (/\\[^\x00-\x7f]/.test(bodyText)) throw new Error('loop-guard.cjs: an escaped non-ASCII character in the body');
  const asciiBody = bodyText.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const bodyHash = createHash('sha256').update(asciiBody).digest('hex').slice(0, 16);
  const loader = await build({
    ...guardOptions,
    entryPoints: [join(root, 'src/guard/loader.ts')],
    write: false,
    outfile: out,
    format: 'cjs',
    define: { ...define, __BODY_HASH__: JSON.stringify(bodyHash) },
  });
  const bad = [...nonBuiltinImports(body), ...nonBuiltinImports(loader)];
  if (bad.length) throw new Error(`${out} imports non-builtin modules: ${bad.join(', ')}`);
  const { BODY_OPEN, BODY_CLOSE } = { BODY_OPEN: '\n/*@loop-guard-body\n', BODY_CLOSE: '\n*/\n' };
  // The body is stored inside the CommonJS wrapper (see loader.ts), so the loader compiles the slice it reads as is.
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${asciiBody}\n})`;
  const text = `${guardHeader.replace('loop-guard.mjs', 'loop-guard.cjs')}\n${loader.outputFiles[0].text}${BODY_OPEN}${wrapped}${BODY_CLOSE}`;
  if (text.includes('\r')) throw new Error(`${out} has CR characters; hook files must be LF`);
  // All ASCII: Node then reads the file into a one-byte string (one non-ASCII character makes it two bytes a character).
  if (/[^\x00-\x7f]/.test(text)) throw new Error(`${out} has a non-ASCII character; the hook file must be ASCII`);
  writeFileSync(out, text);
  chmodSync(out, 0o755);
}

// One plugin per host of OpenCode's plugin API: Kilo (an OpenCode fork) runs the same code, with its own name in notes and logs.
for (const [file, tool] of existsSync(join(root, 'src/guard/adapters/opencode.ts'))
  ? [
      ['opencode-plugin.js', 'opencode'],
      ['kilo-plugin.js', 'kilo'],
    ]
  : []) {
  const pluginBuild = await build({
    entryPoints: [join(root, 'src/guard/adapters/opencode.ts')],
    metafile: true,
    outfile: join(dist, file),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node18',
    define: { ...define, __PLUGIN_TOOL__: JSON.stringify(tool) },
    legalComments: 'none',
    logLevel: 'warning',
  });
  assertSelfContained(pluginBuild, join(dist, file));
}

// The Cline plugin's body, installed as .agents/hooks/loop-guard-cline.cjs and loaded by a small loader in
// .cline/plugins (templates/cline-loader.js.hbs) with Node's require: Cline's jiti would put 170 KB through Babel.
{
  const out = join(dist, 'cline-plugin.cjs');
  const result = await build({
    ...guardOptions,
    entryPoints: [join(root, 'src/guard/adapters/cline.ts')],
    outfile: out,
    format: 'cjs',
    // jiti hands Cline `{ default: module.exports }`, so module.exports must be the plugin object itself.
    footer: { js: 'module.exports = module.exports.default;' },
  });
  assertSelfContained(result, out);
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
  rmSync(out);
}

console.log(`built dist/ (v${pkg.version})`);
