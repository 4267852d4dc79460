// biome-ignore-all lint/performance/useDomNodeTextContent: these are Playwright locators' innerText (rendered text), not DOM nodes
// `mindscope view --db postgres://...` while a worker-style process writes the same database:
// the real PostgreSQL server (skipped, saying so, when none answers) and Debian's Chromium.

import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';
import { startViewer } from '../src/view/index.js';
import { artifact, launchChromium } from './helpers/browser.js';
import { evaluate } from './helpers/evaluate.js';
import { writeHostileRun } from './helpers/hostile-run.js';
import { createTestSchema, dropTestDatabases, pgAvailable, pgSkipNote } from './helpers/postgres.js';

let browser: Browser | undefined;
afterAll(async () => {
  await browser?.close();
  if (pgAvailable) await dropTestDatabases();
});

describe('mindscope view on PostgreSQL', () => {
  it.skipIf(!pgAvailable)(`browses a PostgreSQL store and refreshes as trials land${pgSkipNote}`, async () => {
    const url = await createTestSchema();
    const writer = await openStore(url);
    await evaluate({ store: writer, suites: ['generated-tom'], limit: 20, models: ['agent:oracle', 'agent:random'], runId: 'pg' });
    const viewer = await startViewer({ db: url });
    try {
      browser = await launchChromium();
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(`${viewer.url}#/trials/pg`);
      await page.locator('table.trials tbody tr').first().waitFor();
      expect(await page.locator('.total').innerText()).toBe('40 trials');
      // The filters' SQL in PostgreSQL's dialect: no judge panel here, so no split panel; no parse failure.
      await page.goto(`${viewer.url}#/trials/pg?disagree=no&parse=no&label=belief-1&sort=subject`);
      await page.waitForFunction(() => document.body.dataset.trialsLoaded?.startsWith('disagree=no'));
      const belief1 = Number((await page.locator('.total').innerText()).split(' ')[0]);
      expect(belief1).toBeGreaterThan(0);
      expect(new Set(await page.locator('table.trials tbody td.label').allInnerTexts())).toEqual(new Set(['belief-1']));
      await page.goto(`${viewer.url}#/trials/pg?disagree=yes`);
      await page.waitForFunction(() => document.body.dataset.trialsLoaded?.startsWith('disagree=yes'));
      expect(await page.locator('.total').innerText()).toBe('0 trials');
      await page.goto(`${viewer.url}#/trials/pg?q=Answer`);
      await page.waitForFunction(() => document.body.dataset.trialsLoaded?.startsWith('q=Answer'));
      expect(await page.locator('.total').innerText()).toBe('40 trials');
      await page.goto(`${viewer.url}#/trials/pg`);
      await page.locator('table.trials tbody tr').first().waitFor();
      await page.selectOption('select[name=outcome]', 'incorrect');
      await page.waitForFunction(() => document.body.dataset.trialsLoaded?.includes('outcome=incorrect'));
      const incorrect = Number((await page.locator('.total').innerText()).split(' ')[0]);
      expect(incorrect).toBeGreaterThan(0);
      expect(await page.locator('table.trials tbody td:first-child').allInnerTexts()).toEqual(
        Array(Math.min(incorrect, 50)).fill('agent:random'),
      );
      await page.locator('table.trials tbody tr').first().click();
      await page.locator('.reply-text').first().waitFor();
      await page.screenshot({ path: artifact('view-postgres-transcript.png') });
      // Another connection writes a run meanwhile (as a worker would): the Runs view picks it up.
      await page.goto(`${viewer.url}#/runs`);
      await page.locator('.run-card').first().waitFor();
      expect(await page.locator('.run-card').count()).toBe(1);
      await writeHostileRun(writer, 'live');
      await page.waitForFunction(() => document.querySelectorAll('.run-card').length === 2, undefined, { timeout: 10_000 });
      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    } finally {
      await viewer.close();
      await writer.close();
    }
  });
});
