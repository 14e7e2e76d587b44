// Doctor on a Cline setup: the generic group checks the tool's own files (the plugin loader and the guard it loads)
// are ours and current, and names what to run when one is missing or edited.
import { appendFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../src/assets.ts';
import { runChecks, type DoctorResult } from '../../src/doctor/checks.ts';
import { CLINE_PLUGIN } from '../../src/tools/cline.ts';
import { GUARD_PATH as CLINE_GUARD } from '../../src/tools/markers.ts';
import { cloneSandbox, install, requireBuilt, type Sandbox, sandbox } from '../helpers/sandbox.ts';

let installed: Sandbox;
beforeAll(() => {
  requireBuilt();
  installed = sandbox();
  install(installed, 'cline');
}, 60_000);

const doctorOn = (sb: Sandbox) => runChecks({ root: sb.root, env: sb.env, home: sb.home, version: VERSION });
const fileChecks = (r: DoctorResult) => r.groups.flatMap((g) => g.checks).filter((c) => c.id === 'cline.file');

describe('doctor: Cline', () => {
  it('a fresh install: the loader is ours and current, in a Cline group; the guard file it loads is the repo check', async () => {
    const r = await doctorOn(cloneSandbox(installed));
    expect(r.groups.map((g) => g.name)).toEqual(['repo', 'cline']);
    const files = fileChecks(r);
    expect(files.map((c) => c.ok)).toEqual([true]);
    expect(files.map((c) => c.message).join('\n')).toContain(CLINE_PLUGIN);
    const guard = r.groups.flatMap((g) => g.checks).find((c) => c.id === 'repo.guard');
    expect(guard).toMatchObject({ ok: true });
    expect(guard?.message).toContain(CLINE_GUARD);
  }, 60_000);

  it('an edited loader and a missing guard file each fail with the fix', async () => {
    const sb = cloneSandbox(installed);
    appendFileSync(join(sb.root, CLINE_PLUGIN), '// mine\n');
    rmSync(join(sb.root, CLINE_GUARD));
    const r = await doctorOn(sb);
    const [loader] = fileChecks(r);
    expect(loader?.ok).toBe(false);
    expect(loader?.message).toContain('differs from the file');
    const guard = r.groups.flatMap((g) => g.checks).find((c) => c.id === 'repo.guard');
    expect(guard?.ok).toBe(false);
    expect(guard?.message).toContain(`${CLINE_GUARD} is missing, so no tool here runs the loop guard`);
    expect(guard?.fix).toContain('to reinstall it');
  }, 60_000);
});
