// The layer check: fails when a file under src/ imports from a layer it may not use (the layer
// table in docs/architecture.md), or when a study imports anything but the public entry points,
// its own folder, or another study. Runs inside `npm test`.

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
  // A study (src/studies/<name>/) is a plugin built as a third party would build one: on the
  // public entry points and its own files, never on another study. Its command files (loaded
  // only when a command runs) may use the root entry `mindscope`; the rest of it may not, since
  // the root entry loads the studies.
  studies: ['public'],
  index: [
    'core',
    'stats',
    'worlds',
    'models',
    'store',
    'runner',
    'protocols',
    'subjects',
    'judges',
    'suites',
    'analysis',
    'report',
    'app',
    'studies',
  ],
};

/** The source files behind package.json's "exports": the public entry points. */
export function publicEntries(base = src) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const files = Object.values(pkg.exports)
    .map((e) => (typeof e === 'string' ? e : e.default))
    .filter((p) => p.startsWith('./dist/'))
    .map((p) => join(base, p.slice('./dist/'.length).replace(/\.js$/, '.ts')));
  // A pattern entry (./studies/*) stands for each folder that has the file.
  return new Set(
    files.flatMap((f) => {
      if (!f.includes('*')) return [f];
      const [head, tail] = f.split('*');
      let names = [];
      try {
        names = readdirSync(head);
      } catch {}
      return names
        .map((n) => head + n + tail)
        .filter((p) => {
          try {
            return statSync(p).isFile();
          } catch {
            return false;
          }
        });
    }),
  );
}

/** The study a file belongs to (src/studies/<name>/...), or undefined. */
function studyOf(file, base) {
  const rel = relative(base, file).split(sep);
  return rel[0] === 'studies' && rel.length > 2 ? rel[1] : undefined;
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
      if (from === 'studies') {
        const own = studyOf(file, dir);
        const other = studyOf(targetFile, dir);
        if (other === own) continue;
        if (other !== undefined) {
          problems.push(`${relative(root, file)}: the study "${own}" may not import the study "${other}" (${spec})`);
          continue;
        }
        const isRoot = targetFile === join(dir, 'index.ts');
        if (
          isRoot &&
          !relative(join(dir, 'studies', own), file)
            .split(sep)
            .includes('commands')
        ) {
          problems.push(
            `${relative(root, file)}: only a study's commands/ may import the root entry (${spec}); use the layer entry points`,
          );
          continue;
        }
      }
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

// The cycle check: fails when files under src/ import each other in a circle (a imports b
// imports a, or longer), type-only imports and re-exports included; `import()` is not counted
// (a lazy load, the way to reach a module whose imports lead back). A cycle that has to stay is
// listed in KNOWN_CYCLES with its reason.

/** Cycles allowed to stay: the files in the circle (paths under src/), and why it cannot be broken. */
export const KNOWN_CYCLES = [];

/** The relative static imports and re-exports of each .ts file under `dir`, as file paths. */
function importGraph(dir) {
  const graph = new Map();
  for (const file of walk(dir)) {
    const text = readFileSync(file, 'utf8');
    const targets = new Set();
    for (const m of text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g)) {
      if (!m[1].startsWith('.')) continue;
      const target = resolve(dirname(file), m[1]).replace(/\.js$/, '.ts');
      targets.add(target);
    }
    graph.set(file, targets);
  }
  for (const [file, targets] of graph) graph.set(file, [...targets].filter((t) => graph.has(t)).sort());
  return graph;
}

/** The strongly connected components of more than one file, or of a file importing itself (Tarjan). */
function circles(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    index.set(v, index.size);
    low.set(v, index.get(v));
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v).includes(v)) found.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** One circle through a component, from its first file back to it (shortest, by breadth-first search). */
function circleThrough(graph, component) {
  const members = new Set(component);
  const start = component[0];
  const previous = new Map();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of graph.get(v)) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(previous.get(path[0]));
        return [...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return component;
}

export function checkCycles(dir = src, known = KNOWN_CYCLES) {
  const graph = importGraph(dir);
  const name = (file) => relative(dir, file).split(sep).join('/');
  const key = (files) => [...files].sort().join(' ');
  const allowed = new Set(known.map((k) => key(k.files)));
  const problems = [];
  const seen = new Set();
  for (const component of circles(graph)) {
    const files = component.map(name);
    seen.add(key(files));
    if (allowed.has(key(files))) continue;
    problems.push(`import cycle: ${circleThrough(graph, component).map(name).join(' -> ')} (move what they share into a file of its own)`);
  }
  for (const k of known) {
    if (!seen.has(key(k.files))) problems.push(`KNOWN_CYCLES lists ${k.files.join(', ')}, no longer a cycle: remove it`);
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = checkCycles(process.argv[2] ? resolve(process.argv[2]) : src);
  if (problems.length) {
    console.error(`cycle check failed:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log('cycle check: ok');
}
