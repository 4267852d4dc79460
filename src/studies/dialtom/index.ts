// DialToM: literal (retrospective) and functional (prospective) probes of mind reading in dialogue, item building, written inferences and their analyses.

import { definePlugin } from '../../app/index.js';
import { manifest } from './manifest.js';
import { DIALTOM_SUITES } from './suites.js';

/** The dialtom study as a plugin. */
export default definePlugin({
  ...manifest,
  suites: [...DIALTOM_SUITES],
});
