// The psychometric audit of ToM benchmarks as a plugin: the `audit` command (its analyses are the
// `mindscope/audit` entry point, which the command uses).

import { definePlugin } from '../../app/index.js';
import { manifest } from './manifest.js';

/** The audit study as a plugin: a command, no suites. */
export default definePlugin({ ...manifest });
