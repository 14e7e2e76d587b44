// The journal's "commit" is durable: every staged temp file, and the folder holding it, is fsynced before the journal
// flips to commit, and no temp is renamed over its target before that. Shown on the real system calls of the BUILT
// CLI (strace -f), so a power cut cannot leave an empty temp to be renamed over a user's config.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CI_ENV, cliFile, requireBuilt, sandbox, tempDir } from '../helpers/sandbox.ts';

beforeAll(() => requireBuilt());

const STRACE = spawnSync('strace', ['-V'], { encoding: 'utf8' }).status === 0;

interface Call {
  name: string;
  fd?: number;
  path?: string;
  from?: string;
  to?: string;
}

/** The calls of one strace log, with each fsync resolved to the path its descriptor was opened on. */
function readTrace(text: string): Call[] {
  const open = new Map<number, string>();
  const calls: Call[] = [];
  for (const line of text.split('\n')) {
    const m = /^\d+\s+(\w+)\((.*)\)\s+=\s+(-?\d+)/.exec(line);
    if (!m || Number(m[3]) < 0) continue;
    const [, name, args, ret] = m as unknown as [string, string, string, string];
    const strings = [...args.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((s) => s[1] as string);
    if (name === 'openat') open.set(Number(ret), strings[0] as string);
    else if (name === 'close') open.delete(Number(args));
    else if (name === 'fsync') calls.push({ name, fd: Number(args), path: open.get(Number(args)) as string });
    else if (name.startsWith('rename'))
      calls.push({ name: 'rename', from: strings[0] as string, to: strings[1] as string });
  }
  return calls;
}

describe('apply: durable before commit', () => {
  it.skipIf(!STRACE && !process.env.CI)(
    'fsync of each temp and its folder, then the journal says commit, then the renames',
    () => {
      const sb = sandbox({ agentHome: false, env: CI_ENV });
      mkdirSync(join(sb.root, '.claude'));
      writeFileSync(join(sb.root, '.claude', 'settings.json'), '{ "model": "opus" }\n');
      const log = join(tempDir(), 'trace.txt');
      const run = spawnSync(
        'strace',
        [
          '-f',
          '-qq',
          '-e',
          'trace=openat,close,fsync,rename,renameat,renameat2',
          '-o',
          log,
          process.execPath,
          cliFile,
          '--yes',
          '--cwd',
          sb.root,
          '--tools',
          'claude,codex',
        ],
        { env: sb.env, encoding: 'utf8', input: '', timeout: 120_000 },
      );
      expect(run.status, run.stderr).toBe(0);
      const calls = readTrace(readFileSync(log, 'utf8'));
      const journalFlips = calls
        .map((c, i) => ({ c, i }))
        .filter(({ c }) => c.name === 'rename' && c.to?.endsWith('/.loop-guard-journal.json'));
      expect(journalFlips.map(({ c }) => c.to)).toHaveLength(2); // staging, then commit
      const commit = journalFlips[1]!.i;
      const temps = calls.filter((c) => c.name === 'rename' && /\.loop-guard-\d+-\d+\.tmp$/.test(c.from ?? ''));
      expect(temps.length).toBeGreaterThanOrEqual(5);
      for (const t of temps) {
        const tmp = t.from as string;
        const synced = calls.findIndex((c) => c.name === 'fsync' && c.path === tmp);
        const dirSynced = calls.findIndex((c, i) => i > synced && c.name === 'fsync' && c.path === dirname(tmp));
        const renamed = calls.indexOf(t);
        expect(synced, `fsync of ${tmp}`).toBeGreaterThanOrEqual(0);
        expect(synced, `${tmp} synced before the commit`).toBeLessThan(commit);
        expect(dirSynced, `fsync of ${dirname(tmp)} after ${tmp}`).toBeGreaterThan(synced);
        expect(dirSynced, `${dirname(tmp)} synced before the commit`).toBeLessThan(commit);
        expect(renamed, `${tmp} renamed after the commit`).toBeGreaterThan(commit);
      }
      // The journal's own temp is synced before each flip, and its folder after.
      for (const { i } of journalFlips) {
        const before = calls.slice(0, i).reverse();
        expect(before.find((c) => c.name === 'fsync')?.path).toMatch(/\.loop-guard-journal\.json\.tmp$/);
        expect(calls.slice(i + 1).find((c) => c.name === 'fsync')?.path).toBe(sb.root);
      }
    },
  );
});
