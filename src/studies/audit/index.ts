// The psychometric audit of ToM benchmarks as a plugin: the `audit` command, its report section
// (`report --audit`) and its HTML reports. Its statistics are the `mindscope/audit` entry point,
// which the command uses alone (an audit of matrix files loads no record schema, store or report).

import { definePlugin } from '../../app/index.js';
import { manifest } from './manifest.js';

export * from './report/audit-report.js';

/** The audit study as a plugin: a command and a report section, no suites. */
export default definePlugin({ ...manifest });
