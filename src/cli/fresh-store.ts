// A command that creates a store file and then fails (a bad model spec, a log file that does not
// parse) should not leave an empty database behind, where the user would look for results.

import { existsSync, rmSync } from 'node:fs';
import { isPostgresLocation, openStore } from '../run-report.js';
import type { Store } from '../store/index.js';

/**
 * Open the store at `location` for `fn`, and close it. When `location` is a SQLite file this
 * call created and `fn` fails before any run is stored in it, the file (and its WAL and shared
 * memory files) is removed again. A store that existed before is never removed.
 */
export async function withStore<T>(location: string, fn: (store: Store) => Promise<T>): Promise<T> {
  const path = location.replace(/^sqlite:/i, '');
  const created = !isPostgresLocation(location) && path !== ':memory:' && !existsSync(path);
  const store = await openStore(location);
  try {
    return await fn(store);
  } catch (err) {
    if (created && store.backend === 'sqlite' && (await store.listRuns().catch(() => [undefined])).length === 0) {
      await store.close().catch(() => {});
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    }
    throw err;
  } finally {
    await store.close().catch(() => {});
  }
}
