// StoryTurn (CoMMET): multi-turn stories with answer-dependent feedback, judged turn by turn.
// The default export is the plugin; the named exports are the study's API (stories, their
// loader and generator, the protocol and its record schemas, the analyses).

import { definePlugin } from '../../app/index.js';
import { manifest } from './manifest.js';
import { storyTurnProtocol } from './protocol/storyturn-protocol.js';
import { STORYTURN_SUITES } from './suites.js';

export * from './protocol/records.js';
export * from './protocol/storyturn.js';
export * from './protocol/storyturn-protocol.js';
export * from './suites/picture.js';
export * from './suites/storyturn-authoring.js';
export * from './suites/storyturn-file.js';
export * from './suites/storyturn-illustrate.js';
export * from './suites/storyturn-illustration.js';
export * from './suites/storyturn-reviews.js';
export * from './suites/storyturn-generator.js';
export * from './suites/storyturn-loader.js';
export * from './suites/storyturn-stats.js';
export * from './suites/storyturn-writer.js';
export * from './analysis/judge-agreement.js';
export * from './analysis/review-agreement.js';
export * from './analysis/storyturn-metrics.js';

/** The storyturn study as a plugin. */
export default definePlugin({
  ...manifest,
  protocols: [storyTurnProtocol],
  suites: [...STORYTURN_SUITES],
});
