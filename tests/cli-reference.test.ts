// docs/reference/cli.md is generated from the command definitions (npm run docs:cli); this checks
// that the page in the repository is what the generator makes from the built CLI, so that a
// changed command, option, description or default cannot leave the reference behind.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..');

describe('the command-line reference', () => {
  it('docs/reference/cli.md is what scripts/gen-cli-reference.mjs makes from the built CLI', async () => {
    const { renderCliReference } = (await import(pathToFileURL(join(ROOT, 'scripts', 'gen-cli-reference.mjs')).href)) as {
      renderCliReference: () => Promise<string>;
    };
    const made = await renderCliReference();
    const page = readFileSync(join(ROOT, 'docs', 'reference', 'cli.md'), 'utf8');
    expect(page, 'docs/reference/cli.md is out of date: run "npm run docs:cli" and commit the page').toBe(made);
    for (const command of ['## run', '### data pull', '### irt calibrate', '### analyze dialtom', '## view'])
      expect(made).toContain(`\n${command}\n`);
    expect(made).toContain('| `--db <path>` | store: a SQLite file or postgres:// URL | `"mindscope.db"` |');
  });
});
