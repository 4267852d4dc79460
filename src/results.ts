// Reading results back out of a store: the latest run, accuracy tables, the HTML report and
// the response matrix. The CLI's status, report and export commands wrap these.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { accuracyTable, type AccuracyGrouping } from './analysis/index.js';
import { ConfigError } from './core/index.js';
import { renderHtmlReport } from './report/index.js';
import type { ResponseMatrix, Store } from './store/index.js';
import { buildMatrix, writeMatrixCsv, writeMatrixParquet } from './store/index.js';

/** The given run id, or the newest run in the store. */
export function resolveRunId(store: Store, runId?: string): string {
  if (runId) {
    if (!store.getRun(runId)) throw new ConfigError(`no run "${runId}" in ${store.location}`);
    return runId;
  }
  const runs = store.listRuns();
  if (runs.length === 0) throw new ConfigError(`no runs in ${store.location}`);
  return runs[runs.length - 1].id;
}

export function runAccuracy(store: Store, runId: string, groupBy: AccuracyGrouping = 'category') {
  return accuracyTable(store.responses(runId), groupBy);
}

/** Write the self-contained HTML report of a run to DIR/index.html; returns the file's path. */
export async function writeRunReport(store: Store, runId: string, outDir: string): Promise<string> {
  const run = store.getRun(runId);
  if (!run) throw new ConfigError(`no run "${runId}" in ${store.location}`);
  const html = await renderHtmlReport({
    runId,
    createdAt: run.createdAt,
    config: run.config,
    byCategory: runAccuracy(store, runId, 'category'),
    bySuite: runAccuracy(store, runId, 'suite'),
    byAbility: runAccuracy(store, runId, 'ability'),
    usage: store.usage(runId),
    status: store.status(runId),
    failures: store.failures(runId, 50).map((f) => ({ subject: f.subjectId, suite: f.suite, itemId: f.itemId, error: f.error })),
  });
  mkdirSync(outDir, { recursive: true });
  const path = join(outDir, 'index.html');
  writeFileSync(path, html);
  return path;
}

export function runMatrix(store: Store, runId: string, replicate?: number): ResponseMatrix {
  return buildMatrix(store.responses(runId), { replicate });
}

/** Export a run's response matrix; the format follows the extension (.csv or .parquet). */
export function exportMatrix(store: Store, runId: string, path: string, replicate?: number): ResponseMatrix {
  const m = runMatrix(store, runId, replicate);
  if (path.endsWith('.parquet')) writeMatrixParquet(path, m);
  else if (path.endsWith('.csv')) writeMatrixCsv(path, m);
  else throw new ConfigError(`${path}: the output must end in .csv or .parquet`);
  return m;
}
