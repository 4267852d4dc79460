// The public API check: every function and class exported from a public entry point
// (package.json "exports") carries a JSDoc comment saying what it does. Runs inside `npm test`.
// It follows re-exports (`export { x } from`, `export *`, imported then exported) to the
// declaration itself, and parses with oxc (a syntax tree is enough; no type checker needed).

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSync } from 'oxc-parser';
import { publicEntries } from './check-layers.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The source file a relative import names (`./x.js` is `./x.ts`, `./x.tsx` or `./x/index.ts`). */
function resolveModule(from, request) {
  if (!request.startsWith('.')) return undefined;
  const base = resolve(dirname(from), request).replace(/\.js$/, '');
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) if (existsSync(candidate)) return candidate;
  return undefined;
}

const isCallableInit = (init) => init && (init.type === 'ArrowFunctionExpression' || init.type === 'FunctionExpression');

/** One file's top-level callable declarations (with whether a JSDoc block precedes each), imports and exports. */
const parsed = new Map();
function parseFile(file) {
  const known = parsed.get(file);
  if (known) return known;
  const text = readFileSync(file, 'utf8');
  const { program, comments, module } = parseSync(file, text);
  const docEnds = new Set(comments.filter((c) => c.type === 'Block' && c.value.startsWith('*')).map((c) => c.end));
  const documented = (start) => {
    let i = start;
    while (i > 0 && /\s/.test(text[i - 1])) i -= 1;
    return docEnds.has(i);
  };
  const lineOf = (pos) => text.slice(0, pos).split('\n').length;
  /** name -> declarations ({ line, documented }) of top-level functions, classes and function-valued consts. */
  const callables = new Map();
  const add = (name, node, holderStart) => {
    if (!name) return;
    const list = callables.get(name) ?? [];
    list.push({ line: lineOf(node.start), documented: documented(holderStart) });
    callables.set(name, list);
  };
  const imports = new Map();
  for (const statement of program.body) {
    const holder = statement;
    const decl =
      statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration' ? statement.declaration : statement;
    if (!decl) continue;
    if (decl.type === 'FunctionDeclaration' || decl.type === 'TSDeclareFunction' || decl.type === 'ClassDeclaration') {
      const name = statement.type === 'ExportDefaultDeclaration' ? 'default' : decl.id?.name;
      add(name, decl, holder.start);
      if (statement.type === 'ExportDefaultDeclaration' && decl.id?.name) add(decl.id.name, decl, holder.start);
    } else if (decl.type === 'VariableDeclaration') {
      for (const d of decl.declarations) if (d.id.type === 'Identifier' && isCallableInit(d.init)) add(d.id.name, d, holder.start);
    } else if (decl.type === 'ImportDeclaration' && decl.importKind !== 'type') {
      for (const s of decl.specifiers ?? [])
        if (s.type === 'ImportSpecifier' && s.importKind !== 'type')
          imports.set(s.local.name, { source: decl.source.value, name: s.imported.name ?? s.imported.value });
    }
  }
  const exports = module.staticExports.flatMap((e) => e.entries).filter((e) => !e.isType);
  const result = { callables, imports, exports };
  parsed.set(file, result);
  return result;
}

/** The declarations behind `name` as exported (or declared) by `file`, following re-exports and imports. */
function declarationsOf(file, name, seen = new Set()) {
  const key = `${file}#${name}`;
  if (seen.has(key)) return [];
  seen.add(key);
  const { callables, imports, exports } = parseFile(file);
  const found = (callables.get(name) ?? []).map((d) => ({ ...d, file, name }));
  const imported = imports.get(name);
  if (imported) {
    const target = resolveModule(file, imported.source);
    if (target) found.push(...declarationsOf(target, imported.name, seen));
  }
  for (const e of exports) {
    if (e.exportName.name !== name || !e.moduleRequest || e.importName.kind !== 'Name') continue;
    const target = resolveModule(file, e.moduleRequest.value);
    if (target) found.push(...declarationsOf(target, e.importName.name, seen));
  }
  return found;
}

/** Every name a module exports (`export *` followed), with the file that answers for it. */
function exportedNames(file, seen = new Set()) {
  if (seen.has(file)) return [];
  seen.add(file);
  const names = [];
  for (const e of parseFile(file).exports) {
    if (e.importName.kind === 'AllButDefault') {
      const target = resolveModule(file, e.moduleRequest.value);
      if (target) names.push(...exportedNames(target, seen).filter((n) => n.name !== 'default'));
    } else if (e.exportName.kind === 'Name' && e.importName.kind !== 'All') names.push({ file, name: e.exportName.name });
    else if (e.exportName.kind === 'Default') names.push({ file, name: 'default' });
  }
  return names;
}

/** Exported functions and classes of the public entry points that have no JSDoc comment. */
export function undocumentedExports() {
  const missing = new Map();
  for (const entry of publicEntries(join(root, 'src'))) {
    for (const { file, name } of exportedNames(entry)) {
      for (const decl of declarationsOf(file, name)) {
        if (!decl.documented) missing.set(`${relative(root, decl.file)}:${decl.line}`, decl.name);
      }
    }
  }
  return [...missing].map(([where, name]) => `${where} ${name}`).sort();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const missing = undocumentedExports();
  if (missing.length) {
    console.error(
      `API check failed: ${missing.length} exported function(s) or class(es) without a JSDoc comment:\n  ${missing.join('\n  ')}`,
    );
    process.exit(1);
  }
  console.log('API check: ok');
}
