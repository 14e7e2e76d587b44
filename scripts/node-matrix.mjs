// The guard runs on whatever `node` the agent's shell finds, so CI runs the built guard's contract tests and the CLI
// scenarios under every supported major (and the audit's V8 flag, which differs by major): the development Node plus
// node@22 and node@24 installed into .cache/ (scripts/install-node.mjs). The test helpers spawn the hook and the CLI
// with LOOP_GUARD_TEST_NODE.
// Usage: node scripts/node-matrix.mjs [22 24 ...]   (after npm run build)
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureNode } from './install-node.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const FILES = ['test/guard/contract.test.ts', 'test/cli/scenarios.test.ts', 'test/audit/tier-up.test.ts'];
const majors = process.argv.slice(2).length ? process.argv.slice(2) : ['22', '24'];

const targets = [{ label: `node ${process.versions.node} (this one)`, bin: process.execPath }];
for (const m of majors) {
  const bin = ensureNode(m);
  if (!bin) {
    console.error(`node-matrix: node@${m} could not be installed`);
    process.exit(1);
  }
  const v = spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim();
  targets.push({ label: `node ${v.replace(/^v/, '')}`, bin });
}

let failed = 0;
for (const t of targets) {
  console.log(`\n== ${t.label}: ${FILES.join(', ')}`);
  const r = spawnSync(
    process.execPath,
    [fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url)), 'run', ...FILES],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, LOOP_GUARD_TEST_NODE: t.bin },
    },
  );
  if (r.status !== 0) failed++;
  console.log(`== ${t.label}: ${r.status === 0 ? 'passed' : 'FAILED'}`);
}
process.exitCode = failed ? 1 : 0;
