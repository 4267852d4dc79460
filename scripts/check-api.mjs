// The public API check: every function and class exported from a public entry point
// (package.json "exports") carries a JSDoc comment saying what it does. Runs inside `npm test`.

import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { publicEntries } from './check-layers.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Exported functions and classes of the public entry points that have no JSDoc comment. */
export function undocumentedExports() {
  const entries = [...publicEntries(join(root, 'src'))];
  const program = ts.createProgram(entries, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const missing = new Map();
  for (const entry of entries) {
    const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(entry));
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      for (const decl of symbol.declarations ?? []) {
        const callable =
          ts.isFunctionDeclaration(decl) ||
          ts.isClassDeclaration(decl) ||
          (ts.isVariableDeclaration(decl) &&
            decl.initializer &&
            (ts.isArrowFunction(decl.initializer) || ts.isFunctionExpression(decl.initializer)));
        if (!callable) continue;
        const holder = ts.isVariableDeclaration(decl) ? decl.parent.parent : decl;
        if (ts.getJSDocCommentsAndTags(holder).length === 0) {
          const file = decl.getSourceFile();
          const { line } = file.getLineAndCharacterOfPosition(decl.getStart());
          missing.set(`${relative(root, file.fileName)}:${line + 1}`, symbol.getName());
        }
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
