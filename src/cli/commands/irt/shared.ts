// What the irt subcommands share: reading response matrices, hashing a suite's items, and
// printing percentages and JSON the same way in every subcommand.

import { createRegistry, loadSuite, readMatrixCsv, readMatrixParquet, type ResponseMatrix } from '../../../index.js';
import { itemHash } from '../../../runner/index.js';
import { irtItemKey } from '../../../analysis/index.js';
import { parseFieldMap } from '../../options.js';

export async function readMatrixFile(path: string): Promise<ResponseMatrix> {
  return path.endsWith('.parquet') ? readMatrixParquet(path, { anyCategory: true }) : readMatrixCsv(path, { anyCategory: true });
}

/** Content hashes (and option counts) of a suite's items, keyed by irtItemKey. */
export async function suiteItems(
  suite: string,
  data: string | undefined,
  fields: string | undefined,
): Promise<{ hashes: Map<string, string>; options: Map<string, number> }> {
  // --data is the data root of the suites that read files (as in run): a generated suite beside them takes none.
  const reads = createRegistry().suite(suite).needsData;
  const { items } = await loadSuite(suite, { data: reads ? data : undefined, seed: 0, fields: fields ? parseFieldMap(fields) : undefined });
  const hashes = new Map<string, string>();
  const options = new Map<string, number>();
  for (const item of items) {
    const key = irtItemKey(item.suite, item.id);
    hashes.set(key, itemHash(item));
    const opts = (item.payload as { options?: unknown[] } | null)?.options;
    if (Array.isArray(opts) && opts.length > 1) options.set(key, opts.length);
  }
  return { hashes, options };
}

export const pct = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? '-' : (100 * x).toFixed(1));
export const print = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
};
