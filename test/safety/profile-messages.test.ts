// The shell-profile block owned like everything else, and the small messages.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repeatWarning } from '../../src/guard/core/messages.ts';
import { upsertBlock } from '../../src/edit/md-block.ts';
import { pagerWaits } from '../../src/tools/env-waits.ts';
import { requireBuilt } from '../helpers/paths.ts';
import { CI_ENV, runCli, sandbox } from '../helpers/sandbox.ts';

beforeAll(() => requireBuilt());

describe('the shell-profile block', () => {
  it('recorded in the manifest; plain --remove says which file and block remain and why; --remove --shell-profile works without the record', () => {
    const b = sandbox({ fill: (root) => mkdirSync(join(root, '.cursor')), agentHome: false, env: CI_ENV });
    const env = { ...b.env, SHELL: '/bin/bash' };
    const rc = join(b.home, '.bashrc');
    writeFileSync(rc, 'export EDITOR=vim\n');
    expect(runCli(['--yes', '--tools', 'cursor', '--shell-profile'], env, b.root).status).toBe(0);
    expect(JSON.parse(readFileSync(join(b.root, '.agents/loop-guard.json'), 'utf8')).shellProfile).toBe(true);
    expect(readFileSync(rc, 'utf8')).toContain('loop-guard');

    const r = runCli(['--remove', '--yes'], env, b.root);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Kept the loop-guard block in ${rc}`);
    expect(r.stdout).toContain('--remove --shell-profile');
    expect(readFileSync(rc, 'utf8')).toContain('loop-guard');

    // The repository's record is gone now; the profile block can still be taken out.
    const again = runCli(['--remove', '--yes', '--shell-profile'], env, b.root);
    expect(again.status, again.stderr).toBe(0);
    expect(readFileSync(rc, 'utf8')).toBe('export EDITOR=vim\n');
  });
});

describe('small messages', () => {
  it('one repetition is "1 time", not "1 times"', () => {
    expect(repeatWarning('npm test', 1, 4, null)).toContain('the same result 1 time in a row');
    expect(repeatWarning('npm test', 3, 4, null)).toContain('the same result 3 times in a row');
  });

  it('a block from a newer version is downgraded, not upgraded', () => {
    const spec = { id: 'loop-guard', version: '0.1.0', body: 'new body\n', style: 'markdown' as const };
    const newer = upsertBlock('', { ...spec, version: '9.9.9', body: 'old body\n' }, { force: false });
    if (newer.status !== 'changed') throw new Error(`unexpected ${newer.status}`);
    const down = upsertBlock(newer.text, spec, { force: false });
    expect(down.status === 'changed' && down.notes.join(' ')).toContain(
      'Downgraded the loop-guard block from v9.9.9 to v0.1.0',
    );
    const older = upsertBlock('', { ...spec, version: '0.0.1', body: 'old body\n' }, { force: false });
    if (older.status !== 'changed') throw new Error(`unexpected ${older.status}`);
    const up = upsertBlock(older.text, spec, { force: false });
    expect(up.status === 'changed' && up.notes.join(' ')).toContain('Upgraded');
  });

  it('a harmless GIT_PAGER value is not reported as waiting for a person', () => {
    for (const v of ['5', 'cat', 'head -50', 'tr -d x']) expect(pagerWaits(v), v).toBe(false);
    for (const v of ['less', 'more', 'delta', 'diff-so-fancy | less -RFX']) expect(pagerWaits(v), v).toBe(true);
  });
});
