// The HTML report of a stored run (`mindscope report`). This file imports only what every report
// needs (the store, the accuracy tables, the page and its charts), file by file rather than
// through the layers' indexes: loading every layer took a third of the report's time on a run of
// 100,000 trials. The plugins' sections (of particular protocols, or behind a flag such as the
// audit's) and the IRT table load their modules when the run has them.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { accuracyTable, accuracyTableFromCounts, countsSuffice } from '../analysis/accuracy.js';
import { ConfigError } from '../core/errors.js';
import { makeDirectory } from '../core/make-directory.js';
import { describeFileError, refuseOverwrite } from '../core/output-files.js';
import { renderHtmlReport } from '../report/html-report.js';
import type { IrtRunRow } from '../report/irt-estimates.js';
import { collect, PROTOCOL_SCORES, type ResponseRow, type Store } from '../store/store.js';
import { defaultPlugins, type PluginManifest } from './plugin.js';
import { renderSections, reportFlags, shownSections } from './report-sections.js';
import { suiteProtocols } from './suite-protocols.js';

export { resolveRunId } from './resolve-run-id.js';

/** What a run's report is written with. */
export interface RunReportOptions {
  /** The report's flags (`report --audit`): the sections behind each flag set are shown. */
  flags?: Readonly<Record<string, boolean>>;
  /** Seed of the sections' random draws (the audit's bootstrap). */
  seed?: number;
  /** Replace an existing report. */
  force?: boolean;
  /** The plugins whose report sections the report may show (default: the default plugins). */
  manifests?: readonly PluginManifest[];
}

/**
 * Write the self-contained HTML report of a run to DIR/index.html; returns the file's path.
 * Beside the accuracy tables, IRT estimates, cost and provenance, it shows the plugins' report
 * sections of the run's protocols, and those whose flag is set (`audit`: the psychometric audit
 * of a run of two or more suites and three or more subjects).
 */
export async function writeRunReport(store: Store, runId: string, outDir: string, opts: RunReportOptions = {}): Promise<string> {
  const run = await store.getRun(runId);
  if (!run) throw new ConfigError(`no run "${runId}" in ${store.location}`);
  const path = join(outDir, 'index.html');
  refuseOverwrite(path, opts.force);
  const manifests = opts.manifests ?? defaultPlugins();
  const flags = opts.flags ?? {};
  const declared = new Set(reportFlags(manifests).map((f) => f.name));
  for (const [name, on] of Object.entries(flags))
    if (on && !declared.has(name))
      throw new ConfigError(`no report section has the flag "${name}" (the plugins' flags: ${[...declared].join(', ') || 'none'})`);
  // Sections read the store only when the run has suites of their protocols: each read is a pass
  // over every trial of the run.
  const status = await store.status(runId);
  const suites = status.map((r) => r.suite);
  const protocols = suiteProtocols(suites, manifests);
  const sections = await renderSections(shownSections(manifests, protocols, flags), {
    store,
    runId,
    suites: [...new Set(suites)],
    protocols,
    flags,
    seed: opts.seed ?? 0,
  });
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
  const irtRows = run.config.irt ? await store.irtResults(runId) : [];
  const irtSection = irtRows.length
    ? (await import('../report/irt-estimates.js')).irtRunSection(irtRows.map((r) => r.result as unknown as IrtRunRow))
    : undefined;
  const html = await renderHtmlReport({
    irtSection,
    sections,
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
