// The StoryTurn suites (CoMMET): the user's stories, and procedural booklet-style ones.

import { defineSuite, type Suite } from '../../suites/index.js';
import { storyTurnProtocol } from './protocol/storyturn-protocol.js';
import { generateStoryTurns } from './suites/storyturn-generator.js';
import { loadStoryTurnSuite, storyTurnItem } from './suites/storyturn-loader.js';

/** The study's suites, in the order `mindscope suites` lists them. */
export const STORYTURN_SUITES: readonly Suite[] = [
  defineSuite({
    id: 'storyturn',
    protocol: storyTurnProtocol,
    describe: 'StoryTurn conversations (CoMMET format; JSON/JSONL stories or a CSV/Parquet table of turns; --data FILE); approved items',
    needsData: true,
    load: (o) => loadStoryTurnSuite(o.data),
  }),
  defineSuite({
    id: 'generated-storyturn',
    protocol: storyTurnProtocol,
    describe:
      'procedural booklet-style StoryTurns with feedback branches (belief, perspective with a picture, second-order why, sarcasm, desires; seeded; --limit N, default 60)',
    needsData: false,
    load: (o) => ({
      items: generateStoryTurns({ count: o.count ?? 60, seed: o.seed }).map((s) => storyTurnItem('generated-storyturn', s)),
      warnings: [],
    }),
  }),
];
