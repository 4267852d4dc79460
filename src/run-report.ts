// A narrow public entry point for commands that read one stored run (report, status, export,
// compare): opening a store, finding the run and writing its HTML report, without loading every
// layer as the root index does (suites, providers, the runner, every analysis). Everything here
// is exported by the root index too.

export { ConfigError } from './core/errors.js';
export { isPostgresLocation, openStore } from './store/open-store.js';
export { resolveRunId, writeRunReport } from './app/write-run-report.js';
