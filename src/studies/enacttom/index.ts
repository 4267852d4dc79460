// EnactToM: embodied multi-agent tasks with epistemic goals, run as episodes in the text world, with literal probes, failure modes and task authoring.

import { definePlugin } from '../../app/index.js';
import { episodeProtocol } from '../../protocols/index.js';
import { manifest } from './manifest.js';
import { ENACTTOM_SUITES } from './suites.js';

export * from './report/episode-report.js';
export * from './report/episode-charts.js';

/** The enacttom study as a plugin. */
export default definePlugin({
  ...manifest,
  protocols: [episodeProtocol],
  suites: [...ENACTTOM_SUITES],
});
