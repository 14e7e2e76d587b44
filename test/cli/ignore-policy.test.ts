// A repository that ignores a tool folder (personal settings) and gets a negation for the file we write there: the plan
// says in words which project policy changes, with the rule it overrides.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { fixtureRepo, requireCli, runCli } from '../helpers/cli.ts';

beforeAll(requireCli);

it('states each ignore-policy change in the plan: what becomes shared, and the rule that kept it personal', () => {
  const dir = fixtureRepo(null);
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\n.claude/\n');
  const r = runCli(['--dry-run', '--tools', 'claude'], { cwd: dir });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toContain(
    '`.claude/settings.json` will be shared with everyone who clones; today `.claude/` (.gitignore:2) keeps it out of git',
  );
});
