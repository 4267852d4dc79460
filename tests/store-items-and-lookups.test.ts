// Two things the runner's store does to keep its thread free, against both backends where they
// apply: a run's items are stored (deflated a chunk at a time in SQLite) while its first trials
// run, a trial is never committed before its item, and items that cannot be stored stop the run; a SQLite store answers the cache lookup of
// a model with no entries without a query, and still finds what it wrote itself, what another
// process committed and what was imported.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createModel, loadTasks, openStore, parseRunSpec } from '../src/index.js';
import { DEFAULT_SETTINGS } from '../src/core/index.js';
import { runEvaluation } from '../src/runner/index.js';
import { startModelServer } from './helpers/servers.js';
import type { Item } from '../src/core/index.js';
import { MIGRATIONS, type SqliteStore } from '../src/store/index.js';
import { SqliteDriver } from '../src/store/sqlite/sqlite-driver.js';
import { CacheAbsence } from '../src/store/sql/cache-absence.js';
import { itemBodyText, memoizedItemBodyText } from '../src/store/sql/item-bodies.js';
import { minimalOutcome } from './helpers/outcomes.js';
import { sqliteQuery } from './helpers/sqlite.js';
import { createTestSchema, dropTestDatabases, pgAvailable, pgQuery, pgSkipNote } from './helpers/postgres.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-items-lookups-'));
afterAll(() => dropTestDatabases());

const item = (n: number): Item => ({
  suite: 's',
  id: `i${n}`,
  category: n % 2 ? 'belief' : 'knowledge',
  payload: { context: `Story ${n}: Hiro put the key in the drawer and left. `.repeat(1 + (n % 5)) },
  answer: 'a',
  meta: {},
});
const outcome = minimalOutcome();
const key = (n: number) => ({ runId: 'r', subjectId: 'sub', suite: 's', itemId: `i${n}`, replicate: 0 });

const backends = [
  {
    name: 'SQLite',
    skip: false,
    fresh: async (tag: string) => join(mkdtempSync(join(dir, `${tag}-`)), 'store.db'),
    sql: sqliteQuery,
  },
  {
    name: `PostgreSQL${pgSkipNote}`,
    skip: !pgAvailable,
    fresh: () => createTestSchema(),
    sql: (location: string, sql: string) => pgQuery(location, sql),
  },
];

for (const b of backends) {
  describe.skipIf(b.skip)(`items stored beside the first trials on ${b.name}`, () => {
    it('stores many items (deflated against the item dictionary in SQLite) as they are, each once', async () => {
      const location = await b.fresh('many');
      const s = await openStore(location);
      const items = Array.from({ length: 700 }, (_, i) => ({ hash: `h${i}`, item: item(i) }));
      // Given twice (a task's item in two tasks), and once with the JSON text it was hashed from.
      await s.putItems([...items, items[3]!, { ...items[5]!, json: JSON.stringify(items[5]!.item) }]);
      // Again: stored already, nothing changes.
      await s.putItems(items.slice(0, 300));
      for (const n of [0, 3, 5, 299, 699]) expect(await s.getItem(`h${n}`)).toEqual(item(n));
      await s.close();
      const rows = await b.sql(location, 'SELECT COUNT(*) AS n FROM items');
      expect(Number(rows[0]!.n)).toBe(700);
      if (b.name === 'SQLite') {
        const kinds = await b.sql(location, 'SELECT DISTINCT typeof(body) AS t FROM items');
        expect(kinds).toEqual([{ t: 'blob' }]);
      }
    });

    it('stores items still in flight when the store is closed', async () => {
      const location = await b.fresh('close');
      const s = await openStore(location);
      const stored = s.putItems(Array.from({ length: 2000 }, (_, i) => ({ hash: `h${i}`, item: item(i) })));
      await s.close();
      await stored;
      const rows = await b.sql(location, 'SELECT COUNT(*) AS n FROM items');
      expect(Number(rows[0]!.n)).toBe(2000);
    });

    it('commits a trial recorded before its items are stored only after them', async () => {
      const location = await b.fresh('order');
      const s = await openStore(location);
      await s.createRun({ id: 'r', createdAt: 'now', config: {} });
      await s.upsertSubject({ id: 'sub', spec: 'agent:oracle', settings: {} });
      const items = Array.from({ length: 3000 }, (_, i) => ({ hash: `h${i}`, item: item(i) }));
      const stored = s.putItems(items);
      // Committed at once (a flush), while the items are still being stored: its item is in the
      // database by then (PostgreSQL's foreign key would refuse the trial otherwise).
      const done = s.recordDone(key(2999), 'h2999', outcome, 1);
      await s.flush();
      await done;
      // A hash that is not SHA-256 hex: text in SQLite, its UTF-8 after a zero byte in PostgreSQL.
      const rows = await b.sql(
        location,
        b.name === 'SQLite'
          ? "SELECT COUNT(*) AS n FROM items WHERE hash = 'h2999'"
          : "SELECT COUNT(*) AS n FROM items WHERE hash = '\\x00'::bytea || convert_to('h2999', 'UTF8')",
      );
      expect(Number(rows[0]!.n)).toBe(1);
      await stored;
      expect(await s.trialStatus(key(2999))).toBe('done');
      await s.close();
    });
  });
}

describe('a run whose items cannot be stored', () => {
  it("starts no further trial and fails with the items' error, not its trials'", async () => {
    const server = await startModelServer();
    try {
      const spec = `openai-compatible:${server.url}/v1#ok`;
      const { tasks } = await loadTasks(parseRunSpec({ suites: ['generated-tom'], models: [spec], limit: 3000, seed: 1 }));
      // An item the items table refuses (its category is NOT NULL).
      (tasks[0]!.items[2999] as { category: unknown }).category = null;
      const store = await openStore(join(mkdtempSync(join(dir, 'run-')), 'store.db'));
      const run = runEvaluation({
        runId: 'r',
        config: {},
        tasks,
        subjects: [{ model: createModel(spec), settings: DEFAULT_SETTINGS }],
        replicates: 1,
        seed: 1,
        calls: { store, concurrency: 8, timeoutMs: 10_000 },
      });
      await expect(run).rejects.toThrow(/NOT NULL constraint failed: items\.category/);
      // The trials that had started were not stored (their items are not there), and the run
      // stopped well before its 3,000 calls.
      expect(await store.trialCount('r')).toBe(0);
      expect((await server.stats()).requests).toBeLessThan(3000);
      await store.close();
    } finally {
      await server.stop();
    }
  });
});

describe('item bodies', () => {
  it('many at once are stored against the item dictionary, chunk after chunk, and read back as they were', async () => {
    const location = join(mkdtempSync(join(dir, 'bodies-')), 'store.db');
    const items = Array.from({ length: 2500 }, (_, i) => item(i));
    const s = await openStore(location);
    await s.putItems(items.map((it, i) => ({ hash: `h${i}`, item: it })));
    for (const i of [0, 199, 200, 1999, 2000, 2499]) expect(await s.getItem(`h${i}`)).toEqual(items[i]);
    await s.close();
    const rows = await sqliteQuery(location, "SELECT body FROM items WHERE hash IN ('h0', 'h2499')");
    // Each body a place in a block of item bodies (tag 0x0f) of 64 written together ...
    for (const r of rows) expect((r.body as Buffer)[0]).toBe(0x0f);
    const blocks = await sqliteQuery(location, 'SELECT body FROM transcript_blocks');
    expect(blocks).toHaveLength(Math.ceil(2500 / 64));
    // ... each block framed with the dictionary trained from these bodies (tag 6), not deflated alone.
    for (const b of blocks) expect((b.body as Buffer)[0]).toBe(6);
    const again = await openStore(location);
    expect(await again.getItem('h1234')).toEqual(items[1234]);
    await again.close();
  });

  it('read back in SQL give the stored JSON, inflated once a connection and remembered up to a bound', () => {
    const texts = [1, 2, 3].map((n) => JSON.stringify(item(n)));
    const stored = texts.map((t) => deflateRawSync(t));
    let inflated = 0;
    const read = memoizedItemBodyText(texts[0]!.length + stored[0]!.length + 10, (b) => {
      inflated++;
      return itemBodyText(b);
    });
    // Twice each: the first remembered (it fits the bound), the others inflated each time.
    for (let round = 0; round < 2; round++) for (let i = 0; i < 3; i++) expect(read(stored[i]!)).toBe(texts[i]);
    expect(inflated).toBe(5);
    expect(read(texts[1]!)).toBe(texts[1]);
    expect(inflated).toBe(5);
    // A view into a larger buffer (as SQLite hands a blob over) reads as its own bytes.
    const padded = Buffer.concat([Buffer.from('xx'), stored[2]!, Buffer.from('yy')]);
    expect(read(padded.subarray(2, 2 + stored[2]!.length))).toBe(texts[2]);
  });
});

describe('cache lookups a SQLite store answers without a query', () => {
  const PROVIDER = 'openai-compatible';
  const MODEL = 'openai-compatible:http://127.0.0.1:1/v1#m';
  // Keys that differ in their first characters (the part a store remembers of a key it wrote).
  const hexKey = (n: number) => n.toString(16).padEnd(64, '0');
  const reply = (text: string) => ({ text, usage: { inputTokens: 1, outputTokens: 1 }, latencyMs: 1 });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('knows a model with no entries misses, until another connection commits to the file', async () => {
    const location = join(mkdtempSync(join(dir, 'absence-')), 'store.db');
    await (await openStore(location)).close();
    const driver = new SqliteDriver(location, MIGRATIONS);
    const absence = new CacheAbsence(driver);
    expect(await absence.surelyMissing(hexKey(1), PROVIDER, MODEL)).toBe(true);
    // Another process (here another connection) caches a reply of the same model.
    const other = await openStore(location);
    await other.putCached(hexKey(1), PROVIDER, MODEL, reply('theirs'));
    await other.close();
    await sleep(30);
    expect(await absence.surelyMissing(hexKey(1), PROVIDER, MODEL)).toBe(false);
    expect(await absence.surelyMissing(hexKey(2), PROVIDER, MODEL)).toBe(false);
    await driver.close();
  });

  it('never takes a model with entries, or a key it is writing, for missing', async () => {
    const location = join(mkdtempSync(join(dir, 'absence-')), 'store.db');
    const first = await openStore(location);
    await first.putCached(hexKey(9), PROVIDER, MODEL, reply('stored'));
    await first.close();
    const driver = new SqliteDriver(location, MIGRATIONS);
    const absence = new CacheAbsence(driver);
    expect(await absence.surelyMissing(hexKey(10), PROVIDER, MODEL)).toBe(false);
    expect(await absence.surelyMissing(hexKey(10), PROVIDER, 'other-model')).toBe(true);
    absence.writing(hexKey(11), PROVIDER, 'other-model');
    expect(await absence.surelyMissing(hexKey(11), PROVIDER, 'other-model')).toBe(false);
    expect(await absence.surelyMissing(hexKey(12), PROVIDER, 'other-model')).toBe(true);
    absence.forget();
    await driver.close();
  });

  it('finds through the store what it cached itself, what others committed and what it imported', async () => {
    const location = join(mkdtempSync(join(dir, 'store-')), 'store.db');
    const s = (await openStore(location)) as SqliteStore;
    expect(await s.getCached(hexKey(1), PROVIDER, MODEL)).toBeUndefined();
    // Its own write: from the queue first, then from the database once committed.
    const committed = s.putCached(hexKey(1), PROVIDER, MODEL, reply('mine'));
    expect(await s.getCached(hexKey(1), PROVIDER, MODEL)).toMatchObject({ text: 'mine' });
    await committed;
    expect(await s.getCached(hexKey(1), PROVIDER, MODEL)).toMatchObject({ text: 'mine' });
    expect(await s.getCached(hexKey(1))).toMatchObject({ text: 'mine' });
    // Another process's entry for a model this store has seen without entries.
    expect(await s.getCached(hexKey(2), PROVIDER, 'second')).toBeUndefined();
    const other = await openStore(location);
    await other.putCached(hexKey(2), PROVIDER, 'second', reply('theirs'));
    await other.close();
    await sleep(30);
    expect(await s.getCached(hexKey(2), PROVIDER, 'second')).toMatchObject({ text: 'theirs' });
    // An import into this store of a model it has seen without entries.
    expect(await s.getCached(hexKey(3), PROVIDER, 'third')).toBeUndefined();
    const source = await openStore(join(mkdtempSync(join(dir, 'source-')), 'store.db'));
    await source.putCached(hexKey(3), PROVIDER, 'third', reply('imported'));
    await s.importRecords(source.exportRecords());
    await source.close();
    expect(await s.getCached(hexKey(3), PROVIDER, 'third')).toMatchObject({ text: 'imported' });
    await s.close();
  });
});
