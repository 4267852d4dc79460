// The worked example of a study outside mindscope's source (examples/toy-study): copied into a
// project of its own where mindscope is installed as `npm i <folder>` installs it (a link in
// node_modules), then run as its README says: the run, its command, its report section, and its
// panel drawn in the viewer in Chromium.

import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';
import { startViewer } from '../src/view/index.js';
import { launchChromium } from './helpers/browser.js';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'mindscope.js');

let project: string;
const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: project });

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'mindscope-example-study-'));
  cpSync(join(ROOT, 'examples', 'toy-study'), project, { recursive: true });
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(ROOT, join(project, 'node_modules', 'mindscope'), 'dir');
  symlinkSync(join(ROOT, 'node_modules', 'zod'), join(project, 'node_modules', 'zod'), 'dir');
});

describe('the example study', () => {
  let runId: string;

  it('runs from its config: each story for each of two subjects', () => {
    const run = cli(['run', '--config', 'toy.config.yaml', '--db', 'toy.db', '--json']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const summary = JSON.parse(run.stdout);
    runId = summary.runId;
    // 8 stories x 2 subjects.
    expect(summary).toMatchObject({ done: 16, failed: 0 });
    expect(cli(['suites', '--config', 'toy.config.yaml']).stdout).toMatch(/sally-anne\s+sally-anne\s+toy: change-of-location/);
  });

  it('adds its command to the help, and the command prints its table', () => {
    expect(cli(['--help', '--config', 'toy.config.yaml']).stdout).toMatch(
      /sally-anne \[options\]\s+toy study: accuracy on true- and false-belief/,
    );
    expect(cli(['--help']).stdout).not.toMatch(/sally-anne/);
    const r = cli(['sally-anne', '--config', 'toy.config.yaml', '--db', 'toy.db', '--json']);
    expect(r.stderr).toBe('');
    const rows: Array<{ subject: string; condition: string; accuracy: number; items: number; lower: number; upper: number }> = JSON.parse(
      r.stdout,
    );
    const oracle = rows.filter((x) => x.subject === 'agent:oracle');
    expect(oracle.map((x) => [x.condition, x.accuracy, x.items])).toEqual([
      ['false-belief', 1, 4],
      ['true-belief', 1, 4],
    ]);
    for (const x of rows) {
      expect(x.lower).toBeLessThanOrEqual(x.accuracy);
      expect(x.upper).toBeGreaterThanOrEqual(x.accuracy);
    }
  });

  it('adds its section to the report', () => {
    const r = cli(['report', '--config', 'toy.config.yaml', '--db', 'toy.db', '--out', 'report']);
    expect(r.status, r.stderr).toBe(0);
    const html = readFileSync(join(project, 'report', 'index.html'), 'utf8');
    expect(html).toContain('<h2>Toy study: false belief</h2>');
    expect(html).toMatch(/<tr><td>agent:oracle<\/td><td>false-belief<\/td><td>1\.000<\/td>/);
  });

  it('draws its trials with its panel in the viewer', async () => {
    const { loadConfig } = await import('../src/index.js');
    const config = await loadConfig(join(project, 'toy.config.yaml'));
    const store = await openStore(join(project, 'toy.db'));
    const oracle = (await store.runSubjects(runId)).find((s) => s.spec === 'agent:oracle')!;
    await store.close();
    const viewer = await startViewer({ db: join(project, 'toy.db'), plugins: config.plugins });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      // s1 is a false-belief story (odd items): the protagonist was away.
      await page.goto(`${viewer.url}#/trial/${runId}?subject=${oracle.id}&suite=sally-anne&item=s1&replicate=0`);
      await page.locator('.plugin-panel p').waitFor();
      expect(await page.locator('.plugin-panel p').textContent()).toBe('false belief: the protagonist was away');
      expect(await page.locator('.plugin-panel .sally-anne-place').allTextContents()).toContainEqual(expect.stringMatching(/looked here/));
    } finally {
      await browser.close();
      await viewer.close();
    }
  });
});
