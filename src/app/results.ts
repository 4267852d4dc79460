// Reading results back out of a store: the latest run, accuracy tables, the HTML report and
// the response matrix. The CLI's status, report and export commands wrap these.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  accuracyTable,
  accuracyTableFromCounts,
  auditMatrices,
  countsSuffice,
  summarizeEpisodes,
  type AccuracyGrouping,
} from '../analysis/index.js';
import { ConfigError, describeFileError, refuseOverwrite } from '../core/index.js';
import {
  type IrtRunRow,
  irtRunSection,
  renderAuditSection,
  renderEpisodeFigures,
  renderEpisodeSection,
  renderHtmlReport,
} from '../report/index.js';
import type { ResponseMatrix, ResponseRow, Store } from '../store/index.js';
import { buildMatrixFrom, collect, PROTOCOL_SCORES, writeMatrixCsv, writeMatrixParquet } from '../store/index.js';
import { visionReportSection } from './vision.js';
import { createRegistry, type Registry } from './registry.js';

/**
 * The protocols of a run's suites, by the built-in registry; a suite it does not know (a
 * plugin's) counts as every protocol, so no report section is left out for it.
 */
function runProtocols(suites: string[], registry: Registry = createRegistry()): Set<string> {
  const out = new Set<string>();
  for (const id of new Set(suites)) {
    try {
      out.add(registry.suite(id).protocol);
    } catch {
      return new Set(registry.protocols.map((p) => p.name));
    }
  }
  return out;
}

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

/**
 * Write the self-contained HTML report of a run to DIR/index.html; returns the file's path.
 * With `audit`, a run of two or more suites and three or more subjects gets the psychometric
 * audit of its suites as a section.
 */
export async function writeRunReport(
  store: Store,
  runId: string,
  outDir: string,
  opts: { audit?: boolean; seed?: number; force?: boolean } = {},
): Promise<string> {
  const run = await store.getRun(runId);
  if (!run) throw new ConfigError(`no run "${runId}" in ${store.location}`);
  const path = join(outDir, 'index.html');
  refuseOverwrite(path, opts.force);
  let auditSection: string | undefined;
  if (opts.audit) {
    const suites = await runMatricesBySuite(store, runId);
    if (suites.length < 2 || suites[0]!.matrix.subjects.length < 3) {
      throw new ConfigError(
        `report --audit needs a run with two or more suites and three or more subjects; run ${runId} has ${suites.length} suite(s) and ${suites[0]?.matrix.subjects.length ?? 0} subject(s)`,
      );
    }
    auditSection = await renderAuditSection(await auditMatrices(suites, { seed: opts.seed ?? 0 }));
  }
  // Sections read the store only when the run has suites of their protocols: each read is a pass
  // over every trial of the run.
  const status = await store.status(runId);
  const protocols = runProtocols(status.map((r) => r.suite));
  const episodes = protocols.has('episode') ? await summarizeEpisodes(store, runId) : undefined;
  // The three accuracy tables from counts summed in the store where they suffice (one scored row
  // of 0 or 1 per item and subject), else from one read of the responses.
  const counts = await store.accuracyCounts(runId);
  const tables = countsSuffice(
    counts,
    status.reduce((sum, r) => sum + r.done, 0),
  )
    ? (['category', 'suite', 'ability'] as const).map((g) => accuracyTableFromCounts(counts, g))
    : await (async () => {
        const rows: ResponseRow[] = await collect(store.responses(runId, PROTOCOL_SCORES));
        return (['category', 'suite', 'ability'] as const).map((g) => accuracyTable(rows, g));
      })();
  const visionSection = protocols.has('director') || protocols.has('describe') ? await visionReportSection(store, runId) : undefined;
  const irtRows = run.config.irt ? await store.irtResults(runId) : [];
  const html = await renderHtmlReport({
    irtSection: irtRows.length ? irtRunSection(irtRows.map((r) => r.result as unknown as IrtRunRow)) : undefined,
    visionSection,
    auditSection,
    episodeSection: episodes?.episodes.length
      ? `${await renderEpisodeFigures(episodes.metrics)}\n${renderEpisodeSection(episodes)}`
      : undefined,
    runId,
    createdAt: run.createdAt,
    config: run.config,
    byCategory: tables[0]!,
    bySuite: tables[1]!,
    byAbility: tables[2]!,
    usage: await store.usage(runId),
    status,
    failures: (await store.failures(runId, 50)).map((f) => ({ subject: f.subjectId, suite: f.suite, itemId: f.itemId, error: f.error })),
    provenance: await store.provenance(runId),
  });
  try {
    mkdirSync(outDir, { recursive: true });
    writeFileSync(path, html);
  } catch (err) {
    throw describeFileError(err, path);
  }
  return path;
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
