// Commands that only read results (status, report, export, compare, runs, view) open a store that
// must be there: a mistyped --db would otherwise create an empty SQLite file and report "no runs".
// They all say the same when it is not: the messages are made here.

import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, isPostgresLocation, openStore, resolveRunId } from '../run-report.js';
import type { Store } from '../store/index.js';

/** Refuse a --db that names no store: empty, a SQLite file that is not there, or a folder. */
export function assertStoreExists(location: string): void {
  if (!location.trim()) throw new ConfigError('--db is empty: name an existing SQLite file or postgres:// URL');
  if (isPostgresLocation(location)) return;
  const path = location.replace(/^sqlite:/i, '');
  if (path === ':memory:') return;
  if (!existsSync(path))
    throw new ConfigError(
      `no store at ${resolve(path)} (--db): name an existing SQLite file or postgres:// URL, or run "mindscope run" first`,
    );
  if (statSync(path).isDirectory())
    throw new ConfigError(`no store at ${resolve(path)} (--db): it is a folder; name the SQLite file in it`);
}

/** Open an existing store; a SQLite file that is not there is refused, naming the path. */
async function openExistingStore(location: string): Promise<Store> {
  assertStoreExists(location);
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

/** Open an existing store, run `fn`, close the store: for commands that read every run. */
export async function withExistingStore<T>(location: string, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openExistingStore(location);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
