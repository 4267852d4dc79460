// The PostgreSQL store, for many processes on many machines: the shared store's SQL
// (sql/sql-store.ts) over a connection pool. Open it with PgStore.open(url) (it connects and
// migrates), or through openStore('postgres://...').

import { postgresJournalDir } from '../sql/reply-journal.js';
import { SqlStore } from '../sql/sql-store.js';
import { PG_MIGRATIONS } from '../sql/schema-migrations.js';
import { PgDriver } from './pg-driver.js';

/** The store on a PostgreSQL database (open with PgStore.open or openStore). */
export class PgStore extends SqlStore {
  private constructor(
    driver: PgDriver,
    /** The connection URL (with its password), for components that connect on their own (the queue). */
    readonly url: string,
  ) {
    // Replies not yet committed are journaled in the user's cache folder, by database.
    super(driver, { journalDir: postgresJournalDir(driver.location) });
  }

  /** Connect to the database at `url` and bring its schema up to date. */
  static async open(url: string): Promise<PgStore> {
    return new PgStore(await PgDriver.open(url, PG_MIGRATIONS), url);
  }
}
