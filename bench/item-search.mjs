// bench/item-search: the viewer's text search over a run's items in a SQLite store (deflated
// bodies, read through the store's SQL function): one page and the match count, four searches
// in a row on one connection, as a user typing in the viewer makes them. The first search
// inflates every item; later ones find them remembered.
//
//   npm run build && node bench/item-search.mjs [--items 5000] [--db FILE] [--smoke]
//
// The store (generated-tom items x 2 reference agents) is built once and kept. --smoke: 100
// items in a store made afresh and removed, a check that the bench runs; it records nothing.

import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { evaluate, openStore } from '../dist/index.js';
import { openStoreForReading } from '../dist/store/index.js';
import { recordPerformance } from './performance-table.mjs';

const { values } = parseArgs({
  options: { items: { type: 'string' }, db: { type: 'string' }, smoke: { type: 'boolean', default: false } },
});
const items = Number(values.items ?? (values.smoke ? 100 : 5000));
const scratch = values.smoke ? mkdtempSync(join(tmpdir(), 'mindscope-bench-item-search-')) : undefined;
if (!scratch) mkdirSync('bench/out', { recursive: true });
const db = values.db ?? join(scratch ?? 'bench/out', `item-search-${items}.db`);
if (!existsSync(db)) {
  const store = await openStore(db);
  await evaluate(
    { suites: ['generated-tom'], models: ['agent:oracle', 'agent:random'], limit: items },
    { store, runId: 'bench', concurrency: 64 },
  );
  await store.close();
}
const store = await openStoreForReading(db);
const browser = store.browser();
console.log(`bench/item-search: ${items} items, ${2 * items} trials (${db})`);
const rows = [];
for (const [k, search] of ['kitchen', 'basket', 'no-such-text', 'kitchen'].entries()) {
  const t0 = performance.now();
  const page = await browser.list({ runId: 'bench', search, limit: 50 });
  const t1 = performance.now();
  const n = await browser.count({ runId: 'bench', search });
  const t2 = performance.now();
  console.log(`  "${search}": first page ${(t1 - t0).toFixed(0)} ms (${page.length} rows), count ${(t2 - t1).toFixed(0)} ms (${n} trials)`);
  rows.push({
    figure: `search ${k + 1} of 4 over ${items.toLocaleString('en')} items ("${search}"${k === 0 ? ', inflating every item' : ''}): first page and match count`,
    value: `${(t1 - t0).toFixed(0)} ms + ${(t2 - t1).toFixed(0)} ms (${n} trials)`,
  });
}
await store.close();
if (scratch) rmSync(scratch, { recursive: true, force: true });
recordPerformance('item-search', rows);
