// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright locators' innerText, not DOM nodes
// The viewer on a 100,000-trial store: first paint of the Trials view and the time a filter
// and a search take to show their first page, measured in Debian's Chromium.
//   node bench/view.mjs [--trials 100000] [--db FILE] [--smoke]   (npm run build first)
// --smoke: 400 trials in a store made afresh and removed, every step once: a check that the bench
// runs (seconds); it records nothing.
// The store is built through the real runner with reference agents (generated-tom items x 4
// subjects x replicates) and kept, so that a second run measures the viewer only.

import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium } from '../scripts/chromium.mjs';
import { evaluate, openStore } from '../dist/index.js';
import { openStoreForReading, trialBrowser } from '../dist/store/index.js';
import { startViewer } from '../dist/view/index.js';
import { recordPerformance } from './performance-table.mjs';

const { values } = parseArgs({
  options: { trials: { type: 'string' }, db: { type: 'string' }, smoke: { type: 'boolean', default: false } },
});
const smoke = values.smoke;
const target = Number(values.trials ?? (smoke ? 400 : 100000));
const subjects = ['agent:oracle', 'agent:random', 'agent:reality', 'agent:first-option'];
const replicates = 5;
const items = Math.ceil(target / subjects.length / replicates);
const scratch = smoke ? mkdtempSync(join(tmpdir(), 'mindscope-bench-view-')) : undefined;
if (!scratch) mkdirSync('bench/out', { recursive: true });
const db = values.db ?? join(scratch ?? 'bench/out', `view-${target}.db`);

if (!existsSync(db)) {
  const t0 = performance.now();
  const store = await openStore(db);
  await evaluate(
    { suites: ['generated-tom'], models: subjects, limit: items, trials: replicates },
    { store, runId: 'bench', concurrency: 64 },
  );
  await store.close();
  console.log(
    `built ${db}: ${items} items x ${subjects.length} subjects x ${replicates} replicates in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
}

const viewer = await startViewer({ db });
const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const ms = (t) => `${Math.round(t)} ms`;
const rows = [];

const t = performance.now();
await page.goto(`${viewer.url}#/trials/bench`);
await page.locator('table.trials tbody tr').first().waitFor();
const firstRows = performance.now() - t;
const paint = await page.evaluate(() => performance.getEntriesByType('paint').map((e) => [e.name, e.startTime]));
const total = await page.locator('.total').innerText();

async function timed(label, hashQuery) {
  const start = performance.now();
  await page.evaluate((h) => {
    location.hash = h;
  }, `#/trials/bench?${hashQuery}`);
  await page.waitForFunction((q) => document.body.dataset.trialsLoaded?.startsWith(q), hashQuery, { timeout: 120_000 });
  const shown = await page.locator('.total').innerText();
  const took = performance.now() - start;
  console.log(`${label.padEnd(44)} ${ms(took).padStart(8)}  (${shown})`);
  rows.push({ figure: `${label}, until its first page shows`, value: `${ms(took)} (${shown})` });
}

console.log(`store: ${total} in run bench (${db})`);
for (const [name, at] of paint) console.log(`${name.padEnd(44)} ${ms(at).padStart(8)}`);
console.log(`${'first page of trials shown'.padEnd(44)} ${ms(firstRows).padStart(8)}`);
for (const [name, at] of paint) rows.push({ figure: `${name}, Trials view of ${total}`, value: ms(at) });
rows.push({ figure: `first page of trials shown, ${total}`, value: ms(firstRows) });
await timed('filter: outcome=incorrect', 'outcome=incorrect');
await timed('filter: incorrect + category=belief', 'outcome=incorrect&category=belief');
await timed('sort by latency, descending', 'sort=latency&desc=1');
// A deep page by its cursor (as the pager's next gives it): the rows after row `deep`.
const deep = smoke ? 100 : 50_000;
const reading = await openStoreForReading(db);
let cursor;
// Pages hold at most 1,000 rows: walk to row `deep` a page at a time.
for (let row = 0; row < deep; row += 1000) {
  const page = await trialBrowser(reading).page({ runId: 'bench', limit: Math.min(1000, deep - row), after: cursor });
  cursor = page.next;
}
await reading.close();
await timed(`page ${deep / 50 + 1} (after row ${deep.toLocaleString('en')}, by cursor)`, `after=${cursor}`);
await timed('search replies for "Answer: B"', 'q=Answer%3A+B');
await browser.close();
await viewer.close();
if (scratch) rmSync(scratch, { recursive: true, force: true });
recordPerformance('view', rows);
