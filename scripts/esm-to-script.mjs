// Turns esbuild's ES-module bundle of the guard's body into the CommonJS function body the loader runs. esbuild's own
// CommonJS output calls every import as `(0, import_node_fs.openSync)(...)` behind a block of interop helpers; an ES
// module bundle calls `openSync(...)`, so converting its import and export statements gives code that reads like the
// source and is about 5 KB smaller. The conversion is exact: a bundle's imports are all at its top level, and the
// builtins they name have no load order to keep, so each module id becomes one destructuring `require` at the top.
import ts from 'typescript';
import { applyEdits } from './source-edits.mjs';

/** Every name a declaration other than an import binds (variables, parameters, functions, classes, catch clauses). */
function declaredNames(sf) {
  const names = new Set();
  const bind = (name) => {
    if (ts.isIdentifier(name)) names.add(name.text);
    else for (const el of name.elements) if (!ts.isOmittedExpression(el)) bind(el.name);
  };
  const visit = (node) => {
    if (ts.isVariableDeclaration(node) || ts.isParameter(node) || ts.isBindingElement(node)) bind(node.name);
    else if (
      (ts.isFunctionDeclaration(node) ||
        ts.isFunctionExpression(node) ||
        ts.isClassDeclaration(node) ||
        ts.isClassExpression(node)) &&
      node.name
    )
      names.add(node.name.text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return names;
}

/** Identifiers that are references to a binding (not property names, not declarations' own names). */
function references(sf) {
  const refs = [];
  const visit = (node) => {
    if (ts.isIdentifier(node)) {
      const p = node.parent;
      const isName =
        ((ts.isPropertyAccessExpression(p) || ts.isPropertyAssignment(p) || ts.isMethodDeclaration(p)) &&
          p.name === node) ||
        ((ts.isPropertyDeclaration(p) || ts.isGetAccessor(p) || ts.isSetAccessor(p)) && p.name === node) ||
        ts.isImportSpecifier(p) ||
        ts.isExportSpecifier(p) ||
        ts.isNamespaceImport(p) ||
        ts.isImportClause(p);
      if (!isName) refs.push(node);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return refs;
}

/** esbuild's `var __require = ...` helper (an ES module has no require of its own; this code runs where it has one). */
const isRequireShim = (st) =>
  ts.isVariableStatement(st) &&
  st.declarationList.declarations.length === 1 &&
  ts.isIdentifier(st.declarationList.declarations[0].name) &&
  st.declarationList.declarations[0].name.text === '__require';

/** The bundle's import and export statements, read and checked, and esbuild's require helper if it has one. */
function readModuleStatements(sf, source) {
  const imports = [];
  let exported;
  let shim;
  for (const st of sf.statements) {
    if (isRequireShim(st)) shim = st;
    else if (ts.isImportDeclaration(st)) {
      const id = st.moduleSpecifier.text;
      const clause = st.importClause;
      if (clause?.name) throw new Error(`esm-to-script: a default import of ${id}; name its exports instead`);
      const named = clause?.namedBindings;
      if (named && ts.isNamespaceImport(named)) imports.push({ st, id, bindings: [{ ns: named.name.text }] });
      else
        imports.push({
          st,
          id,
          bindings: (named?.elements ?? []).map((el) => ({
            name: (el.propertyName ?? el.name).text,
            local: el.name.text,
          })),
        });
    } else if (ts.isExportDeclaration(st)) {
      if (st.moduleSpecifier || !st.exportClause || !ts.isNamedExports(st.exportClause) || exported)
        throw new Error('esm-to-script: only one local `export { ... }` statement is expected');
      exported = {
        st,
        names: st.exportClause.elements.map((el) => ({ name: el.name.text, local: (el.propertyName ?? el.name).text })),
      };
    } else if (ts.canHaveModifiers(st) && ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
      throw new Error(`esm-to-script: an exported declaration at ${source.slice(st.getStart(), st.getStart() + 40)}`);
    }
  }
  return { imports, exported, shim };
}

/**
 * esbuild renames an import when two modules of the bundle import the same name (`join2`). Once all imports are one
 * `require` per module the copies are the same binding, so `join2` goes back to `join` when nothing else declares a
 * `join` and the alias is only ever used as a plain reference.
 */
function plainNames(imports, sf, refs) {
  const declared = declaredNames(sf);
  const byId = new Map();
  for (const { id, bindings } of imports)
    for (const b of bindings) if (b.local) byId.set(b.local, { id, name: b.name });
  const referenced = new Set(refs.map((r) => r.text));
  const unsafe = new Set(
    refs.filter((r) => ts.isShorthandPropertyAssignment(r.parent) || ts.isExportSpecifier(r.parent)).map((r) => r.text),
  );
  const rename = new Map();
  for (const [local, { id, name }] of byId) {
    if (local === name || declared.has(name) || unsafe.has(local)) continue;
    const owner = byId.get(name);
    if (owner ? owner.id === id && owner.name === name : !referenced.has(name)) rename.set(local, name);
  }
  return rename;
}

/**
 * `source` (an esbuild ES-module bundle) as CommonJS code: strict, its imports one `const { ... } = require(id)` per
 * module at the top (`notes[id]` puts a comment line above one), its exports one `module.exports = { ... }` at the end.
 * Returns the code and the names each module id was asked for.
 */
export function esmToScript(source, notes = {}) {
  const sf = ts.createSourceFile('bundle.mjs', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const { imports, exported, shim } = readModuleStatements(sf, source);
  const refs = references(sf);
  const rename = plainNames(imports, sf, refs);
  // esbuild turns `require` into `__require` in an ES module; the code runs as CommonJS, so the real one is in scope.
  if (shim) rename.set('__require', 'require');
  const cuts = [...imports.map((i) => i.st), ...(exported ? [exported.st] : []), ...(shim ? [shim] : [])].map((st) => ({
    pos: st.getStart(),
    end: st.end + (source[st.end] === '\n' ? 1 : 0),
    text: '',
  }));
  const inCut = (r) => cuts.some((c) => r.getStart() >= c.pos && r.end <= c.end);
  const renames = refs
    .filter((r) => rename.has(r.text) && !inCut(r))
    .map((r) => ({ pos: r.getStart(), end: r.end, text: rename.get(r.text) }));
  // A module's marker comment (`// src/guard/x.ts`) that headed only its imports now heads nothing.
  const rest = applyEdits(source, [...cuts, ...renames]).replace(/^\/\/ src\/\S+\n(?=\n)/gm, '');
  const modules = new Map();
  for (const { id, bindings } of imports) {
    const set = modules.get(id) ?? new Map();
    modules.set(id, set);
    for (const b of bindings) {
      const local = b.ns ?? rename.get(b.local) ?? b.local;
      set.set(b.ns ? `* ${local}` : local === b.name ? local : `${b.name}: ${local}`, b.ns ? undefined : b.name);
    }
  }
  const requires = [...modules].map(([id, set]) => {
    const keys = [...set.keys()];
    const ns = keys
      .filter((k) => k.startsWith('* '))
      .map((k) => `const ${k.slice(2)} = require(${JSON.stringify(id)});\n`);
    const named = keys.filter((k) => !k.startsWith('* ')).sort();
    const destructure = named.length ? `const { ${named.join(', ')} } = require(${JSON.stringify(id)});\n` : '';
    return (notes[id] ? `// ${notes[id]}\n` : '') + ns.join('') + destructure;
  });
  const exportLine = exported
    ? `module.exports = { ${exported.names.map((e) => (e.name === e.local ? e.name : `${e.name}: ${e.local}`)).join(', ')} };\n`
    : '';
  const names = new Map([...modules].map(([id, set]) => [id, [...set.values()].filter((n) => n !== undefined)]));
  return { code: `"use strict";\n${requires.join('')}${rest.replace(/\n*$/, '\n')}${exportLine}`, imports: names };
}
