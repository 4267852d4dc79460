// Schema 15 (trial rows name their run, subject, suite and item by number) on a store an older
// mindscope wrote: tests/fixtures/store-v14/ holds a schema-14 store and the exports that
// mindscope made of it (make-fixture.mjs). Migrated, on SQLite and on PostgreSQL (the same rows
// loaded into a schema-14 database), the store exports the same bytes; a migration that could
// not copy every trial is rolled back, leaving the store as it was.

import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';
import { MIGRATIONS, PG_MIGRATIONS } from '../src/store/index.js';
import { createTestSchema, dropTestDatabases, pgAvailable, pgQuery, pgSkipNote } from './helpers/postgres.js';
import { sqliteQuery } from './helpers/sqlite.js';
import { exportRun, readExports, type RunExports } from './helpers/store-exports.js';

afterAll(() => dropTestDatabases());

const FIXTURE = join(import.meta.dirname, 'fixtures', 'store-v14');
const dir = mkdtempSync(join(tmpdir(), 'mindscope-name-keys-'));
const RUN = 'run-68a6d1788531';
const TRIALS = 25;

/** A copy of the schema-14 fixture store. */
function sqliteV14(tag: string): string {
  const location = join(mkdtempSync(join(dir, `${tag}-`)), 'store.db');
  copyFileSync(join(FIXTURE, 'store-v14.sqlite'), location);
  return location;
}

/** A PostgreSQL database at schema 14 holding the fixture's rows (the tables an export reads). */
async function pgV14(): Promise<string> {
  const url = await createTestSchema();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const lite = new Database(join(FIXTURE, 'store-v14.sqlite'), { readonly: true });
  try {
    await client.query('CREATE TABLE mindscope_schema (version INTEGER NOT NULL); INSERT INTO mindscope_schema (version) VALUES (14)');
    for (const m of PG_MIGRATIONS.slice(0, 14)) await client.query(m);
    const tables = ['runs', 'subjects', 'run_plan', 'items', 'trials', 'transcripts', 'scores', 'prompt_blobs'];
    for (const table of tables) {
      // In insertion order: scores' seq (PostgreSQL's insertion order) follows SQLite's rowid.
      for (const row of lite.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all() as Array<Record<string, unknown>>) {
        if (table === 'items' && typeof row.body !== 'string') row.body = inflateRawSync(row.body as Buffer).toString('utf8');
        const columns = Object.keys(row);
        await client.query(
          `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
          columns.map((c) => row[c]),
        );
      }
    }
  } finally {
    lite.close();
    await client.end();
  }
  return url;
}

/** The store's exports, as text: the JSONL and each Inspect log by file name. */
async function exportsOf(location: string): Promise<RunExports> {
  const { exports, schemaVersion } = await exportRun(location, RUN, dir);
  expect(schemaVersion).toBe(MIGRATIONS.length);
  return exports;
}

const expected = readExports(FIXTURE);

describe('schema 15 on a store written at schema 14', () => {
  it('the fixture holds every kind of row an export reads', () => {
    const rows = expected.jsonl
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows).toHaveLength(TRIALS);
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['done', 'failed']));
    expect(rows.some((r) => Object.keys(r.judge_scores as object).length > 0)).toBe(true);
    expect(Object.keys(expected.logs)).toHaveLength(2);
  });

  it('SQLite: migrated, the store exports the bytes it exported before, from numbered rows', async () => {
    const location = sqliteV14('lite');
    expect(await exportsOf(location)).toEqual(expected);
    // The rows name their keys by number; the view gives them back as text.
    const [row] = await sqliteQuery(
      location,
      'SELECT typeof(run_key) AS run, typeof(item_key) AS item, typeof(item_ref) AS ref, COUNT(*) AS n FROM trial_rows',
    );
    expect(row).toEqual({ run: 'integer', item: 'integer', ref: 'integer', n: TRIALS });
    expect(await sqliteQuery(location, `SELECT COUNT(*) AS n FROM trials WHERE run_id = '${RUN}'`)).toEqual([{ n: TRIALS }]);
  });

  it.skipIf(!pgAvailable)(`PostgreSQL: migrated, the same rows export the same bytes${pgSkipNote}`, async () => {
    const url = await pgV14();
    expect(await exportsOf(url)).toEqual(expected);
    const columns = await pgQuery<{ column_name: string }>(
      url,
      `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'trial_rows'`,
    );
    expect(columns.map((c) => c.column_name)).not.toContain('run_id');
    expect(columns.map((c) => c.column_name)).toContain('run_key');
  });

  it('SQLite: a trial the migration cannot copy stops it, and the store stays at schema 14 with every row', async () => {
    const location = sqliteV14('refuse');
    // A row an older writer left without its item (foreign keys off), as a damaged store may hold.
    const raw = new Database(location);
    raw.pragma('foreign_keys = OFF');
    raw
      .prepare(
        `INSERT INTO trials (run_id, subject_id, suite, item_id, replicate, item_hash, status, attempts, finished_at)
         SELECT run_id, subject_id, suite, item_id, 9, 'no-such-item', 'failed', 1, finished_at FROM trials LIMIT 1`,
      )
      .run();
    raw.close();
    await expect(openStore(location)).rejects.toThrow(/CHECK constraint failed/);
    const db = new Database(location, { readonly: true });
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(14);
      expect(db.prepare('SELECT COUNT(*) AS n FROM trials').get()).toEqual({ n: TRIALS + 1 });
      expect(db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE name IN ('names', 'trial_rows')").get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
    // Repaired, it migrates and exports as before.
    await sqliteQuery(location, "DELETE FROM trials WHERE item_hash = 'no-such-item'");
    expect(await exportsOf(location)).toEqual(expected);
  });

  it.skipIf(!pgAvailable)(`PostgreSQL: a trial the migration cannot copy rolls it back${pgSkipNote}`, async () => {
    const url = await pgV14();
    await pgQuery(
      url,
      `SET session_replication_role = replica;
       INSERT INTO trials (id, run_id, subject_id, suite, item_id, replicate, item_hash, status, attempts, finished_at)
         SELECT 1000, run_id, subject_id, suite, item_id, 9, 'no-such-item', 'failed', 1, finished_at FROM trials LIMIT 1;`,
    );
    await expect(openStore(url)).rejects.toThrow(/migration_check/);
    expect(await pgQuery(url, 'SELECT version FROM mindscope_schema')).toEqual([{ version: 14 }]);
    expect(await pgQuery(url, 'SELECT COUNT(*)::int AS n FROM trials')).toEqual([{ n: TRIALS + 1 }]);
    expect(await pgQuery(url, "SELECT to_regclass('names') AS t")).toEqual([{ t: null }]);
    await pgQuery(url, "DELETE FROM trials WHERE item_hash = 'no-such-item'");
    expect(await exportsOf(url)).toEqual(expected);
  });
});
