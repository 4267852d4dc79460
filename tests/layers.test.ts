// The layer check fails when a lower layer imports an upper one, and passes on the tree as it is.

import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { ALLOWED, checkLayers } from '../scripts/check-layers.mjs';

describe('layer check', () => {
  it('passes on src/', () => {
    expect(checkLayers()).toEqual([]);
  });

  it('catches a lower layer importing an upper one, and the CLI going around the public API', () => {
    const src = mkdtempSync(join(tmpdir(), 'mindscope-layers-'));
    for (const d of ['core', 'store', 'cli', 'runner']) mkdirSync(join(src, d));
    writeFileSync(join(src, 'index.ts'), "export * from './core/a.js';\n");
    writeFileSync(join(src, 'core', 'a.ts'), "import { x } from '../store/b.js';\nexport const a = x;\n");
    writeFileSync(join(src, 'store', 'b.ts'), "import { a } from '../core/a.js';\nexport const x = 1;\n");
    writeFileSync(join(src, 'runner', 'r.ts'), "export const r = await import('../cli/c.js');\n");
    writeFileSync(join(src, 'cli', 'c.ts'), "import { x } from '../store/b.js';\nimport * as api from '../index.js';\n");
    const problems: string[] = checkLayers(src);
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/core\/a\.ts: layer "core" may not import layer "store"/);
    expect(problems.join('\n')).toMatch(/runner\/r\.ts: layer "runner" may not import layer "cli"/);
    expect(problems.join('\n')).toMatch(/cli\/c\.ts: layer "cli" may import only the public entry points, not ..\/store\/b\.js/);
  });

  it('keeps each study on the public entry points and its own folder, away from other studies', () => {
    const src = mkdtempSync(join(tmpdir(), 'mindscope-layers-'));
    for (const d of ['core', 'app', 'studies/a/commands', 'studies/b']) mkdirSync(join(src, d), { recursive: true });
    writeFileSync(join(src, 'index.ts'), "export * from './core/index.js';\n");
    writeFileSync(join(src, 'core', 'index.ts'), 'export const c = 1;\n');
    writeFileSync(join(src, 'core', 'deep.ts'), 'export const d = 1;\n');
    writeFileSync(join(src, 'app', 'index.ts'), "import { a } from '../studies/a/index.js';\nexport const x = a;\n");
    writeFileSync(join(src, 'studies', 'b', 'index.ts'), 'export const b = 1;\n');
    writeFileSync(
      join(src, 'studies', 'a', 'index.ts'),
      [
        "import { c } from '../../core/index.js';", // a public entry: fine
        "import { d } from '../../core/deep.js';", // a kernel file behind no entry
        "import { b } from '../b/index.js';", // another study
        "import * as root from '../../index.js';", // the root entry outside commands/
        "import { own } from './own.js';", // its own folder: fine
        'export const a = c + d + b + own + Object.keys(root).length;',
      ].join('\n'),
    );
    writeFileSync(join(src, 'studies', 'a', 'own.ts'), 'export const own = 1;\n');
    writeFileSync(join(src, 'studies', 'a', 'commands', 'cmd.ts'), "import * as root from '../../../index.js';\nexport const n = root;\n");
    const problems = (checkLayers(src) as string[]).join('\n');
    expect(problems).toMatch(/studies\/a\/index\.ts: layer "studies" may import only the public entry points, not ..\/..\/core\/deep\.js/);
    expect(problems).toMatch(/studies\/a\/index\.ts: the study "a" may not import the study "b"/);
    expect(problems).toMatch(/studies\/a\/index\.ts: only a study's commands\/ may import the root entry/);
    expect(problems).toMatch(/app\/index\.ts: layer "app" may not import layer "studies"/);
    expect(problems).not.toMatch(/own\.js|commands\/cmd\.ts|core\/index\.js/);
    expect(problems.split('\n')).toHaveLength(4);
  });

  it('agrees with the layer table of docs/architecture.md', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', 'docs', 'architecture.md'), 'utf8');
    const table = doc.split('<!-- layer-table:start -->')[1]!.split('<!-- layer-table:end -->')[0]!;
    const rows = Object.fromEntries([...table.matchAll(/^\| `([a-z]+)` \| ([^|]+) \|$/gm)].map((m) => [m[1]!, m[2]!.trim()]));
    const allowed = ALLOWED as Record<string, string[]>;
    expect(Object.keys(rows)).toEqual(Object.keys(allowed));
    const others = Object.keys(allowed).filter((l) => l !== 'index' && l !== 'cli' && l !== 'view' && l !== 'studies');
    for (const [layer, may] of Object.entries(allowed)) {
      const said = rows[layer]!;
      if (may.length === 0) expect(said, layer).toBe('(nothing)');
      else if (may.includes('public')) expect(said, layer).toMatch(/^public entry points only/);
      else if (layer === 'index') {
        expect(said).toBe('everything');
        expect([...may].sort()).toEqual([...others, 'studies'].sort());
      } else expect(said, layer).toBe(may.join(', '));
    }
  });
});
