export * from './store.js';
export { SqliteStore } from './sqlite/sqlite-store.js';
export { MIGRATIONS } from './sqlite/migrations.js';
export { GROUP_COMMIT_MS } from './sqlite/group-commit.js';
export * from './matrix/response-matrix.js';
export * from './matrix/parquet.js';

import { SqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './store.js';

/** Open the store at a path (SQLite). */
export function openStore(path = 'mindscope.db'): Store {
  return new SqliteStore(path);
}
