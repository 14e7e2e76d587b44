// scripts/esm-to-script.mjs makes esbuild's ES-module bundle of the guard body CommonJS code. What could go wrong is
// a binding: an import renamed back onto a name something else declares, a shorthand property losing its key, an
// export lost. Each case runs the converted code and checks what it computes, not only its text.
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { esmToScript } from '../../scripts/esm-to-script.mjs';
import { applyEdits } from '../../scripts/source-edits.mjs';

/** Runs converted code as the loader does (a CommonJS module's code) and returns its exports. */
function run(code: string, req: (id: string) => unknown = (id) => require(id)): Record<string, unknown> {
  const mod = { exports: {} as Record<string, unknown> };
  const fn = new Script(`(function (exports, require, module) {\n${code}\n})`).runInThisContext() as (
    ...a: unknown[]
  ) => void;
  fn(mod.exports, req, mod);
  return mod.exports;
}

describe('esmToScript', () => {
  it('makes the imports one destructuring require per module at the top, and the exports module.exports', () => {
    const src = [
      '// src/a.ts',
      'import { join } from "node:path";',
      'function a() {',
      '  return join("x", "y");',
      '}',
      '',
      '// src/b.ts',
      'import { basename, join as join2 } from "node:path";',
      'var b = () => basename(join2("x", "y.txt"));',
      'export { a, b as bee };',
      '',
    ].join('\n');
    const { code, imports } = esmToScript(src);
    expect(code.split('\n').slice(0, 2)).toEqual(['"use strict";', 'const { basename, join } = require("node:path");']);
    expect(code).not.toMatch(/\bimport\b|\bexport\b|join2/);
    expect(code).toContain('module.exports = { a, bee: b };');
    expect(imports.get('node:path')?.sort()).toEqual(['basename', 'join']);
    expect(run(code)).toEqual({ a: expect.any(Function), bee: expect.any(Function) });
    expect((run(code).bee as () => string)()).toBe('y.txt');
  });

  it('keeps an alias when the plain name is declared elsewhere (a parameter, a local, a function)', () => {
    const src = [
      'import { join } from "node:path";',
      'import { join as join2 } from "node:path";',
      'function f(join3) { const join = (a) => "local:" + a; return [join("x"), join2("p", "q"), join3]; }',
      'export { f };',
    ].join('\n');
    const { code } = esmToScript(src);
    // `join` is a local inside f, so join2 inside f must stay a different name.
    expect(code).toContain('join: join2');
    expect((run(code).f as (x: string) => string[])('z')).toEqual(['local:x', 'p/q', 'z']);
  });

  it('keeps an alias used as a shorthand property (its key is part of the value)', () => {
    const src = [
      'import { sep } from "node:path";',
      'import { sep as sep2 } from "node:path";',
      'var o = () => ({ sep2, sep });',
      'export { o };',
    ].join('\n');
    const { code } = esmToScript(src);
    expect(Object.keys((run(code).o as () => object)())).toEqual(['sep2', 'sep']);
  });

  it("keeps namespace imports, and turns esbuild's __require helper back into require", () => {
    const src = [
      'var __require = /* @__PURE__ */ ((x) => typeof require !== "undefined" ? require : x)(function (x) {',
      '  throw Error("no");',
      '});',
      'import * as path from "node:path";',
      'var dyn = (id) => __require(id);',
      'export { dyn, path };',
    ].join('\n');
    const { code } = esmToScript(src);
    expect(code).not.toContain('__require');
    expect(code).toContain('const path = require("node:path");');
    expect((run(code).dyn as (id: string) => unknown)('node:path')).toBe(require('node:path'));
  });

  it('drops the module markers that headed only imports', () => {
    const src = ['// src/a.ts', 'import { join } from "node:path";', '', '// src/b.ts', 'var b = join;', ''].join('\n');
    expect(esmToScript(src).code).not.toContain('// src/a.ts');
    expect(esmToScript(src).code).toContain('// src/b.ts\nvar b = join;');
  });

  it('passes a note above the require of a module it names, and the ids to a custom require', () => {
    const src = 'import { hash64 } from "loop-guard:loader";\nvar h = () => hash64("x");\nexport { h };\n';
    const { code, imports } = esmToScript(src, { 'loop-guard:loader': 'From the loader part.' });
    expect(code).toContain('// From the loader part.\nconst { hash64 } = require("loop-guard:loader");');
    expect(imports.get('loop-guard:loader')).toEqual(['hash64']);
    const exports = run(code, (id) => (id === 'loop-guard:loader' ? { hash64: (t: string) => `#${t}` } : undefined));
    expect((exports.h as () => string)()).toBe('#x');
  });

  it('refuses what it cannot convert exactly: a default import, a second export list, an exported declaration', () => {
    expect(() => esmToScript('import fs from "node:fs";\n')).toThrow(/default import/);
    expect(() => esmToScript('var a = 1;\nexport { a };\nexport { a as b };\n')).toThrow(/one local/);
    expect(() => esmToScript('export function f() {}\n')).toThrow(/exported declaration/);
    expect(() => esmToScript('export { x } from "./x.js";\n')).toThrow(/one local/);
  });
});

describe("applyEdits (the build scripts' one way to rewrite source by position)", () => {
  it('applies edits given in any order, and refuses overlapping ones', () => {
    const edits = [
      { pos: 6, end: 11, text: 'there' },
      { pos: 0, end: 5, text: 'Hi' },
    ];
    expect(applyEdits('hello world!', edits)).toBe('Hi there!');
    expect(() =>
      applyEdits('hello world', [
        { pos: 0, end: 5, text: '' },
        { pos: 3, end: 7, text: 'x' },
      ]),
    ).toThrow(/overlaps/);
  });
});
