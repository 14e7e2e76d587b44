// Where things are, for every test: the repository, its fixtures and the built files. One copy of each helper.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const fixturesDir = fileURLToPath(new URL('../fixtures/', import.meta.url));
export const payloadsDir = join(fixturesDir, 'payloads');
/** The guard as installed (CommonJS with its code cache), and the plain ES-module build it is compared with. */
export const guardFile = join(repoRoot, 'dist', 'loop-guard.cjs');
export const esmGuardFile = join(repoRoot, 'dist', 'loop-guard.mjs');
/** The node that runs the built guard and CLI: LOOP_GUARD_TEST_NODE selects another version (the CI Node matrix). */
export const nodeBin = process.env.LOOP_GUARD_TEST_NODE || process.execPath;
export const cliFile = join(repoRoot, 'dist', 'cli.mjs');

/** Fails with the command to run when the build a test needs is missing. */
export function requireFiles(files: readonly string[]): void {
  const missing = files.filter((f) => !existsSync(f));
  if (missing.length)
    throw new Error(
      `${missing.map((f) => f.slice(repoRoot.length)).join(', ')} missing: run \`npm run build\` first (npm test does).`,
    );
}

/** The guard and the CLI are built (no parameters: vitest passes its own to a beforeAll hook). */
export function requireBuilt(): void {
  requireFiles([guardFile, cliFile]);
}

export type Json = Record<string, unknown>;

/** A real payload from test/fixtures/payloads (never an invented shape). */
export function loadPayload(rel: string): Json {
  return JSON.parse(readFileSync(join(payloadsDir, rel), 'utf8')) as Json;
}
