// The schema of a store as its database describes it (SQLite's sqlite_master and table_info,
// PostgreSQL's catalogs), in a stable order and free of the test schema's random name: what
// tests/store-schema.test.ts compares with tests/fixtures/store-schema/.

import Database from 'better-sqlite3';
import { pgQuery } from './postgres.js';

export interface SqliteSchema {
  userVersion: number;
  /** sqlite_master's rows: the CREATE statements exactly as stored. */
  objects: Array<{ type: string; name: string; tbl_name: string; sql: string | null }>;
  columns: Record<string, Array<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>>;
}

export function sqliteSchema(location: string): SqliteSchema {
  const db = new Database(location, { readonly: true });
  try {
    const objects = db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name').all() as SqliteSchema['objects'];
    const columns: SqliteSchema['columns'] = {};
    for (const t of objects.filter((o) => o.type === 'table')) {
      columns[t.name] = db
        .prepare('SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid')
        .all(t.name) as SqliteSchema['columns'][string];
    }
    return { userVersion: db.pragma('user_version', { simple: true }) as number, objects, columns };
  } finally {
    db.close();
  }
}

export interface PgSchema {
  version: number;
  columns: Record<string, Array<Record<string, unknown>>>;
  constraints: Array<Record<string, unknown>>;
  indexes: Array<Record<string, unknown>>;
  sequences: Array<Record<string, unknown>>;
}

/** The schema of the store at `url` (its search_path's first schema). */
export async function pgSchema(url: string): Promise<PgSchema> {
  const columns: PgSchema['columns'] = {};
  const rows = await pgQuery<Record<string, unknown> & { table_name: string }>(
    url,
    `SELECT table_name, column_name, ordinal_position, data_type, is_nullable, column_default
       FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
  );
  for (const { table_name, ...column } of rows) (columns[table_name] ??= []).push(column);
  const constraints = await pgQuery(
    url,
    `SELECT conrelid::regclass::text AS table_name, conname, contype, pg_get_constraintdef(oid) AS definition
       FROM pg_constraint WHERE connamespace = current_schema()::regnamespace ORDER BY 1, 2`,
  );
  const indexes = await pgQuery(
    url,
    `SELECT tablename, indexname, replace(indexdef, current_schema() || '.', '') AS indexdef
       FROM pg_indexes WHERE schemaname = current_schema() ORDER BY tablename, indexname`,
  );
  const sequences = await pgQuery(
    url,
    `SELECT sequence_name, data_type FROM information_schema.sequences WHERE sequence_schema = current_schema() ORDER BY 1`,
  );
  const [{ version }] = (await pgQuery<{ version: number }>(url, 'SELECT version FROM mindscope_schema')) as [{ version: number }];
  return { version, columns, constraints, indexes, sequences };
}
