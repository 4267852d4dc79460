// Schema 17 (prompt blobs keyed by number in prompt_texts; in SQLite item hashes, cache keys and
// finish times kept compactly) on a store an older mindscope wrote: tests/fixtures/store-v16/
// holds a schema-16 store, some of its values compressed against dictionaries and some not, and
// the exports that mindscope made of it (make-fixture.mjs). Migrated, the store exports the same
// bytes, finds its cached replies, and writes new trials beside the old ones; copied to
// PostgreSQL and back, the same.

import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';
import { copyStore, MIGRATIONS, type SqlStore } from '../src/store/index.js';
import { SqliteDriver } from '../src/store/sqlite/sqlite-driver.js';
import { blobLoader, blobRef, insertBlobs } from '../src/store/sql/blob-rows.js';
import { minimalOutcome } from './helpers/outcomes.js';
import { createTestSchema, dropTestDatabases, pgAvailable, pgSkipNote } from './helpers/postgres.js';
import { sqliteQuery } from './helpers/sqlite.js';
import { exportRun, readExports, type RunExports } from './helpers/store-exports.js';

afterAll(() => dropTestDatabases());

const FIXTURE = join(import.meta.dirname, 'fixtures', 'store-v16');
const dir = mkdtempSync(join(tmpdir(), 'mindscope-compact-trials-'));
const TRIALS = 65;

/** A copy of the schema-16 fixture store. */
function sqliteV16(tag: string): string {
  const location = join(mkdtempSync(join(dir, `${tag}-`)), 'store.db');
  copyFileSync(join(FIXTURE, 'store-v16.sqlite'), location);
  return location;
}

const runOf = (jsonl: string): string => (JSON.parse(jsonl.slice(0, jsonl.indexOf('\n'))) as { run_id: string }).run_id;

/** The store's exports of a run, as text: the JSONL and each Inspect log by file name. */
async function exportsOf(location: string, run: string): Promise<RunExports> {
  const { exports, schemaVersion } = await exportRun(location, run, dir);
  expect(schemaVersion).toBe(MIGRATIONS.length);
  return exports;
}

const expected = readExports(FIXTURE);
const RUN = runOf(expected.jsonl);

/** The fixture's cache keys (SHA-256 hex) and the rows' forms before migration. */
function fixtureFacts(): { keys: string[]; framed: number } {
  // A copy: opening the fixture itself would leave SQLite's shared-memory file beside it.
  const db = new Database(sqliteV16('facts'), { readonly: true });
  try {
    const keys = (db.prepare('SELECT lower(hex(key)) AS k FROM call_cache ORDER BY key').all() as Array<{ k: string }>).map((r) => r.k);
    const { n } = db.prepare("SELECT COUNT(*) AS n FROM transcripts WHERE typeof(body) = 'blob'").get() as { n: number };
    return { keys, framed: n };
  } finally {
    db.close();
  }
}

describe('schema 17 on a store written at schema 16', () => {
  it('the fixture holds every kind of row an export reads, compressed and not', () => {
    const rows = expected.jsonl
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows).toHaveLength(TRIALS);
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['done', 'failed']));
    expect(rows.some((r) => Object.keys(r.judge_scores as object).length > 0)).toBe(true);
    const facts = fixtureFacts();
    expect(facts.keys.length).toBeGreaterThan(0);
    expect(facts.keys[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(facts.framed).toBeGreaterThan(0);
  });

  it('SQLite: migrated, the store exports the bytes it exported before, from compact rows, and finds its cached replies', async () => {
    const location = sqliteV16('lite');
    // A finish time that no Date gives back as written stays text.
    await sqliteQuery(location, "UPDATE trial_rows SET finished_at = '2026-01-02 03:04:05' WHERE id = (SELECT MAX(id) FROM trial_rows)");
    const odd = await sqliteQuery(location, 'SELECT id FROM trial_rows WHERE id = (SELECT MAX(id) FROM trial_rows)');
    const { jsonl, logs } = await exportsOf(location, RUN);
    const oddId = Number(odd[0]!.id);
    const lines = jsonl.trim().split('\n');
    const wanted = expected.jsonl.trim().split('\n');
    expect(lines).toHaveLength(wanted.length);
    // Every line as before but the one whose finish time was changed above.
    const changed = lines.flatMap((l, i) => (l === wanted[i] ? [] : [i]));
    expect(changed).toHaveLength(1);
    expect((JSON.parse(lines[changed[0]!]!) as { finished_at: string }).finished_at).toBe('2026-01-02 03:04:05');
    expect(Object.keys(logs)).toEqual(Object.keys(expected.logs));
    const [times] = await sqliteQuery(
      location,
      `SELECT SUM(typeof(finished_at) = 'integer') AS ms, SUM(typeof(finished_at) = 'text') AS text FROM trial_rows WHERE id <> ${oddId}`,
    );
    expect(times).toEqual({ ms: TRIALS - 1, text: 0 });
    expect(await sqliteQuery(location, `SELECT typeof(finished_at) AS t FROM trial_rows WHERE id = ${oddId}`)).toEqual([{ t: 'text' }]);
    expect(await sqliteQuery(location, 'SELECT DISTINCT typeof(hash) AS t, length(hash) AS n FROM items')).toEqual([{ t: 'blob', n: 32 }]);
    expect(await sqliteQuery(location, 'SELECT DISTINCT length(key) AS n FROM call_cache')).toEqual([{ n: 16 }]);
    const store = await openStore(location);
    for (const key of fixtureFacts().keys) expect(await store.getCached(key)).toMatchObject({ text: expect.any(String) });
    await store.close();
  });

  it('SQLite: the whole fixture exports as before once migrated, and still does beside new trials', async () => {
    const location = sqliteV16('beside');
    expect(await exportsOf(location, RUN)).toEqual(expected);
    const store = await openStore(location);
    await store.createRun({ id: 'new', createdAt: 'now', config: {} });
    await store.upsertSubject({ id: 's', spec: 'agent:oracle', settings: {} });
    const [item] = await store.trialItemHashes(RUN);
    // Recorded at once: the store commits them together.
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        store.recordDone(
          { runId: 'new', subjectId: 's', suite: item!.suite, itemId: item!.itemId, replicate: i },
          item!.itemHash,
          minimalOutcome(1, { options: ['x', 'y', `${i}`], ms: 20.780693000000156 + i / 7, whole: 3281403374, note: `needle-${i}.` }),
          1,
        ),
      ),
    );
    await store.close();
    expect(await exportsOf(location, RUN)).toEqual(expected);
    const again = await openStore(location);
    const read = await again.transcript({ runId: 'new', subjectId: 's', suite: item!.suite, itemId: item!.itemId, replicate: 7 });
    // A long number (kept as its 8 bytes) comes back as the same double.
    expect(read?.transcript.detail).toEqual({
      options: ['x', 'y', '7'],
      ms: 20.780693000000156 + 7 / 7,
      whole: 3281403374,
      note: 'needle-7.',
    });
    // Written together, the transcripts are kept in blocks, each row its place in one; the viewer's search reads them.
    expect(await (again as SqlStore).browser().count({ runId: 'new', search: 'needle-7.' })).toBe(1);
    await again.close();
    const [blocks] = await sqliteQuery(location, 'SELECT COUNT(*) AS n FROM transcript_blocks');
    expect(Number(blocks!.n)).toBeGreaterThan(0);
    const [members] = await sqliteQuery(
      location,
      "SELECT COUNT(*) AS n FROM transcripts WHERE typeof(body) = 'blob' AND substr(hex(body), 1, 2) = '07'",
    );
    expect(Number(members!.n)).toBeGreaterThan(20);
  });

  it.skipIf(!pgAvailable)(`PostgreSQL: the migrated store copied there and back exports the same bytes${pgSkipNote}`, async () => {
    const location = sqliteV16('copy');
    const url = await createTestSchema();
    await copyStore(location, url);
    expect(await exportsOf(url, RUN)).toEqual(expected);
    const back = join(mkdtempSync(join(dir, 'back-')), 'store.db');
    await copyStore(url, back);
    expect(await exportsOf(back, RUN)).toEqual(expected);
    const store = await openStore(url);
    for (const key of fixtureFacts().keys) expect(await store.getCached(key)).toMatchObject({ text: expect.any(String) });
    await store.close();
  });
});

describe('prompt blobs keyed by number', () => {
  it('stores a text once under its reference, reads it back, and refuses another text under the same key', async () => {
    const db = new SqliteDriver(':memory:', MIGRATIONS);
    try {
      const ref = blobRef('Ann put the ball in the box.');
      expect(ref).toMatch(/^[A-Za-z0-9_-]{11}$/);
      await db.transaction((tx) => insertBlobs(tx, db.codec, [[ref, 'Ann put the ball in the box.']]));
      // The same text again (another process wrote it first): nothing changes.
      await db.transaction((tx) => insertBlobs(tx, db.codec, [[ref, 'Ann put the ball in the box.']]));
      expect(await blobLoader(db)([ref])).toEqual([{ hash: ref, body: 'Ann put the ball in the box.' }]);
      // Another text whose key is the same (as if its hash began with the same 63 bits) is refused, naming it.
      await expect(db.transaction((tx) => insertBlobs(tx, db.codec, [[ref, 'Bob took the ball.']]))).rejects.toThrow(ref);
      expect(await db.all('SELECT COUNT(*) AS n FROM prompt_texts')).toEqual([{ n: 1 }]);
    } finally {
      await db.close();
    }
  });
});
