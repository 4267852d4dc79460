// Reading results back out of a store: accuracy tables and the response matrix (the latest run
// and the HTML report: write-run-report.ts). The CLI's status, report and export commands wrap these.

import { writeFileSync } from 'node:fs';
import { accuracyTable, type AccuracyGrouping } from '../analysis/index.js';
import { ConfigError, describeFileError } from '../core/index.js';
import type { ResponseMatrix, Store } from '../store/index.js';
import { buildMatrixFrom, collect, PROTOCOL_SCORES, writeMatrixCsv, writeMatrixParquet } from '../store/index.js';

/** Accuracy per subject and group (category, suite or ability) of a stored run. */
export async function runAccuracy(store: Store, runId: string, groupBy: AccuracyGrouping = 'category') {
  return accuracyTable(await collect(store.responses(runId, PROTOCOL_SCORES)), groupBy);
}

/** The run's matrix split into one matrix per suite (the audit's benchmarks). */
export async function runMatricesBySuite(
  store: Store,
  runId: string,
  replicate = 0,
): Promise<Array<{ name: string; matrix: ResponseMatrix }>> {
  const m = await runMatrix(store, runId, replicate);
  return [...new Set(m.items.map((i) => i.suite))].map((suite) => {
    const idx = m.items.map((it, i) => (it.suite === suite ? i : -1)).filter((i) => i >= 0);
    return { name: suite, matrix: { subjects: m.subjects, items: idx.map((i) => m.items[i]!), cells: idx.map((i) => m.cells[i]!) } };
  });
}

/** A stored run's response matrix (streamed from the store). */
export async function runMatrix(store: Store, runId: string, replicate?: number): Promise<ResponseMatrix> {
  return buildMatrixFrom(store.responses(runId, PROTOCOL_SCORES), { replicate });
}

/** Export a run's response matrix; the format follows the extension (.csv or .parquet). */
export async function exportMatrix(store: Store, runId: string, path: string, replicate?: number): Promise<ResponseMatrix> {
  if (!path.endsWith('.parquet') && !path.endsWith('.csv')) throw new ConfigError(`${path}: the output must end in .csv or .parquet`);
  const m = await runMatrix(store, runId, replicate);
  if (replicate !== undefined && m.items.length === 0) {
    const trials = (await store.getRun(runId))?.config.trials;
    throw new ConfigError(
      `run ${runId} has no scored trial of replicate ${replicate}${typeof trials === 'number' ? ` (its replicates are 0 to ${trials - 1})` : ''}`,
    );
  }
  try {
    if (path.endsWith('.parquet')) writeMatrixParquet(path, m);
    else writeMatrixCsv(path, m);
    // The matrix file keeps its documented layout; how the run was produced goes beside it.
    writeFileSync(`${path}.provenance.json`, `${JSON.stringify({ runId, provenance: await store.provenance(runId) }, null, 2)}\n`);
  } catch (err) {
    throw describeFileError(err, path);
  }
  return m;
}
