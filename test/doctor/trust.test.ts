// gemini.trust / copilot.trust: both CLIs skip project hooks silently in an untrusted folder.
import { describe, expect, it } from 'vitest';
import { copilotTrustCheck, geminiTrustCheck } from '../../src/doctor/trust.ts';

describe('gemini.trust', () => {
  const where = '~/.gemini/trustedFolders.json';
  it('passes for a TRUST_FOLDER rule on the folder or a parent, a TRUST_PARENT rule beside it, the env switch, or trust turned off', () => {
    expect(geminiTrustCheck('/w/repo', {}, {}, { '/w/repo': 'TRUST_FOLDER' }, where).ok).toBe(true);
    expect(geminiTrustCheck('/w/repo', {}, {}, { '/w': 'TRUST_FOLDER' }, where).ok).toBe(true);
    expect(geminiTrustCheck('/w/repo', {}, {}, { '/w/other': 'TRUST_PARENT' }, where).ok).toBe(true);
    expect(geminiTrustCheck('/w/repo', { GEMINI_CLI_TRUST_WORKSPACE: 'true' }, {}, undefined, where).ok).toBe(true);
    expect(geminiTrustCheck('/w/repo', {}, { security: { folderTrust: { enabled: false } } }, undefined, where).ok).toBe(true);
  });
  it('fails with the exact rule to add when nothing trusts it, a sibling prefix does not count, and DO_NOT_TRUST wins', () => {
    const none = geminiTrustCheck('/w/repo', {}, {}, undefined, where);
    expect(none).toMatchObject({ id: 'gemini.trust', ok: false });
    expect(none.fix).toContain('"/w/repo": "TRUST_FOLDER"');
    expect(geminiTrustCheck('/w/repo-2', {}, {}, { '/w/repo': 'TRUST_FOLDER' }, where).ok).toBe(false);
    expect(geminiTrustCheck('/w/repo', {}, {}, { '/w': 'TRUST_FOLDER', '/w/repo': 'DO_NOT_TRUST' }, where).ok).toBe(false);
  });
});

describe('copilot.trust', () => {
  const where = '~/.copilot/config.json';
  it('passes for a trustedFolders entry on the folder or a parent, or COPILOT_ALLOW_ALL=true', () => {
    expect(copilotTrustCheck('/w/repo', {}, { trustedFolders: ['/w/repo'] }, where).ok).toBe(true);
    expect(copilotTrustCheck('/w/repo', {}, { trustedFolders: ['/w'] }, where).ok).toBe(true);
    expect(copilotTrustCheck('/w/repo', { COPILOT_ALLOW_ALL: 'true' }, undefined, where).ok).toBe(true);
  });
  it('fails otherwise (COPILOT_ALLOW_ALL must be exactly "true"; a sibling prefix does not count)', () => {
    expect(copilotTrustCheck('/w/repo', {}, undefined, where)).toMatchObject({ id: 'copilot.trust', ok: false });
    expect(copilotTrustCheck('/w/repo', { COPILOT_ALLOW_ALL: '1' }, {}, where).ok).toBe(false);
    expect(copilotTrustCheck('/w/repo-2', {}, { trustedFolders: ['/w/repo'] }, where).ok).toBe(false);
  });
});
