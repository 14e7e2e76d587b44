// A value of ours the user changed after install (GIT_PAGER=less) is theirs now: the rerun keeps it and says so, the
// record stops calling it ours, --check reports it, --force puts ours back, and --remove leaves theirs.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST_PATH } from '../../src/tools/markers.ts';
import { fixtureRepo, requireCli, runCliAsync } from '../helpers/cli.ts';

beforeAll(requireCli);

describe("the user's edit of one of our values", () => {
  it('GIT_PAGER=less after install: kept by the rerun, reported by --check, --force restores ours', async () => {
    const dir = fixtureRepo(null);
    mkdirSync(join(dir, '.claude'));
    mkdirSync(join(dir, '.codex'));
    expect((await runCliAsync(['--yes'], { cwd: dir })).status).toBe(0);
    const settings = join(dir, '.claude/settings.json');
    const config = join(dir, '.codex/config.toml');
    writeFileSync(settings, readFileSync(settings, 'utf8').replace('"GIT_PAGER": "cat"', '"GIT_PAGER": "less"'));
    writeFileSync(config, readFileSync(config, 'utf8').replace('GIT_PAGER = "cat"', 'GIT_PAGER = "less"'));
    const rerun = await runCliAsync(['--yes'], { cwd: dir });
    expect(rerun.status).toBe(0);
    expect(rerun.stdout).toContain('you changed loop-guard\'s "cat", so it is yours now');
    expect(readFileSync(settings, 'utf8')).toContain('"GIT_PAGER": "less"');
    expect(readFileSync(config, 'utf8')).toContain('GIT_PAGER = "less"');
    const record = JSON.parse(readFileSync(join(dir, MANIFEST_PATH), 'utf8'));
    expect(record.files['.claude/settings.json'].env).not.toContain('GIT_PAGER');
    expect(record.files['.codex/config.toml'].env).not.toContain('GIT_PAGER');
    const check = await runCliAsync(['--check'], { cwd: dir });
    expect(check.status).toBe(0);
    expect(check.stdout).toContain('env.GIT_PAGER="less"');
    // --remove takes out ours and leaves theirs.
    const removed = await runCliAsync(['--remove', '--yes'], { cwd: dir });
    expect(removed.status).toBe(0);
    expect(readFileSync(settings, 'utf8')).toContain('"GIT_PAGER": "less"');
    expect(readFileSync(settings, 'utf8')).not.toContain('PAGER": "cat"');
    expect((await runCliAsync(['--yes'], { cwd: dir })).status).toBe(0);
    const forced = await runCliAsync(['--yes', '--force'], { cwd: dir });
    expect(forced.status).toBe(0);
    expect(readFileSync(settings, 'utf8')).toContain('"GIT_PAGER": "cat"');
  });
});
