// The viewer's trial list read page by page with cursors (keyset paging), on both backends:
// for every sort, either direction, any page size and a filter, walking the `next` cursors from
// the first page gives the list read whole, each row once and in order; walking the `prev`
// cursors back from the last page gives the same pages again; and a cursor that is not one is
// refused, naming the parameter.

import fc from 'fast-check';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';
import type { Item, TrialKey, TrialOutcome } from '../src/core/index.js';
import { trialBrowser, type Store, type TrialListRow, type TrialQuery, type TrialSort } from '../src/store/index.js';
import { createTestSchema, dropTestDatabases, pgAvailable, pgSkipNote } from './helpers/postgres.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-trial-paging-'));
afterAll(() => dropTestDatabases());

const SORTS: TrialSort[] = ['order', 'item', 'subject', 'score', 'latency', 'cost', 'finished'];
const ITEMS = 7;

const item = (i: number): Item => ({
  suite: i % 2 ? 'toy-b' : 'toy-a',
  id: `i${i}`,
  category: i % 3 ? 'belief' : 'control',
  payload: { context: `Story ${i}.` },
  answer: 'A',
  meta: { originalLabel: 'reality' },
});

/** Scores, latencies and costs with ties (so the trial id decides between rows). */
const outcome = (n: number): TrialOutcome => ({
  transcript: { protocol: 'toy', calls: [], detail: { n } },
  score: { scorer: 'mcq-exact', value: [0, 1, 0.5][n % 3]!, detail: { parseFailed: n % 5 === 0 } },
  usage: { inputTokens: 10, outputTokens: 2 },
  costUsd: (n % 4) * 0.001,
  latencyMs: (n % 6) * 10,
  cachedCalls: 0,
  totalCalls: 1,
});

async function fill(store: Store): Promise<void> {
  const items = Array.from({ length: ITEMS }, (_, i) => item(i));
  await store.putItems(items.map((it, i) => ({ hash: `h${i}`, item: it })));
  await store.createRun({ id: 'r', createdAt: '2026-01-01T00:00:00.000Z', config: {} });
  await store.upsertSubject({ id: 's1', spec: 'agent:oracle', settings: {} });
  await store.upsertSubject({ id: 's2', spec: 'agent:random', settings: {} });
  const writes: Array<Promise<void>> = [];
  let n = 0;
  for (const subjectId of ['s2', 's1'])
    for (let replicate = 0; replicate < 3; replicate++)
      for (let i = 0; i < ITEMS; i++) {
        const k: TrialKey = { runId: 'r', subjectId, suite: item(i).suite, itemId: `i${i}`, replicate };
        // Every ninth trial failed: it has no score (the score sort puts it first).
        if (n % 9 === 4) writes.push(store.recordFailed(k, `h${i}`, 'HTTP 500', 3));
        else writes.push(store.recordDone(k, `h${i}`, outcome(n), 1));
        n++;
      }
  await Promise.all(writes);
}

const key = (r: TrialListRow) => `${r.subjectId}/${r.suite}/${r.itemId}#${r.replicate}`;

interface Backend {
  name: string;
  skip: boolean;
  fresh(): Promise<string>;
  runs: number;
}
const backends: Backend[] = [
  { name: 'SQLite', skip: false, fresh: async () => join(mkdtempSync(join(dir, 'db-')), 'store.db'), runs: 40 },
  { name: `PostgreSQL${pgSkipNote}`, skip: !pgAvailable, fresh: () => createTestSchema(), runs: 15 },
];

for (const b of backends) {
  describe.skipIf(b.skip)(`the trial list read by cursor on ${b.name}`, () => {
    it('walks forward and back to the same rows as the list read whole, for every sort and page size', async () => {
      const store = await openStore(await b.fresh());
      try {
        await fill(store);
        const browser = trialBrowser(store);
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom(...SORTS),
            fc.boolean(),
            fc.integer({ min: 1, max: 12 }),
            fc.constantFrom<Partial<TrialQuery>>({}, { outcome: 'incorrect' }, { subjectId: 's1' }, { suite: 'toy-b' }),
            async (sort, descending, limit, filter) => {
              const q: TrialQuery = { runId: 'r', sort, descending, ...filter };
              const whole = (await browser.list({ ...q, limit: 1000 })).map(key);
              expect(whole).toHaveLength(await browser.count(q));
              const pages: string[][] = [];
              let page = await browser.page({ ...q, limit });
              expect(page.prev).toBeNull();
              pages.push(page.rows.map(key));
              while (page.next !== null) {
                page = await browser.page({ ...q, limit, after: page.next });
                pages.push(page.rows.map(key));
                expect(pages.length).toBeLessThanOrEqual(whole.length + 1);
              }
              expect(pages.flat()).toEqual(whole);
              expect(pages.slice(0, -1).every((p) => p.length === limit)).toBe(true);
              // Back from the last page: the same pages, in reverse.
              const back: string[][] = [];
              while (page.prev !== null) {
                page = await browser.page({ ...q, limit, before: page.prev });
                back.unshift(page.rows.map(key));
              }
              expect(back).toEqual(pages.slice(0, -1));
            },
          ),
          { numRuns: b.runs, seed: 7 },
        );
      } finally {
        await store.close();
      }
    });

    it('refuses a cursor that is not one, and both directions at once', async () => {
      const store = await openStore(await b.fresh());
      try {
        await fill(store);
        const browser = trialBrowser(store);
        await expect(browser.page({ runId: 'r', after: 'not-a-cursor' })).rejects.toThrow(/\?after=not-a-cursor: not a cursor/);
        const { next } = await browser.page({ runId: 'r', sort: 'order', limit: 2 });
        // A cursor of one sort does not fit another's columns.
        await expect(browser.page({ runId: 'r', sort: 'item', before: next! })).rejects.toThrow(/\?before=/);
        await expect(browser.page({ runId: 'r', after: next!, before: next! })).rejects.toThrow(/give one of them/);
      } finally {
        await store.close();
      }
    });
  });
}
