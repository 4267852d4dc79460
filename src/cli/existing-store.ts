// Commands that only read results (status, report, export, compare) open a store that must be
// there: a mistyped --db would otherwise create an empty SQLite file and report "no runs".

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, isPostgresLocation, openStore, resolveRunId } from '../run-report.js';
import type { Store } from '../store/index.js';

/** Open an existing store; a SQLite file that is not there is refused, naming the path. */
async function openExistingStore(location: string): Promise<Store> {
  if (!isPostgresLocation(location)) {
    const path = location.replace(/^sqlite:/i, '');
    if (path !== ':memory:' && !existsSync(path))
      throw new ConfigError(
        `no store at ${resolve(path)} (--db): name an existing SQLite file or postgres:// URL, or run "mindscope run" first`,
      );
  }
  return openStore(location);
}

/** Open an existing store, resolve the run (`runId`, default the newest), run `fn`, close the store. */
export async function withExistingRun<T>(
  location: string,
  runId: string | undefined,
  fn: (store: Store, runId: string) => Promise<T>,
): Promise<T> {
  const store = await openExistingStore(location);
  try {
    return await fn(store, await resolveRunId(store, runId));
  } finally {
    await store.close();
  }
}
