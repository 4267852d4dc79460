// The literal ToM benchmarks: the released multiple-choice suites (ToMBench, ToMATO, Hi-ToM, ToMi, BigToM, OpenToM, MMToM-QA, CogToM).

import { definePlugin } from '../../app/index.js';
import { manifest } from './manifest.js';
import { LITERAL_SUITES } from './suites.js';

/** The literal study as a plugin. */
export default definePlugin({
  ...manifest,
  suites: [...LITERAL_SUITES],
});

// The loaders of the released files, and CogToM's field map for the generic loader.
export { loadTomBench, type TomBenchOptions } from './suites/tombench.js';
export { loadTomato } from './suites/tomato.js';
export { loadHitom } from './suites/hitom.js';
export { loadTomi, type TomiSplit } from './suites/tomi.js';
export { loadBigtom } from './suites/bigtom.js';
export { loadOpentom } from './suites/opentom.js';
export { loadMmtomQa } from './suites/mmtom-qa.js';
export { COGTOM_FIELDS } from './suites/cogtom.js';
