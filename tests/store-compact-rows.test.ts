// Compact store rows (schema 12), against both backends: cache entries packed (a hex key as
// bytes in SQLite, created_at in milliseconds, provider and model named once in cache_models,
// latency to the microsecond) and item bodies deflated in SQLite; rows written by an older
// mindscope read as they were, and exports carry the rows as the older format had them.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';
import type { Item } from '../src/core/index.js';
import { collect, copyStore, MIGRATIONS, type SqlStore, type StoreRecord } from '../src/store/index.js';
import { minimalOutcome } from './helpers/outcomes.js';
import { sqliteQuery } from './helpers/sqlite.js';
import { backToSchema14 } from './helpers/schema-14.js';
import { createTestSchema, dropTestDatabases, pgAvailable, pgQuery, pgSkipNote } from './helpers/postgres.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-compact-rows-'));
afterAll(() => dropTestDatabases());

const HEX = 'ab'.repeat(32);
const OLD_HEX = 'cd'.repeat(32);
const SPEC = 'openai-compatible:http://127.0.0.1:1/v1#m';
const response = {
  text: 'Answer: A',
  usage: { inputTokens: 40, outputTokens: 3 },
  latencyMs: 131.92336899999998,
  modelReported: 'm',
  finishReason: 'stop',
};
const item: Item = {
  suite: 'x',
  id: 'i1',
  category: 'belief',
  payload: { context: 'Hiro entered the kitchen.' },
  answer: 'a',
  meta: { originalLabel: 'first-order' },
};

interface Backend {
  name: string;
  skip: boolean;
  fresh(tag: string): Promise<string>;
  sql(location: string, sql: string): Promise<Array<Record<string, unknown>>>;
}
const backends: Backend[] = [
  {
    name: 'SQLite',
    skip: false,
    fresh: async (tag) => join(mkdtempSync(join(dir, `${tag}-`)), 'store.db'),
    sql: sqliteQuery,
  },
  { name: `PostgreSQL${pgSkipNote}`, skip: !pgAvailable, fresh: () => createTestSchema(), sql: (location, sql) => pgQuery(location, sql) },
];

const cacheRecords = async (location: string) => {
  const s = await openStore(location);
  const out = (await collect(s.exportRecords())).filter((r): r is Extract<StoreRecord, { kind: 'cache' }> => r.kind === 'cache');
  await s.close();
  return out;
};

for (const b of backends) {
  describe.skipIf(b.skip)(`compact rows on ${b.name}`, () => {
    it('packs a cache entry and gives it back, its latency to the microsecond', async () => {
      const location = await b.fresh('cache');
      const s = await openStore(location);
      const before = Date.now();
      await s.putCached(HEX, 'openai-compatible', SPEC, response);
      await s.putCached('k', 'p', 'm', { logprobs: [-1], tokenCounts: [1] });
      await s.putCached('arr', 'p', 'm', [1, 2]);
      await s.putCached('odd', 'openai-compatible', SPEC, {
        text: 'x',
        usage: { inputTokens: 1, outputTokens: 2, cachedInputTokens: 1 },
        latencyMs: 1,
      });
      await s.flush();
      const rounded = { ...response, latencyMs: 131.923 };
      expect(await s.getCached(HEX)).toEqual(rounded);
      expect(await s.getCached('k')).toEqual({ logprobs: [-1], tokenCounts: [1] });
      expect(await s.getCached('arr')).toEqual([1, 2]);
      expect(await s.getCached('odd')).toEqual({
        text: 'x',
        usage: { inputTokens: 1, outputTokens: 2, cachedInputTokens: 1 },
        latencyMs: 1,
      });
      await s.close();
      const [row] = await b.sql(
        location,
        `SELECT c.key AS key, c.response AS response, c.created_at AS created_at FROM call_cache c JOIN cache_models m ON m.id = c.model_id
         WHERE m.provider = 'openai-compatible' AND m.model = '${SPEC}' AND c.response LIKE '%Answer%'`,
      );
      expect(row!.response).toBe('[567,"Answer: A",40,3,131.923,"m","stop"]');
      expect(Number(row!.created_at)).toBeGreaterThanOrEqual(before);
      // The key's first 128 bits, as bytes (PostgreSQL: schema 18).
      expect(Buffer.from(row!.key as Uint8Array).toString('hex')).toBe(HEX.slice(0, 32));
      // Exports carry the entry as older stores held it (hex key, the provider, JSON, ISO time), the key cut to 128 bits.
      const exported = (await cacheRecords(location)).find((r) => r.key === HEX.slice(0, 32))!;
      expect(exported).toMatchObject({ provider: 'openai-compatible', model: SPEC, response: JSON.stringify(rounded) });
      expect(Date.parse(exported.createdAt)).toBeGreaterThanOrEqual(before);
    });

    it('searches, filters and reads item bodies as stored (deflated in SQLite)', async () => {
      const s = (await openStore(await b.fresh('browse'))) as SqlStore;
      await s.createRun({ id: 'r', createdAt: 'now', config: {} });
      await s.upsertSubject({ id: 's1', spec: 'agent:oracle', settings: {} });
      await s.putItems([{ hash: 'h1', item }]);
      const k = { runId: 'r', subjectId: 's1', suite: 'x', itemId: 'i1', replicate: 0 };
      await s.recordDone(k, 'h1', minimalOutcome(), 1);
      const browse = s.browser();
      expect(await browse.count({ runId: 'r', search: 'hiro entered' })).toBe(1);
      expect(await browse.count({ runId: 'r', search: 'nobody entered' })).toBe(0);
      expect(await browse.count({ runId: 'r', originalLabel: 'first-order' })).toBe(1);
      expect((await browse.list({ runId: 'r' }))[0]).toMatchObject({ originalLabel: 'first-order' });
      expect((await browse.facets('r')).originalLabels).toEqual(['first-order']);
      expect((await collect(s.responses('r'))).map((r) => r.meta)).toEqual([item.meta]);
      await s.close();
    });

    it('reads cache entries and item bodies written before schema 12, and exports them as they were', async () => {
      const location = await b.fresh('old');
      const s = await openStore(location);
      await s.close();
      const old = {
        key: OLD_HEX,
        provider: 'openai-compatible',
        model: SPEC,
        response: JSON.stringify(response),
        createdAt: '2026-01-02T03:04:05.678Z',
      };
      // Back to schema 11's call cache, with a row as an older mindscope wrote it; then migrate again.
      for (const stmt of backToSchema14(b.name === 'SQLite' ? 'sqlite' : 'postgres')) await b.sql(location, stmt);
      await b.sql(location, 'DROP TABLE call_cache');
      await b.sql(location, 'DROP TABLE cache_models');
      await b.sql(location, 'DROP TABLE cache_origins');
      await b.sql(
        location,
        'CREATE TABLE call_cache (key TEXT PRIMARY KEY, provider TEXT NOT NULL, model TEXT NOT NULL, response TEXT NOT NULL, created_at TEXT NOT NULL)',
      );
      await b.sql(location, 'ALTER TABLE runs DROP COLUMN name');
      await b.sql(location, b.name === 'SQLite' ? 'PRAGMA user_version = 11' : 'UPDATE mindscope_schema SET version = 11');
      await b.sql(
        location,
        `INSERT INTO call_cache (key, provider, model, response, created_at) VALUES ('${old.key}', '${old.provider}', '${old.model}', '${old.response}', '${old.createdAt}')`,
      );
      await b.sql(
        location,
        `INSERT INTO items (hash, suite, item_id, category, ability, answer, body) VALUES ('h-old', 'x', 'i0', 'belief', NULL, 'a', '${JSON.stringify({ ...item, id: 'i0' })}')`,
      );
      const again = (await openStore(location)) as SqlStore;
      expect(await again.schemaVersion()).toBe(MIGRATIONS.length);
      expect(await again.getCached(OLD_HEX)).toEqual(response);
      expect(await again.getItem('h-old')).toEqual({ ...item, id: 'i0' });
      await again.putItems([{ hash: 'h-new', item }]);
      expect(await again.getItem('h-new')).toEqual(item);
      const items = (await collect(again.exportRecords())).filter((r) => r.kind === 'item');
      expect(items).toEqual([
        { kind: 'item', hash: 'h-new', body: JSON.stringify(item) },
        { kind: 'item', hash: 'h-old', body: JSON.stringify({ ...item, id: 'i0' }) },
      ]);
      await again.close();
      // The entry as it was written, its key cut to 128 bits (schema 17).
      expect(await cacheRecords(location)).toEqual([{ kind: 'cache', ...old, key: OLD_HEX.slice(0, 32) }]);
      if (b.name === 'SQLite') {
        // A new item's body is deflated; the old one stays text.
        const types = await b.sql(location, 'SELECT hash, typeof(body) AS t FROM items ORDER BY hash');
        expect(types).toEqual([
          { hash: 'h-new', t: 'blob' },
          { hash: 'h-old', t: 'text' },
        ]);
      }
      // Copied to the other backends, the entry is packed as a new one is (its latency to the microsecond).
      const rounded = { ...response, latencyMs: 131.923 };
      for (const other of backends.filter((o) => !o.skip)) {
        const target = await other.fresh('copy');
        await copyStore(location, target);
        expect(await cacheRecords(target)).toEqual([
          { kind: 'cache', ...old, key: OLD_HEX.slice(0, 32), response: JSON.stringify(rounded) },
        ]);
        const t = await openStore(target);
        expect(await t.getCached(OLD_HEX)).toEqual(rounded);
        expect(await t.getItem('h-new')).toEqual(item);
        await t.close();
      }
    });
  });
}
