// SQL straight on a SQLite store file (as a user's sqlite3 shell would), for tests that look
// beneath the store's API: rows a reader returns, or nothing after a write.

import Database from 'better-sqlite3';

/** Run one statement on the SQLite file at `location`: its rows, or [] for a write. */
export async function sqliteQuery(location: string, sql: string): Promise<Array<Record<string, unknown>>> {
  const db = new Database(location);
  try {
    const stmt = db.prepare(sql);
    if (stmt.reader) return stmt.all() as Array<Record<string, unknown>>;
    stmt.run();
    return [];
  } finally {
    db.close();
  }
}
