// The literal ToM benchmarks: the released multiple-choice suites (ToMBench, ToMATO, Hi-ToM, ToMi, BigToM, OpenToM, MMToM-QA, CogToM).

import { definePlugin } from '../../app/index.js';
import { manifest } from './manifest.js';
import { LITERAL_SUITES } from './suites.js';

/** The literal study as a plugin. */
export default definePlugin({
  ...manifest,
  suites: [...LITERAL_SUITES],
});
