// The README is the page a user reads to the end: short, and every link in it (and in the docs pages) leads
// somewhere that exists, down to the heading.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = !fenced && /^#{1,6} (.+)$/.exec(line);
    if (m) out.add(slug(m[1]!));
  }
  return out;
}

/** Every relative link `[text](target)` outside code, as [target, line number]. */
function links(markdown: string): [string, number][] {
  const out: [string, number][] = [];
  let fenced = false;
  markdown.split('\n').forEach((line, i) => {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced) return;
    const prose = line.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (!/^[a-z]+:/i.test(m[1]!)) out.push([m[1]!, i + 1]);
    }
  });
  return out;
}

function broken(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const problems: string[] = [];
  for (const [target, line] of links(text)) {
    const [path, hash] = target.split('#') as [string, string | undefined];
    const abs = path === '' ? join(root, file) : join(root, dirname(file), path);
    if (!existsSync(abs)) problems.push(`${file}:${line}: ${target} (no such file)`);
    else if (hash && abs.endsWith('.md') && !anchors(readFileSync(abs, 'utf8')).has(hash))
      problems.push(`${file}:${line}: ${target} (no such heading)`);
  }
  return problems;
}

describe('README and docs', () => {
  it('the README stays a page one reads to the end (at most ~200 lines)', () => {
    const lines = readFileSync(join(root, 'README.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(210);
  });

  it('every link in the README and in docs/ resolves, anchors included', () => {
    const pages = ['README.md', ...readdirSync(join(root, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
      f.endsWith('.md'),
    );
    expect(pages.flatMap(broken)).toEqual([]);
  });

  it('the README links every docs page, and the quick start keeps its two commands for a fresh clone', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    for (const page of readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md') && f !== 'design.md'))
      expect(readme, page).toContain(`(docs/${page}`);
    expect(readme).toContain('npm ci && npm run demo\nnpm test\n');
    expect(readme).toMatch(/^## Turning it off, removing it$/m);
    expect(readme).toContain('LOOP_GUARD=off');
    expect(readme).toContain('--remove');
  });
});
