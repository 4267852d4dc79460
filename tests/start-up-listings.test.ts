// `mindscope suites` and `mindscope data list` print what mindscope ships without loading it:
// the suites from the plugins' manifests (suiteSummaries) and the kernel's listing, the datasets
// from the shipped manifest read as it is. What they print must be what the loaded registry and
// the schema-checked manifest say, and the modules they load must be the help's and their own.

import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { definePlugin } from '../src/app/index.js';
import { builtinSuiteListing } from '../src/builtin-studies.js';
import { listDatasets as lightListDatasets } from '../src/datasets.js';
import { createRegistry } from '../src/index.js';
import { KERNEL_SUITES, listDatasets, readManifest } from '../src/suites/index.js';

const root = join(import.meta.dirname, '..');

/** The modules (file URLs) a CLI command resolves, in order, from a resolve hook in the child. */
function modulesLoadedBy(args: string[]): string[] {
  const hook = `data:text/javascript,import { registerHooks } from "node:module"; const seen = []; registerHooks({ resolve(s, c, next) { const r = next(s, c); seen.push(r.url); return r; } }); process.on("exit", () => process.stderr.write("\\nloaded=" + JSON.stringify(seen) + "\\n"));`;
  const r = spawnSync(process.execPath, ['--import', hook, join(root, 'bin', 'mindscope.js'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, MINDSCOPE_CACHE: mkdtempSync(join(tmpdir(), 'mindscope-listings-')) },
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stderr.split('loaded=').at(-1)!) as string[];
}

/** A module's path inside the package (dist/... or node_modules/<package>), or the URL for node: builtins. */
const inPackage = (url: string) =>
  url.startsWith('node:') ? url : (/\/(dist\/.*)$/.exec(url)?.[1] ?? /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? url);

describe('listings printed at start-up', () => {
  it('the suites listing from the manifests is what a registry of the built-in plugins lists', () => {
    const loaded = createRegistry()
      .suites()
      .map((s) => ({ id: s.id, protocol: s.protocol, describe: s.describe, needsData: s.needsData }));
    expect(builtinSuiteListing()).toEqual(loaded);
    expect(loaded.map((s) => s.id)).toEqual(expect.arrayContaining(['tombench', 'generated-enacttom', 'mcq', 'generated-tom']));
  });

  it("a plugin whose suiteSummaries differ from its suite's own is refused", () => {
    const [generated] = KERNEL_SUITES.filter((s) => s.id === 'generated-tom');
    const suite = { ...generated!, id: 'mine' };
    expect(() =>
      definePlugin({ name: 'p', suites: [suite], suiteSummaries: { mine: { describe: 'something else', needsData: false } } }),
    ).toThrow(/plugin p: suiteSummaries says of mine what the suite does not/);
    expect(() =>
      definePlugin({ name: 'p', suites: [suite], suiteSummaries: { mine: { describe: suite.describe, needsData: false } } }),
    ).not.toThrow();
  });

  it('the datasets listing read without the schema is the schema-checked manifest’s', () => {
    const env = { MINDSCOPE_CACHE: mkdtempSync(join(tmpdir(), 'mindscope-listings-')) };
    const checked = listDatasets({ env, manifest: readManifest() });
    expect(lightListDatasets({ env })).toEqual(checked);
    expect(checked.length).toBeGreaterThan(5);
  });

  it('suites and data list load the modules --help loads and their own, none of the library', () => {
    const help = new Set(modulesLoadedBy(['--help']).map(inPackage));
    for (const args of [['suites'], ['data', 'list']]) {
      const extra = [...new Set(modulesLoadedBy(args).map(inPackage))].filter((m) => !help.has(m));
      expect(extra.length, `mindscope ${args.join(' ')} loads ${extra.join(', ')}`).toBeLessThan(12);
      for (const m of extra)
        expect(m, `mindscope ${args.join(' ')} loads ${m}`).toMatch(
          /^(node:.*|dist\/cli\/.*|dist\/datasets\.js|dist\/suites\/data\/(cache|dataset-status)\.js|dist\/core\/(files|json-text|user-cache)\.js)$/,
        );
    }
  });
});
