// A pass that reads a run once (SqlDriver.beginPass) reads SQLite without its file map and with
// a small page cache, so that memory does not grow with the run; the connection's settings come
// back when the last pass under way ends, whichever order passes end in.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/store/sql/schema-migrations.js';
import { SqliteDriver } from '../src/store/sqlite/sqlite-driver.js';

const settings = async (db: SqliteDriver) => ({
  mmap: Number((await db.all<{ mmap_size: number }>('PRAGMA mmap_size'))[0]!.mmap_size),
  cache: Number((await db.all<{ cache_size: number }>('PRAGMA cache_size'))[0]!.cache_size),
});

describe('a pass that reads much of a SQLite store once', () => {
  it('turns the file map off and the page cache down while passes are under way, and back after the last', async () => {
    const db = new SqliteDriver(join(mkdtempSync(join(tmpdir(), 'mindscope-pass-')), 'runs.db'), MIGRATIONS);
    try {
      const before = await settings(db);
      expect(before.mmap).toBeGreaterThan(0);
      const endA = db.beginPass();
      const during = await settings(db);
      expect(during.mmap).toBe(0);
      expect(during.cache).toBe(-2048);
      const endB = db.beginPass();
      endA();
      endA();
      expect(await settings(db)).toEqual(during);
      endB();
      expect(await settings(db)).toEqual(before);
    } finally {
      await db.close();
    }
  });
});
