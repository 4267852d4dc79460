// The StoryTurn suites (CoMMET): the user's stories, and procedural booklet-style ones.

import { manifest } from './manifest.js';
import { defineSuite, type Suite } from '../../suites/index.js';
import { storyTurnProtocol } from './protocol/storyturn-protocol.js';
import { generateStoryTurns } from './suites/storyturn-generator.js';
import { loadStoryTurnSuite, storyTurnItem } from './suites/storyturn-loader.js';

/** The study's suites, in the order `mindscope suites` lists them. */
export const STORYTURN_SUITES: readonly Suite[] = [
  defineSuite({
    id: 'storyturn',
    protocol: storyTurnProtocol,
    ...manifest.suiteSummaries.storyturn,
    load: (o) => loadStoryTurnSuite(o.data),
  }),
  defineSuite({
    id: 'generated-storyturn',
    protocol: storyTurnProtocol,
    ...manifest.suiteSummaries['generated-storyturn'],
    load: (o) => ({
      items: generateStoryTurns({ count: o.count ?? 60, seed: o.seed }).map((s) => storyTurnItem('generated-storyturn', s)),
      warnings: [],
    }),
  }),
];
