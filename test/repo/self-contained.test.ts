// The repository stands alone: nothing in src/, test/, scripts/ or bench/ may read a sibling folder or a machine path.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const DIRS = ['src', 'test', 'scripts', 'bench'];
const CODE = /\.(?:[cm]?[jt]s|sh)$/;
// A path that leaves the repository: a parent-of-root reference or a machine-specific absolute folder.
const OUTSIDE = [/\.\.\/\.\.\/\.\.\/shared\b/, /(?<![\w.])\.\.\/shared\//, /['"`]\/work\//, /['"`]\/root\/(?!x')/];

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'fixtures') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (CODE.test(name)) yield p;
  }
}

describe('self-contained repository', () => {
  it('no source, test, script or benchmark reads outside the repository', () => {
    const hits: string[] = [];
    for (const d of DIRS) {
      for (const f of files(join(root, d))) {
        if (f === fileURLToPath(import.meta.url)) continue;
        readFileSync(f, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (OUTSIDE.some((re) => re.test(line))) hits.push(`${relative(root, f)}:${i + 1}: ${line.trim()}`);
          });
      }
    }
    expect(hits).toEqual([]);
  });

  it('the pattern catches what it is meant to catch', () => {
    // Built from parts so that this file itself holds no such path (a repository-wide grep for them stays clean).
    const up = '..' + '/';
    const bad = [
      `new URL('${up}${up}${up}shared/payloads/', import.meta.url)`,
      `const P = '/${'work'}/shared/payloads';`,
      `'${up}shared/corpus/x'`,
    ];
    for (const line of bad)
      expect(
        OUTSIDE.some((re) => re.test(line)),
        line,
      ).toBe(true);
  });
});
