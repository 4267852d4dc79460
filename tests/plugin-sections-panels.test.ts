// A plugin from a config file adds a report section behind a flag (`report --tally-notes`), a
// section of its protocol, and a viewer panel drawn by its own script: the report shows the
// sections, the viewer (served and exported) draws the panel in Chromium.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentHash, type Item } from '../src/core/index.js';
import { loadConfig, openStore, pluginManifests, writeRunReport, type LoadedConfig } from '../src/index.js';
import { startViewer } from '../src/view/index.js';
import { launchChromium } from './helpers/browser.js';

const BIN = join(import.meta.dirname, '..', 'bin', 'mindscope.js');
const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });

// The plugin as a user would write it: one module, no build step; its panel script one browser module.
const PLUGIN = `
export default {
  name: 'tally',
  suiteProtocols: { tally: 'tally' },
  reportSections: [
    {
      title: 'Tally notes',
      flag: { name: 'tally-notes', help: 'add the notes on the tallies' },
      render: async (ctx) => '<p class="tally-notes">notes on ' + ctx.suites.join(', ') + '</p>',
    },
    {
      title: 'Tallies',
      protocols: ['tally'],
      render: async (ctx) => '<p class="tallies">' + [...ctx.protocols].join(', ') + ' in run ' + ctx.runId + '</p>',
    },
  ],
  viewerPanels: [
    {
      protocol: 'tally',
      record: (t) => ({ word: t.detail.word, letter: t.detail.letter, count: t.detail.count }),
      script: new URL('./tally-panel.js', import.meta.url),
    },
  ],
};
`;

const PANEL = `
export default function draw(element, data) {
  const p = document.createElement('p');
  p.className = 'tally-drawn';
  p.textContent = data.letter + ' occurs ' + data.count + ' times in ' + data.word;
  element.append(p);
}
`;

let dir: string;
let db: string;
let config: LoadedConfig;
let browser: Browser;

/** A run of one trial of the plugin's protocol, written through the store's interface. */
async function writeTallyRun(path: string): Promise<void> {
  const store = await openStore(path);
  try {
    const subject = { id: 's-counter', spec: 'agent:counter', settings: {} };
    const item: Item = {
      suite: 'tally',
      id: 'banana-a',
      category: 'control',
      payload: { word: 'banana', letter: 'a' },
      answer: '3',
      meta: {},
    };
    const hash = contentHash(item);
    await store.createRun({ id: 'tally-run', createdAt: new Date().toISOString(), config: {} });
    await store.upsertSubject(subject);
    await store.setPlan('tally-run', [{ subjectId: subject.id, suite: 'tally', planned: 1 }]);
    await store.putItems([{ hash, item }]);
    await store.recordDone(
      { runId: 'tally-run', subjectId: subject.id, suite: 'tally', itemId: item.id, replicate: 0 },
      hash,
      {
        transcript: { protocol: 'tally', calls: [], detail: { word: 'banana', letter: 'a', count: 3 } },
        score: { scorer: 'tally-exact', value: 1, detail: {} },
        usage: { inputTokens: 0, outputTokens: 0 },
        costUsd: 0,
        latencyMs: 0,
        cachedCalls: 0,
        totalCalls: 0,
      },
      1,
    );
    await store.flush();
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mindscope-plugin-panels-'));
  writeFileSync(join(dir, 'tally-plugin.mjs'), PLUGIN);
  writeFileSync(join(dir, 'tally-panel.js'), PANEL);
  writeFileSync(join(dir, 'tally.config.yaml'), 'plugins: [./tally-plugin.mjs]\n');
  db = join(dir, 'm.db');
  await writeTallyRun(db);
  config = await loadConfig(join(dir, 'tally.config.yaml'));
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe("a config's plugin in the report and the viewer", () => {
  it('adds its flag to report, shows its flagged section only with the flag and its protocol section always', () => {
    const help = cli(['report', '--help', '--config', join(dir, 'tally.config.yaml')]);
    expect(help.stdout).toMatch(/--tally-notes\s+add the notes on the tallies/);
    expect(help.stdout).toMatch(/--audit\s+add the psychometric audit/);
    const flagged = cli(['report', '--db', db, '--config', join(dir, 'tally.config.yaml'), '--out', join(dir, 'r1'), '--tally-notes']);
    expect(flagged.stderr).toBe('');
    const html = readFileSync(join(dir, 'r1', 'index.html'), 'utf8');
    expect(html).toContain('<h2>Tally notes</h2><p class="tally-notes">notes on tally</p>');
    expect(html).toContain('<h2>Tallies</h2><p class="tallies">tally in run tally-run</p>');
    expect(cli(['report', '--db', db, '--config', join(dir, 'tally.config.yaml'), '--out', join(dir, 'r2')]).status).toBe(0);
    const plain = readFileSync(join(dir, 'r2', 'index.html'), 'utf8');
    expect(plain).not.toContain('Tally notes');
    expect(plain).toContain('<h2>Tallies</h2>');
    // Without the config, report knows no such flag.
    expect(cli(['report', '--db', db, '--out', join(dir, 'r3'), '--tally-notes']).stderr).toMatch(/unknown option '--tally-notes'/);
  });

  it('writes the same sections through the library, and refuses a flag no section has', async () => {
    const store = await openStore(db);
    try {
      const manifests = pluginManifests(config.plugins);
      const path = await writeRunReport(store, 'tally-run', join(dir, 'r4'), { manifests, flags: { 'tally-notes': true } });
      expect(readFileSync(path, 'utf8')).toContain('<p class="tally-notes">notes on tally</p>');
      await expect(writeRunReport(store, 'tally-run', join(dir, 'r5'), { manifests, flags: { nonsense: true } })).rejects.toThrow(
        /no report section has the flag "nonsense"/,
      );
    } finally {
      await store.close();
    }
  });

  it("draws the trial with the plugin's panel script in the served viewer and in a static export", async () => {
    const viewer = await startViewer({ db, plugins: config.plugins });
    const page = await browser.newPage();
    try {
      const trial = await (
        await fetch(`${viewer.url}api/runs/tally-run/trial?subject=s-counter&suite=tally&item=banana-a&replicate=0`)
      ).json();
      expect(trial.record).toEqual({
        protocol: 'tally',
        data: { word: 'banana', letter: 'a', count: 3 },
        raw: false,
        script: 'plugin-panels/0.js',
      });
      expect(await (await fetch(`${viewer.url}plugin-panels/0.js`)).text()).toBe(PANEL);
      expect((await fetch(`${viewer.url}plugin-panels/1.js`)).status).toBe(404);
      await page.goto(`${viewer.url}#/trial/tally-run?subject=s-counter&suite=tally&item=banana-a&replicate=0`);
      await page.locator('.plugin-panel .tally-drawn').waitFor();
      expect(await page.locator('.plugin-panel .tally-drawn').textContent()).toBe('a occurs 3 times in banana');
    } finally {
      await viewer.close();
    }
    // The export of `view --config`: the script copied beside the page, drawn from file:// too.
    const out = join(dir, 'export');
    const r = cli(['view', '--db', db, '--config', join(dir, 'tally.config.yaml'), '--export', out]);
    expect(r.stderr).toBe('');
    expect(readFileSync(join(out, 'plugin-panels', '0.js'), 'utf8')).toBe(PANEL);
    await page.goto(
      `${pathToFileURL(join(out, 'index.html')).href}#/trial/tally-run?subject=s-counter&suite=tally&item=banana-a&replicate=0`,
    );
    await page.locator('.plugin-panel .tally-drawn').waitFor();
    expect(await page.locator('.plugin-panel .tally-drawn').textContent()).toBe('a occurs 3 times in banana');
    await page.close();
  });

  it('shows a record no panel draws as JSON, and names a panel script that is not there', async () => {
    const viewer = await startViewer({ db });
    try {
      const trial = await (
        await fetch(`${viewer.url}api/runs/tally-run/trial?subject=s-counter&suite=tally&item=banana-a&replicate=0`)
      ).json();
      expect(trial.record).toEqual({ protocol: 'tally', data: { word: 'banana', letter: 'a', count: 3 }, raw: true });
    } finally {
      await viewer.close();
    }
    const missing = { name: 'lost', viewerPanels: [{ protocol: 'lost', script: join(dir, 'nowhere.js') }] };
    await expect(startViewer({ db, plugins: [missing] })).rejects.toThrow(
      /plugin lost: the viewer panel script of "lost", .*nowhere\.js, does not exist/,
    );
  });
});
