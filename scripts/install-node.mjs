// Installs the Node versions the benchmark compares (22 and 24; 20 is the development Node) into .cache/nodeNN
// with `npm install --prefix`, so nothing depends on a machine path. Idempotent: an installed major is kept.
// Usage: node scripts/install-node.mjs [22 24 ...]   prints one "<major> <path to node>" line per version.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const IS_WINDOWS = process.platform === 'win32';

/** Where `npm install --prefix .cache/nodeNN node@NN` leaves the binary. */
export function nodeBinary(major) {
  const prefix = join(root, '.cache', `node${major}`);
  return IS_WINDOWS
    ? join(prefix, 'node_modules', 'node', 'bin', 'node.exe')
    : join(prefix, 'node_modules', 'node', 'bin', 'node');
}

/** The binary for `major`, installing it first when missing; undefined when the install failed. */
export function ensureNode(major, log = (m) => process.stderr.write(`${m}\n`)) {
  const bin = nodeBinary(major);
  if (existsSync(bin)) return bin;
  log(`installing node@${major} into .cache/node${major} ...`);
  const npm = IS_WINDOWS ? 'npm.cmd' : 'npm';
  const r = spawnSync(
    npm,
    [
      'install',
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--prefix',
      join(root, '.cache', `node${major}`),
      `node@${major}`,
    ],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
      shell: IS_WINDOWS,
    },
  );
  if (r.status !== 0 || !existsSync(bin)) {
    log(`could not install node@${major} (exit ${r.status})`);
    return undefined;
  }
  return bin;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const majors = process.argv.slice(2).length ? process.argv.slice(2) : ['22', '24'];
  let failed = false;
  for (const m of majors) {
    const bin = ensureNode(m);
    if (bin) console.log(`${m} ${bin}`);
    else failed = true;
  }
  process.exitCode = failed ? 1 : 0;
}
