// The layer check: fails when a file under src/ imports from a layer it may not use
// (DESIGN.md's layer table). Runs inside `npm test`.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');

/** Layer -> the layers it may import (besides itself). */
export const ALLOWED = {
  core: [],
  stats: ['core'],
  worlds: ['core'],
  models: ['core'],
  store: ['core'],
  runner: ['core', 'models', 'store'],
  protocols: ['core', 'worlds', 'models'],
  subjects: ['core', 'worlds', 'models', 'protocols'],
  judges: ['core', 'models', 'stats'],
  suites: ['core', 'stats', 'worlds', 'protocols', 'judges'],
  analysis: ['core', 'stats', 'worlds', 'store'],
  report: ['core', 'analysis'],
  app: ['core', 'stats', 'worlds', 'models', 'store', 'runner', 'protocols', 'subjects', 'judges', 'suites', 'analysis', 'report'],
  // The CLI and the viewer go through the public entry points only (package.json "exports"),
  // so they use nothing a library user could not.
  cli: ['public'],
  view: ['public'],
  index: ['core', 'stats', 'worlds', 'models', 'store', 'runner', 'protocols', 'subjects', 'judges', 'suites', 'analysis', 'report', 'app'],
};

/** The source files behind package.json's "exports": the public entry points. */
export function publicEntries(base = src) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return new Set(
    Object.values(pkg.exports)
      .map((e) => (typeof e === 'string' ? e : e.default))
      .filter((p) => p.startsWith('./dist/'))
      .map((p) => join(base, p.slice('./dist/'.length).replace(/\.js$/, '.ts'))),
  );
}

function layerOf(file, base) {
  const rel = relative(base, file).split(sep);
  if (rel.length === 1) return 'index'; // files directly in src/ are the public API
  return rel[0];
}

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* walk(p);
    else if (p.endsWith('.ts')) yield p;
  }
}

export function checkLayers(dir = src) {
  const problems = [];
  const entries = publicEntries(dir);
  for (const file of walk(dir)) {
    const from = layerOf(file, dir);
    const allowed = ALLOWED[from];
    if (!allowed) {
      problems.push(`${relative(root, file)}: folder "${from}" is not a known layer (add it to scripts/check-layers.mjs and DESIGN.md)`);
      continue;
    }
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
      const spec = m[1] ?? m[2];
      if (!spec.startsWith('.')) continue;
      const target = resolve(dirname(file), spec);
      if (!target.startsWith(dir + sep)) {
        problems.push(`${relative(root, file)}: imports ${spec}, outside src/`);
        continue;
      }
      const targetFile = target.replace(/\.js$/, '.ts');
      if (allowed.includes('public')) {
        if (layerOf(targetFile, dir) !== from && !entries.has(targetFile)) {
          problems.push(`${relative(root, file)}: layer "${from}" may import only the public entry points, not ${spec}`);
        }
        continue;
      }
      const to = layerOf(targetFile, dir);
      if (to !== from && !allowed.includes(to)) {
        problems.push(`${relative(root, file)}: layer "${from}" may not import layer "${to}" (${spec})`);
      }
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = checkLayers(process.argv[2] ? resolve(process.argv[2]) : src);
  if (problems.length) {
    console.error(`layer check failed:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log('layer check: ok');
}
