// Cut a field layout out of a fetched repository: only its agent-config files, .gitignores, formatter and pre-commit
// configs, stored as one JSON manifest (test/fixtures/field/<name>/layout.json) that the field test materialises.
// Usage: node scripts/field-layout.mjs <git-dir> <name> <owner/repo> <licence> [--under dir]... [--shape s]...
//        [--extra path]... [--cwd dir] [--tools a,b] [--weak tool]... [--note text] [--noFormatter why]
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [gitDir, name, repo, licence, ...rest] = process.argv.slice(2);
if (!gitDir || !name || !repo || !licence) {
  console.error('usage: node scripts/field-layout.mjs <git-dir> <name> <owner/repo> <licence> [options]');
  process.exit(2);
}
const opt = {
  under: [],
  extra: [],
  shape: [],
  weak: [],
  cwd: '.',
  tools: null,
  kind: 'plain',
  note: '',
  noFormatter: '',
};
for (let i = 0; i < rest.length; i += 2) {
  const key = rest[i].replace(/^--/, '');
  const value = rest[i + 1];
  if (Array.isArray(opt[key])) opt[key].push(value);
  else opt[key] = key === 'tools' ? value.split(',') : value;
}

const git = (...args) => execFileSync('git', ['--git-dir', gitDir, ...args], { maxBuffer: 1 << 28 });
const commit = git('rev-parse', 'HEAD').toString().trim();

// Paths that configure an agent tool, a formatter or a pre-commit runner, at the root or under a --under folder.
const AGENT =
  /^(\.claude|\.gemini|\.codex|\.cursor|\.opencode|\.qwen|\.cline[^/]*|\.clinerules|\.kilo[^/]*|\.agents|\.husky)\//;
const FILES =
  /^(CLAUDE\.md|AGENTS\.md|GEMINI\.md|\.cursorrules|\.clinerules|opencode\.jsonc?|kilo\.jsonc?|\.gitignore|\.gitattributes|\.prettierrc[^/]*|prettier\.config\.[cm]?js|\.prettierignore|biome\.jsonc?|package\.json|lefthook\.ya?ml|\.lefthook\.ya?ml|\.pre-commit-config\.yaml|\.lintstagedrc[^/]*|lint-staged\.config\.[cm]?js|\.editorconfig|\.github\/copilot-instructions\.md|\.github\/hooks\/[^/]+)$/;
// Formatter and lint-staged configs stay whole even when written as JavaScript: they are settings, and the formatter loads them.
const CONFIG = /^(\.prettierrc[^/]*|prettier\.config\.[cm]?js|\.lintstagedrc[^/]*|lint-staged\.config\.[cm]?js)$/;
const CODE = /\.(sh|bash|js|cjs|mjs|ts|mts|cts|py|rb|go|ps1)$/;
// Long prose in skill and rule folders is cut to its first lines: the layout keeps the shape, not the text.
const PROSE = /\/(skills|commands|agents|rules|references|workflows|prompts|research|memory-bank)\//;

function wanted(path) {
  if (opt.extra.includes(path)) return true;
  const prefixes = ['', ...opt.under.map((u) => `${u.replace(/\/$/, '')}/`)];
  return prefixes.some((p) => {
    if (!path.startsWith(p)) return false;
    const rel = path.slice(p.length);
    return AGENT.test(rel) || FILES.test(rel) || (p !== '' && rel === '.gitignore');
  });
}

function reducePackageJson(text) {
  const pkg = JSON.parse(text);
  const keep = {};
  for (const k of ['name', 'private', 'type', 'workspaces', 'scripts', 'prettier', 'lint-staged', 'husky'])
    if (k in pkg) keep[k] = pkg[k];
  const dev = { ...pkg.dependencies, ...pkg.devDependencies };
  const tools = Object.fromEntries(
    Object.entries(dev).filter(([k]) => /^(prettier|@biomejs\/biome|husky|lint-staged|lefthook)$/.test(k)),
  );
  if (Object.keys(tools).length) keep.devDependencies = tools;
  return `${JSON.stringify(keep, null, 2)}\n`;
}

const omitted = [];
const files = [];
for (const line of git('ls-tree', '-r', '-z', 'HEAD').toString().split('\0')) {
  if (!line) continue;
  const [meta, path] = line.split('\t');
  const [mode, type, sha] = meta.split(' ');
  if (type !== 'blob' || !wanted(path) || /(^|\/)node_modules\//.test(path)) continue;
  const buf = git('cat-file', 'blob', sha);
  if (mode === '120000') {
    files.push({ path, mode, text: buf.toString('utf8') });
    continue;
  }
  let text = buf.toString('utf8');
  const base = path.split('/').pop();
  if (base === 'package.json') text = reducePackageJson(text);
  else if (!CONFIG.test(base) && (CODE.test(path) || (path.includes('.husky/') && !base.startsWith('.')))) {
    const comment = /\.(js|cjs|mjs|ts|mts|cts|go)$/.test(path) ? '//' : '#';
    text = `${comment} ${path}: script body not copied (${buf.length} bytes in ${repo})\n`;
    omitted.push(path);
  } else if (PROSE.test(`/${path}`) && buf.length > 1200) {
    text = `${text.split('\n').slice(0, 6).join('\n')}\n… (${buf.length} bytes in ${repo}, cut here)\n`;
    omitted.push(path);
  }
  if (Buffer.from(text, 'utf8').equals(buf) || text !== buf.toString('utf8')) files.push({ path, mode, text });
  else files.push({ path, mode, base64: buf.toString('base64') });
}

const layout = {
  name,
  source: { repo, commit, licence, url: `https://github.com/${repo}/tree/${commit}` },
  kind: opt.kind,
  cwd: opt.cwd,
  tools: opt.tools,
  shapes: opt.shape,
  note: opt.note,
  ...(opt.noFormatter ? { noFormatter: opt.noFormatter } : {}),
  ...(opt.weak.length ? { weak: opt.weak } : {}),
  cut: omitted.length
    ? `${omitted.length} file(s) kept as stubs (script bodies not copied, long prose cut): ${omitted.slice(0, 6).join(', ')}${omitted.length > 6 ? ', …' : ''}`
    : '',
  files,
};
const dir = join('test', 'fixtures', 'field', name);
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'layout.json'), `${JSON.stringify(layout, null, 2)}\n`);
console.log(`${name}: ${files.length} files (${omitted.length} cut) from ${repo}@${commit.slice(0, 12)}`);
