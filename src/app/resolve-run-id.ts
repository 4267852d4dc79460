// Which run a command reads: the one named, or the store's newest.

import { ConfigError } from '../core/errors.js';
import type { Store } from '../store/store.js';

/** The given run id, or the newest run in the store. */
export async function resolveRunId(store: Store, runId?: string): Promise<string> {
  if (runId) {
    if (!(await store.getRun(runId))) throw new ConfigError(`no run "${runId}" in ${store.location}`);
    return runId;
  }
  const runs = await store.listRuns();
  if (runs.length === 0) throw new ConfigError(`no runs in ${store.location}`);
  return runs[runs.length - 1]!.id;
}
