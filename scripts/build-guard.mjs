// Builds dist/loop-guard.cjs, the one guard file a repository gets: the hook for the tools that run hook commands, and
// the code the OpenCode, Kilo and Cline plugin loaders require. Two parts in one file (src/guard/loader.ts):
//   1. a small loader, which Node parses;
//   2. the guard's body inside a comment, which the loader compiles itself, with a V8 code cache when run as a hook
//      (Node would otherwise parse the whole body on every shell command the agent runs).
// The body is readable on purpose: the install is a pull request, and this code sees every command.
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import * as prettier from 'prettier';
import { esmToScript } from './esm-to-script.mjs';
import { cutLongStrings, readableSourcePlugin } from './readable-source.mjs';

/** Where the body starts and ends (loader.ts reads the same markers). */
const BODY_OPEN = '\n/*@loop-guard-body\n';
const BODY_CLOSE = '\n*/\n';
/** No line may be longer: a reviewer reads the file in a diff view (the longest, 207, is one regular expression). */
export const MAX_LINE = 210;

/** The modules the loader part carries that the body imports too: the body takes them from the loader (SHARED_ID). */
const SHARED_MODULES = [
  'src/guard/core/hash.ts',
  'src/guard/builtin.ts',
  'src/guard/state-dir.ts',
  'src/guard/adapters/quiet.ts',
];

/** What loader.ts hands the body, read from it (one place): `SHARED_ID`, and the names in `const SHARED = { ... }`. */
function loaderShared(root) {
  const source = readFileSync(join(root, 'src/guard/loader.ts'), 'utf8');
  const id = /const SHARED_ID = '([^']+)'/.exec(source)?.[1];
  const list = /const SHARED = \{([^}]+)\}/.exec(source)?.[1];
  if (!id || !list) throw new Error('build: SHARED_ID or const SHARED = { ... } not found in src/guard/loader.ts');
  return { id, names: new Set(list.split(',').map((n) => n.trim())) };
}

/** An esbuild plugin that makes the body import SHARED_MODULES from `id` instead of bundling a second copy. */
function sharedFromLoader(root, id) {
  const shared = new Set(SHARED_MODULES.map((p) => join(root, p)));
  return {
    name: 'shared-from-loader',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) =>
        shared.has(resolve(args.resolveDir, args.path)) ? { path: id, external: true } : undefined,
      );
    },
  };
}

/** The tool arguments the hook reads (HOOK_FORMATS in src/guard/adapters/index.ts), for the header's usage line. */
function hookFormats() {
  const file = join(dirname(new URL(import.meta.url).pathname), '..', 'src/guard/adapters/index.ts');
  const list = /HOOK_FORMATS[^=]*= \[([^\]]+)\]/.exec(readFileSync(file, 'utf8'))?.[1]?.match(/[a-z]+/g);
  if (!list?.length) throw new Error('build: HOOK_FORMATS not found in src/guard/adapters/index.ts');
  return list;
}

function header(version) {
  return [
    `// create-loop-guard v${version} - the loop guard. Generated file: rerun \`npx create-loop-guard\` to upgrade; edits are replaced.`,
    // What the common linters honour in the file itself, so a repository's own lint and spell checks pass over it
    // without a config change (docs/guard-file.md, "Linters"): biome 2.3.11+ (format), biome 2 (lint), eslint, cspell.
    '// @generated: the lines below keep linters, formatters and spell checkers off it (doctor checks it byte for byte)',
    '// biome-ignore-all format: generated',
    '// biome-ignore-all lint: generated',
    '/* eslint-disable */',
    '// cspell:disable',
    '//',
    '// What it does: stops a coding agent from running the same command with the same result again and again. It warns',
    '// the agent on the 3rd identical result, refuses the command after the 4th, and starts over when the user writes.',
    `// Hook tools run it: node .agents/hooks/loop-guard.cjs <${hookFormats().join('|')}>`,
    '//   (the hook payload on stdin; any error allows the command)',
    '// Plugin tools (OpenCode, Kilo, Cline) load it from the small loader in their plugins folder.',
    '// Settings: LOOP_GUARD=off  LOOP_GUARD_WARN=3  LOOP_GUARD_BLOCK=4  LOOP_GUARD_HANG=off  LOOP_GUARD_STATE_DIR=<dir>',
    '//',
    '// How it is built: esbuild bundles the TypeScript in src/guard/ of create-loop-guard, unminified, with its names and',
    "// each module's header comment; scripts/build-guard.mjs makes its imports one require per module. Below this header",
    '// is a small loader; the guard itself follows it inside a comment, which the loader compiles (with a V8 code cache',
    '// in the state directory when run as a hook, so a command pays no parse).',
    '// It imports nothing but Node builtins and writes only to its state directory and .agents/handoff.md.',
    '//',
    `// How to verify it: \`npx create-loop-guard@${version} doctor\` compares this file byte for byte with the copy in the`,
    `// published package (package/dist/loop-guard.cjs of \`npm pack create-loop-guard@${version}\`); the package's`,
    '// dist/loop-guard-source/ holds the TypeScript it was built from.',
    '// https://www.npmjs.com/package/create-loop-guard',
    '',
  ].join('\n');
}

export async function buildGuardFile({ root, dist, version, define, guardOptions, nonBuiltinImports }) {
  const out = join(dist, 'loop-guard.cjs');
  const shared = loaderShared(root);
  // Not minified, so it can be reviewed (the code cache makes the size matter on the first run only). esbuild keeps
  // the source's names (it renames only on a clash, adding a digit), so keepNames, which would wrap every function
  // in a __name() call, is not needed; legalComments 'inline' keeps the comments readable-source.mjs marked.
  const body = await build({
    ...guardOptions,
    entryPoints: [join(root, 'src/guard/entry.ts')],
    write: false,
    outfile: out,
    format: 'esm',
    legalComments: 'inline',
    plugins: [sharedFromLoader(root, shared.id), readableSourcePlugin],
  });
  // An ES-module bundle made CommonJS by hand (esm-to-script.mjs says why); the loader runs it as a module's code.
  const { code, imports } = esmToScript(body.outputFiles[0].text, {
    [shared.id]: 'From the loader part above, which needs these too (one copy in the file).',
  });
  const missing = (imports.get(shared.id) ?? []).filter((n) => !shared.names.has(n));
  if (missing.length) throw new Error(`build: the body imports ${missing.join(', ')}; add them to SHARED in loader.ts`);
  // esbuild's /* @__PURE__ */ marks mean nothing once bundled; dropped, they leave no "*/" that could end the comment.
  const bundled = code.replaceAll('/* @__PURE__ */ ', '');
  // Printed by prettier at the source's width, which breaks long expressions the way the source has them, indented
  // with tabs (12 KB less than spaces); long strings are cut first (cutLongStrings). A block comment esbuild kept (a
  // class member's doc, an array item's note) becomes a line comment.
  let bodyText = (await prettier.format(cutLongStrings(bundled), { parser: 'babel', printWidth: 120, useTabs: true }))
    .replace(/^([ \t]*)\/\/!/gm, '$1//')
    .replace(/^([ \t]*)\/\*+ ?(.*?)\s*\*\/$/gm, '$1// $2')
    .replace(/^([^\n]*?)\s*\/\*([^*\n"'`]*)\*\/(,?)$/gm, '$1$3 //$2')
    .replace(/\n+$/, '');
  if (bodyText.includes('*/')) throw new Error('loop-guard.cjs: the body contains "*/", which would end its comment');
  // The loader decodes the body as latin1 (cheaper than UTF-8, and V8's one-byte strings scan faster), so the body is
  // made ASCII: each remaining UTF-16 unit becomes \uXXXX, which means the same in strings, regexes and comments.
  // (A backslash right before such a character would turn into an escaped backslash, so that is refused.)
  if (/\\[^\x00-\x7f]/.test(bodyText)) throw new Error('loop-guard.cjs: an escaped non-ASCII character in the body');
  bodyText = bodyText.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const bodyHash = createHash('sha256').update(bodyText).digest('hex').slice(0, 16);
  const loader = await build({
    ...guardOptions,
    entryPoints: [join(root, 'src/guard/loader.ts')],
    write: false,
    outfile: out,
    format: 'esm',
    legalComments: 'inline',
    plugins: [readableSourcePlugin],
    define: { ...define, __BODY_HASH__: JSON.stringify(bodyHash) },
    // loader.ts is CommonJS by design (it sets module.exports for the plugin loaders).
    logOverride: { 'commonjs-variable-in-esm': 'silent' },
  });
  const bad = [...nonBuiltinImports(body), ...nonBuiltinImports(loader)].filter((id) => id !== shared.id);
  if (bad.length) throw new Error(`${out} imports non-builtin modules: ${bad.join(', ')}`);
  // The loader part is what prettier (default options) prints, so a repository's formatter has nothing to change
  // there; the body is inside a comment, which formatters leave as it is.
  const loaderCode = esmToScript(loader.outputFiles[0].text).code;
  const loaderText = await prettier.format(
    loaderCode.replaceAll('/* @__PURE__ */ ', '').replace(/^([ \t]*)\/\/!/gm, '$1//'),
    { parser: 'babel' },
  );
  // The body is stored inside the CommonJS wrapper (see loader.ts), so the loader compiles the slice it reads as is.
  const wrapped = `(function (exports, require, module, __filename, __dirname) {\n${bodyText}\n})`;
  const loaderAscii = loaderText.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const text = `${header(version)}${loaderAscii.replace(/\n+$/, '')}\n${BODY_OPEN}${wrapped}${BODY_CLOSE}`;
  if (text.includes('\r')) throw new Error(`${out} has CR characters; hook files must be LF`);
  // All ASCII: Node then reads the file into a one-byte string (one non-ASCII character makes it two bytes a character).
  if (/[^\x00-\x7f]/.test(text)) throw new Error(`${out} has a non-ASCII character; the hook file must be ASCII`);
  const long = text.split('\n').findIndex((l) => l.length > MAX_LINE);
  if (long >= 0) {
    writeFileSync(`${out}.rejected`, text);
    throw new Error(`${out}:${long + 1} is longer than ${MAX_LINE} characters (the whole text: ${out}.rejected)`);
  }
  // 0644: every hook runs `node <file>`, so an exec bit buys nothing and fails pre-commit's shebang check.
  writeFileSync(out, text);
  chmodSync(out, 0o644);
  // The unbundled TypeScript it was built from, for the curious (shipped in the package, not installed): every input
  // of both builds, at its path under src/ (so the relative imports between them still resolve).
  const sources = new Set([...Object.keys(body.metafile.inputs), ...Object.keys(loader.metafile.inputs)]);
  for (const rel of [...sources].filter((p) => p.startsWith('src/')).sort()) {
    const target = join(dist, 'loop-guard-source', rel.slice('src/'.length));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(join(root, rel), target);
  }
  return { out, bytes: Buffer.byteLength(text) };
}
