// A calibration panel from stored runs (`irt calibrate --run-id`): the runs' response matrix
// (subjects are the models), each item's content hash as the runner stored it, and its number of
// options (for a 3PL floor of 1/k).

import { combineMatrices, irtItemKey } from '../analysis/index.js';
import { ConfigError } from '../core/index.js';
import { buildMatrixFrom, PROTOCOL_SCORES, type ResponseMatrix, type ResponseRow, type Store } from '../store/index.js';

export interface RunPanel {
  matrix: ResponseMatrix;
  /** Item content hash by irtItemKey(suite, id). */
  hashes: Map<string, string>;
  /** Number of options by irtItemKey(suite, id) (multiple-choice items). */
  options: Map<string, number>;
}

/** The panel of one or more stored runs; refuses runs whose same item has two different contents. */
export async function runPanel(store: Store, runIds: readonly string[]): Promise<RunPanel> {
  const hashes = new Map<string, string>();
  const matrices: ResponseMatrix[] = [];
  for (const runId of runIds) {
    if (!(await store.getRun(runId))) throw new ConfigError(`no run "${runId}" in ${store.location}`);
    async function* rows(): AsyncIterable<ResponseRow> {
      for await (const r of store.responses(runId, PROTOCOL_SCORES)) {
        const key = irtItemKey(r.suite, r.itemId);
        const seen = hashes.get(key);
        if (seen !== undefined && seen !== r.itemHash)
          throw new ConfigError(
            `item ${r.suite}/${r.itemId} has two different contents in the runs (hashes ${seen.slice(0, 12)}..., ${r.itemHash.slice(0, 12)}...): calibrate on runs of the same items`,
          );
        hashes.set(key, r.itemHash);
        yield r;
      }
    }
    const m = await buildMatrixFrom(rows());
    if (m.items.length === 0) throw new ConfigError(`run ${runId} has no scored trial`);
    matrices.push(m);
  }
  const options = new Map<string, number>();
  for (const [key, hash] of hashes) {
    const item = await store.getItem(hash);
    const opts = (item?.payload as { options?: unknown[] } | null | undefined)?.options;
    if (Array.isArray(opts) && opts.length > 1) options.set(key, opts.length);
  }
  return { matrix: matrices.length === 1 ? matrices[0]! : combineMatrices(matrices), hashes, options };
}
