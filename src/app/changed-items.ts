// Data files change under a run: an item edited since its trials were made must not keep its
// stale results silently. Each trial stores the content hash of the item it ran; an item whose
// current hash differs from a stored one is changed. Its trials are discarded so that they run
// again, or, with `frozen`, the run is refused.

import { ConfigError, type Task } from '../core/index.js';
import { itemHash } from '../runner/index.js';
import type { Store } from '../store/index.js';

export interface ChangedItems {
  /** Items of the run whose content changed since their trials were made. */
  changed: Array<{ suite: string; itemId: string }>;
  /** Stored trials discarded to run again. */
  discarded: number;
}

/** Find the run's items changed since their trials were stored; discard those trials, or refuse when `frozen`. */
export async function reconcileChangedItems(
  store: Store,
  runId: string,
  tasks: Task[],
  opts: { frozen?: boolean } = {},
): Promise<ChangedItems> {
  const stored = await store.trialItemHashes(runId);
  if (stored.length === 0) return { changed: [], discarded: 0 };
  const current = new Map<string, string>();
  for (const t of tasks) for (const item of t.items) current.set(`${t.suite}\u0000${item.id}`, itemHash(item));
  const seen = new Set<string>();
  const changed: ChangedItems['changed'] = [];
  for (const r of stored) {
    const k = `${r.suite}\u0000${r.itemId}`;
    const now = current.get(k);
    if (now === undefined || now === r.itemHash || seen.has(k)) continue;
    seen.add(k);
    changed.push({ suite: r.suite, itemId: r.itemId });
  }
  if (changed.length === 0) return { changed, discarded: 0 };
  const names = changed
    .slice(0, 5)
    .map((c) => `${c.suite}/${c.itemId}`)
    .join(', ');
  const list = `${names}${changed.length > 5 ? `, and ${changed.length - 5} more` : ''}`;
  if (opts.frozen)
    throw new ConfigError(
      `run ${runId}: ${changed.length} item(s) changed since their trials were made (${list}); --frozen refuses to re-run them (drop --frozen to re-run them, or restore the data)`,
    );
  return { changed, discarded: await store.discardItemTrials(runId, changed) };
}
