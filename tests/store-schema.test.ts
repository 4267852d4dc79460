// The schema a new store gets, on both backends, against the one recorded in
// tests/fixtures/store-schema/: a change to the migrations (sql/schema-migrations.ts) that alters
// an existing table, column or index fails here. A new migration changes the schema on purpose:
// regenerate the fixtures with MINDSCOPE_WRITE_SCHEMA_FIXTURES=1 and review their diff.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';
import { MIGRATIONS, PG_MIGRATIONS } from '../src/store/index.js';
import { createTestSchema, dropTestDatabases, pgAvailable, pgSkipNote } from './helpers/postgres.js';
import { type PgSchema, pgSchema, type SqliteSchema, sqliteSchema } from './helpers/store-schema.js';

afterAll(() => dropTestDatabases());

const fixture = (name: string) => join(import.meta.dirname, 'fixtures', 'store-schema', name);
const write = process.env.MINDSCOPE_WRITE_SCHEMA_FIXTURES === '1';

/** The fixture's content; with MINDSCOPE_WRITE_SCHEMA_FIXTURES=1, `actual` written to it first. */
function recorded<T>(name: string, actual: T): T {
  if (write) writeFileSync(fixture(name), `${JSON.stringify(actual, null, 2)}\n`);
  return JSON.parse(readFileSync(fixture(name), 'utf8')) as T;
}

async function freshSqlite(): Promise<SqliteSchema> {
  const location = join(mkdtempSync(join(tmpdir(), 'mindscope-schema-')), 'store.db');
  await (await openStore(location)).close();
  return sqliteSchema(location);
}

async function freshPg(): Promise<PgSchema> {
  const location = await createTestSchema();
  await (await openStore(location)).close();
  return pgSchema(location);
}

describe('store schema', () => {
  it('a new SQLite store has the recorded schema, CREATE statements byte for byte', async () => {
    const actual = await freshSqlite();
    expect(actual.userVersion).toBe(MIGRATIONS.length);
    expect(actual).toEqual(recorded('sqlite.json', actual));
  });

  it.skipIf(!pgAvailable)(`a new PostgreSQL store has the recorded schema${pgSkipNote}`, async () => {
    const actual = await freshPg();
    expect(actual.version).toBe(PG_MIGRATIONS.length);
    expect(actual).toEqual(recorded('postgres.json', actual));
  });

  it('both recorded schemas hold the same tables, columns and indexes', () => {
    const lite = JSON.parse(readFileSync(fixture('sqlite.json'), 'utf8')) as SqliteSchema;
    const pg = JSON.parse(readFileSync(fixture('postgres.json'), 'utf8')) as PgSchema;
    // PostgreSQL's seq columns keep insertion order where SQLite has its rowid; mindscope_schema holds its version.
    // Views (trials) are compared by name: PostgreSQL lists their columns, SQLite's record does not.
    // Both keep scores in score_rows, the scorer by number (scorer_key), and a short detail once:
    // SQLite in score_details (its alone), the row's detail holding its number; PostgreSQL in
    // names, the row's detail_key holding its number (its alone) where detail is null.
    const views = lite.objects.filter((o) => o.type === 'view').map((o) => o.name);
    expect(views).toEqual(['scores', 'trials']);
    // PostgreSQL keeps item bodies, prompt texts and transcripts in blocks of its own (text_blocks), each row its block and place.
    const pgOnly: Record<string, string[]> = {
      score_rows: ['detail_key'],
      items: ['block', 'place'],
      prompt_texts: ['block', 'place'],
      transcripts: ['block', 'place'],
    };
    const pgColumns = Object.fromEntries(
      Object.entries(pg.columns)
        .filter(([table]) => table !== 'mindscope_schema' && table !== 'text_blocks' && !views.includes(table))
        .map(([table, cols]) => [
          table,
          cols
            .map((c) => String(c.column_name))
            .filter((c) => c !== 'seq' && !pgOnly[table]?.includes(c))
            .sort(),
        ]),
    );
    // SQLite's insertion order is the rowid, PostgreSQL's the seq column: a SQLite table that is
    // its own index (scores) declares its rowid as a column, PostgreSQL's seq is left out above.
    const liteColumns = Object.fromEntries(
      Object.entries(lite.columns)
        .filter(([table]) => table !== 'score_details')
        .map(([table, cols]) => [
          table,
          cols
            .map((c) => c.name)
            .filter((c) => c !== 'rowid')
            .sort(),
        ]),
    );
    expect(pgColumns).toEqual(liteColumns);
    const named = (names: string[]) =>
      names.filter((n) => !n.startsWith('sqlite_autoindex_') && !n.endsWith('_pkey') && !n.endsWith('_key')).sort();
    expect(named(pg.indexes.map((i) => String(i.indexname)))).toEqual(
      named(lite.objects.filter((o) => o.type === 'index').map((o) => o.name)),
    );
  });
});
