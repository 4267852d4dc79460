// EnactToM: embodied multi-agent tasks with epistemic goals, run as episodes in the text world, with literal probes, failure modes and task authoring.

import { definePlugin } from '../../app/index.js';
import { episodeProtocol } from './protocol/episode-protocol.js';
import { manifest } from './manifest.js';
import { ENACTTOM_SUITES } from './suites.js';
import { teamProvider } from './team-model.js';

// The study's API: the episode protocol and its records, the text world and its verifier, the
// task generators and loaders, the analyses, task authoring, and mixed teams.
export * from './protocol/records.js';
export * from './protocol/episode-protocol.js';
export * from './protocol/episode-prompt.js';
export * from './protocol/literal-probes.js';
export * from './protocol/probe-wording.js';
export * from './protocol/reference-teams.js';
export * from './protocol/secrets-revealed.js';
export * from './world/index.js';
export * from './suites/index.js';
export * from './analysis/index.js';
export * from './authoring/task-council.js';
export * from './authoring/embodied-authoring.js';
export * from './authoring/model-calibration.js';
export * from './authoring/author-tools.js';
export * from './authoring/author-prompt.js';
export * from './authoring/author-scene.js';
export * from './authoring/draft-checks.js';
export * from './authoring/seed-pool.js';
export * from './authoring/task-json.js';
export * from './team-model.js';

export * from './report/episode-report.js';
export * from './report/episode-charts.js';

/** The enacttom study as a plugin. */
export default definePlugin({
  ...manifest,
  protocols: [episodeProtocol],
  suites: [...ENACTTOM_SUITES],
  providers: [teamProvider],
});
