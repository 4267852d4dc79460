// The `mindscope` command serves zod's locale index lazily (src/cli/lazy-zod-locales.ts): a
// command that loads the record schemas loads English alone, and `z.locales` keeps every name,
// each giving what zod's own gives when called.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { lazyLocaleIndex } from '../src/cli/lazy-zod-locales.js';

const BIN = fileURLToPath(new URL('../bin/mindscope.js', import.meta.url));
const HOOK = fileURLToPath(new URL('../dist/cli/lazy-zod-locales.js', import.meta.url));
const require = createRequire(import.meta.url);
const ZOD_INDEX = require.resolve('zod');
const LOCALE_INDEX = join(ZOD_INDEX, '..', 'v4', 'locales', 'index.js');
const dir = mkdtempSync(join(tmpdir(), 'mindscope-zod-locales-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a script prints about zod's locales, run with the lazy index or without. */
function localesSeen(lazy: boolean): string {
  const script = join(dir, `seen-${lazy}.mjs`);
  writeFileSync(
    script,
    `${lazy ? `(await import(${JSON.stringify(pathToFileURL(HOOK).href)})).registerLazyZodLocales();\n` : ''}` +
      `const { z } = await import(${JSON.stringify(pathToFileURL(ZOD_INDEX).href)});
const out = { names: Object.keys(z.locales).sort(), messages: [] };
const schema = z.object({ a: z.string().min(3), b: z.number(), c: z.enum(['x', 'y']) });
for (const name of ['fr', 'de', 'ja', 'en']) {
  z.config(z.locales[name]());
  out.messages.push(schema.safeParse({ a: 'x', b: 'no', c: 'z' }).error.issues.map((i) => i.message));
}
console.log(JSON.stringify(out));
`,
  );
  const r = spawnSync(process.execPath, [script], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe("zod's locales, loaded when used", () => {
  it("the lazy index has every name of zod's, and each locale gives the same messages", () => {
    const lazy = localesSeen(true);
    expect(JSON.parse(lazy).names.length).toBeGreaterThan(40);
    expect(lazy).toBe(localesSeen(false));
  });

  it("zod's index becomes one lazy export a locale; a source of another form is left as it is", () => {
    const source = lazyLocaleIndex(readFileSync(LOCALE_INDEX, 'utf8'));
    expect(source).toBeDefined();
    expect(source).toContain('export const en = lazy("./en.js");');
    expect(lazyLocaleIndex('export { default as en } from "./en.js";\nexport * from "./other.js";\n')).toBeUndefined();
    expect(lazyLocaleIndex('')).toBeUndefined();
  });

  it('an export loads the English locale and no other', () => {
    const register = join(dir, 'register.mjs');
    writeFileSync(
      register,
      "import { registerHooks } from 'node:module'; registerHooks({ resolve(s, c, next) { const r = next(s, c); if (r.url.startsWith('file:')) process.stderr.write('LOADED ' + r.url + '\\n'); return r; } });",
    );
    const db = join(dir, 'runs.db');
    const run = spawnSync(
      process.execPath,
      [BIN, 'run', 'generated-tom', '--limit', '2', '--trials', '1', '--model', 'agent:oracle', '--db', db, '--run-id', 'r', '--quiet'],
      { encoding: 'utf8' },
    );
    expect(run.status, run.stderr).toBe(0);
    const r = spawnSync(
      process.execPath,
      ['--import', register, BIN, 'export', 'inspect', '--db', db, '--run-id', 'r', '--out', join(dir, 'logs')],
      {
        encoding: 'utf8',
      },
    );
    expect(r.status, r.stderr).toBe(0);
    const locales = [
      ...new Set(
        r.stderr
          .split('\n')
          .filter((l) => l.startsWith('LOADED ') && l.includes('/zod/v4/locales/'))
          .map((l) => l.slice(l.lastIndexOf('/') + 1)),
      ),
    ].sort();
    expect(locales).toEqual(['en.js', 'index.js']);
  });
});
