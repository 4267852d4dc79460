// A narrow public entry point for commands that read one stored run (report, status, export,
// compare): opening a store, finding the run and writing its HTML report, without loading every
// layer as the root index does (suites, providers, the runner, every analysis). The report's
// sections come from the plugins' manifests: the built-in studies' and those given, without
// loading the studies' suites and protocols. Everything here is exported by the root index too.

import { pluginManifests } from './builtin-studies.js';
import type { RunReportOptions } from './app/write-run-report.js';
import type { Store } from './store/store.js';

export { ConfigError } from './core/errors.js';
export { isPostgresLocation, openStore } from './store/open-store.js';
export { resolveRunId } from './app/resolve-run-id.js';
export type { RunReportOptions } from './app/write-run-report.js';
export { reportFlags } from './app/report-sections.js';
export { pluginManifests } from './builtin-studies.js';

/**
 * Write the self-contained HTML report of a run to DIR/index.html; returns the file's path. Its
 * sections are the built-in studies' unless `manifests` is given (see pluginManifests).
 */
export async function writeRunReport(store: Store, runId: string, outDir: string, opts: RunReportOptions = {}): Promise<string> {
  // Loaded when a report is written: the commands that only open a store and find a run through
  // this entry (status, export, compare) do without the report's page and charts.
  const { writeRunReport: writeReport } = await import('./app/write-run-report.js');
  return writeReport(store, runId, outDir, { ...opts, manifests: opts.manifests ?? pluginManifests() });
}
