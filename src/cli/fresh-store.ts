// A command that creates a store file and then fails (a bad model spec, a log file that does not
// parse) should not leave an empty database behind, where the user would look for results.

import { existsSync } from 'node:fs';
import { isPostgresLocation, openStore } from '../run-report.js';
import { discardUnusedSqliteStore, type Store } from '../store/index.js';

/**
 * Open the store at `location` for `fn`, and close it. When `location` is a SQLite file this
 * call created and `fn` fails, the file is removed again if nothing was stored in it and no other
 * process has it open (discardUnusedSqliteStore). A store that existed before is never removed.
 */
export async function withStore<T>(location: string, fn: (store: Store) => Promise<T>): Promise<T> {
  const path = location.replace(/^sqlite:/i, '');
  const created = !isPostgresLocation(location) && path !== ':memory:' && !existsSync(path);
  const store = await openStore(location);
  let failed = false;
  try {
    return await fn(store);
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    await store.close().catch(() => {});
    if (failed && created && store.backend === 'sqlite') discardUnusedSqliteStore(path);
  }
}
