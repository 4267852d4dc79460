// The psychometric audit of ToM benchmarks (convergent validity, item filter, cross-fit, factor
// structure): its report section and HTML reports. The statistics are the kernel's
// (mindscope/audit).

import { definePlugin } from '../../app/index.js';
import { manifest } from './manifest.js';

export * from './report/audit-report.js';

/** The audit study as a plugin. */
export default definePlugin({ ...manifest });
