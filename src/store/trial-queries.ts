// The viewer's way into a store's trial queries (sql/trial-browser.ts): every built-in store is
// a SQL store; a store of another kind cannot be browsed.

import { MindscopeError } from '../core/index.js';
import { SqlStore } from './sql/sql-store.js';
import type { TrialBrowser } from './sql/trial-browser.js';
import type { Store } from './store.js';

export type { RunActivity, TrialBrowser, TrialFacets, TrialListRow, TrialPageRows, TrialQuery, TrialSort } from './sql/trial-browser.js';

/** Page-by-page trial queries (filters, search, counts, facets) over a SQLite or PostgreSQL store. */
export function trialBrowser(store: Store): TrialBrowser {
  if (store instanceof SqlStore) return store.browser();
  throw new MindscopeError(`${store.location}: this store (${store.backend}) cannot be browsed: only SQL stores can`);
}
