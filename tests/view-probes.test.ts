// The probe panel in the viewer, in Chromium: an item with its variants side by side, the
// answer on each, from a probe run of the reference agents stored in SQLite.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startViewer, type Viewer } from '../src/view/index.js';
import { artifact, launchChromium } from './helpers/browser.js';
import { runCli } from './helpers/run-cli.js';

let viewer: Viewer;
let browser: Browser;
let page: Page;
const runs: Record<string, string> = {};

beforeAll(async () => {
  const db = join(mkdtempSync(join(tmpdir(), 'view-probes-')), 'p.db');
  for (const family of ['invariance', 'beliefs']) {
    const r = await runCli([
      'probe',
      '--db',
      db,
      '--family',
      family,
      '--limit',
      '3',
      '--count',
      '1',
      '--model',
      'agent:first-option',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    runs[family] = (JSON.parse(r.stdout) as { runs: Array<{ runId: string }> }).runs[0]!.runId;
  }
  viewer = await startViewer({ db });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await viewer?.close();
});

describe('the probe panel in Chromium', () => {
  it('shows an item with its variants side by side and the answer on each', async () => {
    await page.goto(`${viewer.url}#/trials/${runs.invariance}`);
    await page.locator('table.trials tbody tr').first().click();
    await page.locator('.probe table.probe-variants').waitFor();
    const variants = await page.locator('.probe th.probe-variant').allInnerTexts();
    expect(variants[0]).toBe('original');
    expect(variants).toContain('permutation-1');
    expect(variants.some((v) => v.startsWith('names-'))).toBe(true);
    expect(variants.some((v) => v.startsWith('paraphrase-'))).toBe(true);
    const answers = page.locator('.probe td.probe-answer');
    expect(await answers.count()).toBe(variants.length);
    // agent:first-option answers A on every variant; over the rotations the answer moves, so some are wrong.
    expect((await answers.allInnerTexts()).every((t) => t.startsWith('A. '))).toBe(true);
    expect(await page.locator('.probe td.probe-answer.bad').count()).toBeGreaterThan(0);
    const heading = await page.locator('.probe h3').textContent();
    expect(heading).toMatch(/^invariance probe of generated-tom\/s0-\d{4} · \d+ of \d+ variants right$/);
    await page.screenshot({ path: artifact('view-probe.png'), fullPage: true });
  });

  it('shows the tracked beliefs at each checkpoint and which were listed', async () => {
    await page.goto(`${viewer.url}#/trials/${runs.beliefs}`);
    await page.locator('table.trials tbody tr').first().click();
    await page.locator('.probe .probe-checkpoint').first().waitFor();
    expect(await page.locator('.probe .probe-checkpoint').count()).toBeGreaterThan(0);
    // agent:first-option lists no beliefs: every tracked one is missed.
    const cells = await page.locator('.probe .probe-checkpoint td.bad').allInnerTexts();
    expect(cells.length).toBeGreaterThan(0);
    expect(cells.every((c) => c === 'missed')).toBe(true);
  });
});
