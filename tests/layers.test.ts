// The layer check fails when a lower layer imports an upper one, and passes on the tree as it is.

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { checkLayers } from '../scripts/check-layers.mjs';

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
});
