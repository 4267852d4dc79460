// What a store cannot give back as it was written, it refuses with an error naming the trial and
// the field, and stores nothing of it, on every backend: an id (run, subject, suite, item,
// scorer) with a lone UTF-16 surrogate, which UTF-8 text reads back as U+FFFD (two such ids
// would merge into one, their trials with them) or with a NUL (PostgreSQL's text holds none),
// and a latency that is not finite or is 9e12 ms or more (SQLite would keep a whole one as an
// integer and read it back 1,000 times smaller). Well-formed ids, surrogate pairs (emoji)
// included, and latencies up to the limit read back exactly. A run with such an id fails before
// anything is stored or called.

import fc from 'fast-check';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createModel, loadTasks, openStore, parseRunSpec } from '../src/index.js';
import { DEFAULT_SETTINGS, type Item, type TrialKey } from '../src/core/index.js';
import { runEvaluation } from '../src/runner/index.js';
import { collect, copyStore, type Store } from '../src/store/index.js';
import { minimalOutcome } from './helpers/outcomes.js';
import { sqliteQuery } from './helpers/sqlite.js';
import { createTestSchema, dropTestDatabases, pgAvailable, pgSkipNote } from './helpers/postgres.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-unstorable-'));
afterAll(() => dropTestDatabases());

const backends = [
  { name: 'SQLite', skip: false, fresh: async () => join(mkdtempSync(join(dir, 'db-')), 'store.db') },
  { name: 'SQLite in memory', skip: false, fresh: async () => ':memory:' },
  { name: `PostgreSQL${pgSkipNote}`, skip: !pgAvailable, fresh: () => createTestSchema() },
];

const key = (itemId: string, more: Partial<TrialKey> = {}): TrialKey => ({
  runId: 'r',
  subjectId: 'sub',
  suite: 's',
  itemId,
  replicate: 0,
  ...more,
});

/** A store with one item (hash 'h'), one subject and run 'r'. */
async function prepared(location: string): Promise<Store> {
  const store = await openStore(location);
  await store.putItems([{ hash: 'h', item: { suite: 's', id: 'i', category: 'belief', payload: {}, answer: 'A' } as never }]);
  await store.upsertSubject({ id: 'sub', spec: 'agent:oracle', settings: {} });
  await store.createRun({ id: 'r', createdAt: '2026-01-01T00:00:00.000Z', config: {} });
  return store;
}

/** The run's trials as read back: item id -> latency. */
async function latencies(store: Store, runId = 'r'): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const t of await collect(store.runTrials(runId))) out.set(t.itemId, t.latencyMs);
  return out;
}

for (const b of backends) {
  describe.skipIf(b.skip)(`unstorable trials on ${b.name}`, () => {
    it('refuses an id with a lone surrogate, naming the field, and keeps ids with surrogate pairs apart', async () => {
      const store = await prepared(await b.fresh());
      try {
        // Before, 'a\ud800' and 'a\udbff' were both stored as 'a\ufffd': one trial.
        await expect(store.recordDone(key('a\ud800'), 'h', minimalOutcome(), 1)).rejects.toThrow(
          /item id "a\\ud800" holds a lone UTF-16 surrogate \(U\+D800 at index 1\)/,
        );
        await expect(store.recordFailed(key('a\udbff'), 'h', 'boom', 1)).rejects.toThrow(/item id "a\\udbff" holds a lone/);
        await expect(store.recordDone(key('i', { subjectId: 'x\udc00' }), 'h', minimalOutcome(), 1)).rejects.toThrow(
          /subject id "x\\udc00" holds a lone UTF-16 surrogate \(U\+DC00 at index 1\)/,
        );
        await expect(store.recordDone(key('i', { suite: '\udfff' }), 'h', minimalOutcome(), 1)).rejects.toThrow(/suite "\\udfff"/);
        await expect(store.recordDone(key('i', { runId: 'r\ud83d' }), 'h', minimalOutcome(), 1)).rejects.toThrow(/run id "r\\ud83d"/);
        // PostgreSQL's text holds no NUL: no backend takes one in an id, so that a store copies to any other.
        await expect(store.recordDone(key('a\u0000b'), 'h', minimalOutcome(), 1)).rejects.toThrow(
          /item id "a\\u0000b" holds a NUL \(U\+0000 at index 1\)/,
        );
        const scorer = { ...minimalOutcome(), score: { scorer: 'mcq\ud800', value: 1, detail: {} } };
        await expect(store.recordDone(key('i'), 'h', scorer, 1)).rejects.toThrow(/scorer "mcq\\ud800"/);
        // Pairs are characters: two ids that differ only in their emoji stay two trials.
        await store.recordDone(key('a😀'), 'h', minimalOutcome(1), 1);
        await store.recordDone(key('a😁'), 'h', minimalOutcome(0), 1);
        await store.flush();
        expect([...(await latencies(store)).keys()].sort()).toEqual(['a😀', 'a😁']);
        expect(await store.trialCount('r')).toBe(2);
        await expect(store.recordScore(key('a😀'), { scorer: 'judge\udc01', value: 1, detail: {} })).rejects.toThrow(
          /scorer "judge\\udc01"/,
        );
      } finally {
        // Nothing refused was queued: the store closes without a failed write.
        await store.close();
      }
    });

    it('refuses a latency it could not give back, and gives back every other exactly', async () => {
      const store = await prepared(await b.fresh());
      try {
        const at = (latencyMs: number, batchLatencyMs?: number) => ({ ...minimalOutcome(), latencyMs, batchLatencyMs });
        for (const bad of [9e12, -9e12, 3e15, 9e12 + 0.5, Number.NaN, Infinity, -Infinity])
          await expect(store.recordDone(key(`bad ${bad}`), 'h', at(bad), 1)).rejects.toThrow(
            new RegExp(`latency ${String(bad).replace('+', '\\+')} ms is not a finite number of milliseconds below 9e12`),
          );
        await expect(store.recordDone(key('bad batch'), 'h', at(1, 1e13), 1)).rejects.toThrow(/batch latency 10000000000000 ms/);
        const good = [0, 0.001, 659.323, 8_999_999_999_999, -8_999_999_999_999, 8_999_999_999_999.5, 123456.789];
        for (const ms of good) await store.recordDone(key(`ok ${ms}`), 'h', at(ms), 1);
        await store.flush();
        const read = await latencies(store);
        expect(read.size).toBe(good.length);
        for (const ms of good) expect(read.get(`ok ${ms}`)).toBe(ms);
      } finally {
        await store.close();
      }
    });

    it('keeps a failed trial whose error text holds a NUL or a lone surrogate, each as U+FFFD, alike on every backend', async () => {
      const store = await prepared(await b.fresh());
      try {
        // PostgreSQL refused such a text, and with it the failed trial's record.
        await store.recordFailed(key('x'), 'h', 'server said: a\u0000b \ud800 😀', 1);
        await store.recordFailed(key('y'), 'h', 'plain', 1);
        await store.flush();
        expect(await store.trialStatus(key('x'))).toBe('failed');
        const errors = (await store.failures('r')).map((f) => f.error).sort();
        expect(errors).toEqual(['plain', 'server said: a\ufffdb \ufffd 😀']);
      } finally {
        await store.close();
      }
    });

    it('stores any well-formed item id without a NUL as it is, and refuses exactly the others (property)', async () => {
      const store = await prepared(await b.fresh());
      let n = 0;
      try {
        await fc.assert(
          fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 6 }), async (raw) => {
            const itemId = `${n++}:${raw}`;
            const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(itemId);
            const write = store.recordDone(key(itemId), 'h', minimalOutcome(), 1);
            if (lone) return void (await expect(write).rejects.toThrow(/holds a lone UTF-16 surrogate/));
            if (itemId.includes('\u0000')) return void (await expect(write).rejects.toThrow(/holds a NUL \(U\+0000 at index/));
            await write;
            await store.flush();
            expect(await store.trialStatus(key(itemId))).toBe('done');
            expect((await latencies(store)).has(itemId)).toBe(true);
          }),
          { numRuns: b.name.startsWith('PostgreSQL') ? 30 : 60, seed: 7 },
        );
        // Every id read back is one that was written: none merged into another.
        expect((await latencies(store)).size).toBe(await store.trialCount('r'));
      } finally {
        await store.close();
      }
    });
  });
}

describe('copying a store', () => {
  it('refuses a trial whose latency an older SQLite store kept beyond what it gives back exactly, naming it', async () => {
    const source = join(mkdtempSync(join(dir, 'src-')), 'store.db');
    const store = await prepared(source);
    await store.recordDone(key('i'), 'h', { ...minimalOutcome(), latencyMs: 12.5 }, 1);
    await store.close();
    // As a store written before the limit could hold it: a double of 1e13 + 0.5 ms.
    await sqliteQuery(source, 'UPDATE trial_rows SET latency_ms = 10000000000000.5');
    const target = join(mkdtempSync(join(dir, 'dst-')), 'store.db');
    await expect(copyStore(source, target)).rejects.toThrow(/trial s\/i#0 of run r: latency 10000000000000\.5 ms is not a finite number/);
  });
});

describe('a run whose ids the store cannot keep', () => {
  const spec = 'agent:oracle';
  /** Five generated items, one of them changed by `spoil`, run by the oracle on a store in memory: the error, and the runs the store holds after. */
  async function runSpoiled(spoil: (items: Item[]) => void): Promise<{ error: unknown; runs: unknown[]; trials: number }> {
    const { tasks } = await loadTasks(parseRunSpec({ suites: ['generated-tom'], models: [spec], limit: 5, seed: 1 }));
    spoil(tasks[0]!.items);
    const store = await openStore(':memory:');
    try {
      const error = await runEvaluation({
        runId: 'r',
        config: {},
        tasks,
        subjects: [{ model: createModel(spec), settings: DEFAULT_SETTINGS }],
        replicates: 1,
        seed: 1,
        calls: { store, concurrency: 2, timeoutMs: 10_000 },
      }).then(
        () => undefined,
        (err: unknown) => err,
      );
      return { error, runs: await store.listRuns(), trials: await store.trialCount('r') };
    } finally {
      await store.close();
    }
  }

  it('fails before anything is stored or called, naming the suite and the id', async () => {
    const r = await runSpoiled((items) => {
      (items[3] as { id: string }).id = 'story-\ud800';
    });
    expect(String(r.error)).toMatch(/suite generated-tom: item id "story-\\ud800" holds a lone UTF-16 surrogate/);
    expect(r.runs).toEqual([]);
    expect(r.trials).toBe(0);
  });

  it("fails the same way for a NUL in an item's answer, which PostgreSQL's text cannot hold", async () => {
    let id = '';
    const r = await runSpoiled((items) => {
      id = items[2]!.id;
      (items[2] as { answer: string }).answer = 'A\u0000';
    });
    expect(String(r.error)).toMatch(
      new RegExp(`suite generated-tom: the answer of item ${id} "A\\\\u0000" holds a NUL \\(U\\+0000 at index 1\\)`),
    );
    expect(r.runs).toEqual([]);
    expect(r.trials).toBe(0);
  });
});
