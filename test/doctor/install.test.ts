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
  // The guard file's two parts, as the build writes them: a loader Node parses, the body in a comment after it.
  const shipped = withOwnedHeader(
    'function run() {\n  return load("a  b");\n}\nrun();\n\n/*@loop-guard-body\n(function () {\n\tmain();\n})\n*/\n',
    '//',
    '0.1.0',
  );
  it('passes for the shipped bytes, a CRLF checkout, a BOM and a reformatted loader: the hook runs them all', () => {
    expect(guardFileCheck(shipped, shipped, '0.1.0').ok).toBe(true);
    const crlf = guardFileCheck(shipped.replace(/\n/g, '\r\n'), shipped, '0.1.0');
    expect(crlf.ok).toBe(true);
    expect(crlf.message).toContain('the same code, and the hook runs it');
    expect(guardFileCheck(`\ufeff${shipped}`, shipped, '0.1.0').ok).toBe(true);
    expect(
      guardFileCheck(shipped.replace('  return', '    return').replace('}\nrun()', '};\nrun()'), shipped, '0.1.0').ok,
    ).toBe(true);
  });
  it('fails when missing, foreign, another version, or replaced under our header', () => {
    expect(guardFileCheck(null, shipped, '0.1.0').message).toContain('is missing');
    expect(guardFileCheck('console.log(1)\n', shipped, '0.1.0').message).toContain('no create-loop-guard header');
    expect(guardFileCheck(shipped, shipped, '0.2.0').message).toContain('is v0.1.0; this create-loop-guard is v0.2.0');
    const noop = withOwnedHeader('process.exitCode = 0;\n\n/*@loop-guard-body\n(function () {})\n*/\n', '//', '0.1.0');
    const c = guardFileCheck(noop, shipped, '0.1.0');
    expect(c.ok).toBe(false);
    expect(c.message).toContain('differs from the guard v0.1.0 ships');
    // A body edited where whitespace means something (inside a string) is not the same code.
    expect(guardFileCheck(shipped.replace('\tmain();', '\tmain( );'), shipped, '0.1.0').ok).toBe(false);
  });
  it('fails, naming why, when the hook would find no body: an older loader part in a CRLF checkout, a lost mark', () => {
    // The loader part of an older build (another text before the body) read the body's marks with LF only.
    const older = shipped.replace('return load', 'return loadOld');
    expect(guardFileCheck(older, shipped, '0.1.0').message).toContain('differs from the guard');
    for (const inert of [
      older.replace(/\n/g, '\r\n'),
      shipped.replace('/*@loop-guard-body\n', '/* @loop-guard-body\n'),
    ]) {
      const c = guardFileCheck(inert, shipped, '0.1.0');
      expect(c.ok).toBe(false);
      expect(c.message).toContain('lets every command through');
      expect(c.fix).toContain('--yes');
    }
    // Inert is said before "another version": the version does not matter when nothing runs.
    expect(guardFileCheck(older.replace(/\n/g, '\r\n'), shipped, '0.2.0').message).toContain('lets every command');
  });
});
