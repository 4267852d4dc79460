// Which backend a location names: `postgres://` or `postgresql://` URLs are PostgreSQL;
// `sqlite:FILE` or a plain path is a SQLite file.

import { PgStore } from './postgres/pg-store.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './store.js';

/** Whether a store location is a PostgreSQL URL. */
export function isPostgresLocation(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * Open the store a location names: a PostgreSQL URL (`postgres://user@host:5432/db`) or a
 * SQLite file (`mindscope.db`, `sqlite:path/to/file.db`). The default is `MINDSCOPE_DB`, else
 * `mindscope.db`.
 */
export async function openStore(location = process.env.MINDSCOPE_DB || 'mindscope.db'): Promise<Store> {
  if (isPostgresLocation(location)) return PgStore.open(location);
  return new SqliteStore(location.replace(/^sqlite:/i, ''));
}

/**
 * Open a store for reading only (the viewer): a SQLite file is opened read-only, so that it
 * never writes while a run writes the same file; a PostgreSQL database is opened as usual
 * (migrations are a no-op on an up-to-date schema) and only read.
 */
export async function openStoreForReading(location = process.env.MINDSCOPE_DB || 'mindscope.db'): Promise<Store> {
  if (isPostgresLocation(location)) return PgStore.open(location);
  return new SqliteStore(location.replace(/^sqlite:/i, ''), { readonly: true });
}
