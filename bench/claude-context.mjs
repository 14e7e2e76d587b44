// Tokens an install adds to every Claude Code session, per field layout (test/fixtures/field): the growth of the files
// Claude reads (CLAUDE.md, .claude/CLAUDE.md, and AGENTS.md when one of them imports or links it), at 4 characters a
// token. Usage: node bench/claude-context.mjs [<a create-loop-guard checkout with dist/ built>] (default: this one).
import {
  rmSync,
  readFileSync,
  readdirSync,
  existsSync,
  mkdirSync,
  writeFileSync,
  symlinkSync,
  mkdtempSync,
} from 'node:fs';
import { join, dirname } from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
const here = dirname(new URL(import.meta.url).pathname);
const wt = process.argv[2] ?? join(here, '..');
const fd = join(here, '..', 'test', 'fixtures', 'field');
const rows = [];
for (const name of readdirSync(fd).sort()) {
  const f = join(fd, name, 'layout.json');
  if (!existsSync(f)) continue;
  const l = JSON.parse(readFileSync(f, 'utf8'));
  if (l.from) continue;
  const dir = mkdtempSync(join(tmpdir(), 'lg-tokens-'));
  for (const x of l.files) {
    const p = join(dir, x.path);
    mkdirSync(dirname(p), { recursive: true });
    if (x.mode === '120000') symlinkSync(x.text, p);
    else writeFileSync(p, x.base64 !== undefined ? Buffer.from(x.base64, 'base64') : (x.text ?? ''));
  }
  execFileSync('git', ['init', '-q'], { cwd: dir });
  const read = (p) => {
    try {
      return readFileSync(join(dir, p), 'utf8');
    } catch {
      return null;
    }
  };
  const { realpathSync } = await import('node:fs');
  const claudeFiles = ['CLAUDE.md', '.claude/CLAUDE.md'];
  const readSet = () => {
    const set = new Map();
    for (const p of claudeFiles) {
      const t = read(p);
      if (t === null) continue;
      const real = realpathSync(join(dir, p));
      set.set(real, t.length);
      if (/^ {0,3}@(\.\/|\.\.\/)?AGENTS\.md\s*$/m.test(t) && read('AGENTS.md') !== null)
        set.set(realpathSync(join(dir, 'AGENTS.md')), read('AGENTS.md').length);
    }
    return set;
  };
  const sum = (m) => [...m.values()].reduce((a, b) => a + b, 0);
  const b0 = readSet();
  const agentsBefore = read('AGENTS.md');
  const tools = l.tools ? ['--tools', l.tools.join(',')] : [];
  const r = spawnSync('node', [join(wt, 'dist/cli.mjs'), '--yes', ...tools], {
    cwd: join(dir, l.cwd ?? '.'),
    encoding: 'utf8',
    env: { ...process.env, HOME: join(dir, '.home') },
  });
  const man = read('.agents/loop-guard.json') ?? read(join(l.cwd ?? '.', '.agents/loop-guard.json'));
  const claude = man && JSON.parse(man).tools.includes('claude');
  const added = sum(readSet()) - sum(b0);
  rmSync(dir, { recursive: true, force: true });
  rows.push([name, r.status, claude ? 'claude' : '-', Math.round(added / 4), agentsBefore ? agentsBefore.length : 0]);
}
console.log('layout\texit\tclaude\ttokens_added_to_claude\tAGENTS.md_bytes_before');
for (const r of rows) console.log(r.join('\t'));
