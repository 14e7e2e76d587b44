// repo.manifest / repo.guard.
import { describe, expect, it } from 'vitest';
import { guardFileCheck, manifestCheck, readManifestText } from '../../src/doctor/install.ts';
import { withOwnedHeader } from '../../src/edit/owned-file.ts';
import { renderManifest } from '../../src/scaffold/manifest.ts';

describe('manifestCheck (repo.manifest)', () => {
  const text = renderManifest({ version: '0.1.0', tools: ['claude', 'codex'], files: {} });
  it('passes for this version', () => {
    const c = manifestCheck(readManifestText(text), '0.1.0');
    expect(c).toMatchObject({ id: 'repo.manifest', ok: true });
    expect(c.message).toContain('records claude, codex');
  });
  it('fails when missing, unparsable or from another version', () => {
    expect(manifestCheck(readManifestText(null), '0.1.0').message).toContain('is missing');
    expect(manifestCheck(readManifestText('{'), '0.1.0').message).toContain('not valid JSON');
    const old = manifestCheck(readManifestText(text), '0.2.0');
    expect(old.ok).toBe(false);
    expect(old.message).toContain('written by v0.1.0; this create-loop-guard is v0.2.0');
  });
});

describe('guardFileCheck (repo.guard)', () => {
  const shipped = withOwnedHeader('#!/usr/bin/env node\nmain();\n', '//', '0.1.0');
  it('passes for the shipped bytes (CRLF checkouts too)', () => {
    expect(guardFileCheck(shipped, shipped, '0.1.0').ok).toBe(true);
    expect(guardFileCheck(shipped.replace(/\n/g, '\r\n'), shipped, '0.1.0').ok).toBe(true);
  });
  it('fails when missing, foreign, another version, or replaced under our header', () => {
    expect(guardFileCheck(null, shipped, '0.1.0').message).toContain('is missing');
    expect(guardFileCheck('console.log(1)\n', shipped, '0.1.0').message).toContain('no create-loop-guard header');
    expect(guardFileCheck(shipped, shipped, '0.2.0').message).toContain('is v0.1.0; this create-loop-guard is v0.2.0');
    const noop = withOwnedHeader('process.exitCode = 0;\n', '//', '0.1.0');
    const c = guardFileCheck(noop, shipped, '0.1.0');
    expect(c.ok).toBe(false);
    expect(c.message).toContain('differs from the guard v0.1.0 ships');
  });
});
