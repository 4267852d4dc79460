// The HTML report of a stored run (`mindscope report`). This file imports only what every report
// needs (the store, the accuracy tables, the page and its charts), file by file rather than
// through the layers' indexes: loading every layer took a third of the report's time on a run of
// 100,000 trials. The sections of particular protocols, the audit and the IRT table load their
// modules when the run has them.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { accuracyTable, accuracyTableFromCounts, countsSuffice } from '../analysis/accuracy.js';
import { ConfigError } from '../core/errors.js';
import { makeDirectory } from '../core/make-directory.js';
import { describeFileError, refuseOverwrite } from '../core/output-files.js';
import { renderHtmlReport } from '../report/html-report.js';
import type { IrtRunRow } from '../report/irt-estimates.js';
import { collect, PROTOCOL_SCORES, type ResponseRow, type Store } from '../store/store.js';
import { defaultPlugins } from './plugin.js';
import { suiteProtocols } from './suite-protocols.js';

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
    const { runMatricesBySuite } = await import('./results.js');
    const suites = await runMatricesBySuite(store, runId);
    if (suites.length < 2 || suites[0]!.matrix.subjects.length < 3) {
      throw new ConfigError(
        `report --audit needs a run with two or more suites and three or more subjects; run ${runId} has ${suites.length} suite(s) and ${suites[0]?.matrix.subjects.length ?? 0} subject(s)`,
      );
    }
    const [{ auditMatrices }, { renderAuditSection }] = await Promise.all([import('../analysis/index.js'), import('../report/index.js')]);
    auditSection = await renderAuditSection(await auditMatrices(suites, { seed: opts.seed ?? 0 }));
  }
  // Sections read the store only when the run has suites of their protocols: each read is a pass
  // over every trial of the run.
  const status = await store.status(runId);
  const protocols = suiteProtocols(
    status.map((r) => r.suite),
    defaultPlugins(),
  );
  const episodes = protocols.has('episode')
    ? await (await import('../studies/enacttom/index.js')).summarizeEpisodes(store, runId)
    : undefined;
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
  const visionSection =
    protocols.has('director') || protocols.has('describe')
      ? await (await import('./vision.js')).visionReportSection(store, runId)
      : undefined;
  const irtRows = run.config.irt ? await store.irtResults(runId) : [];
  const irtSection = irtRows.length
    ? (await import('../report/irt-estimates.js')).irtRunSection(irtRows.map((r) => r.result as unknown as IrtRunRow))
    : undefined;
  const episodeSection = episodes?.episodes.length
    ? await (async () => {
        const { renderEpisodeFigures, renderEpisodeSection } = await import('../report/index.js');
        return `${await renderEpisodeFigures(episodes.metrics)}\n${renderEpisodeSection(episodes)}`;
      })()
    : undefined;
  const html = await renderHtmlReport({
    irtSection,
    visionSection,
    auditSection,
    episodeSection,
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
    makeDirectory(outDir);
    writeFileSync(path, html);
  } catch (err) {
    throw describeFileError(err, path);
  }
  return path;
}
