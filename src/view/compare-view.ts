// The Compare view: subjects on the same items, with the paired statistics `mindscope compare`
// computes (comparePaired) and the items split by who got them right.

import { comparePaired } from '../analysis/index.js';
import { ConfigError } from '../core/index.js';
import { runMatrix } from '../index.js';
import type { Store } from '../store/index.js';
import type { CompareView } from './api-types.js';

/** Compare `subjects` (specs; default: every subject of the run) on one replicate of a run. */
export async function compareView(store: Store, runId: string, subjects: string[] | undefined, replicate = 0): Promise<CompareView> {
  const matrix = await runMatrix(store, runId, replicate);
  const chosen = subjects?.length ? subjects : matrix.subjects;
  if (chosen.length < 2) throw new ConfigError(`compare needs two subjects or more; run ${runId} has ${matrix.subjects.length} scored`);
  const cells = comparePaired(matrix, { subjects: chosen });
  const columns = chosen.map((s) => matrix.subjects.indexOf(s));
  const counts = { bothRight: 0, bothWrong: 0, onlyA: 0, onlyB: 0, missing: 0 };
  const items = matrix.items.map((it, i) => {
    const values = columns.map((c) => matrix.cells[i]?.[c] ?? null);
    const [a, b] = values;
    if (a === null || b === null || a === undefined || b === undefined) counts.missing++;
    else if (a >= 1 && b >= 1) counts.bothRight++;
    else if (a >= 1) counts.onlyA++;
    else if (b >= 1) counts.onlyB++;
    else counts.bothWrong++;
    return { suite: it.suite, itemId: it.itemId, category: it.category, values };
  });
  return { subjects: chosen, replicate, cells, items, counts };
}
