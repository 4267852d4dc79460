// Schema 18 on PostgreSQL (scores kept by number in score_rows, short details once in names;
// cache keys as bytes) on a store an older mindscope wrote: tests/fixtures/store-v16/ copied to
// PostgreSQL, taken back to schema 17 (scores a table naming their scorer and holding their
// detail, cache keys hex text), and opened again. Migrated, the store exports the bytes the
// fixture's mindscope exported, keeps each trial's scores in their order, finds every cached
// reply by its key (keys that are not hex too), takes new scores with long details beside the
// short ones, and copies to SQLite and back to the same bytes.

import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';
import { copyStore, PG_MIGRATIONS, type SqlStore } from '../src/store/index.js';
import { createTestSchema, dropTestDatabases, pgAvailable, pgQuery, pgSkipNote } from './helpers/postgres.js';
import { backToSchema17 } from './helpers/schema-14.js';
import { exportRun, readExports, type RunExports } from './helpers/store-exports.js';

afterAll(() => dropTestDatabases());

const FIXTURE = join(import.meta.dirname, 'fixtures', 'store-v16');
const dir = mkdtempSync(join(tmpdir(), 'mindscope-pg-score-rows-'));

/** The store's exports of a run, as text: the JSONL and each Inspect log by file name. */
async function exportsOf(location: string, run: string): Promise<RunExports> {
  return (await exportRun(location, run, dir)).exports;
}

const expected = readExports(FIXTURE);
const RUN = (JSON.parse(expected.jsonl.slice(0, expected.jsonl.indexOf('\n'))) as { run_id: string }).run_id;

interface ScoreRow {
  trial_id: number;
  scorer: string;
  value: number;
  detail: string;
}
const scoresOf = (url: string) =>
  pgQuery<ScoreRow>(url, 'SELECT trial_id::int AS trial_id, scorer, value, detail FROM scores ORDER BY trial_id, seq');

describe('schema 18 on a PostgreSQL store written at schema 17', () => {
  it.skipIf(!pgAvailable)(`migrated, it exports the same bytes and keeps every score in its order${pgSkipNote}`, async () => {
    const fixture = join(mkdtempSync(join(dir, 'v16-')), 'store.db');
    copyFileSync(join(FIXTURE, 'store-v16.sqlite'), fixture);
    const url = await createTestSchema();
    await copyStore(fixture, url);
    const before = await scoresOf(url);
    // Back to schema 17: scores a table again, as an older mindscope left it.
    for (const stmt of backToSchema17('postgres')) await pgQuery(url, stmt);
    await pgQuery(url, 'UPDATE mindscope_schema SET version = 17');
    const keys = (await pgQuery<{ key: string }>(url, 'SELECT key FROM call_cache ORDER BY key')).map((r) => r.key);
    expect(keys.length).toBeGreaterThan(5);
    expect(keys.every((k) => /^[0-9a-f]{32}$/.test(k))).toBe(true);
    // Keys that are not hex (a record imported from elsewhere), one of 15 bytes (16 with one zero before it).
    const odd = ['plain-key', 'fifteen-bytes!!', 'clé-unicode'];
    for (const [i, key] of odd.entries())
      await pgQuery(
        url,
        `INSERT INTO call_cache (key, model_id, response, created_at, origin_id)
         SELECT $1, model_id, response, created_at, origin_id FROM call_cache ORDER BY key OFFSET $2 LIMIT 1`,
        [key, i],
      );
    // Items whose hashes are not SHA-256 hex (written by hand, or imported), one of 31 bytes (32 with one zero before it).
    const hashes = (await pgQuery<{ hash: string }>(url, 'SELECT hash FROM items ORDER BY id')).map((r) => r.hash);
    expect(hashes.every((h) => /^[0-9a-f]{64}$/.test(h))).toBe(true);
    const oddHashes = ['not-a-sha', 'x'.repeat(31)];
    for (const [i, hash] of oddHashes.entries())
      await pgQuery(
        url,
        `INSERT INTO items (hash, suite, item_id, category, ability, answer, body)
         SELECT $1, suite, item_id, category, ability, answer, body FROM items ORDER BY id OFFSET $2 LIMIT 1`,
        [hash, i],
      );
    const item = async (location: string, hash: string) => {
      const s = await openStore(location);
      try {
        return await s.getItem(hash);
      } finally {
        await s.close();
      }
    };
    const reply = async (location: string, key: string) => {
      const s = await openStore(location);
      try {
        return await s.getCached(key);
      } finally {
        await s.close();
      }
    };
    const [kind] = await pgQuery<{ relkind: string }>(
      url,
      "SELECT relkind FROM pg_class WHERE relname = 'scores' AND relnamespace = current_schema()::regnamespace",
    );
    expect(kind!.relkind).toBe('r');
    expect(await scoresOf(url)).toEqual(before);

    expect(await exportsOf(url, RUN)).toEqual(expected);
    const store = (await openStore(url)) as SqlStore;
    expect(await store.schemaVersion()).toBe(PG_MIGRATIONS.length);
    await store.close();
    expect(await scoresOf(url)).toEqual(before);
    // Every score by number: the fixture's details are short, each kept once in names.
    const [forms] = await pgQuery<{ rows: number; shared: number; details: number }>(
      url,
      'SELECT COUNT(*)::int AS rows, COUNT(detail_key)::int AS shared, COUNT(DISTINCT detail_key)::int AS details FROM score_rows',
    );
    expect(forms).toEqual({ rows: before.length, shared: before.length, details: new Set(before.map((s) => s.detail)).size });
    expect(new Set(before.map((s) => s.scorer)).size).toBeGreaterThan(1);
    // Each hex key as its 16 bytes; every reply found by its key, the others' too, here and copied to SQLite.
    const lengths = await pgQuery<{ n: number; bytes: number }>(
      url,
      'SELECT octet_length(key) AS bytes, COUNT(*)::int AS n FROM call_cache GROUP BY 1 ORDER BY 1',
    );
    expect(lengths).toEqual(
      [
        { bytes: 10, n: 1 },
        { bytes: 13, n: 1 },
        { bytes: 17, n: 1 },
        { bytes: 16, n: keys.length },
      ].sort((a, b) => a.bytes - b.bytes),
    );
    const lite = join(mkdtempSync(join(dir, 'copy-')), 'store.db');
    await copyStore(url, lite);
    for (const [i, key] of odd.entries()) {
      const want = await reply(url, keys[i]!);
      expect(want).toBeDefined();
      expect(await reply(url, key)).toEqual(want);
      expect(await reply(lite, key)).toEqual(want);
    }
    for (const key of keys) expect(await reply(lite, key)).toEqual(await reply(url, key));
    const again = await createTestSchema();
    await copyStore(lite, again);
    for (const key of [...keys, ...odd]) expect(await reply(again, key)).toEqual(await reply(url, key));
    // Each SHA-256 hash as its 32 bytes; every item found by its hash, the others' too.
    const hashBytes = await pgQuery<{ n: number; bytes: number }>(
      url,
      'SELECT octet_length(hash) AS bytes, COUNT(*)::int AS n FROM items GROUP BY 1 ORDER BY 1',
    );
    expect(hashBytes).toEqual([
      { bytes: 10, n: 1 },
      { bytes: 32, n: hashes.length },
      { bytes: 33, n: 1 },
    ]);
    for (const [i, hash] of oddHashes.entries()) {
      const want = await item(url, hashes[i]!);
      expect(want).toBeDefined();
      expect(await item(url, hash)).toEqual(want);
      expect(await item(lite, hash)).toEqual(want);
      expect(await item(again, hash)).toEqual(want);
    }
    for (const hash of hashes) expect(await item(again, hash)).toEqual(await item(url, hash));
  });

  it.skipIf(!pgAvailable)(
    `takes scores with long details beside short ones, in order, and copies to SQLite and back${pgSkipNote}`,
    async () => {
      const fixture = join(mkdtempSync(join(dir, 'v16-')), 'store.db');
      copyFileSync(join(FIXTURE, 'store-v16.sqlite'), fixture);
      const url = await createTestSchema();
      await copyStore(fixture, url);
      const store = await openStore(url);
      const first = JSON.parse(expected.jsonl.slice(0, expected.jsonl.indexOf('\n'))) as {
        subject_id: string;
        suite: string;
        item_id: string;
        replicate: number;
      };
      const key = { runId: RUN, subjectId: first.subject_id, suite: first.suite, itemId: first.item_id, replicate: first.replicate };
      const long = { reason: 'x'.repeat(300), values: [1, 2, 3] };
      await store.recordScore(key, { scorer: 'judge-long', value: 0.5, detail: long });
      await store.recordScore(key, { scorer: 'judge-short', value: 1, detail: { ok: true } });
      // Scored again: the value and detail replaced, its place kept.
      await store.recordScore(key, { scorer: 'judge-long', value: 0.25, detail: { ...long, again: true } });
      expect(await store.scoreOf(key, 'judge-long')).toEqual({ scorer: 'judge-long', value: 0.25, detail: { ...long, again: true } });
      expect(await store.scoreOf(key, 'judge-short')).toEqual({ scorer: 'judge-short', value: 1, detail: { ok: true } });
      await store.close();
      const [row] = await pgQuery<{ inline: number; shared: number }>(
        url,
        'SELECT COUNT(detail)::int AS inline, COUNT(detail_key)::int AS shared FROM score_rows s JOIN names n ON n.id = s.scorer_key WHERE n.name IN ($1, $2)',
        ['judge-long', 'judge-short'],
      );
      expect(row).toEqual({ inline: 1, shared: 1 });
      const [trial] = await pgQuery<{ id: number }>(
        url,
        'SELECT id::int AS id FROM trials WHERE run_id = $1 AND subject_id = $2 AND suite = $3 AND item_id = $4 AND replicate = $5',
        [key.runId, key.subjectId, key.suite, key.itemId, key.replicate],
      );
      const scorers = (await scoresOf(url)).filter((s) => s.trial_id === trial!.id);
      expect(scorers.map((s) => s.scorer).slice(-2)).toEqual(['judge-long', 'judge-short']);
      expect(scorers[0]!.scorer).toBe('mcq-exact');

      const withJudges = await exportsOf(url, RUN);
      expect(withJudges.jsonl).not.toEqual(expected.jsonl);
      expect(withJudges.jsonl).toContain('judge-long');
      const back = join(mkdtempSync(join(dir, 'back-')), 'store.db');
      await copyStore(url, back);
      expect(await exportsOf(back, RUN)).toEqual(withJudges);
      const again = await createTestSchema();
      await copyStore(back, again);
      expect(await exportsOf(again, RUN)).toEqual(withJudges);
    },
  );
});
