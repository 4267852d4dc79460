// Work shared by several processes on one store: each row is leased before it is worked on,
// so that a second process helps instead of repeating it (and paying for its calls again).
// Rows another process holds are tried again at the end: finished by it (the worker sees
// the result and counts it as done before), or taken over when its lease lapses (it was
// killed; at once when it ran on this machine).

import type { TrialKey } from '../core/index.js';
import { type LeaseKeeper, sleep } from '../runner/index.js';

/**
 * The rows this process may work on, each leased first; `keyOf` names each row's lease (its
 * runId a namespace of the work). Leases are claimed `ahead` at a time (the workers' number),
 * so that other processes find rows left to take.
 */
export async function* leasedRows<R>(
  rows: readonly R[],
  keyOf: (row: R) => TrialKey,
  leases: LeaseKeeper,
  namespace: string,
  ahead: number,
): AsyncGenerator<R> {
  let pending = [...rows];
  while (pending.length) {
    const held: R[] = [];
    for (let i = 0; i < pending.length; i += ahead) {
      const batch = pending.slice(i, i + ahead);
      const claims = await leases.claim(batch.map(keyOf));
      for (let k = 0; k < batch.length; k++) {
        if (claims[k] === 'held') held.push(batch[k]!);
        else yield batch[k]!;
      }
    }
    if (held.length) {
      await sleep(Math.min(1000, leases.ttlMs / 2));
      await leases.reapDeadLocal(namespace);
      await leases.store.recoverReplies();
    }
    pending = held;
  }
}
