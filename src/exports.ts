// A narrow public entry point for the run exports (`mindscope export trials`, `export inspect`):
// the exporters alone, without the rest of the app (the runner, scoring, IRT, imports) that the
// app entry loads. Everything here is exported by the root index and the app entry too.

export { exportTrials } from './app/export-trials.js';
export { exportInspectLogs, type InspectExportResult } from './app/inspect-export.js';
