// A group of writes in which one cannot be stored: the others are stored once each, the one
// refused leaves nothing behind, and nothing it alone named (a prompt text, an item id, a
// scorer, a cache model or origin) is taken as stored by the writes after it, which must name
// it again. On SQLite and PostgreSQL, read back by the same store and by one opened again.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';
import type { Item, TrialKey, TrialOutcome } from '../src/core/index.js';
import { collect, type Store } from '../src/store/index.js';
import { createTestSchema, dropTestDatabases, pgAvailable, pgSkipNote } from './helpers/postgres.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-failed-group-'));
afterAll(() => dropTestDatabases());

const item = (id: string): Item => ({ suite: 'toy', id, category: 'belief', payload: { context: id }, answer: 'A' }) as Item;

/** A done trial whose prompt is a shared paragraph and one of its own, scored by `scorer`. */
const outcome = (own: string, scorer: string): TrialOutcome => ({
  transcript: {
    protocol: 'toy',
    calls: [
      {
        kind: 'chat',
        messages: [{ role: 'user', content: `A paragraph every trial sends.\n\n${own}` }],
        settings: { temperature: 0, maxTokens: 4 },
        response: { text: 'A', usage: { inputTokens: 3, outputTokens: 1 }, latencyMs: 1.5 },
        cached: false,
        attempts: 1,
        costUsd: 0,
      },
    ],
    detail: { parsed: 'A', own },
  },
  score: { scorer, value: 1, detail: { own } },
  usage: { inputTokens: 3, outputTokens: 1 },
  costUsd: 0,
  latencyMs: 1.5,
  cachedCalls: 0,
  totalCalls: 1,
});

const key = (itemId: string, replicate = 0, subjectId = 'sub-new'): TrialKey => ({
  runId: 'r',
  subjectId,
  suite: 'toy',
  itemId,
  replicate,
});
const reply = (text: string) => ({ text, usage: { inputTokens: 2, outputTokens: 1 }, latencyMs: 3 });
const cacheKey = (n: number) => n.toString(16).padStart(4, '0').padEnd(64, 'e');

/** The run's trials: key, status, transcript text and scores by scorer. */
async function trialsOf(store: Store) {
  const out = new Map<string, { status: string; transcript: string; scores: Record<string, number> }>();
  for (const t of await collect(store.runTrials('r', { batchSize: 3 })))
    out.set(`${t.itemId}#${t.replicate}`, {
      status: t.status,
      transcript: JSON.stringify(t.transcript),
      scores: Object.fromEntries(t.scores.map((s) => [s.scorer, s.value])),
    });
  return out;
}

const backends = [
  { name: 'SQLite', skip: false, fresh: async () => join(mkdtempSync(join(dir, 'db-')), 'store.db') },
  { name: `PostgreSQL${pgSkipNote}`, skip: !pgAvailable, fresh: () => createTestSchema() },
];

for (const b of backends) {
  describe.skipIf(b.skip)(`a group with a write that cannot be stored on ${b.name}`, () => {
    it('stores the others once, and names again what only the refused write named', async () => {
      const location = await b.fresh();
      let store = await openStore(location);
      try {
        await store.putItems(['i1', 'i2', 'i-bad'].map((id) => ({ hash: `h-${id}`, item: item(id) })));
        await store.createRun({ id: 'r', createdAt: '2026-01-01T00:00:00.000Z', config: {} });
        await store.upsertSubject({ id: 'sub-new', spec: 'agent:oracle', settings: {} });
        // One group: the refused write (its item hash names no stored item) among others.
        const writes = [
          store.recordDone(key('i1'), 'h-i1', outcome('Only the first trial says this.', 'mcq'), 1),
          store.putCached(cacheKey(1), 'prov', 'model-a', reply('one'), 'origin-a'),
          store.recordDone(key('i-bad'), 'h-missing', outcome('Only the refused trial says this.', 'scorer-of-the-refused'), 1),
          store.putCached(cacheKey(2), 'prov', 'model-a', reply('two')),
          store.recordFailed(key('i2'), 'h-i2', 'HTTP 500', 2),
          store.recordDone(key('i1', 1), 'h-i1', outcome('Only the first trial says this.', 'mcq'), 1),
        ];
        const settled = await Promise.allSettled(writes);
        expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
        await expect(store.flush()).rejects.toThrow(/could not store 1 write\(s\): trial toy\/i-bad#0/);
        expect(await store.trialStatus(key('i-bad'))).toBeUndefined();

        // The next group: what only the refused write named, now in writes that can be stored.
        await Promise.all([
          store.recordDone(key('i-bad'), 'h-i-bad', outcome('Only the refused trial says this.', 'scorer-of-the-refused'), 1),
          store.putCached(cacheKey(3), 'prov', 'model-a', reply('three'), 'origin-a'),
          store.putCached(cacheKey(4), 'prov', 'model-b', reply('four'), 'origin-b'),
          store.recordDone(key('i2'), 'h-i2', outcome('The second trial, done at last.', 'mcq'), 1),
        ]);
        // And one trial a group, by the names' and models' numbers now known.
        await store.recordDone(key('i2', 1), 'h-i2', outcome('The second trial, done at last.', 'scorer-of-the-refused'), 1);
        await store.putCached(cacheKey(5), 'prov', 'model-b', reply('five'), 'origin-a');
        await store.flush();

        const want = new Map([
          ['i1#0', { status: 'done', own: 'Only the first trial says this.', scores: { mcq: 1 } }],
          ['i1#1', { status: 'done', own: 'Only the first trial says this.', scores: { mcq: 1 } }],
          ['i-bad#0', { status: 'done', own: 'Only the refused trial says this.', scores: { 'scorer-of-the-refused': 1 } }],
          ['i2#0', { status: 'done', own: 'The second trial, done at last.', scores: { mcq: 1 } }],
          ['i2#1', { status: 'done', own: 'The second trial, done at last.', scores: { 'scorer-of-the-refused': 1 } }],
        ]);
        const check = async (s: Store) => {
          const got = await trialsOf(s);
          expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
          for (const [k, w] of want) {
            const g = got.get(k)!;
            expect({ status: g.status, scores: g.scores }, k).toEqual({ status: w.status, scores: w.scores });
            expect(g.transcript, k).toBe(JSON.stringify(outcome(w.own, 'x').transcript));
          }
          const entries = await Promise.all(
            [
              [1, 'model-a'],
              [2, 'model-a'],
              [3, 'model-a'],
              [4, 'model-b'],
              [5, 'model-b'],
            ].map(([n, m]) => s.getCachedEntry(cacheKey(n as number), 'prov', m as string)),
          );
          expect(entries).toEqual([
            { value: reply('one'), origin: 'origin-a' },
            { value: reply('two'), origin: null },
            { value: reply('three'), origin: 'origin-a' },
            { value: reply('four'), origin: 'origin-b' },
            { value: reply('five'), origin: 'origin-a' },
          ]);
          expect(await s.trialCount('r')).toBe(5);
        };
        await check(store);
        await store.close();
        store = await openStore(location);
        await check(store);
      } finally {
        await store.close();
      }
    });
  });
}
