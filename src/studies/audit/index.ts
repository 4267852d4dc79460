// The psychometric audit of ToM benchmarks as a plugin: the `audit` and `simulate` commands, its
// report section (`report --audit`), its HTML reports and its analyses. The analyses are also
// the `mindscope/audit` entry point, which the command uses alone (an audit of matrix files
// loads no record schema, store or report).

import { definePlugin } from '../../app/index.js';
import { manifest } from './manifest.js';

export * from './analysis/index.js';
export * from './report/audit-report.js';

/** The audit study as a plugin: two commands and a report section, no suites. */
export default definePlugin({ ...manifest });
