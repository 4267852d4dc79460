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
