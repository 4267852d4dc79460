// The default store: one SQLite file (better-sqlite3, WAL), no server needed. The SQL is the
// shared store's (sql/sql-store.ts); this file only opens the file and migrates it.

import { SqlStore } from '../sql/sql-store.js';
import { MIGRATIONS } from '../sql/schema-migrations.js';
import { SqliteDriver } from './sqlite-driver.js';

/** The store in one SQLite file (the default backend). */
export class SqliteStore extends SqlStore {
  /** Open (and create or migrate) the SQLite store at `path` (`:memory:` for a private in-memory one); `readonly` opens an existing, migrated file without writing. */
  constructor(path: string, options: { readonly?: boolean } = {}) {
    const driver = new SqliteDriver(path, MIGRATIONS, options);
    // Replies not yet committed are journaled beside the file (a folder that exists only while they are).
    super(driver, { journalDir: path === ':memory:' || options.readonly ? undefined : `${driver.location}-replies` });
  }
}
