// The cycle check (scripts/check-layers.mjs): passes on the tree as it is, and names the files
// of a new import circle, type-only imports and re-exports included, lazy import() not.

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { checkCycles } from '../scripts/check-layers.mjs';

describe('cycle check', () => {
  it('passes on src/', () => {
    expect(checkCycles()).toEqual([]);
  });

  it('catches a circle of two and of three files, not a lazy import, and an allowed cycle that is gone', () => {
    const src = mkdtempSync(join(tmpdir(), 'mindscope-cycles-'));
    mkdirSync(join(src, 'report'));
    writeFileSync(join(src, 'report', 'page.ts'), "import { escape } from './section.js';\nexport const page = escape;\n");
    writeFileSync(join(src, 'report', 'section.ts'), "import type { Page } from './page.js';\nexport const escape = 1;\n");
    writeFileSync(join(src, 'a.ts'), "export { b } from './b.js';\n");
    writeFileSync(join(src, 'b.ts'), "import { c } from './c.js';\nexport const b = c;\n");
    writeFileSync(join(src, 'c.ts'), "import { a } from './a.js';\nexport const c = a;\n");
    writeFileSync(join(src, 'lazy.ts'), "import { later } from './later.js';\nexport const lazy = later;\n");
    writeFileSync(join(src, 'later.ts'), "export const later = () => import('./lazy.js');\n");
    const problems: string[] = checkCycles(src, [{ files: ['x.ts', 'y.ts'], reason: 'gone' }]);
    expect(problems).toEqual([
      'import cycle: a.ts -> b.ts -> c.ts -> a.ts (move what they share into a file of its own)',
      'import cycle: report/page.ts -> report/section.ts -> report/page.ts (move what they share into a file of its own)',
      'KNOWN_CYCLES lists x.ts, y.ts, no longer a cycle: remove it',
    ]);
    expect(checkCycles(src, [{ files: ['report/section.ts', 'report/page.ts'], reason: 'kept' }])).toHaveLength(1);
  });
});
